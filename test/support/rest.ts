// The REST test client: a berth App on a real port and Placement-style requests to it. One
// client for every REST suite (they differ only in default headers).
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { App } from '../../src/app/app';

/** A listener on 127.0.0.1 with an OS-chosen port. */
export async function listen(handler: RequestListener): Promise<{ server: Server; base: string }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** Closes `server`, ending idle keep-alive connections first. */
export function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/** What a REST call answered: `json` is the parsed body when it is JSON, else undefined. */
export interface RestReply {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  readonly json: any;
}

/** Headers of an admin on Placement's noauth2 at the latest microversion. */
export const ADMIN_LATEST: Readonly<Record<string, string>> = {
  'x-auth-token': 'admin',
  accept: 'application/json',
  'openstack-api-version': 'placement latest',
};

export interface RestClient {
  /** http://127.0.0.1:<port><prefix> */
  readonly base: string;
  /**
   * Sends `method path` with `headers` (default: the client's); an object `body` is sent as
   * JSON (with its content type), a string as it is.
   */
  call(
    method: string,
    path: string,
    o?: { headers?: Record<string, string>; body?: unknown },
  ): Promise<RestReply>;
  close(): Promise<void>;
}

/** Serves `app` and returns a client for the REST facade at `prefix`. */
export async function restClient(
  app: App,
  o: { prefix?: string; headers?: Record<string, string> } = {},
): Promise<RestClient> {
  const { server, base } = await listen((req, res) => app.handle(req, res));
  const root = `${base}${o.prefix ?? '/placement'}`;
  return {
    base: root,
    async call(method, path, c = {}) {
      const headers = { ...(c.headers ?? o.headers ?? ADMIN_LATEST) };
      let body: string | undefined;
      if (typeof c.body === 'string') {
        body = c.body;
      } else if (c.body !== undefined) {
        body = JSON.stringify(c.body);
        headers['content-type'] ??= 'application/json';
      }
      const res = await fetch(`${root}${path}`, { method, headers, body });
      const text = await res.text();
      const isJson = res.headers.get('content-type')?.startsWith('application/json') ?? false;
      return {
        status: res.status,
        headers: res.headers,
        text,
        json: isJson ? JSON.parse(text) : undefined,
      };
    },
    close: () => closeServer(server),
  };
}
