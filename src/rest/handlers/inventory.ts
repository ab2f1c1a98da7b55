// /resource_providers/{uuid}/inventories[/{resource_class}]: list, show, create, replace all,
// update one, delete one, delete all (upstream: placement/handlers/inventory.py).

import type { Services } from '../../app/services';
import { ErrorCode } from '../../placement/errors';
import type { InventoryRecord } from '../../placement/types';
import { mapDomainErrors } from '../domain-errors';
import { badRequest, conflict, HttpError, notFound } from '../http-error';
import type { RestRequest } from '../request';
import { emptyResponse, latest, type RestResponse, withCacheHeaders } from '../response';
import {
  BASE_INVENTORY_SCHEMA,
  POST_INVENTORY_SCHEMA,
  PUT_INVENTORY_SCHEMA,
} from '../schemas/inventory';
import { validateInventoryCapacityOrThrow } from './inventory-capacity';
import {
  checkedInventoriesOrThrow,
  intRatioLiterals,
  inventoryJsonResponse,
  serializeInventories,
  serializeInventory,
  toInventoryInput,
  type WireInventory,
} from './inventory-format';
import { providerOrThrow } from './provider-lookup';
import { providerUrl } from './resource-provider';

const notFoundWithError = (u: string) =>
  `No resource provider with uuid ${u} found : No resource provider with uuid ${u} found`;

/**
 * Inventory write options for a request: zero capacity from 1.26, and capacity below current
 * usage accepted as Placement does (it only logs a warning; GraphQL refuses it, see
 * docs/rest-facade.md).
 */
const writeOptions = (req: RestRequest) => ({
  allowZeroCapacity: req.matches('1.26'),
  allowCapacityBelowUsage: true,
});

const generationConflict = () =>
  conflict('resource provider generation conflict', ErrorCode.CONCURRENT_UPDATE);

/** The classes of `inventories` whose allocation_ratio the request body writes as an integer. */
function intRatioClasses(
  req: RestRequest,
  inventories: Record<string, WireInventory>,
): Set<string> {
  const withRatio = Object.keys(inventories).filter((rc) => 'allocation_ratio' in inventories[rc]!);
  const ints = intRatioLiterals(req.body, withRatio.length);
  return new Set(withRatio.filter((_, i) => ints[i]));
}

/** True when the single inventory of the request body writes allocation_ratio as an integer. */
function intRatio(req: RestRequest, inventory: WireInventory): boolean {
  return 'allocation_ratio' in inventory && intRatioLiterals(req.body, 1)[0] === true;
}

function sendInventories(
  req: RestRequest,
  inventories: readonly InventoryRecord[],
  generation: number,
  intRatios?: ReadonlySet<string>,
): RestResponse {
  const last = latest(inventories.map((i) => i.updatedAt));
  return withCacheHeaders(
    req,
    inventoryJsonResponse(serializeInventories(inventories, generation, intRatios)),
    last ?? null,
  );
}

function sendInventory(
  req: RestRequest,
  inv: InventoryRecord,
  generation: number,
  status = 200,
  headers: Record<string, string> = {},
  intRatio = false,
): RestResponse {
  return withCacheHeaders(
    req,
    inventoryJsonResponse(serializeInventory(inv, generation, intRatio), status, headers),
    inv.updatedAt,
  );
}

/** POST /resource_providers/{uuid}/inventories. */
export async function createInventory(req: RestRequest, svc: Services): Promise<RestResponse> {
  req.requireJsonContentOrThrow();
  req.authorizeOrThrow('placement:resource_providers:inventories:create');
  const uuid = req.param('uuid');
  const rp = await providerOrThrow(svc, uuid);
  const data = req.jsonOrThrow(POST_INVENTORY_SCHEMA);
  const rc = data.resource_class;
  validateInventoryCapacityOrThrow(
    req,
    rp.uuid,
    { [rc]: data },
    `Unable to create inventory for resource provider ${rp.uuid}`,
  );
  const result = await mapDomainErrors(
    () => svc.inventories.add(rp.uuid, toInventoryInput(rc, data), writeOptions(req)),
    {
      400: (e) =>
        badRequest(`Unable to create inventory for resource provider ${rp.uuid}: ${e.message}`),
      409: (e) => conflict(`Update conflict: ${e.message}`, ErrorCode.CONCURRENT_UPDATE),
    },
  );
  const inv = result.inventories.find((i) => i.resourceClass === rc)!;
  const location = `${providerUrl(req, rp.uuid)}/inventories/${rc}`;
  return sendInventory(
    req,
    inv,
    result.provider.generation,
    201,
    { location },
    intRatio(req, data),
  );
}

/** DELETE /resource_providers/{uuid}/inventories/{resource_class}. */
export async function deleteInventory(req: RestRequest, svc: Services): Promise<RestResponse> {
  req.authorizeOrThrow('placement:resource_providers:inventories:delete');
  const rc = req.param('resource_class');
  const rp = await providerOrThrow(svc, req.param('uuid'));
  await mapDomainErrors(() => svc.inventories.delete(rp.uuid, rc), {
    404: (e) => notFound(`No inventory of class ${rc} found for delete: ${e.message}`),
    409: (e) =>
      conflict(
        `Unable to delete inventory of class ${rc}: ${e.message}`,
        ErrorCode.CONCURRENT_UPDATE,
      ),
  });
  return emptyResponse(204);
}

