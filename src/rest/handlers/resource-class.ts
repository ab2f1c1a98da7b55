// /resource_classes and /resource_classes/{name}: list, create, show, update (rename before
// 1.7, create-if-missing from 1.7), delete (upstream: placement/handlers/resource_class.py).

import type { Services } from '../../app/services';
import type { ResourceClassRecord } from '../../placement/types';
import { mapDomainErrors } from '../domain-errors';
import { badRequest, conflict, HttpError, notFound, outsideHandler } from '../http-error';
import { validateSchema } from '../json-schema';
import type { RestRequest } from '../request';
import {
  emptyResponse,
  jsonResponse,
  latest,
  type RestResponse,
  withCacheHeaders,
} from '../response';
import { POST_RC_SCHEMA_V1_2, PUT_RC_SCHEMA_V1_2 } from '../schemas/resource-class';

const classUrl = (req: RestRequest, name: string) => `${req.prefix}/resource_classes/${name}`;

function serialize(req: RestRequest, rc: ResourceClassRecord) {
  return { name: rc.name, links: [{ rel: 'self', href: classUrl(req, rc.name) }] };
}

const modified = (rc: ResourceClassRecord): Date => rc.updatedAt ?? rc.createdAt;

async function classOrThrow(svc: Services, name: string): Promise<ResourceClassRecord> {
  const rc = await svc.resourceClasses.find(name);
  if (!rc) {
    // ResourceClass.get_by_name's NotFound, uncaught by the handler.
    throw outsideHandler(notFound(`No such resource class ${name}.`));
  }
  return rc;
}

/** POST /resource_classes (1.2). */
export async function createResourceClass(req: RestRequest, svc: Services): Promise<RestResponse> {
  req.requireVersionOrThrow('1.2');
  req.requireJsonContentOrThrow();
  req.authorizeOrThrow('placement:resource_classes:create');
  const { name } = req.jsonOrThrow(POST_RC_SCHEMA_V1_2);
  await mapDomainErrors(() => svc.resourceClasses.create(name), {
    409: () => conflict(`Conflicting resource class already exists: ${name}`),
  });
  return emptyResponse(201, { location: classUrl(req, name) });
}

/** DELETE /resource_classes/{name} (1.2). */
export async function deleteResourceClass(req: RestRequest, svc: Services): Promise<RestResponse> {
  req.requireVersionOrThrow('1.2');
  const name = req.param('name');
  req.authorizeOrThrow('placement:resource_classes:delete');
  await classOrThrow(svc, name);
  await mapDomainErrors(() => svc.resourceClasses.delete(name), {
    400: (e) => badRequest(`Error in delete resource class: ${e.message}`),
    409: (e) => conflict(`Error in delete resource class: ${e.message}`),
  });
  return emptyResponse(204);
}

/** GET /resource_classes/{name} (1.2). */
export async function getResourceClass(req: RestRequest, svc: Services): Promise<RestResponse> {
  req.requireVersionOrThrow('1.2');
  req.checkAcceptOrThrow();
  req.authorizeOrThrow('placement:resource_classes:show');
  const rc = await classOrThrow(svc, req.param('name'));
  return withCacheHeaders(req, jsonResponse(serialize(req, rc)), modified(rc));
}

/** GET /resource_classes (1.2). */
export async function listResourceClasses(req: RestRequest, svc: Services): Promise<RestResponse> {
  req.requireVersionOrThrow('1.2');
  req.checkAcceptOrThrow();
  req.authorizeOrThrow('placement:resource_classes:list');
  const classes = await svc.resourceClasses.list();
  return withCacheHeaders(
    req,
    jsonResponse({ resource_classes: classes.map((rc) => serialize(req, rc)) }),
    latest(classes.map(modified)),
  );
}

async function renameResourceClass(req: RestRequest, svc: Services): Promise<RestResponse> {
  const name = req.param('name');
  req.requireJsonContentOrThrow();
  req.authorizeOrThrow('placement:resource_classes:update');
  const data = req.jsonOrThrow(PUT_RC_SCHEMA_V1_2);
  await classOrThrow(svc, name);
  const rc = await mapDomainErrors(() => svc.resourceClasses.rename(name, data.name), {
    400: () => badRequest(`Cannot update standard resource class ${name}`),
    409: () => conflict(`Resource class already exists: ${data.name}`),
  });
  return jsonResponse(serialize(req, rc));
}

async function ensureResourceClass(req: RestRequest, svc: Services): Promise<RestResponse> {
  const name = req.param('name');
  req.authorizeOrThrow('placement:resource_classes:update');
  const error = validateSchema({ name }, PUT_RC_SCHEMA_V1_2);
  if (error !== undefined) {
    throw badRequest(`JSON does not validate: ${error}`);
  }
  const { created } = await mapDomainErrors(() => svc.resourceClasses.ensure(name));
  return emptyResponse(created ? 201 : 204, { location: classUrl(req, name) });
}

/** PUT /resource_classes/{name}: rename (1.2 - 1.6) or create if missing (1.7). */
export async function updateResourceClass(req: RestRequest, svc: Services): Promise<RestResponse> {
  if (req.matches('1.7')) {
    return ensureResourceClass(req, svc);
  }
  if (req.matches('1.2', '1.6')) {
    return renameResourceClass(req, svc);
  }
  throw new HttpError(404);
}
