// Rate limits over the network (GraphQL and the REST facade): a valid token is never throttled
// unless its role has a limit (BERTH_RATE_LIMIT_ROLES, per token); failed authentications are
// limited per client address (BERTH_RATE_LIMIT), before any token lookup; with auth off nothing
// is limited unless BERTH_RATE_LIMIT_ANONYMOUS says so; REST noauth2 is never limited. Every 429
// is berth.rate_limited with Retry-After and a message naming the limit that was hit.
import type { Server } from 'node:http';
import type { Role } from '../../src/auth/roles';
import { createTestApp, type TestApp } from '../support/app';
import { closeServer, listen } from '../support/rest';

/** An hour: no test here straddles a window boundary by chance. */
const WINDOW = { BERTH_RATE_LIMIT_WINDOW_MS: '3600000' };
const AUTH_ON = { ...WINDOW, BERTH_AUTH: 'on', BERTH_REST_AUTH: 'token' };
const AUTH_OFF = { ...WINDOW, BERTH_AUTH: 'off', BERTH_REST_AUTH: 'token' };
const GUESS = `berth_0123456789abcdef_${'x'.repeat(43)}`;

type Api = 'graphql' | 'rest';

/** One answer: status, Retry-After, and the error's code and message (GraphQL or Placement). */
interface Answer {
  readonly status: number;
  readonly retryAfter: string | null;
  readonly code?: string;
  readonly message?: string;
}

/** A served app and requests to it as a caller presenting `token` (undefined = none). */
async function serve(env: Record<string, string>) {
  const t: TestApp = await createTestApp(env);
  const { server, base }: { server: Server; base: string } = await listen((req, res) =>
    t.app.handle(req, res),
  );
  async function send(api: Api, token?: string, path = '/resource_classes'): Promise<Answer> {
    const restToken = token ?? (env.BERTH_REST_AUTH === 'noauth2' ? 'admin' : undefined);
    const res =
      api === 'graphql'
        ? await fetch(`${base}/graphql`, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
            },
            body: '{"query":"{ version { berth } }"}',
          })
        : await fetch(`${base}/placement${path}`, {
            headers: {
              accept: 'application/json',
              'openstack-api-version': 'placement latest',
              ...(restToken === undefined ? {} : { 'x-auth-token': restToken }),
            },
          });
    const body = (await res.json()) as {
      errors?: {
        message?: string;
        detail?: string;
        code?: string;
        extensions?: { code?: string };
      }[];
    };
    const e = body.errors?.[0];
    return {
      status: res.status,
      retryAfter: res.headers.get('retry-after'),
      code: e?.extensions?.code ?? e?.code,
      message: e?.message ?? e?.detail,
    };
  }
  async function sendMany(n: number, api: Api, token?: string): Promise<Answer[]> {
    const out: Answer[] = [];
    for (let i = 0; i < n; i++) {
      out.push(await send(api, token));
    }
    return out;
  }
  const token = async (role: Role) => (await t.app.tokens.create({ role })).token;
  return {
    t,
    send,
    sendMany,
    token,
    async close() {
      await closeServer(server);
      await t.close();
    },
  };
}

/** Every 429 is berth.rate_limited, says when to retry and names the limit hit. */
function expectThrottled(a: Answer | undefined, limit: RegExp): void {
  expect(a?.status).toBe(429);
  expect(a?.code).toBe('berth.rate_limited');
  expect(a?.message).toMatch(limit);
  expect(a?.retryAfter).toMatch(/^\d+$/);
  const s = Number(a?.retryAfter);
  expect(s).toBeGreaterThanOrEqual(1);
  expect(s).toBeLessThanOrEqual(3600);
}

