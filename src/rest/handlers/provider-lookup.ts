// Loading the provider a /resource_providers/{uuid}/... route names, with the 404 wording the
// upstream handler uses (upstream: ResourceProvider.get_by_uuid as called by each handler).
import type { ResourceProviderRecord } from '../../placement/types';
import type { Services } from '../../services';
import { HttpError } from '../http-error';

/**
 * The provider with `uuid` (malformed uuids are simply not found, as in Placement).
 * @throws HttpError 404 with `message(uuid)` or 'No resource provider with uuid X found'.
 */
export async function providerOrThrow(
  services: Services,
  uuid: string,
  message: (uuid: string) => string = (u) => `No resource provider with uuid ${u} found`,
): Promise<ResourceProviderRecord> {
  const rp = await services.providers.find(uuid);
  if (!rp) {
    throw new HttpError(404, message(uuid));
  }
  return rp;
}
