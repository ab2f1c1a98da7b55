// /traits, /traits/{name} and /resource_providers/{uuid}/traits (upstream:
// placement/handlers/trait.py).

import type { Services } from '../../app/services';
import { ErrorCode } from '../../placement/errors';
import type { TraitFilter } from '../../placement/trait';
import type { TraitRecord } from '../../placement/types';
import { mapDomainErrors } from '../domain-errors';
import { badRequest, conflict, notFound } from '../http-error';
import { validateSchema } from '../json-schema';
import type { RestRequest } from '../request';
import {
  emptyResponse,
  jsonResponse,
  latest,
  type RestResponse,
  withCacheHeaders,
} from '../response';
import { CUSTOM_TRAIT, LIST_TRAIT_SCHEMA, SET_TRAITS_FOR_RP_SCHEMA } from '../schemas/trait';
import { providerOrThrow } from './provider-lookup';

const traitUrl = (req: RestRequest, name: string) => `${req.prefix}/traits/${name}`;

async function traitOrThrow(svc: Services, name: string): Promise<TraitRecord> {
  const trait = await svc.traits.find(name);
  if (!trait) {
    throw notFound(`No such trait(s): ${name}.`);
  }
  return trait;
}

function nameFilterOrThrow(qs: string): TraitFilter {
  const colon = qs.indexOf(':');
  if (colon < 0) {
    throw badRequest(
      'Badly formatted name parameter. Expected name query string parameter in form: ' +
        `?name=[in|startswith]:[name1,name2|prefix]. Got: "${qs}"`,
    );
  }
  const op = qs.slice(0, colon);
  const value = qs.slice(colon + 1);
  if (op === 'in') {
    return { nameIn: value.split(',') };
  }
  if (op === 'startswith') {
    return { startsWith: value };
  }
  return {};
}

/** PUT /traits/{name} (1.6): create a custom trait if missing. */
export async function putTrait(req: RestRequest, svc: Services): Promise<RestResponse> {
  req.requireVersionOrThrow('1.6');
  req.authorizeOrThrow('placement:traits:update');
  const name = req.param('name');
  if (validateSchema(name, CUSTOM_TRAIT) !== undefined) {
    throw badRequest(
      'The trait is invalid. A valid trait must be no longer than 255 characters, start with the ' +
        'prefix "CUSTOM_" and use following characters: "A"-"Z", "0"-"9" and "_"',
    );
  }
  const { record, created } = await mapDomainErrors(() => svc.traits.ensure(name));
  return withCacheHeaders(
    req,
    emptyResponse(created ? 201 : 204, { location: traitUrl(req, name) }),
    record.createdAt,
  );
}

/** GET /traits/{name} (1.6): 204 when it exists. */
export async function getTrait(req: RestRequest, svc: Services): Promise<RestResponse> {
  req.requireVersionOrThrow('1.6');
  req.authorizeOrThrow('placement:traits:show');
  const trait = await traitOrThrow(svc, req.param('name'));
  return withCacheHeaders(req, emptyResponse(204), trait.createdAt);
}

/** DELETE /traits/{name} (1.6). */
export async function deleteTrait(req: RestRequest, svc: Services): Promise<RestResponse> {
  req.requireVersionOrThrow('1.6');
  req.authorizeOrThrow('placement:traits:delete');
  const name = req.param('name');
  await traitOrThrow(svc, name);
  await mapDomainErrors(() => svc.traits.delete(name));
  return emptyResponse(204);
}

/**
 * The traits body. Placement selects traits without ORDER BY, so PostgreSQL returns them in the
 * traits table's row order: creation (id) order, which berth writes too. (A provider's own list,
 * GET /resource_providers/{uuid}/traits, is the row order of resource_provider_traits there,
 * which follows CPython's set iteration at insert time; berth uses trait id order for it as
 * well, see docs/rest-facade.md.)
 */
function sendTraits(req: RestRequest, traits: readonly TraitRecord[], extra = {}) {
  const byId = [...traits].sort((a, b) => a.id - b.id);
  return withCacheHeaders(
    req,
    jsonResponse({ traits: byId.map((t) => t.name), ...extra }),
    latest(traits.map((t) => t.updatedAt ?? t.createdAt)),
  );
}

/** GET /traits (1.6) with name=in:|startswith: and associated= filters. */
export async function listTraits(req: RestRequest, svc: Services): Promise<RestResponse> {
  req.requireVersionOrThrow('1.6');
  req.checkAcceptOrThrow();
  req.authorizeOrThrow('placement:traits:list');
  const q = req.query;
  q.validateOrThrow(LIST_TRAIT_SCHEMA);
  let filter: TraitFilter = q.has('name') ? nameFilterOrThrow(q.get('name')!) : {};
  if (q.has('associated')) {
    const v = q.get('associated')!.toLowerCase();
    if (v !== 'true' && v !== 'false') {
      throw badRequest('The query parameter "associated" only accepts "true" or "false"');
    }
    filter = { ...filter, associated: v === 'true' };
  }
  return sendTraits(req, await svc.traits.list(filter));
}

/** GET /resource_providers/{uuid}/traits (1.6). */
export async function listTraitsForResourceProvider(
  req: RestRequest,
  svc: Services,
): Promise<RestResponse> {
  req.requireVersionOrThrow('1.6');
  req.checkAcceptOrThrow();
  req.authorizeOrThrow('placement:resource_providers:traits:list');
  const rp = await providerOrThrow(
    svc,
    req.param('uuid'),
    (u) => `No resource provider with uuid ${u} found: No resource provider with uuid ${u} found`,
  );
  const { provider, traits } = await mapDomainErrors(() => svc.providerTraits.get(rp.uuid));
  const records = traits.length > 0 ? await svc.traits.list({ nameIn: traits }) : [];
  return sendTraits(req, records, { resource_provider_generation: provider.generation });
}

/** PUT /resource_providers/{uuid}/traits (1.6). */
export async function updateTraitsForResourceProvider(
  req: RestRequest,
  svc: Services,
): Promise<RestResponse> {
  req.requireVersionOrThrow('1.6');
  req.requireJsonContentOrThrow();
  req.authorizeOrThrow('placement:resource_providers:traits:update');
  const data = req.jsonOrThrow(SET_TRAITS_FOR_RP_SCHEMA);
  const rp = await providerOrThrow(svc, req.param('uuid'));
  if (rp.generation !== data.resource_provider_generation) {
    throw conflict(
      "Resource provider's generation already changed. Please update the generation and try again.",
      ErrorCode.CONCURRENT_UPDATE,
    );
  }
  const result = await mapDomainErrors(
    () => svc.providerTraits.set(rp.uuid, rp.generation, data.traits),
    { 400: (e) => badRequest(e.message.replace('No such trait(s):', 'No such trait')) },
  );
  const records = result.traits.length > 0 ? await svc.traits.list({ nameIn: result.traits }) : [];
  return sendTraits(req, records, { resource_provider_generation: result.provider.generation });
}

/** DELETE /resource_providers/{uuid}/traits (1.6). */
export async function deleteTraitsForResourceProvider(
  req: RestRequest,
  svc: Services,
): Promise<RestResponse> {
  req.requireVersionOrThrow('1.6');
  req.authorizeOrThrow('placement:resource_providers:traits:delete');
  const rp = await providerOrThrow(svc, req.param('uuid'));
  await mapDomainErrors(() => svc.providerTraits.deleteAll(rp.uuid), {
    409: (e) => conflict(e.message, ErrorCode.CONCURRENT_UPDATE),
  });
  return emptyResponse(204);
}
