// The stable error code of a refused request, for its request log line. Handlers that answer
// with an error note its code here; the HTTP router's `request` line (written when the response
// finishes) carries it beside the status, so an operator can find refused writes by code and
// request id (committed writes are in the audit trail).
import type { ServerResponse } from 'node:http';

const codes = new WeakMap<ServerResponse, string>();

/** Records the error code `res` answers with. */
export function noteErrorCode(res: ServerResponse, code: string): void {
  codes.set(res, code);
}

/** The error code noted for `res`, if any. */
export function errorCodeOf(res: ServerResponse): string | undefined {
  return codes.get(res);
}
