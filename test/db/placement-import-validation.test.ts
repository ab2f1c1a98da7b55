// `berth import placement` refuses what berth's API refuses (security finding: the import copied
// NaN/Infinity ratios, negative and zero numbers, broken trees, and merged uuids that differ only
// in case or dashes). One case per finding, each a real Placement 8.0 schema (PostgreSQL always,
// MariaDB when reachable) filled with a small valid cloud and then corrupted by one statement:
// the import is refused with berth.import.invalid_source, the finding names the row and the rule,
// and berth's database is exactly as before. Then --skip-invalid (skipInvalid) on a source mixing
// valid and invalid rows: only valid rows land, the dependents are listed, `berth check` finds no
// problem, and a re-run changes nothing.
import { randomUUID } from 'node:crypto';
import { createServices, type Services } from '../../src/app/services';
import {
  importPlacement,
  type PlacementImportSummary,
} from '../../src/import/placement/import-placement';
import { PlacementImportInvalidError } from '../../src/import/placement/invalid-source-error';
import { runConsistencyChecks } from '../../src/placement/consistency/run-checks';
import { createTestDb, type TestDb } from '../support/db';
import { fingerprint } from '../support/fingerprint';
import {
  clearPlacement,
  createMariadbPlacementSource,
  createPostgresPlacementSource,
  type PlacementSourceDb,
} from '../support/placement-source';
import { itFor } from './legacy-import-fixtures';
import { baseFixture, CASES, type Ctx, type Fx } from './placement-import-validation-cases';

describe.each([
  { kind: 'postgres', create: createPostgresPlacementSource },
  { kind: 'mariadb', create: createMariadbPlacementSource },
])('berth import placement refuses what the API refuses ($kind source)', ({ kind, create }) => {
  let berth: TestDb;
  let services: Services;
  let src: PlacementSourceDb | undefined;
  let empty: string;
  beforeAll(async () => {
    berth = await createTestDb();
    services = createServices(berth.dataSource);
    empty = await fingerprint(berth.dataSource);
  });
  afterAll(async () => {
    await src?.drop();
    await berth.drop();
  });

  /** A fresh base cloud in the (reused) source database. */
  async function fresh(): Promise<Ctx> {
    src ??= await create();
    await clearPlacement(src.query);
    const fx = baseFixture(`${kind}${randomUUID().slice(0, 6)}`);
    await src.fill(fx.fixture);
    const s = src;
    const id = async (uuid: string) =>
      Number((await s.query('SELECT id FROM resource_providers WHERE uuid = ?', [uuid]))[0]!.id);
    return { src: s, fx, id };
  }

  const cases = CASES.filter((c) => (kind === 'postgres' ? !c.mariadbOnly : !c.pgOnly));
  itFor(kind).each(cases)(
    'refuses $name, naming the row; nothing is written',
    async ({ corrupt, want }) => {
      const c = await fresh();
      await corrupt(c);
      const err = await importPlacement(services, c.src.url).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(PlacementImportInvalidError);
      const refused = err as PlacementImportInvalidError;
      expect(refused.code).toBe('berth.import.invalid_source');
      for (const w of want) {
        const row = await w.row(c);
        expect(refused.findings).toContainEqual(
          expect.objectContaining({
            kind: w.kind,
            rule: w.rule,
            row: expect.stringContaining(row),
          }),
        );
        expect(refused.message).toContain(`${w.kind} `);
        expect(refused.message).toContain(row);
      }
      expect(await fingerprint(berth.dataSource)).toBe(empty);
    },
  );

  itFor(kind)(
    'imports the same source once the corruption is gone (the base is valid)',
    async () => {
      const c = await fresh();
      const ok = await importPlacement(services, c.src.url);
      expect(ok.counts.providers.created).toBe(3);
      expect(ok.skipped ?? []).toEqual([]);
      await berth.dataSource.query(
        'TRUNCATE allocations, consumers, inventories, resource_provider_traits, resource_provider_aggregates, resource_providers CASCADE',
      );
    },
  );
});

