// NUMA capacity of a legacy Nova compute node from `compute_nodes.numa_topology` (seed 001, step
// 4d: total = all cells combined, min_unit 1, max_unit = what one cell has; upstream:
// nova/objects/numa.py NUMATopology/NUMACell, nova/virt/hardware.py parse_cpu_spec). Pure.
import { LegacyDataError, novaObjectData, parseJsonColumn } from './legacy-pci';

/** What one NUMA cell offers. */
export interface NumaCell {
  readonly cores: number;
  readonly threads: number;
  readonly memoryMb: number;
}

/** One NUMA inventory line before defaults (min_unit 1, step 1, ratio 1). */
export interface NumaInventory {
  readonly resourceClass: string;
  readonly total: number;
  readonly maxUnit: number;
}

/** Every class this module can produce. */
export const NUMA_CLASSES: readonly string[] = [
  'NUMA_SOCKET',
  'NUMA_CORE',
  'NUMA_THREAD',
  'NUMA_MEMORY_MB',
];

/**
 * Parses a Nova CPU spec such as "0-3,8-11,^2" (legacy cells store cpus as text).
 * @throws LegacyDataError on anything else.
 */
export function parseCpuSpec(spec: string): Set<number> {
  const include = new Set<number>();
  const exclude = new Set<number>();
  for (const part of spec.split(',').map((p) => p.trim())) {
    if (part === '') {
      continue;
    }
    const m = /^(\^)?(\d+)(?:-(\d+))?$/.exec(part);
    if (!m) {
      throw new LegacyDataError(`numa_topology has a bad CPU range '${part}'`);
    }
    const from = Number(m[2]);
    const to = m[3] === undefined ? from : Number(m[3]);
    if (to < from) {
      throw new LegacyDataError(`numa_topology has a bad CPU range '${part}'`);
    }
    for (let cpu = from; cpu <= to; cpu++) {
      (m[1] ? exclude : include).add(cpu);
    }
  }
  for (const cpu of exclude) {
    include.delete(cpu);
  }
  return include;
}

function cpuSet(v: unknown): Set<number> {
  if (v === undefined || v === null) {
    return new Set();
  }
  if (typeof v === 'string') {
    return parseCpuSpec(v);
  }
  if (Array.isArray(v) && v.every((c) => Number.isInteger(c))) {
    return new Set(v as number[]);
  }
  throw new LegacyDataError('numa_topology has a cell whose CPU set is not a list or range');
}

function cellOf(raw: unknown): NumaCell {
  const c = novaObjectData(raw) as Record<string, unknown> | null;
  if (c === null || typeof c !== 'object') {
    throw new LegacyDataError('numa_topology has a cell that is not an object');
  }
  // Newer cells split dedicated CPUs into pcpuset; older ones spell the set `cpus`.
  const threads = new Set([...cpuSet(c.cpuset ?? c.cpus), ...cpuSet(c.pcpuset)]);
  const memory = c.memory ?? (c.mem as { total?: unknown } | undefined)?.total ?? 0;
  if (!Number.isInteger(memory) || Number(memory) < 0) {
    throw new LegacyDataError(
      'numa_topology has a cell whose memory is not a non-negative integer',
    );
  }
  // A core is a set of thread siblings; threads listed in no sibling set are cores of their own.
  const siblings = Array.isArray(c.siblings) ? c.siblings : [];
  let cores = 0;
  const covered = new Set<number>();
  for (const group of siblings) {
    const members = [...cpuSet(group)].filter((t) => threads.has(t) && !covered.has(t));
    if (members.length > 0) {
      cores += 1;
      for (const t of members) {
        covered.add(t);
      }
    }
  }
  cores += [...threads].filter((t) => !covered.has(t)).length;
  return { cores, threads: threads.size, memoryMb: Number(memory) };
}

/**
 * The cells of a numa_topology value (NUMATopology versioned object, or {"cells": [...]}).
 * @throws LegacyDataError when the value cannot be read.
 */
export function numaCells(raw: unknown): NumaCell[] {
  const topo = novaObjectData(parseJsonColumn('numa_topology', raw));
  if (topo === null) {
    return [];
  }
  const cells = (topo as { cells?: unknown }).cells;
  if (typeof topo !== 'object' || !Array.isArray(cells)) {
    throw new LegacyDataError('numa_topology has no list of cells');
  }
  return cells.map(cellOf);
}

/**
 * NUMA inventories per the seed: total = combined, max_unit = the largest single cell (one
 * socket per cell). Classes with nothing to offer are left out.
 */
export function numaInventories(cells: readonly NumaCell[]): NumaInventory[] {
  if (cells.length === 0) {
    return [];
  }
  const line = (resourceClass: string, per: (c: NumaCell) => number): NumaInventory => ({
    resourceClass,
    total: cells.reduce((sum, c) => sum + per(c), 0),
    maxUnit: Math.max(...cells.map(per)),
  });
  return [
    line('NUMA_SOCKET', () => 1),
    line('NUMA_CORE', (c) => c.cores),
    line('NUMA_THREAD', (c) => c.threads),
    line('NUMA_MEMORY_MB', (c) => c.memoryMb),
  ].filter((l) => l.total > 0);
}
