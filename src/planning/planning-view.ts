// Capacity planning: headroom per flavor, what-if simulation of traces under any pipeline, and
// drain plans. This folder owns them; everything in it runs on a PlanningView — a private
// copy-on-write overlay of this replica's live capacity index (src/placement/allocation-candidates/
// index-overlay.ts) with its own host-view cache — and never writes to the database, the live
// index or the live caches (a drain plan's optional reservation goes through the claim service,
// like any `schedule`). Requests are evaluated exactly as `schedule` evaluates them: the same
// request spec, the same pipeline (amend, candidates from the engine, filters, weighers, rank),
// the host the claim would take (the best-ranked host's first allocation request).

import type { PlanningFlavorSetting } from '../config/planning';
import type { CandidateService } from '../placement/allocation-candidates/candidate-service';
import type { CandidateStage } from '../placement/allocation-candidates/candidate-stage';
import type { CapacityIndex } from '../placement/allocation-candidates/capacity-index';
import {
  type CandidateBounds,
  findAllocationCandidates,
} from '../placement/allocation-candidates/find-allocation-candidates';
import {
  applyOverlay,
  type IndexOverlay,
  type OverlayAllocations,
  overlayIndex,
} from '../placement/allocation-candidates/index-overlay';
import type { AggregateMetadataCache, AggregateWithMetadata } from '../placement/host-rows';
import { explainEvaluated, type RequestEvaluation } from '../scheduler/evaluated';
import { requestsByTree } from '../scheduler/host-requests';
import type { AllocationRequestView, HostView } from '../scheduler/plugin-api';
import {
  type InstanceHostLookup,
  requestSpecOf,
  type ServerGroupLookup,
} from '../scheduler/request-spec';
import type { ChosenPipeline } from '../scheduler/runtime/pipeline-set';
import type { ScheduleRequest } from '../scheduler/schedule-types';
import type { HostViewCache } from '../scheduler/state/host-view-cache';

/** What a planning view reads from the running replica (built once by src/app/scheduling.ts). */
export interface PlanningDeps {
  readonly candidates: CandidateService;
  readonly aggregates: AggregateMetadataCache;
  /** The scheduler's host-view cache: a view starts with its entries. */
  readonly hostViews: HostViewCache;
  /** Hosts of the instances scheduler hints name. */
  readonly instanceHosts: InstanceHostLookup;
  /** Server groups named by the `group` hint. */
  readonly serverGroups?: ServerGroupLookup;
  /** The engine's bounds on one request's work. */
  readonly bounds?: CandidateBounds;
  /** The flavors headroom counts when a caller names none (BERTH_PLANNING_FLAVORS). */
  readonly flavors?: readonly PlanningFlavorSetting[];
}

/** One consumer's allocations applied to a view (placed: +1, released: -1). */
interface Applied {
  readonly consumerUuid: string;
  readonly consumerId: number;
  readonly allocations: OverlayAllocations;
  readonly sign: 1 | -1;
  readonly host: string;
  readonly group: string | undefined;
}

/** A private, writable view of the cloud as it is now (see the folder's paragraph above). */
export class PlanningView {
  private overlay: IndexOverlay;
  private views: HostViewCache;
  private readonly log: Applied[] = [];
  private nextId = -1;
  /** Times the view was made again because the live providers changed under it. */
  rebases = 0;

  private constructor(
    private readonly deps: PlanningDeps,
    private live: CapacityIndex,
    private aggregateList: readonly AggregateWithMetadata[],
  ) {
    this.overlay = overlayIndex(live);
    this.views = deps.hostViews.forkFor(live, this.overlay.index, aggregateList);
  }

  /** A view of the cloud as this replica knows it now (every change heard so far applied). */
  static async open(deps: PlanningDeps): Promise<PlanningView> {
    const [live, aggregates] = await Promise.all([
      deps.candidates.current(),
      deps.aggregates.all(),
    ]);
    return new PlanningView(deps, live, aggregates);
  }

  /** The index the engine reads: the live one with this view's placements and releases. */
  get index(): CapacityIndex {
    return this.overlay.index;
  }

  /** Aggregates with their names and metadata, as of when the view was made. */
  get aggregates(): readonly AggregateWithMetadata[] {
    return this.aggregateList;
  }

  /**
   * Evaluates `req` as `schedule` would on this view: request spec (server group and instance
   * hosts include this view's placements), amendments, candidates from the overlay, host views,
   * filters, weighers and the ranking.
   */
  async evaluate(req: ScheduleRequest, chosen: ChosenPipeline): Promise<RequestEvaluation> {
    await this.ensureCurrent();
    const spec = await requestSpecOf(req, this.instanceHostsLookup, this.groupLookup());
    let candidateRequest: RequestEvaluation['candidateRequest'];
    const evaluation = await chosen.pipeline.evaluate(spec, {
      aggregates: () => this.aggregateList.filter((a) => Object.keys(a.metadata).length > 0),
      hosts: async (amended) => {
        candidateRequest = amended.candidateRequest;
        return this.hostViews(amended.candidateRequest);
      },
    });
    const result = chosen.pipeline.rank(evaluation);
    return {
      explanation: { ...result.explanation, profile: chosen.profile },
      ranking: [...result.hosts],
      spec,
      ...(candidateRequest ? { candidateRequest } : {}),
    };
  }

