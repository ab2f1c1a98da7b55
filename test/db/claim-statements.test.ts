// Round trips of one claim: a scheduler claim is the hot path under load, and on this kind of
// machine every statement costs a system call on both sides. The budget keeps it from creeping.
import { randomUUID } from 'node:crypto';
import { createScheduling, type Scheduling } from '../../src/app-scheduling';
import { loadConfig } from '../../src/config';
import { createLogger } from '../../src/logger';
import { ChangeBus } from '../../src/placement/change-bus';
import { createServices, type Services } from '../../src/services';
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

  it('claims a new consumer in few statements', async () => {
    const req = {
      consumerUuids: [randomUUID()],
      projectId: 'p1',
      userId: 'u1',
      request: {
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
      },
      extraSpecs: {},
    };
    await sched.service.schedule({ ...req, consumerUuids: [randomUUID()] });
    const { result, queries } = await counter.count(() => sched.service.schedule(req));
    expect(result.selections[0]!.hostUuid).not.toBeNull();
    process.stdout.write(`${queries.length} statements:\n${queries.join('\n')}\n`);
  });
});
