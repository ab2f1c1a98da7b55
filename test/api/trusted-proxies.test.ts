// Behind a reverse proxy the failed-authentication limit counts the client named by the proxy's
// X-Forwarded-For, and only when the proxy is trusted (BERTH_TRUSTED_PROXIES): two clients behind
// one trusted proxy have a budget each; from an untrusted peer the header is ignored, so a
// guesser cannot pick a fresh bucket per request by writing its own X-Forwarded-For.
import type { Server } from 'node:http';
import { createTestApp, type TestApp } from '../support/app';
import { closeServer, listen } from '../support/rest';

const GUESS = `berth_0123456789abcdef_${'x'.repeat(43)}`;
const ENV = {
  BERTH_RATE_LIMIT_WINDOW_MS: '3600000',
  BERTH_AUTH: 'on',
  BERTH_REST_AUTH: 'token',
  BERTH_RATE_LIMIT: '2',
};

type Api = 'graphql' | 'rest';

async function serve(env: Record<string, string>) {
  const t: TestApp = await createTestApp(env);
  const { server, base }: { server: Server; base: string } = await listen((req, res) =>
    t.app.handle(req, res),
  );
  /** Status of a request with a wrong token, forwarded for `client` (no header when undefined). */
  async function guess(api: Api, client?: string): Promise<number> {
    const forwarded: Record<string, string> =
      client === undefined ? {} : { 'x-forwarded-for': client };
    const res =
      api === 'graphql'
        ? await fetch(`${base}/graphql`, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              authorization: `Bearer ${GUESS}`,
              ...forwarded,
            },
            body: '{"query":"{ version { berth } }"}',
          })
        : await fetch(`${base}/placement/resource_classes`, {
            headers: { accept: 'application/json', 'x-auth-token': GUESS, ...forwarded },
          });
    await res.arrayBuffer();
    return res.status;
  }
  return {
    guess,
    async close() {
      await closeServer(server);
      await t.close();
    },
  };
}

describe.each(['graphql', 'rest'] as const)('failed-auth limit behind a proxy (%s)', (api) => {
  it('counts each forwarded client separately when the proxy is trusted', async () => {
    const s = await serve({ ...ENV, BERTH_TRUSTED_PROXIES: '10.9.0.0/16, 127.0.0.1, ::1' });
    try {
      // The client wrote a spoofed hop; the proxy appended the address it saw (right-most).
      const a = [];
      for (let i = 0; i < 3; i++) {
        a.push(await s.guess(api, `1.2.3.${i}, 192.0.2.10`));
      }
      expect(a).toEqual([401, 401, 429]);
      // Another client behind the same proxy (through a second trusted proxy hop).
      const b = [await s.guess(api, '192.0.2.20, 10.9.1.1'), await s.guess(api, '192.0.2.20')];
      expect(b).toEqual([401, 401]);
      expect(await s.guess(api, '192.0.2.20')).toBe(429);
    } finally {
      await s.close();
    }
  });

  it('ignores X-Forwarded-For from a peer that is not a trusted proxy', async () => {
    const s = await serve({ ...ENV, BERTH_TRUSTED_PROXIES: '10.9.0.0/16' });
    try {
      const statuses = [];
      for (let i = 0; i < 3; i++) {
        statuses.push(await s.guess(api, `192.0.2.${i}`));
      }
      expect(statuses).toEqual([401, 401, 429]);
    } finally {
      await s.close();
    }
  });
});
