// HTTP client of the soak harness: one keep-alive agent per replica, the request headers in one
// place (authHeaders), and every response classified the same way for GraphQL and REST.
import { randomUUID } from 'node:crypto';
import { Agent, request } from 'node:http';

/**
 * Headers every request carries: the scheduler token main.ts creates after seeding (SOAK_TOKEN),
 * sent both as GraphQL bearer and as REST x-auth-token.
 */
export function authHeaders(): Record<string, string> {
  const token = process.env.SOAK_TOKEN;
  return token ? { authorization: `Bearer ${token}`, 'x-auth-token': token } : {};
}

/**
 * How a request ended:
 * - ok: success (2xx and, for GraphQL, no errors);
 * - rejected: a clean domain error (4xx / a Placement code), so nothing was written;
 * - retryable: 503 or `berth.unavailable`, the write may or may not have committed;
 * - unexpected: a masked GraphQL error (INTERNAL_SERVER_ERROR) on HTTP 200;
 * - http5xx: a 5xx other than 503;
 * - refused: the connection was refused (the request never reached a server);
 * - network: the connection broke after the request was sent (outcome unknown);
 * - timeout: no answer within the client deadline (outcome unknown).
 */
export type Outcome =
  | 'ok'
  | 'rejected'
  | 'retryable'
  | 'unexpected'
  | 'http5xx'
  | 'refused'
  | 'network'
  | 'timeout';

/** One classified response. */
export interface Reply<T = unknown> {
  readonly outcome: Outcome;
  readonly status: number;
  /** Error code (GraphQL extensions.code / REST errors[0].code) or network error code. */
  readonly code?: string;
  /** For GraphQL errors: extensions.status (the domain error's HTTP class, e.g. 404). */
  readonly errorStatus?: number;
  readonly data?: T;
  /** Wall time in milliseconds. */
  readonly ms: number;
  /** Date.now() when the request was sent. */
  readonly sentAt: number;
  /**
   * The request id the server logs and audits it under: the x-request-id sent (GraphQL), the
   * x-openstack-request-id answered (REST; unknown when the answer was lost).
   */
  readonly requestId?: string;
}

/** True when the outcome leaves the write's effect unknown. */
export function inDoubt(outcome: Outcome): boolean {
  return outcome !== 'ok' && outcome !== 'rejected' && outcome !== 'refused';
}

interface RawReply {
  status: number;
  body: string;
  error?: string;
  /** The x-openstack-request-id header of the answer. */
  openstackRequestId?: string;
}

