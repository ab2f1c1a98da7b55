// GET / : the version document (upstream: placement/handlers/root.py).
import { MAX_VERSION, MIN_VERSION } from '../microversion';
import type { RestRequest } from '../request';
import { jsonResponse, type RestResponse, withCacheHeaders } from '../response';

/** GET / (and the bare prefix): min/max microversion, no auth needed. */
export async function home(req: RestRequest): Promise<RestResponse> {
  const versionData = {
    id: `v${MIN_VERSION}`,
    max_version: MAX_VERSION,
    min_version: MIN_VERSION,
    status: 'CURRENT',
    links: [{ rel: 'self', href: '' }],
  };
  return withCacheHeaders(req, jsonResponse({ versions: [versionData] }));
}