  /**
   * How the candidate query narrowed the hosts for `evaluated` on this view, when no host had
   * candidates (what a failure is explained with); null otherwise.
   */
  candidateStage(evaluated: RequestEvaluation): CandidateStage | null {
    return evaluated.explanation.hostsIn === 0
      ? explainEvaluated(this.index, this.aggregateList, evaluated)
      : null;
  }

  /** Host views (with their allocation requests) of the candidates for `request` on this view. */
  hostViews(request: ScheduleRequest['request']): HostView[] {
    const found = findAllocationCandidates(this.index, request, {
      ...(this.deps.bounds ? { bounds: this.deps.bounds } : {}),
    });
    const requests = requestsByTree(found);
    return requests.size === 0 ? [] : this.views.views(this.index, this.aggregateList, requests);
  }

  /**
   * Host views of the trees keying `requests` (root uuid -> their allocation requests), as this
   * view sees them. While nothing was placed on or released from the view and the live index has
   * not changed since the view was made, they come from the scheduler's own host-view cache
   * (the same views, kept from one planning question to the next); else from the view's own.
   */
  viewsOf(requests: ReadonlyMap<string, readonly AllocationRequestView[]>): HostView[] {
    if (requests.size === 0) {
      return [];
    }
    const live = this.unchangedLive();
    return live
      ? this.deps.hostViews.views(live, this.aggregateList, requests)
      : this.views.views(this.index, this.aggregateList, requests);
  }

  /**
   * The live index when this view still stands for it exactly (nothing placed on or released
   * from the view, no change heard since it was made), else undefined: what answers about the
   * live cloud may be kept for.
   */
  unchangedLive(): CapacityIndex | undefined {
    return this.log.length === 0 && this.live.version === this.overlay.index.version
      ? this.live
      : undefined;
  }

  /**
   * Places a (simulated) consumer's allocations on `host`; it then counts in usage, in the host's
   * instances and, with `group`, as a member of that server group on that host.
   */
  place(consumerUuid: string, host: string, allocations: OverlayAllocations, group?: string): void {
    this.apply({
      consumerUuid,
      consumerId: this.nextId--,
      allocations,
      sign: 1,
      host,
      group,
    });
  }

  /**
   * Releases allocations from this view: a consumer placed on it, or a real consumer (its id in
   * the consumers table, as the index counts it) whose allocations `allocations` are.
   */
  release(
    consumerUuid: string,
    host: string,
    allocations: OverlayAllocations,
    consumerId?: number,
  ): void {
    const placed = this.log.findLast((a) => a.consumerUuid === consumerUuid && a.sign === 1);
    const id = consumerId ?? placed?.consumerId;
    if (id === undefined) {
      throw new Error(`planning view: consumer ${consumerUuid} was not placed on it`);
    }
    this.apply({ consumerUuid, consumerId: id, allocations, sign: -1, host, group: undefined });
  }

  /** Consumers placed on `host` by this view, in placement order (those released since left out). */
  placedOn(host: string): string[] {
    return [...this.whereNow()].filter(([, at]) => at?.host === host).map(([uuid]) => uuid);
  }

  private apply(a: Applied): void {
    applyOverlay(this.overlay, a.allocations, a.consumerId, a.sign);
    this.log.push(a);
  }

  /**
   * Every consumer this view placed or released, and where it is now on the view: its host and
   * server group, or null when released (and not placed again).
   */
  private whereNow(): Map<string, { host: string; group: string | undefined } | null> {
    const out = new Map<string, { host: string; group: string | undefined } | null>();
    for (const a of this.log) {
      out.delete(a.consumerUuid); // keeps the map in order of each consumer's last change
      out.set(a.consumerUuid, a.sign > 0 ? { host: a.host, group: a.group } : null);
    }
    return out;
  }

  /**
   * When the live providers, inventories, traits or aggregates changed since the overlay was
   * made, makes it again from the live index as it is now and applies this view's placements and
   * releases to it once more (usage heard since then is included: the view then stands for the
   * cloud as it is now plus this view's changes).
   */
  private async ensureCurrent(): Promise<void> {
    if (this.overlay.current()) {
      return;
    }
    this.live = await this.deps.candidates.current();
    this.aggregateList = await this.deps.aggregates.all();
    this.overlay = overlayIndex(this.live);
    this.views = this.deps.hostViews.forkFor(this.live, this.overlay.index, this.aggregateList);
    for (const a of this.log) {
      applyOverlay(this.overlay, a.allocations, a.consumerId, a.sign);
    }
    this.rebases++;
  }

  private readonly instanceHostsLookup: InstanceHostLookup = async (uuids) => {
    const real = await this.deps.instanceHosts(uuids);
    for (const [uuid, at] of this.whereNow()) {
      if (!uuids.includes(uuid)) {
        continue;
      }
      if (at) {
        real.set(uuid, [at.host]);
      } else {
        real.delete(uuid);
      }
    }
    return real;
  };

  private groupLookup(): ServerGroupLookup | undefined {
    const real = this.deps.serverGroups;
    if (!real) {
      return undefined;
    }
    return async (uuid, placing) => {
      const found = await real(uuid, placing);
      const now = this.whereNow();
      const hosts = new Map<string, string[]>();
      for (const [host, members] of found.hosts) {
        const kept = members.filter((m) => !now.has(m));
        if (kept.length > 0) {
          hosts.set(host, kept);
        }
      }
      for (const [consumer, at] of now) {
        if (at && at.group === uuid && !placing.includes(consumer)) {
          hosts.set(at.host, [...(hosts.get(at.host) ?? []), consumer]);
        }
      }
      return { group: found.group, hosts };
    };
  }
}
