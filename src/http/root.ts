// `GET /`: a browser opening the server's address lands on the console. With the REST facade
// mounted at '/' (BERTH_REST_PREFIX=''), `/` is also Placement's version document, which
// Placement clients read for version discovery: there only a request that prefers HTML and names
// no Placement microversion is redirected, and every other one gets the facade's answer unchanged.
import type { IncomingMessage } from 'node:http';
import { acceptableOffers } from '../rest/accept';
import { VERSION_HEADER } from '../rest/microversion';
import { CONSOLE_PREFIX } from './console-assets';

/** Where `/` sends browsers. */
export const ROOT_REDIRECT = `${CONSOLE_PREFIX}/`;

/** True when the Accept header ranks text/html above JSON (a browser's page load). */
export function prefersHtml(accept: string | undefined): boolean {
  if (accept === undefined || !/text\/html/i.test(accept)) {
    return false;
  }
  return acceptableOffers(accept, ['application/json', 'text/html'])[0] === 'text/html';
}

/**
 * Whether a request for `/` is redirected to the console: GET or HEAD, and, when the REST facade
 * is mounted at '/' (`restPrefix` ''), only a browser's (HTML preferred, no microversion header).
 */
export function redirectsToConsole(req: IncomingMessage, restPrefix: string): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    return false;
  }
  if (restPrefix !== '') {
    return true;
  }
  return req.headers[VERSION_HEADER] === undefined && prefersHtml(req.headers.accept);
}
