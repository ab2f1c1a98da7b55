// Reads an HTTP request body with a size limit (BERTH_MAX_BODY_BYTES), for GraphQL and REST.
import type { IncomingMessage } from 'node:http';

/** The body is larger than the limit (the response is 413). */
export class BodyTooLargeError extends Error {
  constructor(readonly limitBytes: number) {
    super(`Request body is larger than the limit of ${limitBytes} bytes (BERTH_MAX_BODY_BYTES).`);
    this.name = 'BodyTooLargeError';
  }
}

/**
 * Buffers the body of `req`, failing fast on a declared content-length above `maxBytes` and
 * otherwise as soon as more than `maxBytes` arrive (the rest is drained and discarded so the
 * 413 can still be delivered).
 * @throws BodyTooLargeError
 */
export function readBodyLimited(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (Number.isFinite(declared) && declared > maxBytes) {
      req.resume();
      reject(new BodyTooLargeError(maxBytes));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (c: Buffer) => {
      if (over) {
        return;
      }
      size += c.length;
      if (size > maxBytes) {
        over = true;
        chunks.length = 0;
        reject(new BodyTooLargeError(maxBytes));
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => {
      if (!over) {
        resolve(Buffer.concat(chunks));
      }
    });
    req.on('error', reject);
  });
}
