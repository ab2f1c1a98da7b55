// /resource_providers/{uuid}/aggregates: read and replace a provider's aggregates
// (upstream: placement/handlers/aggregate.py).

import type { Services } from '../../app/services';
import { ErrorCode } from '../../placement/errors';
import { mapDomainErrors } from '../domain-errors';
import { conflict } from '../http-error';
import type { RestRequest } from '../request';
import { jsonResponse, type RestResponse, withCacheHeaders } from '../response';
import { PUT_AGGREGATES_SCHEMA_V1_1, PUT_AGGREGATES_SCHEMA_V1_19 } from '../schemas/aggregate';
import { providerOrThrow } from './provider-lookup';

/** Placement includes the generation (and checks it on PUT) from this version on. */
const INCLUDE_GENERATION_VERSION = '1.19';

function sendAggregates(req: RestRequest, aggregates: readonly string[], generation: number) {
  const payload: Record<string, unknown> = { aggregates };
  if (req.matches(INCLUDE_GENERATION_VERSION)) {
    payload.resource_provider_generation = generation;
  }
  return withCacheHeaders(req, jsonResponse(payload));
}

/** GET /resource_providers/{uuid}/aggregates (1.1). */
export async function getAggregates(req: RestRequest, svc: Services): Promise<RestResponse> {
  req.checkAcceptOrThrow();
  req.requireVersionOrThrow('1.1');
  req.authorizeOrThrow('placement:resource_providers:aggregates:list');
  const rp = await providerOrThrow(svc, req.param('uuid'));
  const { provider, aggregates } = await mapDomainErrors(() => svc.aggregates.forProvider(rp.uuid));
  return sendAggregates(req, aggregates, provider.generation);
}

/** PUT /resource_providers/{uuid}/aggregates (1.1). */
export async function setAggregates(req: RestRequest, svc: Services): Promise<RestResponse> {
  req.requireJsonContentOrThrow();
  req.requireVersionOrThrow('1.1');
  req.authorizeOrThrow('placement:resource_providers:aggregates:update');
  const considerGeneration = req.matches(INCLUDE_GENERATION_VERSION);
  const rp = await providerOrThrow(svc, req.param('uuid'));
  let aggregates: readonly string[];
  let generation: number | null = null;
  if (considerGeneration) {
    const data = req.jsonOrThrow(PUT_AGGREGATES_SCHEMA_V1_19);
    if (data.resource_provider_generation !== rp.generation) {
      throw conflict(
        "Resource provider's generation already changed. Please update the generation and try again.",
        ErrorCode.CONCURRENT_UPDATE,
      );
    }
    aggregates = data.aggregates;
    generation = data.resource_provider_generation;
  } else {
    aggregates = req.jsonOrThrow(PUT_AGGREGATES_SCHEMA_V1_1);
  }
  const result = await mapDomainErrors(
    () => svc.aggregates.setForProvider(rp.uuid, generation, aggregates),
    { 409: (e) => conflict(`Update conflict: ${e.message}`, e.code) },
  );
  return sendAggregates(req, aggregates, result.provider.generation);
}
