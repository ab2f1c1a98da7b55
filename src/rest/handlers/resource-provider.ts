// /resource_providers and /resource_providers/{uuid}: list, create, show, update, delete
// (upstream: placement/handlers/resource_provider.py).
import { randomUUID } from 'node:crypto';
import type { Services } from '../../app/services';
import type { ResourceProviderRecord } from '../../placement/types';
import { mapDomainErrors } from '../domain-errors';
import { badRequest, HttpError } from '../http-error';
import { memberOfParamsOrThrow, parseResourcesOrThrow, traitParamsOrThrow } from '../qs-parsers';
import { type RestRequest, schemaFor } from '../request';
import {
  emptyResponse,
  jsonResponse,
  latest,
  type RestResponse,
  withCacheHeaders,
} from '../response';
import {
  GET_RPS_SCHEMAS,
  POST_RESOURCE_PROVIDER_SCHEMA,
  POST_RP_SCHEMA_V1_14,
  PUT_RESOURCE_PROVIDER_SCHEMA,
  PUT_RP_SCHEMA_V1_14,
} from '../schemas/resource-provider';
import { canonicalUuid } from './canonical-uuid';
import { providerOrThrow } from './provider-lookup';

/** The provider's URL under the mount prefix. */
export function providerUrl(req: RestRequest, uuid: string): string {
  return `${req.prefix}/resource_providers/${uuid}`;
}

function links(req: RestRequest, uuid: string): { rel: string; href: string }[] {
  const url = providerUrl(req, uuid);
  const rels = ['inventories', 'usages'];
  if (req.matches('1.1')) {
    rels.push('aggregates');
  }
  if (req.matches('1.6')) {
    rels.push('traits');
  }
  if (req.matches('1.11')) {
    rels.push('allocations');
  }
  return [{ rel: 'self', href: url }, ...rels.map((rel) => ({ rel, href: `${url}/${rel}` }))];
}

/** A provider in the representation of the request's microversion. */
export function serializeProvider(req: RestRequest, rp: ResourceProviderRecord) {
  const data: Record<string, unknown> = {
    uuid: rp.uuid,
    name: rp.name,
    generation: rp.generation,
    links: links(req, rp.uuid),
  };
  if (req.matches('1.14')) {
    data.parent_provider_uuid = rp.parentProviderUuid;
    data.root_provider_uuid = rp.rootProviderUuid;
  }
  return data;
}

const lastModifiedOf = (rp: ResourceProviderRecord): Date => rp.updatedAt ?? rp.createdAt;

// Body schemas by minimum microversion, newest first. Picked from a list, not with `a ? b : c`:
// TypeScript reduces the union of a conditional expression to its supertype, and the body type
// of the 1.14 schema (more fields) would be lost.
const POST_SCHEMAS = [
  ['1.14', POST_RP_SCHEMA_V1_14],
  ['1.0', POST_RESOURCE_PROVIDER_SCHEMA],
] as const;
const PUT_SCHEMAS = [
  ['1.14', PUT_RP_SCHEMA_V1_14],
  ['1.0', PUT_RESOURCE_PROVIDER_SCHEMA],
] as const;

/** POST /resource_providers. */
export async function createResourceProvider(
  req: RestRequest,
  svc: Services,
): Promise<RestResponse> {
  req.requireJsonContentOrThrow();
  req.authorizeOrThrow('placement:resource_providers:create');
  const data = req.jsonOrThrow(schemaFor(req, POST_SCHEMAS));
  const uuid = data.uuid ? canonicalUuid(data.uuid) : randomUUID();
  const parentUuid = 'parent_provider_uuid' in data ? data.parent_provider_uuid : undefined;
  const rp = await mapDomainErrors(() =>
    svc.providers.create({ name: data.name, uuid, parentUuid }),
  );
  const location = { location: providerUrl(req, rp.uuid) };
  if (req.matches('1.20')) {
    return withCacheHeaders(
      req,
      jsonResponse(serializeProvider(req, rp), 200, location),
      lastModifiedOf(rp),
    );
  }
  return emptyResponse(201, location);
}

/** DELETE /resource_providers/{uuid}. */
export async function deleteResourceProvider(
  req: RestRequest,
  svc: Services,
): Promise<RestResponse> {
  const uuid = req.param('uuid');
  req.authorizeOrThrow('placement:resource_providers:delete');
  await providerOrThrow(svc, uuid, (u) => `No resource provider with uuid ${u} found for delete`);
  await mapDomainErrors(() => svc.providers.delete(uuid));
  return emptyResponse(204);
}

/** GET /resource_providers/{uuid}. */
export async function getResourceProvider(req: RestRequest, svc: Services): Promise<RestResponse> {
  req.checkAcceptOrThrow();
  req.authorizeOrThrow('placement:resource_providers:show');
  const rp = await providerOrThrow(svc, req.param('uuid'));
  return withCacheHeaders(req, jsonResponse(serializeProvider(req, rp)), lastModifiedOf(rp));
}

/** GET /resource_providers. */
export async function listResourceProviders(
  req: RestRequest,
  svc: Services,
): Promise<RestResponse> {
  req.checkAcceptOrThrow();
  req.authorizeOrThrow('placement:resource_providers:list');
  const q = req.query;
  q.validateOrThrow(schemaFor(req, GET_RPS_SCHEMAS));
  const memberOf = q.has('member_of') ? memberOfParamsOrThrow(q, req.version) : undefined;
  const traits = q.has('required') ? traitParamsOrThrow(q, req.version) : undefined;
  const resources = q.has('resources') ? parseResourcesOrThrow(q.get('resources')!) : undefined;
  const providers = await mapDomainErrors(
    () =>
      svc.providers.list({
        name: q.get('name'),
        uuid: q.get('uuid'),
        inTree: q.get('in_tree'),
        memberOf: memberOf?.required,
        forbiddenAggregates: memberOf?.forbidden,
        requiredTraits: traits?.required,
        forbiddenTraits: traits?.forbidden,
        resources,
      }),
    {
      400: (e) =>
        e.message.startsWith('No such trait')
          ? badRequest(`Invalid trait(s) in "required" parameter: ${e.message}`)
          : new HttpError(400, e.message, e.code),
    },
  );
  const body = { resource_providers: providers.map((rp) => serializeProvider(req, rp)) };
  return withCacheHeaders(req, jsonResponse(body), latest(providers.map(lastModifiedOf)));
}

/** PUT /resource_providers/{uuid}. */
export async function updateResourceProvider(
  req: RestRequest,
  svc: Services,
): Promise<RestResponse> {
  const uuid = req.param('uuid');
  req.requireJsonContentOrThrow();
  req.authorizeOrThrow('placement:resource_providers:update');
  await providerOrThrow(svc, uuid);
  const data = req.jsonOrThrow(schemaFor(req, PUT_SCHEMAS));
  const rp = await mapDomainErrors(
    () =>
      svc.providers.update({
        uuid,
        name: data.name,
        parentUuid: 'parent_provider_uuid' in data ? data.parent_provider_uuid : undefined,
        allowReparenting: req.matches('1.37'),
      }),
    {
      400: (e) => badRequest(`Unable to save resource provider ${uuid}: ${e.message}`, e.code),
    },
  );
  return withCacheHeaders(req, jsonResponse(serializeProvider(req, rp)), rp.updatedAt);
}