/** GET /resource_providers/{uuid}/inventories. */
export async function getInventories(req: RestRequest, svc: Services): Promise<RestResponse> {
  req.checkAcceptOrThrow();
  req.authorizeOrThrow('placement:resource_providers:inventories:list');
  const rp = await providerOrThrow(svc, req.param('uuid'), notFoundWithError);
  const { provider, inventories } = await mapDomainErrors(() => svc.inventories.list(rp.uuid));
  return sendInventories(req, inventories, provider.generation);
}

/** GET /resource_providers/{uuid}/inventories/{resource_class}. */
export async function getInventory(req: RestRequest, svc: Services): Promise<RestResponse> {
  req.checkAcceptOrThrow();
  req.authorizeOrThrow('placement:resource_providers:inventories:show');
  const uuid = req.param('uuid');
  const rc = req.param('resource_class');
  const rp = await providerOrThrow(svc, uuid, notFoundWithError);
  const { provider, inventories } = await mapDomainErrors(() => svc.inventories.list(rp.uuid));
  const inv = inventories.find((i) => i.resourceClass === rc);
  if (!inv) {
    throw notFound(`No inventory of class ${rc} for ${uuid}`);
  }
  return sendInventory(req, inv, provider.generation);
}

/** PUT /resource_providers/{uuid}/inventories. */
export async function setInventories(req: RestRequest, svc: Services): Promise<RestResponse> {
  req.requireJsonContentOrThrow();
  req.authorizeOrThrow('placement:resource_providers:inventories:update');
  const rp = await providerOrThrow(svc, req.param('uuid'));
  const data = req.jsonOrThrow(PUT_INVENTORY_SCHEMA);
  const inventories = checkedInventoriesOrThrow(data.inventories);
  if (data.resource_provider_generation !== rp.generation) {
    throw generationConflict();
  }
  const inputs = Object.entries(inventories).map(([rc, w]) => toInventoryInput(rc, w));
  validateInventoryCapacityOrThrow(
    req,
    rp.uuid,
    inventories,
    `Unable to update inventory for resource provider ${rp.uuid}`,
  );
  const result = await mapDomainErrors(
    () => svc.inventories.setAll(rp.uuid, rp.generation, inputs, writeOptions(req)),
    {
      400: (e) =>
        /^No such resource class/.test(e.message)
          ? badRequest(
              `Unknown resource class in inventory for resource provider ${rp.uuid}: ${e.message}`,
            )
          : badRequest(`Unable to update inventory for resource provider ${rp.uuid}: ${e.message}`),
      409: (e) => conflict(`update conflict: ${e.message}`, e.code),
    },
  );
  return sendInventories(
    req,
    result.inventories,
    result.provider.generation,
    intRatioClasses(req, inventories),
  );
}

/** DELETE /resource_providers/{uuid}/inventories (1.5). */
export async function deleteInventories(req: RestRequest, svc: Services): Promise<RestResponse> {
  req.requireVersionOrThrow('1.5', undefined, 405);
  req.authorizeOrThrow('placement:resource_providers:inventories:delete');
  const rp = await providerOrThrow(svc, req.param('uuid'));
  await mapDomainErrors(() => svc.inventories.deleteAll(rp.uuid), {
    409: (e) =>
      e.code === ErrorCode.INVENTORY_INUSE
        ? conflict(e.message, e.code)
        : conflict(
            `Unable to delete inventory for resource provider ${rp.uuid} because the inventory was updated by another process. Please retry your request.`,
            ErrorCode.CONCURRENT_UPDATE,
          ),
  });
  return emptyResponse(204);
}

/** PUT /resource_providers/{uuid}/inventories/{resource_class}. */
export async function updateInventory(req: RestRequest, svc: Services): Promise<RestResponse> {
  req.requireJsonContentOrThrow();
  req.authorizeOrThrow('placement:resource_providers:inventories:update');
  const rc = req.param('resource_class');
  const rp = await providerOrThrow(svc, req.param('uuid'));
  const data = req.jsonOrThrow(BASE_INVENTORY_SCHEMA);
  if (data.resource_provider_generation !== rp.generation) {
    throw generationConflict();
  }
  validateInventoryCapacityOrThrow(
    req,
    rp.uuid,
    { [rc]: data },
    `Unable to update inventory for resource provider ${rp.uuid}`,
  );
  if (!(await svc.resourceClasses.find(rc))) {
    throw notFound(`No such resource class ${rc}.`);
  }
  const result = await mapDomainErrors(
    () =>
      svc.inventories.update(rp.uuid, rp.generation, toInventoryInput(rc, data), writeOptions(req)),
    {
      400: (e) =>
        e.message.startsWith('No inventory record')
          ? badRequest(
              `No inventory record with resource class for resource provider ${rp.uuid}: ${e.message}`,
            )
          : badRequest(`Unable to update inventory for resource provider ${rp.uuid}: ${e.message}`),
      409: (e) => new HttpError(409, `update conflict: ${e.message}`, e.code),
    },
  );
  const inv = result.inventories.find((i) => i.resourceClass === rc)!;
  return sendInventory(req, inv, result.provider.generation, 200, {}, intRatio(req, data));
}