/** A client bound to one replica's base URL. */
export class ReplicaClient {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 64 });
  private readonly host: string;
  private readonly port: number;

  constructor(
    readonly url: string,
    private readonly timeoutMs = 30000,
  ) {
    const u = new URL(url);
    this.host = u.hostname;
    this.port = Number(u.port);
  }

  private raw(method: string, path: string, headers: Record<string, string>, body?: string) {
    return new Promise<RawReply>((resolve) => {
      let settled = false;
      const done = (r: RawReply) => {
        if (!settled) {
          settled = true;
          resolve(r);
        }
      };
      const req = request(
        {
          host: this.host,
          port: this.port,
          method,
          path,
          agent: this.agent,
          headers: {
            ...authHeaders(),
            ...headers,
            ...(body ? { 'content-length': Buffer.byteLength(body) } : {}),
          },
          timeout: this.timeoutMs,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          const id = res.headers['x-openstack-request-id'];
          res.on('end', () =>
            done({
              status: res.statusCode ?? 0,
              body: Buffer.concat(chunks).toString('utf8'),
              openstackRequestId: typeof id === 'string' ? id : undefined,
            }),
          );
          res.on('error', (err) => done({ status: 0, body: '', error: errCode(err) }));
        },
      );
      req.on('timeout', () => {
        req.destroy(new Error('client timeout'));
        done({ status: 0, body: '', error: 'TIMEOUT' });
      });
      req.on('error', (err) => done({ status: 0, body: '', error: errCode(err) }));
      req.end(body);
    });
  }

  /** POST /graphql; `field` is the top-level field whose value is returned as data. */
  async graphql<T>(query: string, variables: object, field: string): Promise<Reply<T>> {
    const sentAt = Date.now();
    const t = performance.now();
    const requestId = `soak-${randomUUID()}`;
    const r = await this.raw(
      'POST',
      '/graphql',
      {
        'content-type': 'application/json',
        accept: 'application/json',
        'x-request-id': requestId,
      },
      JSON.stringify({ query, variables }),
    );
    const ms = performance.now() - t;
    const net = networkOutcome(r);
    if (net) {
      return { outcome: net, status: 0, code: r.error, ms, sentAt, requestId };
    }
    let doc: {
      data?: Record<string, unknown> | null;
      errors?: { extensions?: { code?: string; status?: number } }[];
    };
    try {
      doc = JSON.parse(r.body);
    } catch {
      return {
        outcome: statusOutcome(r.status, true),
        status: r.status,
        code: 'NON_JSON',
        ms,
        sentAt,
        requestId,
      };
    }
    const code = doc.errors?.[0]?.extensions?.code;
    if (doc.errors?.length) {
      const outcome =
        code === 'berth.unavailable' || r.status === 503
          ? 'retryable'
          : r.status >= 500
            ? 'http5xx'
            : code === 'INTERNAL_SERVER_ERROR' || code === undefined
              ? 'unexpected'
              : 'rejected';
      const errorStatus = doc.errors[0]?.extensions?.status;
      const c = code ?? 'NO_CODE';
      return { outcome, status: r.status, code: c, errorStatus, ms, sentAt, requestId };
    }
    if (r.status < 200 || r.status >= 300) {
      return { outcome: statusOutcome(r.status, false), status: r.status, ms, sentAt, requestId };
    }
    const data = doc.data?.[field] as T;
    return { outcome: 'ok', status: r.status, data, ms, sentAt, requestId };
  }

  /** A Placement REST call at microversion 1.39 under /placement. */
  async rest(method: string, path: string, body?: object): Promise<Reply> {
    const sentAt = Date.now();
    const t = performance.now();
    const r = await this.raw(
      method,
      `/placement${path}`,
      {
        'openstack-api-version': 'placement 1.39',
        accept: 'application/json',
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body ? JSON.stringify(body) : undefined,
    );
    const ms = performance.now() - t;
    const net = networkOutcome(r);
    if (net) {
      return { outcome: net, status: 0, code: r.error, ms, sentAt };
    }
    let code: string | undefined;
    if (r.status >= 300) {
      try {
        code = (JSON.parse(r.body) as { errors?: { code?: string }[] }).errors?.[0]?.code;
      } catch {
        code = 'NON_JSON';
      }
    }
    const outcome = statusOutcome(r.status, false);
    const requestId = r.openstackRequestId;
    return { outcome, status: r.status, code: code ?? String(r.status), ms, sentAt, requestId };
  }

  /** POST /graphql `{ version }` with `token` instead of the soak token: status, JSON or not. */
  async probeToken(token: string): Promise<{ status: number; json: boolean }> {
    const r = await this.raw(
      'POST',
      '/graphql',
      { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      '{"query":"{ version { berth } }"}',
    );
    let json = true;
    try {
      JSON.parse(r.body);
    } catch {
      json = false;
    }
    return { status: r.error ? 0 : r.status, json };
  }

  /** GET /readyz: status and parsed body (undefined when unreachable). */
  async readyz(): Promise<{ status: number; checks?: Record<string, string> }> {
    const r = await this.raw('GET', '/readyz', {});
    if (r.error) {
      return { status: 0 };
    }
    try {
      return {
        status: r.status,
        checks: (JSON.parse(r.body) as { checks?: Record<string, string> }).checks,
      };
    } catch {
      return { status: r.status };
    }
  }

  close(): void {
    this.agent.destroy();
  }
}

function errCode(err: unknown): string {
  return (err as { code?: string }).code ?? (err as Error).message ?? 'ERROR';
}

function networkOutcome(r: RawReply): Outcome | undefined {
  if (!r.error) {
    return undefined;
  }
  if (r.error === 'ECONNREFUSED') {
    return 'refused';
  }
  return r.error === 'TIMEOUT' ? 'timeout' : 'network';
}

function statusOutcome(status: number, nonJson: boolean): Outcome {
  if (status === 503) {
    return 'retryable';
  }
  if (status >= 500) {
    return 'http5xx';
  }
  if (status >= 200 && status < 300 && !nonJson) {
    return 'ok';
  }
  return status >= 400 ? 'rejected' : 'unexpected';
}
