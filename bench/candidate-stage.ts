// "Why no allocation candidates?" at 10,000 hosts: the candidate-stage explanation from the
// capacity index alone (what the REST extension adds to an answer), and explainPlacement
// through GraphQL with the default filters (target p50 ≤ 20 ms for a zero-candidate request).
import { explainCandidateStage } from '../src/placement/allocation-candidates/candidate-stage';
import { CapacityIndex } from '../src/placement/allocation-candidates/capacity-index';
import { findAllocationCandidates } from '../src/placement/allocation-candidates/find-allocation-candidates';
import type { CandidateRequest } from '../src/placement/allocation-candidates/request';
import type { BenchApp } from './bench-app';
import { seedRows } from './engine';
import { timeGraphQL } from './graphql-timing';
import { fmt, pct } from './http/client';

/** The zero-candidate request operators meet: more memory than any host has, on a gold host. */
const NOTHING_FITS: CandidateRequest = {
  groups: [
    {
      suffix: '',
      resources: { VCPU: 16, MEMORY_MB: 600_000 },
      requiredTraits: [['CUSTOM_GOLD']],
      forbiddenTraits: [],
      memberOf: [],
      forbiddenAggregates: [],
    },
  ],
};

/** A granular group no NUMA cell can take alone (two cells could). */
const NUMA_TOO_SMALL: CandidateRequest = {
  groups: [
    {
      suffix: '1',
      resources: { VCPU: 8, MEMORY_MB: 200_000 },
      requiredTraits: [['HW_NUMA_ROOT']],
      forbiddenTraits: [],
      memberOf: [],
      forbiddenAggregates: [],
    },
  ],
};

function time(n: number, fn: () => void): number[] {
  fn();
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    fn();
    out.push(performance.now() - t);
  }
  return out;
}

/** Index-only figures: the explanation of zero-candidate requests, alone and after the engine's answer. */
export function runCandidateStageEngineBench(
  hosts: number,
  iterations: number,
  log: (line: string) => void,
): void {
  for (const [shape, req, what] of [
    ['flat', NOTHING_FITS, 'VCPU:16,MEMORY_MB:600000 + CUSTOM_GOLD'],
    ['nested', NUMA_TOO_SMALL, 'resources1=VCPU:8,MEMORY_MB:200000 on one NUMA cell'],
  ] as const) {
    const index = CapacityIndex.fromRows(seedRows(shape, hosts));
    const found = findAllocationCandidates(index, req).allocationRequests.length;
    let blocking = '';
    const alone = time(iterations, () => {
      const stage = explainCandidateStage(index, req, { hostsWithCandidates: found });
      blocking = stage.blocking.map((b) => b.label).join('; ');
    });
    // What the REST extension adds up to: the engine's (empty) answer, then the explanation.
    const withEngine = time(iterations, () => {
      const answer = findAllocationCandidates(index, req);
      explainCandidateStage(index, req, { hostsWithCandidates: answer.allocationRequests.length });
    });
    const line = (label: string, times: number[], tail: string) =>
      log(
        `${label.padEnd(42)} p50 ${fmt(pct(times, 50), 8)} ms  p95 ${fmt(pct(times, 95), 8)} ms  max ${fmt(Math.max(...times), 8)} ms  ${tail}`,
      );
    line(
      `explain candidates, ${hosts} ${shape}`,
      alone,
      `${what} -> blocking: ${blocking}  (target p50 ≤ 20 ms)`,
    );
    line(`  + the engine's answer first (REST)`, withEngine, `${found} candidates`);
  }
}

const EXPLAIN = `query($i: ScheduleInput!) { explainPlacement(input: $i) {
  selections { reason }
  candidateStage { hostsTotal blocking { label } closestMisses { host { name } misses { message } } }
} }`;

/** explainPlacement of the zero-candidate request through GraphQL on a seeded app. */
export async function timeExplainPlacement(app: BenchApp, hosts: number, n: number) {
  const variables = {
    i: {
      consumerUuids: ['00000000-0000-4000-8000-00000000e001'],
      projectId: 'bench',
      userId: 'bench',
      request: {
        groups: [
          {
            resources: [
              { resourceClass: 'VCPU', amount: 16 },
              { resourceClass: 'MEMORY_MB', amount: 600_000 },
            ],
            required: ['CUSTOM_GOLD'],
          },
        ],
      },
    },
  };
  const size = (data: Record<string, unknown>) => {
    const e = data.explainPlacement as {
      candidateStage: { hostsTotal: number; closestMisses: unknown[] };
    };
    return `hosts ${e.candidateStage.hostsTotal}, closest misses ${e.candidateStage.closestMisses.length}`;
  };
  await timeGraphQL(
    app,
    `GraphQL explainPlacement, ${hosts} flat, no candidates`,
    { query: EXPLAIN, variables, size },
    n,
    20,
  );
}
