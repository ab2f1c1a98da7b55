// Writing allocations: PUT /allocations/{consumer_uuid} (schema per microversion), POST
// /allocations (1.13) and DELETE /allocations/{consumer_uuid} (upstream:
// placement/handlers/allocation.py set_allocations_for_consumer, set_allocations,
// delete_allocations).

import type { Services } from '../../app/services';
import type { ConsumerAllocationsInput } from '../../placement/allocation-write';
import { isPlacementError, type PlacementError } from '../../placement/errors';
import { type ErrorMapping, mapDomainErrors } from '../domain-errors';
import { badRequest, HttpError, notFound } from '../http-error';
import { isUuidLike } from '../json-schema';
import { type RestRequest, schemaFor } from '../request';
import { emptyResponse, type RestResponse } from '../response';
import type { Validated } from '../schema-types';
import {
  ALLOCATION_SCHEMA,
  ALLOCATION_SCHEMA_V1_8,
  ALLOCATION_SCHEMA_V1_12,
  ALLOCATION_SCHEMA_V1_28,
  ALLOCATION_SCHEMA_V1_34,
  ALLOCATION_SCHEMA_V1_38,
  POST_ALLOCATIONS_V1_13,
  POST_ALLOCATIONS_V1_28,
  POST_ALLOCATIONS_V1_34,
  POST_ALLOCATIONS_V1_38,
} from '../schemas/allocation';
import { canonicalUuid } from './canonical-uuid';

/** PUT schemas by minimum microversion, newest first. */
const PUT_SCHEMAS = [
  ['1.38', ALLOCATION_SCHEMA_V1_38],
  ['1.34', ALLOCATION_SCHEMA_V1_34],
  ['1.28', ALLOCATION_SCHEMA_V1_28],
  ['1.12', ALLOCATION_SCHEMA_V1_12],
  ['1.8', ALLOCATION_SCHEMA_V1_8],
  ['1.0', ALLOCATION_SCHEMA],
] as const;

/** POST schemas by minimum microversion, newest first. */
const POST_SCHEMAS = [
  ['1.38', POST_ALLOCATIONS_V1_38],
  ['1.34', POST_ALLOCATIONS_V1_34],
  ['1.28', POST_ALLOCATIONS_V1_28],
  ['1.13', POST_ALLOCATIONS_V1_13],
] as const;

/**
 * One consumer's body of any microversion (each schema's own shape). The consumers of POST
 * /allocations and of the reshaper have the shapes of the PUT bodies from 1.12.
 */
export type WireConsumer = Validated<(typeof PUT_SCHEMAS)[number][1]>;

/**
 * The domain input for one consumer. Each field is there from the microversion whose schema
 * requires it (project and user 1.8, consumer_generation 1.28, consumer_type 1.38) and absent
 * before (the schemas refuse it).
 */
export function toConsumerInput(
  consumerUuid: string,
  data: WireConsumer,
): ConsumerAllocationsInput {
  const byProvider = new Map<string, Record<string, number>>();
  if (Array.isArray(data.allocations)) {
    for (const a of data.allocations) {
      byProvider.set(a.resource_provider.uuid, a.resources);
    }
  } else {
    for (const [uuid, a] of Object.entries(data.allocations)) {
      byProvider.set(uuid, a.resources);
    }
  }
  const owned = 'project_id' in data;
  return {
    consumerUuid,
    projectId: owned ? data.project_id : null,
    userId: owned ? data.user_id : null,
    consumerGeneration: 'consumer_generation' in data ? data.consumer_generation : undefined,
    consumerType: 'consumer_type' in data ? data.consumer_type : undefined,
    allocations: [...byProvider].map(([providerUuid, resources]) => ({ providerUuid, resources })),
  };
}

function writeErrors(prefix: string): ErrorMapping {
  return {
    400: (e: PlacementError) =>
      e.message.startsWith('Allocation for resource provider')
        ? badRequest(e.message)
        : badRequest(`${prefix}${e.message}`),
  };
}

/** PUT /allocations/{consumer_uuid}. */
export async function setAllocationsForConsumer(
  req: RestRequest,
  svc: Services,
): Promise<RestResponse> {
  const schema = schemaFor(req, PUT_SCHEMAS);
  req.requireJsonContentOrThrow();
  req.authorizeOrThrow('placement:allocations:update');
  const raw = req.param('consumer_uuid');
  if (!isUuidLike(raw)) {
    throw badRequest(`Malformed consumer_uuid: ${raw}`);
  }
  const consumerUuid = canonicalUuid(raw);
  const input = toConsumerInput(consumerUuid, req.jsonOrThrow(schema));
  await mapDomainErrors(
    () => svc.allocations.setOne(input, { checkConsumerGeneration: req.matches('1.28') }),
    writeErrors(`Unable to allocate inventory for consumer ${consumerUuid}: `),
  );
  return emptyResponse(204);
}

/** POST /allocations (1.13): replace the allocations of several consumers atomically. */
export async function setAllocations(req: RestRequest, svc: Services): Promise<RestResponse> {
  req.requireVersionOrThrow('1.13');
  req.requireJsonContentOrThrow();
  req.authorizeOrThrow('placement:allocations:manage');
  const schema = schemaFor(req, POST_SCHEMAS);
  const consumers: Record<string, WireConsumer> = req.jsonOrThrow(schema);
  const inputs = Object.entries(consumers).map(([uuid, c]) => toConsumerInput(uuid, c));
  await mapDomainErrors(
    () => svc.allocations.set(inputs, { checkConsumerGeneration: req.matches('1.28') }),
    writeErrors('Unable to allocate inventory '),
  );
  return emptyResponse(204);
}

/** DELETE /allocations/{consumer_uuid}. */
export async function deleteAllocations(req: RestRequest, svc: Services): Promise<RestResponse> {
  req.authorizeOrThrow('placement:allocations:delete');
  const uuid = req.param('consumer_uuid');
  const missing = () => notFound(`No allocations for consumer '${uuid}'`);
  if (!(await svc.allocations.findConsumer(uuid))) {
    throw missing();
  }
  try {
    await svc.allocations.deleteForConsumer(uuid);
  } catch (err) {
    if (isPlacementError(err) && err.status === 404) {
      throw missing();
    }
    if (isPlacementError(err)) {
      throw new HttpError(err.status, err.message, err.code);
    }
    throw err;
  }
  return emptyResponse(204);
}
