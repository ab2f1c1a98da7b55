// `berth import placement` at cloud scale: 10,000 providers (2,500 trees) and 50,000 allocations
// (25,000 consumers) from a real PostgreSQL Placement database. Prints the time (not asserted:
// the target is ≤ 60 s on the project machine); checks the result and an idempotent re-run.
import { randomUUID } from 'node:crypto';
import { createServices } from '../../src/app/services';
import { importPlacement } from '../../src/import/placement/import-placement';
import { createTestDb, type TestDb } from '../support/db';
import { createPostgresPlacementSource, type PlacementSourceDb } from '../support/placement-source';
import { scaleFixture } from './placement-import-fixture';

jest.setTimeout(600_000);

describe('berth import placement at scale', () => {
  let berth: TestDb;
  let src: PlacementSourceDb;
  beforeAll(async () => {
    berth = await createTestDb();
    src = await createPostgresPlacementSource();
    await src.fill(scaleFixture(`s${randomUUID().slice(0, 6)}`, 2500, 25_000));
  });
  afterAll(async () => {
    await src.drop();
    await berth.drop();
  });

  it('imports 10,000 providers and 50,000 allocations, then re-runs as a no-op', async () => {
    const services = createServices(berth.dataSource);
    const t0 = Date.now();
    const first = await importPlacement(services, src.url, { batch: 500 });
    const seconds = (Date.now() - t0) / 1000;
    const t1 = Date.now();
    const again = await importPlacement(services, src.url, { batch: 500 });
    const rerun = (Date.now() - t1) / 1000;
    process.stdout.write(
      `\n[placement import] 10,000 providers / 50,000 allocations: ${seconds.toFixed(1)} s (re-run ${rerun.toFixed(1)} s)\n`,
    );
    expect(first.counts.providers.created).toBe(10_000);
    expect(first.counts.allocations.created).toBe(50_000);
    expect(again.changed).toBe(false);
    const n = await berth.dataSource.query('SELECT count(*)::int AS n FROM allocations');
    expect(n[0].n).toBe(50_000);
  });
});
