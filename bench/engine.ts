// Pure in-memory micro-benchmark of the allocation-candidate engine on the dataset shapes of
// shared/bench/README.md (flat / nested hosts, 10 aggregates, 2 sharing storage providers) plus
// hosts with 8 identical PCI children. Run: npx ts-node --transpile-only bench/engine.ts
import { CapacityIndex } from '../src/placement/allocation-candidates/capacity-index';
import { findAllocationCandidates } from '../src/placement/allocation-candidates/find-allocation-candidates';
import type {
  IndexInventoryRow,
  IndexRows,
} from '../src/placement/allocation-candidates/index-rows';
import type {
  CandidateRequest,
  RequestGroup,
} from '../src/placement/allocation-candidates/request';

/** The engine is measured on whole answers: the service's work bounds are not applied here. */
const UNBOUNDED = {
  bounds: { maxResults: Number.POSITIVE_INFINITY, maxExamined: Number.POSITIVE_INFINITY },
};

/** Dataset shapes. */
export type Shape = 'flat' | 'nested' | 'pci8';

/** One timed scenario. */
export interface Scenario {
  readonly name: string;
  readonly shape: Shape;
  readonly hosts: number;
  readonly query: string;
  readonly limit?: number;
  /** Target p50 in ms (from the brief), if any. */
  readonly targetMs?: number;
}

/** Timing and size figures of one scenario. */
export interface ScenarioResult extends Scenario {
  readonly p50: number;
  readonly p95: number;
  readonly max: number;
  readonly allocationRequests: number;
  readonly providerSummaries: number;
}

/** Options of {@link runEngineBench}. */
export interface BenchOptions {
  /** Timed runs per scenario (after `warmup` untimed runs). */
  readonly iterations?: number;
  readonly warmup?: number;
  /** Subset of scenario names; all when omitted. */
  readonly only?: readonly string[];
  readonly log?: (line: string) => void;
}

/** Figures of a whole run. */
export interface BenchReport {
  readonly results: readonly ScenarioResult[];
  /** Index build time per dataset (ms) and resident set size at the end (MiB). */
  readonly buildMs: Readonly<Record<string, number>>;
  readonly rssMiB: number;
}

const agg = (k: number) => `00000000-0000-4000-8000-${String(k).padStart(12, '0')}`;
const inv = (
  providerId: number,
  resourceClass: string,
  total: number,
  ratio = 1,
  reserved = 0,
): IndexInventoryRow => ({
  providerId,
  resourceClass,
  total,
  reserved,
  minUnit: 1,
  maxUnit: total,
  stepSize: 1,
  allocationRatio: ratio,
  used: 0,
});

/** Seeds the rows of a dataset exactly as placement-bench `seed` does (see shared/bench/README.md). */
export function seedRows(shape: Shape, hosts: number, sharing = 2): IndexRows {
  const providers: IndexRows['providers'][number][] = [];
  const inventories: IndexInventoryRow[] = [];
  const traits: IndexRows['traits'][number][] = [];
  const aggregates: IndexRows['aggregates'][number][] = [];
  let id = 0;
  const add = (name: string, parentId: number | null, rootId?: number) => {
    const pid = ++id;
    providers.push({
      id: pid,
      uuid: `uuid-${name}`,
      name,
      generation: 1,
      parentId,
      rootId: rootId ?? pid,
    });
    return pid;
  };
  for (let i = 0; i < hosts; i++) {
    const name = `bench-cn${String(i).padStart(6, '0')}`;
    const root = add(name, null);
    traits.push({ providerId: root, trait: 'HW_CPU_X86_SSE42' });
    if (i % 2 === 0) {
      traits.push({ providerId: root, trait: 'HW_CPU_X86_AVX2' });
    }
    if (i % 10 === 0) {
      traits.push({ providerId: root, trait: 'CUSTOM_GOLD' });
    }
    aggregates.push({ providerId: root, aggregateUuid: agg((i % 10) + 1) });
    if (shape === 'flat') {
      inventories.push(
        inv(root, 'VCPU', 64, 16),
        inv(root, 'MEMORY_MB', 262144, 1.5, 512),
        inv(root, 'DISK_GB', 2000),
      );
    } else if (shape === 'nested') {
      inventories.push(inv(root, 'DISK_GB', 2000));
      for (const n of [0, 1]) {
        const numa = add(`${name}-numa${n}`, root, root);
        traits.push({ providerId: numa, trait: 'HW_NUMA_ROOT' });
        inventories.push(inv(numa, 'VCPU', 32, 16), inv(numa, 'MEMORY_MB', 131072, 1.5, 256));
      }
    } else {
      inventories.push(
        inv(root, 'VCPU', 64, 16),
        inv(root, 'MEMORY_MB', 262144, 1.5, 512),
        inv(root, 'DISK_GB', 2000),
      );
      for (let c = 0; c < 8; c++) {
        const pci = add(`${name}-pci${c}`, root, root);
        inventories.push(inv(pci, 'PCI_DEVICE', 1));
      }
    }
  }
  for (let k = 1; k <= sharing; k++) {
    const ss = add(`bench-shared-storage${k}`, null);
    inventories.push(inv(ss, 'DISK_GB', 100000));
    traits.push({ providerId: ss, trait: 'MISC_SHARES_VIA_AGGREGATE' });
    aggregates.push({ providerId: ss, aggregateUuid: agg(k) });
  }
  return { providers, inventories, traits, aggregates };
}

function group(
  suffix: string,
  resources: Record<string, number>,
  extra: Partial<RequestGroup> = {},
): RequestGroup {
  return {
    suffix,
    resources,
    requiredTraits: [],
    forbiddenTraits: [],
    memberOf: [],
    forbiddenAggregates: [],
    ...extra,
  };
}

