// Loading the provider a /resource_providers/{uuid}/... route names, with the 404 wording the
// upstream handler uses (upstream: ResourceProvider.get_by_uuid as called by each handler).

import type { Services } from '../../app/services';
import type { ResourceProviderRecord } from '../../placement/types';
import { HttpError, outsideHandler } from '../http-error';

/**
 * The provider with `uuid` (malformed uuids are simply not found, as in Placement).
 * @throws HttpError 404 with `message(uuid)` (the handler catches NotFound and words it), or
 *   without `message` 'No resource provider with uuid X found' raised outside the handler, as
 *   Placement's uncaught NotFound is (no `vary`; handler.py PlacementHandler.__call__).
 */
export async function providerOrThrow(
  services: Services,
  uuid: string,
  message?: (uuid: string) => string,
): Promise<ResourceProviderRecord> {
  const rp = await services.providers.find(uuid);
  if (!rp) {
    throw message
      ? new HttpError(404, message(uuid))
      : outsideHandler(new HttpError(404, `No resource provider with uuid ${uuid} found`));
  }
  return rp;
}
