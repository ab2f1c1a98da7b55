// Round trips of one claim: a scheduler claim is the hot path under load, and on this kind of
// machine every statement costs a system call on both sides. The budget keeps it from creeping.
import { randomUUID } from 'node:crypto';
import { createScheduling, type Scheduling } from '../../src/app/scheduling';
import { createServices, type Services } from '../../src/app/services';
import { loadConfig } from '../../src/config/config';
import { createLogger } from '../../src/observability/logger';
import { ChangeBus } from '../../src/placement/change-bus';
import { createTestCache } from '../support/app';
import { createTestDb, type TestDb } from '../support/db';
import { buildResourceProvider } from '../support/factories';
import { QueryCounter } from '../support/query-counter';

describe('claim statements', () => {
  const counter = new QueryCounter();
  let db: TestDb;
  let s: Services;
  let sched: Scheduling;
  const cache = createTestCache();

  beforeAll(async () => {
    db = await createTestDb({ logger: counter });
    s = createServices(db.dataSource, new ChangeBus(`berth_changes_${db.schema}`));
    sched = createScheduling(
      loadConfig({ NODE_ENV: 'test', BERTH_SCHEDULER_FILTERS: 'ComputeFilter' }),
      s,
      cache,
      createLogger('silent'),
    );
    for (let i = 0; i < 4; i++) {
      await buildResourceProvider(s, { inventories: [{ resourceClass: 'VCPU', total: 8 }] });
    }
  });
  afterAll(async () => {
    await cache.close();
    await db.drop();
  });

  const vcpu = {
    groups: [
      {
        suffix: '',
        resources: { VCPU: 1 },
        requiredTraits: [],
        forbiddenTraits: [],
        memberOf: [],
        forbiddenAggregates: [],
      },
    ],
  };
  const request = () => ({
    consumerUuids: [randomUUID()],
    projectId: 'p1',
    userId: 'u1',
    request: vcpu,
    extraSpecs: {},
  });

  it('schedules a new consumer in a bounded number of statements', async () => {
    await sched.service.schedule(request());
    const { result, queries } = await counter.count(() => sched.service.schedule(request()));
    expect(result.selections[0]!.hostUuid).not.toBeNull();
    process.stdout.write(`[berth tests] one scheduled claim: ${queries.length} SQL statements\n`);
    // BEGIN, consumer read (move check), quota lock + limits, owners, consumer insert, provider
    // lock, inventories with usage, allocation insert + generation bump (one statement), the
    // host's record for the answer, the audit event with the NOTIFY (one statement), COMMIT, and
    // the capacity index's re-read of the claimed provider. Nothing else: the GraphQL layer
    // answers `host` from the claim, not with a query of its own.
    expect(queries.length).toBeLessThanOrEqual(13);
  });

  it('writes a batch of claims in as many statements as one claim', async () => {
    const hosts = (await s.providers.list({})).map((p) => p.uuid);
    const claimOn = (host: string) => ({
      consumerUuid: randomUUID(),
      projectId: 'p1',
      userId: 'u1',
      consumerType: 'INSTANCE',
      hostUuid: host,
      allocations: [{ providerUuid: host, resources: { VCPU: 1 } }],
    });
    const one = await counter.count(() => sched.moves.claimNew([claimOn(hosts[0]!)]));
    const many = await counter.count(() =>
      sched.moves.claimNew(hosts.flatMap((h) => [claimOn(h), claimOn(h)])),
    );
    expect(many.result).toHaveLength(hosts.length * 2);
    expect(many.queries.length).toBe(one.queries.length);
  });
});