const PLAIN = { VCPU: 2, MEMORY_MB: 4096, DISK_GB: 20 };

/** The placement-bench `candidates` queries, plus the 8-PCI one. */
export const QUERIES: Readonly<Record<string, CandidateRequest>> = {
  plain: { groups: [group('', PLAIN)] },
  'required-trait': { groups: [group('', PLAIN, { requiredTraits: [['HW_CPU_X86_AVX2']] })] },
  'forbidden-trait': { groups: [group('', PLAIN, { forbiddenTraits: ['CUSTOM_GOLD'] })] },
  'member-of-any': { groups: [group('', PLAIN, { memberOf: [[agg(1), agg(2)]] })] },
  'member-of-forbidden': { groups: [group('', PLAIN, { forbiddenAggregates: [agg(3)] })] },
  'limit-10': { groups: [group('', PLAIN)], limit: 10 },
  'granular-isolate': {
    groups: [group('1', { VCPU: 2, MEMORY_MB: 4096 }), group('2', { DISK_GB: 20 })],
    groupPolicy: 'isolate',
  },
  'granular-2numa': {
    groups: [
      group('', { DISK_GB: 20 }),
      group('1', { VCPU: 2, MEMORY_MB: 2048 }),
      group('2', { VCPU: 2, MEMORY_MB: 2048 }),
    ],
    groupPolicy: 'isolate',
  },
  'root-required': { groups: [group('', PLAIN)], rootRequired: [['CUSTOM_GOLD']] },
  'pci-8-isolate': {
    groups: [
      group('', PLAIN),
      ...Array.from({ length: 8 }, (_, i) => group(`_PCI${i}`, { PCI_DEVICE: 1 })),
    ],
    groupPolicy: 'isolate',
  },
};

/** The scenarios with the brief's targets, then every README query on each dataset. */
export const SCENARIOS: readonly Scenario[] = [
  { name: 'flat-5k-full', shape: 'flat', hosts: 5000, query: 'plain', targetMs: 45 },
  {
    name: 'nested-10k-limit1000',
    shape: 'nested',
    hosts: 10000,
    query: 'plain',
    limit: 1000,
    targetMs: 25,
  },
  {
    name: 'nested-10k-limit10',
    shape: 'nested',
    hosts: 10000,
    query: 'plain',
    limit: 10,
    targetMs: 5,
  },
  {
    name: 'flat-100k-limit1000',
    shape: 'flat',
    hosts: 100000,
    query: 'plain',
    limit: 1000,
    targetMs: 100,
  },
  {
    name: 'pci8-1k-limit1000',
    shape: 'pci8',
    hosts: 1000,
    query: 'pci-8-isolate',
    limit: 1000,
    targetMs: 100,
  },
  ...['flat', 'nested'].flatMap((shape) =>
    Object.keys(QUERIES)
      .filter((q) => q !== 'pci-8-isolate')
      .map((q) => ({ name: `${shape}-5k-${q}`, shape: shape as Shape, hosts: 5000, query: q })),
  ),
];

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Runs the scenarios and returns the figures (also logged line by line). */
export function runEngineBench(opts: BenchOptions = {}): BenchReport {
  const iterations = opts.iterations ?? 30;
  const warmup = opts.warmup ?? 3;
  const log = opts.log ?? (() => {});
  const indexes = new Map<string, CapacityIndex>();
  const buildMs: Record<string, number> = {};
  const results: ScenarioResult[] = [];
  for (const s of SCENARIOS.filter((x) => !opts.only || opts.only.includes(x.name))) {
    const key = `${s.shape}-${s.hosts}`;
    let index = indexes.get(key);
    if (!index) {
      const rows = seedRows(s.shape, s.hosts);
      const t0 = performance.now();
      index = CapacityIndex.fromRows(rows);
      index.rootOrder();
      buildMs[key] = Math.round(performance.now() - t0);
      indexes.set(key, index);
    }
    const req = { ...QUERIES[s.query]!, ...(s.limit ? { limit: s.limit } : {}) };
    let last = findAllocationCandidates(index, req, UNBOUNDED);
    for (let i = 1; i < warmup; i++) {
      findAllocationCandidates(index, req, UNBOUNDED);
    }
    const times: number[] = [];
    for (let i = 0; i < iterations; i++) {
      const t0 = performance.now();
      last = findAllocationCandidates(index, req, UNBOUNDED);
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    const r: ScenarioResult = {
      ...s,
      p50: percentile(times, 50),
      p95: percentile(times, 95),
      max: times.at(-1)!,
      allocationRequests: last.allocationRequests.length,
      providerSummaries: last.providerSummaries.length,
    };
    results.push(r);
    const target = s.targetMs
      ? ` (target p50 <= ${s.targetMs} ms: ${r.p50 <= s.targetMs ? 'ok' : 'MISSED'})`
      : '';
    log(
      `${s.name.padEnd(30)} p50 ${r.p50.toFixed(2).padStart(7)} p95 ${r.p95.toFixed(2).padStart(7)} max ${r.max.toFixed(2).padStart(7)} ms` +
        `  requests ${String(r.allocationRequests).padStart(6)} summaries ${String(r.providerSummaries).padStart(6)}${target}`,
    );
  }
  const rssMiB = Math.round(process.memoryUsage().rss / 2 ** 20);
  log(`index build ms: ${JSON.stringify(buildMs)}  rss ${rssMiB} MiB`);
  return { results, buildMs, rssMiB };
}

if (require.main === module) {
  const only = process.argv.slice(2);
  runEngineBench({ only: only.length > 0 ? only : undefined, log: (l) => console.log(l) });
}
