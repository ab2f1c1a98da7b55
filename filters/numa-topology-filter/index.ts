// NUMATopologyFilter: with `hw:numa_nodes=N` (and optionally `hw:numa_cpus.X` / `hw:numa_mem.X`),
// a host passes when N distinct NUMA cells of its tree each have free capacity for one guest
// node's CPUs and memory (upstream: nova/scheduler/filters/numa_topology_filter.py, fit from
// nova/virt/hardware.py numa_fit_instance_to_host). berth's NUMA cells are the providers with the
// trait `HW_NUMA_ROOT` (as Nova reports them to Placement); in a tree without that trait, the
// root's children with VCPU, PCPU or MEMORY_MB inventory. A cell's free capacity is summed over
// the cell and its descendants. A host with no cell does not fit a NUMA request.
import { configKeys, pluginConfig } from '../../src/scheduler/helpers';
import type {
  FilterFactory,
  HostView,
  ProviderView,
  Verdict,
} from '../../src/scheduler/plugin-api';
import { type NodeNeed, type NumaRequest, parseNumaRequest } from './request';

/** Nova-compatible name, as written in `enabledFilters`. */
export const NAME = 'NUMATopologyFilter';
/** Plugin kind. */
export const kind = 'filter';
const CONFIG = pluginConfig({});
/** The configuration schema: empty (any key stops start-up). */
export const configSchema = () => CONFIG;
/** Takes no configuration: any key given for it stops start-up. */
export const CONFIG_KEYS = configKeys(CONFIG);

/** The trait marking a NUMA cell provider (os-traits). */
export const NUMA_TRAIT = 'HW_NUMA_ROOT';
/** Rejection: the extra specs do not describe a valid NUMA topology. */
export const REASON_INVALID_REQUEST = 'invalid NUMA request';
/** Rejection: the host has fewer NUMA cells than guest nodes. */
export const REASON_TOO_FEW_CELLS = 'host has too few NUMA cells';
/** Rejection: the cells exist but cannot hold the guest nodes. */
export const REASON_NO_FIT = 'guest NUMA nodes do not fit the host cells';
/** Reason code of {@link REASON_INVALID_REQUEST}. */
export const CODE_INVALID_REQUEST = 'numa_topology.invalid_request';
/** Reason code of {@link REASON_TOO_FEW_CELLS}. */
export const CODE_TOO_FEW_CELLS = 'numa_topology.too_few_cells';
/** Reason code of {@link REASON_NO_FIT}. */
export const CODE_NO_FIT = 'numa_topology.no_fit';

type State = { readonly request: NumaRequest } | { readonly error: string } | null;

const CELL_CLASSES = ['VCPU', 'PCPU', 'MEMORY_MB'];

/** The host's NUMA cell providers (see the header). */
export function numaCells(host: HostView): ProviderView[] {
  const marked = host.providers.filter(
    (p) => p.parentUuid !== null && p.traits.includes(NUMA_TRAIT),
  );
  if (marked.length > 0) {
    return marked;
  }
  return host.providers.filter(
    (p) => p.parentUuid === host.uuid && CELL_CLASSES.some((rc) => p.inventories[rc] !== undefined),
  );
}

/** Free units of one class on one provider (Placement's capacity minus usage). */
function providerFree(p: ProviderView, resourceClass: string): number {
  const inv = p.inventories[resourceClass];
  return inv === undefined ? 0 : inv.capacity - inv.used;
}

/** Free CPUs and memory per cell, each summed over the cell's subtree. */
function cellFree(host: HostView, cells: readonly ProviderView[], cpuClass: string): NodeNeed[] {
  const cellOf = new Map<string, number>(cells.map((c, i) => [c.uuid, i]));
  const free = cells.map(() => ({ cpus: 0, memoryMb: 0 }));
  for (const p of host.providers) {
    const cell =
      cellOf.get(p.uuid) ?? (p.parentUuid === null ? undefined : cellOf.get(p.parentUuid));
    if (cell === undefined) {
      continue;
    }
    cellOf.set(p.uuid, cell);
    free[cell]!.cpus += providerFree(p, cpuClass);
    free[cell]!.memoryMb += providerFree(p, 'MEMORY_MB');
  }
  return free;
}

/** Whether each guest node can take a distinct cell (backtracking; N and cells are small). */
function fits(
  nodes: readonly NodeNeed[],
  free: readonly NodeNeed[],
  used: boolean[],
  i = 0,
): boolean {
  if (i === nodes.length) {
    return true;
  }
  const need = nodes[i]!;
  for (let c = 0; c < free.length; c++) {
    if (!used[c] && free[c]!.cpus >= need.cpus && free[c]!.memoryMb >= need.memoryMb) {
      used[c] = true;
      if (fits(nodes, free, used, i + 1)) {
        return true;
      }
      used[c] = false;
    }
  }
  return false;
}

function judge(host: HostView, { cpuClass, nodes }: NumaRequest): Verdict {
  const cells = numaCells(host);
  if (cells.length < nodes.length) {
    return {
      fits: false,
      reason: `${REASON_TOO_FEW_CELLS}: wanted ${nodes.length}, found ${cells.length}`,
      code: CODE_TOO_FEW_CELLS,
    };
  }
  const free = cellFree(host, cells, cpuClass);
  if (fits(nodes, free, [])) {
    return { fits: true };
  }
  const wanted = nodes.map((n) => `${n.cpus} ${cpuClass}/${n.memoryMb} MB`).join(', ');
  const found = free.map((f) => `${f.cpus} ${cpuClass}/${f.memoryMb} MB`).join(', ');
  return {
    fits: false,
    reason: `${REASON_NO_FIT}: wanted ${wanted}, cells free ${found}`,
    code: CODE_NO_FIT,
  };
}

/** Creates the filter; it takes no configuration. */
export const create: FilterFactory<State> = () => ({
  name: NAME,
  kind,
  onError: 'closed',
  prepare(req) {
    try {
      const request = parseNumaRequest(req);
      return request === null ? null : { request };
    } catch (err) {
      return { error: (err as Error).message };
    }
  },
  filter(host, _req, state) {
    if (state === null) {
      return { fits: true };
    }
    if ('error' in state) {
      return {
        fits: false,
        reason: `${REASON_INVALID_REQUEST}: ${state.error}`,
        code: CODE_INVALID_REQUEST,
      };
    }
    return judge(host, state.request);
  },
});
