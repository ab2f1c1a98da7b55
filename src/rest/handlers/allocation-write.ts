// Writing allocations: PUT /allocations/{consumer_uuid} (schema per microversion), POST
// /allocations (1.13) and DELETE /allocations/{consumer_uuid} (upstream:
// placement/handlers/allocation.py set_allocations_for_consumer, set_allocations,
// delete_allocations).
import type { ConsumerAllocationsInput } from '../../placement/allocation-write';
import { isPlacementError, type PlacementError } from '../../placement/errors';
import type { Services } from '../../services';
import { type ErrorMapping, mapDomainErrors } from '../domain-errors';
import { badRequest, HttpError, notFound } from '../http-error';
import { isUuidLike, type Schema } from '../json-schema';
import type { RestRequest } from '../request';
import { emptyResponse, type RestResponse } from '../response';
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

/** One consumer's body after schema validation (any microversion's shape). */
interface WireConsumer {
  readonly allocations:
    | readonly { resource_provider: { uuid: string }; resources: Record<string, number> }[]
    | Readonly<Record<string, { resources: Record<string, number> }>>;
  readonly project_id?: string;
  readonly user_id?: string;
  readonly consumer_generation?: number | null;
  readonly consumer_type?: string;
}

/** The domain input for one consumer, following the request's microversion. */
export function toConsumerInput(
  req: RestRequest,
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
      byProvider.set(uuid, (a as { resources: Record<string, number> }).resources);
    }
  }
  return {
    consumerUuid,
    projectId: data.project_id ?? null,
    userId: data.project_id === undefined ? null : (data.user_id ?? null),
    consumerGeneration: req.matches('1.28') ? (data.consumer_generation ?? null) : undefined,
    consumerType: req.matches('1.38') ? data.consumer_type : undefined,
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

const PUT_SCHEMAS: readonly (readonly [string, string, Schema])[] = [
  ['1.38', '1.39', ALLOCATION_SCHEMA_V1_38],
  ['1.34', '1.37', ALLOCATION_SCHEMA_V1_34],
  ['1.28', '1.33', ALLOCATION_SCHEMA_V1_28],
  ['1.12', '1.27', ALLOCATION_SCHEMA_V1_12],
  ['1.8', '1.11', ALLOCATION_SCHEMA_V1_8],
  ['1.0', '1.7', ALLOCATION_SCHEMA],
];

/** PUT /allocations/{consumer_uuid}. */
export async function setAllocationsForConsumer(
  req: RestRequest,
  svc: Services,
): Promise<RestResponse> {
  const schema = PUT_SCHEMAS.find(([min, max]) => req.matches(min, max))![2];
  req.requireJsonContentOrThrow();
  req.authorizeOrThrow('placement:allocations:update');
  const raw = req.param('consumer_uuid');
  if (!isUuidLike(raw)) {
    throw badRequest(`Malformed consumer_uuid: ${raw}`);
  }
  const consumerUuid = canonicalUuid(raw);
  const data = req.jsonOrThrow<WireConsumer>(schema);
  const input = toConsumerInput(req, consumerUuid, data);
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
  let schema = POST_ALLOCATIONS_V1_13;
  if (req.matches('1.28')) {
    schema = POST_ALLOCATIONS_V1_28;
  }
  if (req.matches('1.34')) {
    schema = POST_ALLOCATIONS_V1_34;
  }
  if (req.matches('1.38')) {
    schema = POST_ALLOCATIONS_V1_38;
  }
  const data = req.jsonOrThrow<Record<string, WireConsumer>>(schema);
  const inputs = Object.entries(data).map(([uuid, c]) => toConsumerInput(req, uuid, c));
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
