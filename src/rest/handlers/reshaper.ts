// POST /reshaper: move inventories and allocations between providers atomically (upstream:
// placement/handlers/reshaper.py).

import type { Services } from '../../app/services';
import { ErrorCode } from '../../placement/errors';
import type { ReshapeInput } from '../../placement/reshaper';
import { mapDomainErrors } from '../domain-errors';
import { badRequest, conflict, HttpError } from '../http-error';
import { type RestRequest, schemaFor } from '../request';
import { emptyResponse, type RestResponse } from '../response';
import {
  POST_RESHAPER_SCHEMA,
  POST_RESHAPER_SCHEMA_V1_34,
  POST_RESHAPER_SCHEMA_V1_38,
} from '../schemas/reshaper';
import { toConsumerInput, type WireConsumer } from './allocation-write';
import { checkedInventoriesOrThrow, toInventoryInput } from './inventory-format';

/** Schemas by minimum microversion, newest first. */
const SCHEMAS = [
  ['1.38', POST_RESHAPER_SCHEMA_V1_38],
  ['1.34', POST_RESHAPER_SCHEMA_V1_34],
  ['1.30', POST_RESHAPER_SCHEMA],
] as const;

/** POST /reshaper (1.30). */
export async function reshape(req: RestRequest, svc: Services): Promise<RestResponse> {
  req.requireVersionOrThrow('1.30');
  req.requireJsonContentOrThrow();
  req.authorizeOrThrow('placement:reshaper:reshape');
  const data = req.jsonOrThrow(schemaFor(req, SCHEMAS));
  const inventories: ReshapeInput['inventories'][number][] = [];
  for (const [uuid, inv] of Object.entries(data.inventories)) {
    const rp = await svc.providers.find(uuid);
    if (!rp) {
      throw badRequest(
        `Resource provider ${uuid} in inventories not found: No resource provider with uuid ${uuid} found`,
        ErrorCode.RESOURCE_PROVIDER_NOT_FOUND,
      );
    }
    const given = inv.resource_provider_generation;
    if (given !== rp.generation) {
      throw conflict(
        `resource provider generation conflict for provider ${uuid}: actual: ${rp.generation}, given: ${given}`,
        ErrorCode.CONCURRENT_UPDATE,
      );
    }
    inventories.push({
      providerUuid: rp.uuid,
      generation: given,
      inventories: Object.entries(checkedInventoriesOrThrow(inv.inventories)).map(([rc, w]) =>
        toInventoryInput(rc, w),
      ),
    });
  }
  const consumers: Record<string, WireConsumer> = data.allocations;
  const allocations = Object.entries(consumers).map(([uuid, c]) => toConsumerInput(uuid, c));
  await mapDomainErrors(
    () =>
      svc.reshaper.reshape(
        { inventories, allocations },
        {
          checkConsumerGeneration: true,
          allowZeroCapacity: req.matches('1.26'),
          // Placement accepts a final inventory below usage (it only logs); so does the facade.
          allowCapacityBelowUsage: true,
        },
      ),
    {
      400: (e) =>
        e.message.startsWith('Allocation for resource provider')
          ? badRequest(e.message)
          : badRequest(`malformed reshaper data: ${e.message}`),
      409: (e) =>
        e.code === ErrorCode.INVENTORY_INUSE || e.code === ErrorCode.CONCURRENT_UPDATE
          ? new HttpError(409, `update conflict: ${e.message}`, e.code)
          : conflict(e.message),
    },
  );
  return emptyResponse(204);
}
