// Headroom's view of the scheduler's filters: a profile's host filters run without its
// pre-candidate hooks (the request is amended once, before counting) over host views whose usage
// is raised by instances not placed anywhere — "would this host still take one more if it
// already held j more?" — so a flavor costs a few filter runs, not one per instance.
import type {
  AllocationRequestView,
  HostView,
  InventoryView,
  RequestSpec,
} from '../scheduler/plugin-api';
import { isHostFilter } from '../scheduler/runtime/filter-stage';
import { createPipeline, type Pipeline } from '../scheduler/runtime/pipeline';

/** A profile's host filters alone, and its filters and weighers without the pre-candidate hooks. */
export interface ProbePipelines {
  /** Host filters only: no amendment, no weighers. */
  readonly filters: Pipeline;
  /** Host filters and weighers (the profile's ranking), no amendment; the best host first. */
  readonly ranked: Pipeline;
}

const built = new WeakMap<Pipeline, ProbePipelines>();

/** The probe pipelines of `pipeline` (built once per pipeline). */
export function probePipelines(pipeline: Pipeline): ProbePipelines {
  let out = built.get(pipeline);
  if (!out) {
    // Each host filter as it is, minus its pre-candidate hook (the request is already amended).
    const filters = pipeline.filters.filter(isHostFilter).map(
      (f) =>
        Object.create(f, {
          amendRequest: { value: undefined, enumerable: true },
        }) as typeof f,
    );
    out = {
      filters: createPipeline({ filters, weighers: [] }),
      ranked: createPipeline({ filters, weighers: pipeline.weighers }),
    };
    built.set(pipeline, out);
  }
  return out;
}

/** A host judged at one usage level: it passed, or the code of the first filter that refused it. */
export type ProbeVerdict =
  | { readonly fits: true }
  | { readonly fits: false; readonly code: string };

/**
 * Runs the host filters of `p` over `hosts` for `spec`: per host uuid, whether it passed or the
 * reason code of the filter that refused it.
 */
export async function probe(
  p: ProbePipelines,
  spec: RequestSpec,
  hosts: readonly HostView[],
): Promise<Map<string, ProbeVerdict>> {
  const out = new Map<string, ProbeVerdict>();
  if (hosts.length === 0) {
    return out;
  }
  const evaluation = await p.filters.evaluate(spec, {
    aggregates: () => [],
    hosts: async () => hosts,
  });
  for (const h of evaluation.survivors) {
    out.set(h.uuid, { fits: true });
  }
  for (const step of evaluation.explanation.filters) {
    for (const r of step.rejections) {
      out.set(r.host, { fits: false, code: r.code });
    }
  }
  return out;
}

/**
 * `base` as it would look holding `n` more instances, each taking `per` (provider uuid -> class
 * -> amount): usage raised on those providers, `numInstances` + n, and `allocationRequests` the
 * engine's offer for the next one.
 */
export function raisedView(
  base: HostView,
  per: Readonly<Record<string, Readonly<Record<string, number>>>>,
  n: number,
  next: readonly AllocationRequestView[] = base.allocationRequests,
): HostView {
  if (n === 0 && next === base.allocationRequests) {
    return base;
  }
  const providers = base.providers.map((p) => {
    const add = per[p.uuid];
    if (!add || n === 0) {
      return p;
    }
    const inventories: Record<string, InventoryView> = { ...p.inventories };
    for (const [rc, amount] of Object.entries(add)) {
      const inv = inventories[rc];
      if (inv) {
        inventories[rc] = { ...inv, used: inv.used + n * amount };
      }
    }
    return { ...p, inventories };
  });
  return {
    ...base,
    root: providers[0]!,
    providers,
    numInstances: base.numInstances + n,
    allocationRequests: next,
  };
}
