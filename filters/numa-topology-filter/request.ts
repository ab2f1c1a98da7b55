// Parses a NUMA request from flavor extra specs, as Nova's hardware.numa_get_constraints does for
// `hw:numa_nodes`, `hw:numa_cpus.N` and `hw:numa_mem.N` (upstream: nova/virt/hardware.py).
import { requestedAmount } from '../../src/scheduler/helpers';
import type { RequestSpec } from '../../src/scheduler/plugin-api';

/** What one guest NUMA node needs. */
export interface NodeNeed {
  readonly cpus: number;
  readonly memoryMb: number;
}

/** A parsed NUMA request: the CPU class counted and each guest node's needs. */
export interface NumaRequest {
  /** `PCPU` when the request asks for dedicated CPUs, else `VCPU`. */
  readonly cpuClass: 'VCPU' | 'PCPU';
  readonly nodes: readonly NodeNeed[];
}

/** Extra-spec key of the node count. */
export const NODES_KEY = 'hw:numa_nodes';

/** Number of CPUs in a Nova CPU set spec (`0-3,^2,5`). @throws Error when malformed. */
export function cpuSetSize(spec: string): number {
  const ids = new Set<number>();
  const excluded = new Set<number>();
  for (const raw of spec.split(',')) {
    const part = raw.trim();
    const target = part.startsWith('^') ? excluded : ids;
    const body = part.replace(/^\^/, '');
    const m = /^(\d+)(?:-(\d+))?$/.exec(body);
    if (!m) {
      throw new Error(`invalid CPU set "${spec}"`);
    }
    const lo = Number(m[1]);
    const hi = m[2] === undefined ? lo : Number(m[2]);
    if (hi < lo) {
      throw new Error(`invalid CPU range "${part}"`);
    }
    for (let i = lo; i <= hi; i++) {
      target.add(i);
    }
  }
  return [...ids].filter((i) => !excluded.has(i)).length;
}

function wholeNumber(raw: string, what: string): number {
  if (!/^\d+$/.test(raw.trim())) {
    throw new Error(`${what} must be a whole number, got "${raw}"`);
  }
  return Number(raw.trim());
}

/**
 * The NUMA request of `req`, or `null` when it sets no `hw:numa_nodes`.
 * @throws Error (a reason for every host) when the specs are inconsistent, as Nova's API would.
 */
export function parseNumaRequest(req: RequestSpec): NumaRequest | null {
  const raw = req.extraSpecs[NODES_KEY];
  if (raw === undefined) {
    return null;
  }
  const count = wholeNumber(raw, NODES_KEY);
  if (count < 1) {
    throw new Error(`${NODES_KEY} must be at least 1, got ${count}`);
  }
  const cpuClass = requestedAmount(req, 'PCPU') > 0 ? 'PCPU' : 'VCPU';
  const cpus = requestedAmount(req, cpuClass);
  const memoryMb = requestedAmount(req, 'MEMORY_MB');
  const explicit = Object.keys(req.extraSpecs).some(
    (k) => k.startsWith('hw:numa_cpus.') || k.startsWith('hw:numa_mem.'),
  );
  if (!explicit) {
    if (cpus % count !== 0 || memoryMb % count !== 0) {
      throw new Error(
        `${cpus} CPUs and ${memoryMb} MB cannot be split evenly over ${count} NUMA nodes (ImageNUMATopologyAsymmetric)`,
      );
    }
    return {
      cpuClass,
      nodes: Array.from({ length: count }, () => ({
        cpus: cpus / count,
        memoryMb: memoryMb / count,
      })),
    };
  }
  const nodes: NodeNeed[] = [];
  for (let i = 0; i < count; i++) {
    const cpuSpec = req.extraSpecs[`hw:numa_cpus.${i}`];
    const memSpec = req.extraSpecs[`hw:numa_mem.${i}`];
    if (cpuSpec === undefined || memSpec === undefined) {
      throw new Error(`hw:numa_cpus.${i} and hw:numa_mem.${i} are both required`);
    }
    nodes.push({ cpus: cpuSetSize(cpuSpec), memoryMb: wholeNumber(memSpec, `hw:numa_mem.${i}`) });
  }
  const cpuSum = nodes.reduce((s, n) => s + n.cpus, 0);
  const memSum = nodes.reduce((s, n) => s + n.memoryMb, 0);
  if (cpuSum !== cpus || memSum !== memoryMb) {
    throw new Error(
      `the NUMA nodes add up to ${cpuSum} CPUs and ${memSum} MB, the request asks for ${cpus} and ${memoryMb}`,
    );
  }
  return { cpuClass, nodes };
}
