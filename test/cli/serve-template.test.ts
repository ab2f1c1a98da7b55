// `berth serve` on fresh embedded data directories: the first makes the migrated template in the
// cache (BERTH_TEMPLATE_CACHE), the next one is a copy of it; both serve the seeded database.
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { berth, collect, terminate, waitFor } from '../support/cli';

async function serveOnce(dataDir: string, cache: string): Promise<number> {
  const port = String(20000 + Math.floor(Math.random() * 20000));
  const child = berth(['serve'], {
    BERTH_DATA_DIR: dataDir,
    BERTH_TEMPLATE_CACHE: cache,
    PORT: port,
  });
  const io = collect(child);
  try {
    await waitFor(() => io.out().includes('listening on'), 110000);
    const r = await fetch(`http://127.0.0.1:${port}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ resourceClasses { name } }' }),
    });
    const body = (await r.json()) as { data: { resourceClasses: unknown[] } };
    expect(io.err()).not.toMatch(/no template/);
    expect(await terminate(child)).toBe(0);
    return body.data.resourceClasses.length;
  } finally {
    child.kill('SIGKILL');
  }
}

describe('berth serve on a fresh embedded data directory', () => {
  it('makes the template once, then copies it', async () => {
    const work = mkdtempSync(path.join(tmpdir(), 'berth-serve-template-'));
    const cache = path.join(work, 'cache');
    try {
      expect(await serveOnce(path.join(work, 'one'), cache)).toBe(21);
      const made = readdirSync(cache);
      expect(made).toHaveLength(1);
      expect(existsSync(path.join(cache, made[0], 'PG_VERSION'))).toBe(true);

      expect(await serveOnce(path.join(work, 'two'), cache)).toBe(21);
      // The same template, no second one and no scratch left behind.
      expect(readdirSync(cache)).toEqual(made);
      expect(existsSync(path.join(work, 'two', 'pgdata', 'PG_VERSION'))).toBe(true);
      expect(existsSync(path.join(work, 'two', 'pgdata.copying'))).toBe(false);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }, 240000);
});