describe('berth import placement --skip-invalid (postgres source)', () => {
  let berth: TestDb;
  let services: Services;
  let src: PlacementSourceDb;
  let fx: Fx;
  let first: PlacementImportSummary;
  let greedy: string;
  beforeAll(async () => {
    berth = await createTestDb();
    services = createServices(berth.dataSource);
    src = await createPostgresPlacementSource();
    fx = baseFixture(`skip${randomUUID().slice(0, 6)}`);
    await src.fill(fx.fixture);
    // The attack: an Infinity ratio on the host, then 50 VCPU claimed against its 10.
    greedy = randomUUID();
    await src.query(
      `UPDATE inventories SET allocation_ratio = 'Infinity'
      WHERE resource_class_id = 0 AND resource_provider_id = (SELECT id FROM resource_providers WHERE uuid = $1)`,
      [fx.p.host],
    );
    await src.query(
      `INSERT INTO consumers (uuid, project_id, user_id, generation)
      SELECT $1, project_id, user_id, 1 FROM consumers WHERE uuid = $2`,
      [greedy, fx.c.b],
    );
    await src.query(
      `INSERT INTO allocations (resource_provider_id, consumer_id, resource_class_id, used)
      SELECT id, $1, 0, 50 FROM resource_providers WHERE uuid = $2`,
      [greedy, fx.p.host],
    );
  });
  afterAll(async () => {
    await src.drop();
    await berth.drop();
  });

  it('imports only the valid rows and lists the invalid ones, then what depends on them', async () => {
    first = await importPlacement(services, src.url, { skipInvalid: true });
    const skipped = first.skipped ?? [];
    expect(skipped.map((f) => [f.kind, f.rule])).toEqual([
      ['inventory', 'invalid-inventory'],
      ['provider', 'depends-on-skipped'], // the host
      ['provider', 'depends-on-skipped'], // its NUMA child
      ['consumer', 'depends-on-skipped'], // a, on the host
      ['consumer', 'depends-on-skipped'], // the greedy one
    ]);
    expect(first.counts.providers).toMatchObject({ created: 1, skipped: 2 });
    expect(first.counts.inventories).toMatchObject({ created: 1, skipped: 3 });
    expect(first.counts.consumers).toMatchObject({ created: 1, skipped: 2 });
    expect(first.counts.allocations).toMatchObject({ created: 1, skipped: 2 });
    const providers = await berth.dataSource.query(
      'SELECT uuid::text AS uuid FROM resource_providers',
    );
    expect(providers).toEqual([{ uuid: fx.p.other }]);
    const ratios = await berth.dataSource.query('SELECT allocation_ratio AS r FROM inventories');
    expect(ratios).toEqual([{ r: 1 }]);
  });

  it('leaves nothing `berth check` calls a problem', async () => {
    const report = await runConsistencyChecks(berth.dataSource);
    expect(report.checks.filter((c) => !c.ok).map((c) => c.check)).toEqual([]);
  });

  it('a re-run changes nothing and skips the same rows', async () => {
    const again = await importPlacement(services, src.url, { skipInvalid: true });
    expect(again.changed).toBe(false);
    expect(again.skipped).toEqual(first.skipped);
  });

  it('without the flag, the same source is refused whole', async () => {
    const before = await fingerprint(berth.dataSource);
    await expect(importPlacement(services, src.url)).rejects.toThrow(
      /1 row\(s\) that berth's API would refuse; nothing was written.*\n {2}inventory id \d+ \(VCPU of provider id \d+\): invalid-inventory: Bad inventory VCPU: allocation_ratio must be a number greater than 0 \(got Infinity\)/s,
    );
    expect(await fingerprint(berth.dataSource)).toBe(before);
  });

  it('once the source is fixed, a plain run imports what was skipped; the over-commit is kept and listed', async () => {
    await src.query(
      `UPDATE inventories SET allocation_ratio = 1 WHERE resource_provider_id =
        (SELECT id FROM resource_providers WHERE uuid = $1)`,
      [fx.p.host],
    );
    const fixed = await importPlacement(services, src.url);
    expect(fixed.skipped).toEqual([]);
    expect(fixed.counts.providers).toMatchObject({ created: 2, unchanged: 1 });
    expect(fixed.counts.consumers).toMatchObject({ created: 2, unchanged: 1 });
    // 50 + 2 VCPU on the host's 10: valid numbers, so Placement's own over-commit, imported as is.
    expect(fixed.overCommitted).toEqual([
      expect.objectContaining({
        providerUuid: fx.p.host,
        resourceClass: 'VCPU',
        used: 52,
        capacity: 10,
      }),
    ]);
    const report = await runConsistencyChecks(berth.dataSource);
    // Warnings, as Placement holds them: usage above capacity, 50 above max_unit 10.
    expect(
      report.checks.filter((c) => !c.ok).map((c) => [c.check, c.severity, c.examples]),
    ).toEqual([
      ['usage-over-capacity', 'warning', [fx.p.host]],
      ['allocation-outside-units', 'warning', [greedy]],
    ]);
  });
});
