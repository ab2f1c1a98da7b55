// How an allocationCandidates answer is written directly to JSON (src/graphql/direct-answer.ts):
// one spec per GraphQL type of schema/allocation-candidate.ts, field for field what its resolver
// returns. A field without a spec here is answered by the executor, so a new field is never
// answered wrongly, only more slowly; test/api/direct-answer.test.ts compares every field written
// here with the executor's answer.

import {
  array,
  type DirectRoot,
  type Entry,
  entries,
  leaf,
  type ObjectSpec,
  object,
  writeInt,
  writeSafeInt,
  writeString,
  writeStrings,
} from '../src/graphql/direct-answer-spec';
import type {
  AllocationCandidates,
  AllocationRequest,
  ProviderAllocation,
  ProviderSummary,
  ProviderSummaryResource,
} from '../src/placement/allocation-candidates/results';
import { saturatedInt } from './safe-int';

/** ResourceProvider as candidate answers give it (its uuid): nothing else without a lookup. */
const provider: ObjectSpec<string> = {
  typeName: 'ResourceProvider',
  fields: { uuid: leaf((w, uuid) => writeString(w, uuid)) },
};

/** One entry of a provider's resources: class -> amount. */
const resourceAmount: ObjectSpec<Entry<number>> = {
  typeName: 'ResourceAmount',
  fields: {
    resourceClass: leaf((w, r) => writeString(w, r.key)),
    amount: leaf((w, r) => writeInt(w, r.value)),
  },
};

const providerResources: ObjectSpec<ProviderAllocation> = {
  typeName: 'ProviderResources',
  fields: {
    provider: object(provider, (a) => a.providerUuid),
    resources: entries(resourceAmount, (a) => a.resources),
  },
};

/** One entry of an allocation request's mappings: suffix -> provider uuids. */
const groupMapping: ObjectSpec<Entry<readonly string[]>> = {
  typeName: 'GroupMapping',
  fields: {
    suffix: leaf((w, m) => writeString(w, m.key)),
    providerUuids: leaf((w, m) => writeStrings(w, m.value)),
  },
};

const allocationRequest: ObjectSpec<AllocationRequest> = {
  typeName: 'AllocationRequest',
  fields: {
    allocations: array(providerResources, (r) => r.allocations),
    mappings: entries(groupMapping, (r) => r.mappings),
  },
};

const summaryResource: ObjectSpec<ProviderSummaryResource> = {
  typeName: 'SummaryResource',
  fields: {
    resourceClass: leaf((w, r) => writeString(w, r.resourceClass)),
    capacity: leaf((w, r) => writeInt(w, saturatedInt(r.capacity))),
    capacityExact: leaf((w, r) => writeSafeInt(w, r.capacity)),
    used: leaf((w, r) => writeInt(w, saturatedInt(r.used))),
    usedExact: leaf((w, r) => writeSafeInt(w, r.used)),
  },
};

const providerSummary: ObjectSpec<ProviderSummary> = {
  typeName: 'ProviderSummary',
  // The engine shares one frozen summary per provider until the provider changes.
  keepFrozen: true,
  fields: {
    provider: object(provider, (s) => s.providerUuid),
    resources: array(summaryResource, (s) => s.resources),
    traits: leaf((w, s) => writeStrings(w, s.traits)),
  },
};

const allocationCandidates: ObjectSpec<AllocationCandidates> = {
  typeName: 'AllocationCandidates',
  fields: {
    allocationRequests: array(allocationRequest, (c) => c.allocationRequests),
    providerSummaries: array(providerSummary, (c) => c.providerSummaries),
  },
};

/** Root fields answered directly. */
export const DIRECT_ROOTS: readonly DirectRoot[] = [
  { field: 'allocationCandidates', spec: allocationCandidates as ObjectSpec<never> },
];