// `sent` requests as `as` (a role's token, an unknown token, or none); the first `served` get
// `status`, every later one 429 naming `limit`.
const table: {
  what: string;
  env: Record<string, string>;
  api: Api;
  as: Role | 'unknown token' | 'no token';
  sent: number;
  served: number;
  status: number;
  limit?: RegExp;
}[] = [
  ...(['reader', 'scheduler', 'admin'] as const).flatMap((role) =>
    (['graphql', 'rest'] as const).map((api) => ({
      what: `valid ${role} token is not limited by default`,
      env: { ...AUTH_ON, BERTH_RATE_LIMIT: '3' },
      api,
      as: role,
      sent: 53,
      served: 53,
      status: 200,
    })),
  ),
  ...(['graphql', 'rest'] as const).flatMap((api) => [
    {
      what: 'an opted-in role is limited per token',
      env: { ...AUTH_ON, BERTH_RATE_LIMIT: '0', BERTH_RATE_LIMIT_ROLES: 'reader=5' },
      api,
      as: 'reader' as const,
      sent: 8,
      served: 5,
      status: 200,
      limit: /for role reader: at most 5 requests per token per 3600 s/,
    },
    {
      what: 'a role without a limit (or 0) is not limited when another role is',
      env: { ...AUTH_ON, BERTH_RATE_LIMIT_ROLES: 'reader=5,scheduler=0' },
      api,
      as: 'scheduler' as const,
      sent: 55,
      served: 55,
      status: 200,
    },
    {
      what: 'an admin is not limited when other roles are',
      env: { ...AUTH_ON, BERTH_RATE_LIMIT_ROLES: 'reader=5,scheduler=5' },
      api,
      as: 'admin' as const,
      sent: 55,
      served: 55,
      status: 200,
    },
    ...(['unknown token', 'no token'] as const).map((as) => ({
      what: 'failed authentications are limited per address',
      env: { ...AUTH_ON, BERTH_RATE_LIMIT: '3' },
      api,
      as,
      sent: 6,
      served: 3,
      status: 401,
      limit: /for failed authentications from this address: at most 3 failed authentications/,
    })),
    {
      what: 'auth off: not limited by default (BERTH_RATE_LIMIT does not apply)',
      env: { ...AUTH_OFF, BERTH_RATE_LIMIT: '3' },
      api,
      as: 'no token' as const,
      sent: 53,
      served: 53,
      status: 200,
    },
    {
      what: 'auth off: limited per address by BERTH_RATE_LIMIT_ANONYMOUS',
      env: { ...AUTH_OFF, BERTH_RATE_LIMIT_ANONYMOUS: '3' },
      api,
      as: 'no token' as const,
      sent: 6,
      served: 3,
      status: 200,
      limit: /for requests from this address \(authentication is off\): at most 3 requests/,
    },
  ]),
  {
    what: 'REST noauth2 is never limited',
    env: {
      ...AUTH_ON,
      BERTH_REST_AUTH: 'noauth2',
      BERTH_RATE_LIMIT: '3',
      BERTH_RATE_LIMIT_ANONYMOUS: '3',
      BERTH_RATE_LIMIT_ROLES: 'reader=3,scheduler=3,admin=3',
    },
    api: 'rest',
    as: 'no token',
    sent: 53,
    served: 53,
    status: 200,
  },
];

describe('rate limits', () => {
  it.each(table)('$api, $as: $what ($served of $sent served)', async (row) => {
    const s = await serve(row.env);
    try {
      const token =
        row.as === 'no token'
          ? undefined
          : row.as === 'unknown token'
            ? GUESS
            : await s.token(row.as);
      const answers = await s.sendMany(row.sent, row.api, token);
      expect(answers.map((a) => a.status)).toEqual([
        ...Array<number>(row.served).fill(row.status),
        ...Array<number>(row.sent - row.served).fill(429),
      ]);
      for (const a of answers.slice(row.served)) {
        expectThrottled(a, row.limit!);
      }
    } finally {
      await s.close();
    }
  });

  it('counts each token of a limited role on its own, across GraphQL and REST', async () => {
    const s = await serve({ ...AUTH_ON, BERTH_RATE_LIMIT_ROLES: 'reader=4' });
    try {
      const [a, b] = [await s.token('reader'), await s.token('reader')];
      const mixed = [
        await s.send('graphql', a),
        await s.send('rest', a),
        await s.send('graphql', a),
        await s.send('rest', a),
      ];
      expect(mixed.map((x) => x.status)).toEqual([200, 200, 200, 200]);
      expectThrottled(await s.send('rest', a), /role reader/);
      expectThrottled(await s.send('graphql', a), /role reader/);
      expect((await s.send('graphql', b)).status).toBe(200);
    } finally {
      await s.close();
    }
  });

  it('refuses a not yet verified token from an address over the failed limit; a verified one goes on', async () => {
    const s = await serve({ ...AUTH_ON, BERTH_RATE_LIMIT: '3' });
    try {
      const verified = await s.token('scheduler');
      expect((await s.send('graphql', verified)).status).toBe(200);
      // GraphQL and REST failures from one address share one count.
      const failures = [
        await s.send('graphql', GUESS),
        await s.send('rest', GUESS),
        await s.send('graphql'),
      ];
      expect(failures.map((x) => x.status)).toEqual([401, 401, 401]);
      expectThrottled(await s.send('rest'), /failed authentications/);
      // Refused before its lookup: the address is over the limit and the token is not cached.
      expectThrottled(await s.send('graphql', await s.token('admin')), /failed authentications/);
      expect((await s.sendMany(10, 'graphql', verified)).map((x) => x.status)).toEqual(
        Array<number>(10).fill(200),
      );
      expect((await s.send('rest', verified)).status).toBe(200);
    } finally {
      await s.close();
    }
  });

  it('answers a REST token lookup that fails with 503 berth.unavailable and Retry-After', async () => {
    const s = await serve({ ...AUTH_ON, BERTH_RATE_LIMIT: '3' });
    try {
      const token = await s.token('reader');
      jest.spyOn(s.t.app.tokens, 'findById').mockRejectedValue(new Error('connection lost'));
      const a = await s.send('rest', token);
      expect(a).toMatchObject({ status: 503, code: 'berth.unavailable', retryAfter: '1' });
    } finally {
      await s.close();
    }
  });

  it('does not count version discovery without a token (the REST root) as a failure', async () => {
    const s = await serve({ ...AUTH_ON, BERTH_RATE_LIMIT: '2' });
    try {
      for (let i = 0; i < 5; i++) {
        expect((await s.send('rest', undefined, '/')).status).toBe(200);
      }
      expect((await s.sendMany(3, 'rest', GUESS)).map((x) => x.status)).toEqual([401, 401, 429]);
    } finally {
      await s.close();
    }
  });
});
