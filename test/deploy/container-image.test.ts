// The container image operators deploy, really built and run with podman: deploy/image/build.sh
// (the debootstrap base image when missing, then deploy/Containerfile), one `berth serve`
// container on the host's network against the real PostgreSQL and Redis, checked over HTTP
// (readiness, GraphQL, the Placement REST facade), as uid 10001, and stopped with SIGTERM.
//
// Building takes minutes (npm ci and the TypeScript build inside the image), so this runs only
// with BERTH_TEST_IMAGE=1, as root with podman, runc and debootstrap installed:
//   BERTH_TEST_IMAGE=1 DATABASE_URL=postgres://postgres@127.0.0.1:5432/berth \
//     npx jest test/deploy/container-image.test.ts
// (DATABASE_URL only spares the integration setup starting embedded PGlite, unused here.)
// The container's own database and Redis: BERTH_TEST_IMAGE_DATABASE_URL (default
// postgres://postgres@127.0.0.1:5432/berth_h2) and BERTH_TEST_IMAGE_REDIS_URL (default
// redis://127.0.0.1:6379/12).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  buildImage,
  type ContainerReplica,
  type ImageBuild,
  podmanUnavailable,
  runContainerReplica,
} from '../../bench/ha/image';
import { root } from '../support/cli';
import { freePort } from './support';

const SKIP =
  process.env.BERTH_TEST_IMAGE !== '1'
    ? 'set BERTH_TEST_IMAGE=1 to build the image (minutes)'
    : podmanUnavailable();
const describeImage = SKIP ? describe.skip : describe;

const DATABASE_URL =
  process.env.BERTH_TEST_IMAGE_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/berth_h2';
const REDIS_URL = process.env.BERTH_TEST_IMAGE_REDIS_URL ?? 'redis://127.0.0.1:6379/12';
const NAME = `berth-image-test-${process.pid}`;

describeImage(
  `deploy/Containerfile built and run with podman${SKIP ? ` (skipped: ${SKIP})` : ''}`,
  () => {
    let logDir: string;
    let build: ImageBuild;
    let replica: ContainerReplica | undefined;
    const buildLog: string[] = [];

    beforeAll(async () => {
      logDir = mkdtempSync(path.join(tmpdir(), 'berth-image-'));
      build = await buildImage({ repoRoot: root, log: (m) => buildLog.push(m) });
      process.stdout.write(
        `[container image] ${build.tag}: base ${build.baseBuilt ? `built in ${build.baseSeconds} s` : 'reused'}, image built in ${build.buildSeconds} s, ${build.sizeMb} MB\n`,
      );
      replica = await runContainerReplica({
        tag: build.tag,
        name: NAME,
        port: await freePort(),
        env: { DATABASE_URL, REDIS_URL, BERTH_AUTH: 'off' },
        logDir,
      });
    }, 1_800_000);

    afterAll(async () => {
      await replica?.remove();
      if (logDir) {
        rmSync(logDir, { recursive: true, force: true });
      }
    }, 60_000);

    it('the image runs as uid 10001 and keeps its HEALTHCHECK (docker format)', () => {
      const r = spawnSync(
        'podman',
        [
          'image',
          'inspect',
          '--format',
          '{{.Config.User}} {{json .Config.Healthcheck.Test}}',
          build.tag,
        ],
        { encoding: 'utf8' },
      );
      expect(r.status).toBe(0);
      const [user, test] = r.stdout.trim().split(' ', 2);
      expect(user).toBe('10001:10001');
      expect(test).toContain('/readyz');
    });

    it('the container becomes ready on the host network: PostgreSQL migrated, Redis reached', async () => {
      const r = replica as ContainerReplica;
      await r.waitReady(180_000);
      const res = await fetch(`${r.url}/readyz`);
      const body = (await res.json()) as { checks: Record<string, string> };
      expect({
        status: res.status,
        database: body.checks.database,
        cache: body.checks.cache,
      }).toEqual({ status: 200, database: 'ok', cache: 'redis ok' });
    }, 200_000);

    it("the image's HEALTHCHECK passes (podman healthcheck run)", async () => {
      const r = replica as ContainerReplica;
      const h = await r.healthcheck();
      const state = spawnSync(
        'podman',
        ['inspect', '--format', '{{.State.Health.Status}}', r.name],
        { encoding: 'utf8' },
      );
      expect({ code: h.code, status: state.stdout.trim() }).toEqual({ code: 0, status: 'healthy' });
    });

    it('answers a GraphQL query', async () => {
      const r = replica as ContainerReplica;
      const res = await fetch(`${r.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ __typename }' }),
      });
      expect({ status: res.status, body: await res.json() }).toEqual({
        status: 200,
        body: { data: { __typename: 'Query' } },
      });
    });

    it('answers the Placement REST facade: GET /placement/ lists the versions', async () => {
      const r = replica as ContainerReplica;
      const res = await fetch(`${r.url}/placement/`);
      expect(res.status).toBe(200);
      const body = (await res.json()) as { versions: { id: string; max_version: string }[] };
      expect(body.versions[0]).toMatchObject({ id: 'v1.0', max_version: '1.39' });
    });

    it('berth runs as uid 10001 inside the container', async () => {
      const r = replica as ContainerReplica;
      const id = await r.exec(['id', '-u']);
      expect({ code: id.code, uid: id.out.trim() }).toEqual({ code: 0, uid: '10001' });
    });

    it('SIGTERM stops it cleanly: exit code 0', async () => {
      const r = replica as ContainerReplica;
      await r.signal('SIGTERM');
      const code = await r.exited;
      const logs = await r.logs();
      expect({ code, logs: code === 0 ? '' : logs }).toEqual({ code: 0, logs: '' });
    }, 60_000);
  },
);
