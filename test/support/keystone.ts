// A real Keystone for tests (test/keystone/start.sh: Debian's keystone on sqlite under uWSGI),
// its users' tokens, and a counting HTTP proxy to put in front of it. When Keystone is not
// installed, keystoneMissing() says why and the test file reports its tests as skipped.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const dir = path.resolve(__dirname, '../keystone');

/** Why Keystone tests cannot run here, or undefined when they can. */
export function keystoneMissing(): string | undefined {
  return existsSync('/usr/bin/keystone-manage') && existsSync('/usr/bin/uwsgi_python3')
    ? undefined
    : 'Keystone is not installed (DEBIAN_FRONTEND=noninteractive apt-get install -y keystone)';
}

/** A free loopback port (bound and released). */
export async function freePort(): Promise<number> {
  const s = http.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}

/** The users start.sh creates: name → project. */
export const KEYSTONE_USERS = {
  admin: 'admin',
  nova: 'service',
  berth: 'service',
  'alpha-member': 'alpha',
  'beta-reader': 'beta',
  'alpha-observer': 'alpha',
} as const;
/** A user start.sh creates. */
export type KeystoneUser = keyof typeof KEYSTONE_USERS;

/** A running Keystone. */
export interface Keystone {
  /** http://127.0.0.1:<port> */
  readonly url: string;
  /** Everything start.sh printed (OS_*, KEYSTONE_*, BERTH_KEYSTONE_*). */
  readonly env: Readonly<Record<string, string>>;
  /** A new project-scoped token of `user` (password auth). */
  token(user: KeystoneUser): Promise<{ token: string; projectId: string; expiresAt: number }>;
  /** Revokes `token` (DELETE /v3/auth/tokens as admin). */
  revoke(token: string): Promise<void>;
  stop(): Promise<void>;
}

/** Starts a fresh Keystone whose catalog points `placement` at `berthUrl`. */
export async function startKeystone(
  berthUrl: string,
  o: { tokenExpirationS?: number } = {},
): Promise<Keystone> {
  const port = await freePort();
  const { stdout } = await run(path.join(dir, 'start.sh'), [String(port), berthUrl], {
    env: { ...process.env, KEYSTONE_TOKEN_EXPIRATION: String(o.tokenExpirationS ?? 3600) },
  });
  const env = Object.fromEntries(
    [...stdout.matchAll(/^export (\w+)=(.*)$/gm)].map((m) => [m[1]!, m[2]!]),
  );
  const url = env.KEYSTONE_URL!;
  const token = async (user: KeystoneUser) => {
    const res = await fetch(`${url}/v3/auth/tokens?nocatalog`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        auth: {
          identity: {
            methods: ['password'],
            password: {
              user: { name: user, domain: { name: 'Default' }, password: `${user}-secret` },
            },
          },
          scope: { project: { name: KEYSTONE_USERS[user], domain: { name: 'Default' } } },
        },
      }),
    });
    if (res.status !== 201) {
      throw new Error(`Keystone refused ${user}: ${res.status} ${await res.text()}`);
    }
    const body = (await res.json()) as { token: { project: { id: string }; expires_at: string } };
    return {
      token: res.headers.get('x-subject-token')!,
      projectId: body.token.project.id,
      expiresAt: Date.parse(body.token.expires_at),
    };
  };
  return {
    url,
    env,
    token,
    async revoke(subject) {
      const admin = await token('admin');
      const res = await fetch(`${url}/v3/auth/tokens`, {
        method: 'DELETE',
        headers: { 'x-auth-token': admin.token, 'x-subject-token': subject },
      });
      if (res.status !== 204) {
        throw new Error(`revoke failed: ${res.status}`);
      }
    },
    async stop() {
      await run(path.join(dir, 'stop.sh'), [env.KEYSTONE_DIR!]);
    },
  };
}

/** An HTTP proxy to `target` counting token validations (GET /v3/auth/tokens). */
export async function countingProxy(
  target: string,
): Promise<{ url: string; validations: () => number; close(): Promise<void> }> {
  let validations = 0;
  const to = new URL(target);
  const server = http.createServer((req, res) => {
    if (req.method === 'GET' && req.url?.startsWith('/v3/auth/tokens')) {
      validations++;
    }
    const up = http.request(
      { host: to.hostname, port: to.port, path: req.url, method: req.method, headers: req.headers },
      (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      },
    );
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    validations: () => validations,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
