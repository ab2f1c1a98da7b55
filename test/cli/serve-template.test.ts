// `berth serve` on fresh embedded data directories when the prebuilt database is not used
// (BERTH_EMBEDDED_PREBUILT=off, as when it does not fit: test/db/embedded-prebuilt.test.ts): the
// first makes the migrated template in the cache (BERTH_TEMPLATE_CACHE), the next one is a copy of
// it; both serve the seeded database. A cache that cannot be used costs the start its speed, not
// the start. Each scenario's first start runs PGlite's initdb (most of this file's CPU): the two
// run side by side, and the servers with QUICK_V8.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { berth, collect, freePort, QUICK_V8, terminate, waitFor } from '../support/cli';

async function serveOnce(
  dataDir: string,
  cache: string,
): Promise<{ classes: number; log: string }> {
  const port = String(await freePort());
  const child = berth(
    ['serve'],
    {
      BERTH_DATA_DIR: dataDir,
      BERTH_TEMPLATE_CACHE: cache,
      BERTH_EMBEDDED_PREBUILT: 'off',
      PORT: port,
    },
    QUICK_V8,
  );
  const io = collect(child);
  try {
    await waitFor(() => io.out().includes('listening on'), 110000);
    const r = await fetch(`http://127.0.0.1:${port}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ resourceClasses { name } }' }),
    });
    const body = (await r.json()) as { data: { resourceClasses: unknown[] } };
    expect(await terminate(child)).toBe(0);
    return { classes: body.data.resourceClasses.length, log: io.out() + io.err() };
  } finally {
    child.kill('SIGKILL');
  }
}

/** The scenario of a cache that cannot be used: a file where the cache directory should be. */
async function withoutTemplate(work: string) {
  const cache = path.join(work, 'not-a-directory');
  writeFileSync(cache, '');
  return serveOnce(path.join(work, 'data'), cache);
}

describe('berth serve on a fresh embedded data directory', () => {
  const work = mkdtempSync(path.join(tmpdir(), 'berth-serve-template-'));
  const without = path.join(work, 'without');
  // Started now, beside the first test; awaited by the second.
  let unusable: ReturnType<typeof withoutTemplate>;
  beforeAll(() => {
    mkdirSync(without);
    unusable = withoutTemplate(without);
    unusable.catch(() => undefined);
  });
  afterAll(async () => {
    await unusable?.catch(() => undefined);
    rmSync(work, { recursive: true, force: true });
  });

  it('makes the template once, then copies it', async () => {
    const cache = path.join(work, 'cache');
    const one = await serveOnce(path.join(work, 'one'), cache);
    expect(one.classes).toBe(21);
    expect(one.log).not.toMatch(/no template/);
    const made = readdirSync(cache);
    expect(made).toHaveLength(1);
    expect(existsSync(path.join(cache, made[0], 'PG_VERSION'))).toBe(true);

    const two = await serveOnce(path.join(work, 'two'), cache);
    expect(two.classes).toBe(21);
    expect(two.log).not.toMatch(/no template/);
    // The same template, no second one and no scratch left behind.
    expect(readdirSync(cache)).toEqual(made);
    expect(existsSync(path.join(work, 'two', 'pgdata', 'PG_VERSION'))).toBe(true);
    expect(existsSync(path.join(work, 'two', 'pgdata.copying'))).toBe(false);
  }, 240000);

  it('starts without one when the template cannot be made, and says so', async () => {
    const r = await unusable;
    expect(r.classes).toBe(21);
    expect(r.log).toMatch(/no template; creating the database/);
    expect(existsSync(path.join(without, 'data', 'pgdata', 'PG_VERSION'))).toBe(true);
    expect(existsSync(path.join(without, 'data', 'pgdata.copying'))).toBe(false);
  }, 240000);
});
