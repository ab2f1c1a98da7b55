// The client side of the HTTP bench: keep-alive connections through undici's Pool (one pool per
// server, as a long-running scheduler holds them), timing helpers and the printed line format.
import { Pool } from 'undici';

/** One answer: status, body text and the wall time it took (ms, request to last byte). */
export interface Timed {
  readonly status: number;
  readonly body: string;
  readonly ms: number;
}

/** A keep-alive client for one server, sending `headers` on every request. */
export class BenchClient {
  private readonly pool: Pool;

  constructor(
    readonly url: string,
    private readonly headers: Record<string, string>,
    connections = 64,
  ) {
    this.pool = new Pool(url, { connections, pipelining: 1, keepAliveTimeout: 60_000 });
  }

  /** Sends one request and reads the whole body. */
  async send(
    method: 'GET' | 'PUT' | 'POST' | 'DELETE',
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Timed> {
    const t = performance.now();
    const res = await this.pool.request({
      method,
      path,
      headers: {
        ...this.headers,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.body.text();
    return { status: res.statusCode, body: text, ms: performance.now() - t };
  }

  /** POSTs a GraphQL operation; throws on transport or GraphQL errors. */
  async graphql(query: string, variables: object): Promise<Timed & { data: unknown }> {
    const r = await this.send('POST', '/graphql', { query, variables });
    const parsed = JSON.parse(r.body) as { data?: unknown; errors?: { message: string }[] };
    if (r.status !== 200 || parsed.errors) {
      throw new Error(
        `GraphQL ${r.status}: ${parsed.errors?.[0]?.message ?? r.body.slice(0, 200)}`,
      );
    }
    return { ...r, data: parsed.data };
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

/** A client of `url` sending `token` the way each API reads it (REST and GraphQL). */
export function tokenClient(url: string, token: string): BenchClient {
  return new BenchClient(url, { 'x-auth-token': token, authorization: `Bearer ${token}` });
}

/** The p-th percentile of `xs`. */
export function pct(xs: readonly number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
}

/** `n` padded to a fixed width with one decimal. */
export const fmt = (n: number, w = 7) => n.toFixed(1).padStart(w);

/** Runs `one` with `clients` concurrent loops until `total` calls started; wall seconds. */
export async function concurrently(
  clients: number,
  total: number,
  one: () => Promise<void>,
): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < total) {
        next++;
        await one();
      }
    }),
  );
  return (performance.now() - started) / 1000;
}
