// berth's icon: /favicon.ico (what browsers ask every origin for; the console and GraphiQL pages
// would otherwise log a 404 on every load) and the same mark as SVG for GraphiQL's logo. Three
// berths (white) by a pier post (amber) on a navy tile; a 32×32 PNG inside an ICO container.
import type { ServerResponse } from 'node:http';

/** Where browsers look for an origin's icon. */
export const FAVICON_PATH = '/favicon.ico';

const ICO = Buffer.from(
  'AAABAAEAICAAAAEAIACiAAAAFgAAAIlQTkcNChoKAAAADUlIRFIAAAAgAAAAIAgGAAAAc3p69AAAAGlJREFUeNpjYMABRC2z/1MTMxADqG0pSY6hl+VYHUFvyzEcMbIdMFCWwx2BS4IWYNQBow4gyQGU4v9HGFAwyblgwB1AaVCPOmDUAUM/FwyJbDjqgFEHUMUBo63iQeGAAe+aDYrO6UB1zwHbWLgtp2QNmgAAAABJRU5ErkJggg==',
  'base64',
);

/** The same mark as an inline SVG element (GraphiQL's logo; HTML needs no xmlns). */
export const LOGO_SVG =
  '<svg viewBox="0 0 32 32" width="28" height="28" role="img" aria-label="berth">' +
  '<rect width="32" height="32" rx="6" fill="#15396b"/>' +
  '<path fill="#fff" d="M6 7h21v5H6zM6 14h15v5H6zM6 21h9v5H6z"/>' +
  '<path fill="#ffc400" d="M22 12h4v14h-4z"/></svg>';

/** Answers GET/HEAD /favicon.ico (cached for a day), 405 for other methods. */
export function serveFavicon(method: string, res: ServerResponse): void {
  if (method !== 'GET' && method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: `${method} is not allowed on ${FAVICON_PATH}` }));
    return;
  }
  res.writeHead(200, {
    'content-type': 'image/x-icon',
    'content-length': ICO.length,
    'cache-control': 'public, max-age=86400',
    'x-content-type-options': 'nosniff',
  });
  res.end(method === 'HEAD' ? undefined : ICO);
}
