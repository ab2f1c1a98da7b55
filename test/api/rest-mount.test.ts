// Where the REST facade is mounted: under BERTH_REST_PREFIX (default /placement), or at '/'
// when the prefix is empty; other app routes are unaffected.
import { createRestRouter } from '../../src/rest/router';
import { createTestApp, type TestApp } from '../support/app';
import { closeServer, listen } from '../support/rest';

const ADMIN = { 'x-auth-token': 'admin', accept: 'application/json' };

describe('REST facade mount', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ BERTH_REST_AUTH: 'noauth2', BERTH_REST_PREFIX: '/placement' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('serves /placement and /placement/ as the root and leaves other paths to the app', async () => {
    const { server, base } = await listen((req, res) => t.app.handle(req, res));
    try {
      expect((await fetch(`${base}/placement`)).status).toBe(200);
      expect((await fetch(`${base}/placement/`)).status).toBe(200);
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
      const outside = await fetch(`${base}/resource_providers`, { headers: ADMIN });
      expect(outside.status).toBe(404);
      expect(outside.headers.get('openstack-api-version')).toBeNull();
    } finally {
      await closeServer(server);
    }
  });

  it("serves the API at '/' when the prefix is empty", async () => {
    const router = createRestRouter({
      services: t.app.services,
      config: { ...t.app.config, restPrefix: '' },
      log: t.app.log,
    });
    expect(router.matches('/anything')).toBe(true);
    const { server, base } = await listen((req, res) => router.handle(req, res));
    try {
      const r = await fetch(`${base}/resource_providers`, { headers: ADMIN });
      expect(r.status).toBe(200);
      expect(await r.json()).toEqual({ resource_providers: [] });
      const created = await fetch(`${base}/resource_classes/CUSTOM_ROOT_MOUNT`, {
        method: 'PUT',
        headers: { ...ADMIN, 'openstack-api-version': 'placement 1.7' },
      });
      expect(created.status).toBe(201);
      expect(created.headers.get('location')).toBe(`${base}/resource_classes/CUSTOM_ROOT_MOUNT`);
    } finally {
      await closeServer(server);
    }
  });

  it('treats every caller as admin in token mode until token auth exists', async () => {
    const router = createRestRouter({
      services: t.app.services,
      config: { ...t.app.config, restAuth: 'token' },
      log: t.app.log,
    });
    const { server, base } = await listen((req, res) => router.handle(req, res));
    try {
      const r = await fetch(`${base}/placement/resource_providers`, {
        headers: { accept: 'application/json' },
      });
      expect(r.status).toBe(200);
    } finally {
      await closeServer(server);
    }
  });
});
