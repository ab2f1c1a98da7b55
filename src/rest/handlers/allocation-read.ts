// Reading allocations: GET /allocations/{consumer_uuid} and
// GET /resource_providers/{uuid}/allocations (upstream: placement/handlers/allocation.py
// list_for_consumer, list_for_resource_provider and their _serialize_* helpers).

import type { Services } from '../../app/services';
import type { AllocationRecord } from '../../placement/types';
import { visibleAllocations, visibleConsumer } from '../project-reads';
import type { RestRequest } from '../request';
import { jsonResponse, type RestResponse, withCacheHeaders } from '../response';
import { providerOrThrow } from './provider-lookup';

/**
 * GET /allocations/{consumer_uuid}: always 200, empty for unknown consumers, and for another
 * project's consumers when the token is project-scoped (src/rest/project-reads.ts).
 */
export async function listForConsumer(req: RestRequest, svc: Services): Promise<RestResponse> {
  req.checkAcceptOrThrow();
  req.authorizeOrThrow('placement:allocations:list');
  const consumer = visibleConsumer(
    req.caller,
    await svc.allocations.findConsumer(req.param('consumer_uuid')),
  );
  const allocations: readonly AllocationRecord[] = consumer
    ? await svc.allocations.byConsumerIds([consumer.id])
    : [];
  const byProvider: Record<string, { resources: Record<string, number>; generation: number }> = {};
  for (const a of allocations) {
    const entry = byProvider[a.resourceProviderUuid] ?? { resources: {}, generation: 0 };
    entry.resources[a.resourceClass] = a.used;
    entry.generation = a.resourceProviderGeneration;
    byProvider[a.resourceProviderUuid] = entry;
  }
  const result: Record<string, unknown> = { allocations: byProvider };
  if (consumer && allocations.length > 0 && req.matches('1.12')) {
    result.project_id = consumer.projectId;
    result.user_id = consumer.userId;
    if (req.matches('1.28')) {
      result.consumer_generation = consumer.generation;
    }
    if (req.matches('1.38')) {
      result.consumer_type = consumer.consumerType;
    }
  }
  const lastModified = allocations.length > 0 ? consumer?.updatedAt : undefined;
  return withCacheHeaders(req, jsonResponse(result), lastModified);
}

/**
 * GET /resource_providers/{uuid}/allocations; a project-scoped token sees its own project's
 * consumers only (src/rest/project-reads.ts).
 */
export async function listForResourceProvider(
  req: RestRequest,
  svc: Services,
): Promise<RestResponse> {
  req.checkAcceptOrThrow();
  req.authorizeOrThrow('placement:resource_providers:allocations:list');
  const rp = await providerOrThrow(
    svc,
    req.param('uuid'),
    (u) => `Resource provider '${u}' not found: No resource provider with uuid ${u} found`,
  );
  const allocations = visibleAllocations(req.caller, await svc.allocations.byProviderIds([rp.id]));
  const showGeneration = req.matches('1.28');
  const consumers = showGeneration
    ? await svc.allocations.consumersByIds([...new Set(allocations.map((a) => a.consumerId))])
    : [];
  const generationOf = new Map(consumers.flatMap((c) => (c ? [[c.id, c.generation]] : [])));
  const byConsumer: Record<
    string,
    { resources: Record<string, number>; consumer_generation?: number | null }
  > = {};
  for (const a of allocations) {
    const entry = byConsumer[a.consumerUuid] ?? { resources: {} };
    entry.resources[a.resourceClass] = a.used;
    if (showGeneration) {
      entry.consumer_generation = generationOf.get(a.consumerId) ?? null;
    }
    byConsumer[a.consumerUuid] = entry;
  }
  const lastModified = consumers.reduce<Date | undefined>(
    (d, c) => (c && (!d || c.updatedAt > d) ? c.updatedAt : d),
    undefined,
  );
  return withCacheHeaders(
    req,
    jsonResponse({ allocations: byConsumer, resource_provider_generation: rp.generation }),
    lastModified,
  );
}
