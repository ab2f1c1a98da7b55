// `berth import placement` at cloud scale: 10,000 providers (2,500 trees) and 50,000 allocations
// (25,000 consumers) from a real PostgreSQL Placement database into berth on PostgreSQL. Prints the
// time (not asserted: the target is ≤ 60 s on the project machine); checks the result and an
// idempotent re-run. On the embedded database (where the figure says nothing of a deployment)
// a quarter of it: still forty-odd batches of 500, at a quarter of the cost.
import { randomUUID } from 'node:crypto';
import { createServices } from '../../src/app/services';
import { importPlacement } from '../../src/import/placement/import-placement';
import { createTestDb, onEmbedded, type TestDb } from '../support/db';
import { createPostgresPlacementSource, type PlacementSourceDb } from '../support/placement-source';
import { scaleFixture } from './placement-import-fixture';

jest.setTimeout(600_000);

const TREES = onEmbedded() ? 625 : 2500;
const PROVIDERS = TREES * 4;
const CONSUMERS = TREES * 10;
const ALLOCATIONS = CONSUMERS * 2;
const n = (x: number) => x.toLocaleString('en-US');

describe('berth import placement at scale', () => {
  let berth: TestDb;
  let src: PlacementSourceDb;
  beforeAll(async () => {
    berth = await createTestDb();
    src = await createPostgresPlacementSource();
    await src.fill(scaleFixture(`s${randomUUID().slice(0, 6)}`, TREES, CONSUMERS));
  });
  afterAll(async () => {
    await src.drop();
    await berth.drop();
  });

  it(`imports ${n(PROVIDERS)} providers and ${n(ALLOCATIONS)} allocations, then re-runs as a no-op`, async () => {
    const services = createServices(berth.dataSource);
    const t0 = Date.now();
    const first = await importPlacement(services, src.url, { batch: 500 });
    const seconds = (Date.now() - t0) / 1000;
    const t1 = Date.now();
    const again = await importPlacement(services, src.url, { batch: 500 });
    const rerun = (Date.now() - t1) / 1000;
    process.stdout.write(
      `\n[placement import] ${n(PROVIDERS)} providers / ${n(ALLOCATIONS)} allocations: ${seconds.toFixed(1)} s (re-run ${rerun.toFixed(1)} s)\n`,
    );
    expect(first.counts.providers.created).toBe(PROVIDERS);
    expect(first.counts.allocations.created).toBe(ALLOCATIONS);
    expect(again.changed).toBe(false);
    const rows = await berth.dataSource.query('SELECT count(*)::int AS n FROM allocations');
    expect(rows[0].n).toBe(ALLOCATIONS);
  });
});
