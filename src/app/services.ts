// Composition of the domain services over one DataSource (what adapters receive).

import type { DataSource } from 'typeorm';
import { AggregateService } from '../placement/aggregate';
import { AllocationService } from '../placement/allocation';
import { CandidateService } from '../placement/allocation-candidates/candidate-service';
import type { CandidateBounds } from '../placement/allocation-candidates/find-allocation-candidates';
import { CapacityService } from '../placement/capacity';
import {
  CapacityHistoryService,
  type CapacityHistorySettings,
} from '../placement/capacity-history';
import { ChangeBus } from '../placement/change-bus';
import { ConsumerListService } from '../placement/consumer-list';
import { InventoryService } from '../placement/inventory';
import { type LiveOptions, LiveService } from '../placement/live';
import { ProviderTraitService } from '../placement/provider-trait';
import { QuotaService } from '../placement/quota';
import { ReshaperService } from '../placement/reshaper';
import { ResourceClassService } from '../placement/resource-class';
import { ResourceProviderService } from '../placement/resource-provider';
import { ServerGroupService } from '../placement/server-group';
import { TraitService } from '../placement/trait';
import { UsageService } from '../placement/usage';
import { CandidateAnswers } from './candidate-answers';

/** Every domain service, sharing one DataSource and one change bus. */
export interface Services {
  readonly dataSource: DataSource;
  readonly changes: ChangeBus;
  readonly resourceClasses: ResourceClassService;
  readonly traits: TraitService;
  readonly providers: ResourceProviderService;
  readonly inventories: InventoryService;
  readonly providerTraits: ProviderTraitService;
  readonly aggregates: AggregateService;
  readonly allocations: AllocationService;
  readonly usages: UsageService;
  readonly reshaper: ReshaperService;
  readonly candidates: CandidateService;
  /** Candidates as the APIs ask for them: one answer per request and index revision. */
  readonly candidateAnswers: CandidateAnswers;
  readonly quota: QuotaService;
  readonly capacity: CapacityService;
  readonly capacityHistory: CapacityHistoryService;
  readonly live: LiveService;
  readonly listings: ConsumerListService;
  readonly serverGroups: ServerGroupService;
}

/** Subscription limits when none are configured (BERTH_SUBSCRIPTION_BUFFER / _MAX_SUBSCRIPTIONS). */
const DEFAULT_LIVE: LiveOptions = { maxBuffered: 256, maxPerCaller: 100 };

/** Builds the services over `ds`. */
export function createServices(
  ds: DataSource,
  changes: ChangeBus = new ChangeBus(),
  o: {
    candidateBounds?: CandidateBounds;
    live?: LiveOptions;
    /** Most PUT /allocations writes in one transaction (BERTH_CLAIM_BATCH); default 1. */
    groupCommit?: number;
    /** BERTH_CAPACITY_HISTORY_INTERVAL / _RETENTION; default 300 s kept 14 days. */
    capacityHistory?: CapacityHistorySettings;
  } = {},
): Services {
  const providers = new ResourceProviderService(ds, changes);
  const inventories = new InventoryService(ds, changes, providers);
  const allocations = new AllocationService(ds, changes, providers, o.groupCommit);
  const quota = new QuotaService(ds, changes);
  const candidates = new CandidateService(ds, changes, o.candidateBounds);
  const capacity = new CapacityService(candidates);
  allocations.addPreGuard(quota.preGuard);
  return {
    dataSource: ds,
    changes,
    resourceClasses: new ResourceClassService(ds, changes),
    traits: new TraitService(ds, changes),
    providers,
    inventories,
    providerTraits: new ProviderTraitService(ds, changes, providers),
    aggregates: new AggregateService(ds, changes, providers),
    allocations,
    usages: new UsageService(ds),
    reshaper: new ReshaperService(ds, changes, inventories, allocations),
    candidates,
    candidateAnswers: new CandidateAnswers(candidates),
    quota,
    capacity,
    capacityHistory: new CapacityHistoryService(
      ds,
      candidates,
      o.capacityHistory ?? { intervalSeconds: 300, retentionSeconds: 14 * 86_400 },
    ),
    live: new LiveService(changes, candidates, capacity, o.live ?? DEFAULT_LIVE),
    listings: new ConsumerListService(ds),
    serverGroups: new ServerGroupService(ds),
  };
}
