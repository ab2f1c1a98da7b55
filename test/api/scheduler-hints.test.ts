// Scheduler hints through GraphQL `schedule` / `explainPlacement`: sameHost and differentHost
// place next to or away from running instances (SameHostFilter / DifferentHostFilter, on by
// default), free-form hints reach plugins, malformed hints are refused before anything runs, and
// availabilityZone places in the zone its aggregates name (AvailabilityZoneFilter).
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestApp, type TestApp } from '../support/app';
import { buildResourceProvider } from '../support/factories';
import { firstError, gql } from '../support/graphql';

/** Variables of SCHEDULE / EXPLAIN: one VCPU for `consumerUuids`, plus `extra` input fields. */
const input = (extra: object, consumerUuids = [randomUUID()]) => ({
  input: {
    consumerUuids,
    projectId: 'p',
    userId: 'u',
    request: { groups: [{ resources: [{ resourceClass: 'VCPU', amount: 1 }] }] },
    ...extra,
  },
});

const SCHEDULE = `mutation S($input: ScheduleInput!) {
  schedule(input: $input) { selections { consumerUuid host { uuid } reason } }
}`;
const EXPLAIN = `query E($input: ScheduleInput!) {
  explainPlacement(input: $input) { filterSteps { filter before after } }
}`;

describe('scheduler hints', () => {
  let t: TestApp;
  const hosts: string[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    for (let i = 0; i < 4; i++) {
      const rp = await buildResourceProvider(t.app.services, {
        name: `hinted-${i}`,
        inventories: [
          { resourceClass: 'VCPU', total: 64 },
          { resourceClass: 'MEMORY_MB', total: 65536 },
        ],
      });
      hosts.push(rp.uuid);
    }
  });
  afterAll(async () => {
    await t.close();
  });

  async function place(extra: object = {}): Promise<{ consumer: string; host: string | null }> {
    const consumer = randomUUID();
    const r = await gql(t.app, SCHEDULE, input(extra, [consumer]));
    expect(r.errors).toBeUndefined();
    const sel = r.data.schedule.selections[0];
    return { consumer, host: sel.host?.uuid ?? null };
  }

  it('places next to a running instance with sameHost, every time', async () => {
    const first = await place();
    expect(first.host).not.toBeNull();
    for (let i = 0; i < 5; i++) {
      expect((await place({ sameHost: [first.consumer] })).host).toBe(first.host);
    }
  });

  it('places away from running instances with differentHost', async () => {
    const a = await place();
    const b = await place({ differentHost: [a.consumer] });
    expect(b.host).not.toBe(a.host);
    const c = await place({ differentHost: [a.consumer, b.consumer] });
    expect([a.host, b.host]).not.toContain(c.host);
  });

  it('finds no host when every host runs a different_host instance, and says why', async () => {
    const placed = [];
    for (const h of hosts) {
      placed.push(await place({ sameHost: [(await placeOn(h)).consumer] }));
    }
    const r = await gql(t.app, SCHEDULE, input({ differentHost: placed.map((p) => p.consumer) }));
    expect(r.errors).toBeUndefined();
    const sel = r.data.schedule.selections[0];
    expect(sel.host).toBeNull();
    expect(sel.reason).toMatch(/DifferentHostFilter|different_host/);
  });

  it('reports the filters in explainPlacement, rejecting by the hint only', async () => {
    const a = await place();
    const r = await gql(t.app, EXPLAIN, input({ sameHost: [a.consumer] }));
    expect(r.errors).toBeUndefined();
    const steps = r.data.explainPlacement.filterSteps as {
      filter: string;
      before: number;
      after: number;
    }[];
    expect(steps.find((f) => f.filter === 'SameHostFilter')).toMatchObject({
      before: hosts.length,
      after: 1,
    });
    const different = steps.find((f) => f.filter === 'DifferentHostFilter')!;
    expect(different.after).toBe(different.before);
  });

  it.each([
    [
      'a key given twice',
      {
        hints: [
          { key: 'x', values: [] },
          { key: 'x', values: ['1'] },
        ],
      },
      /given twice/,
      'berth.invalid_input',
    ],
    [
      'sameHost beside a same_host hint',
      { sameHost: [randomUUID()], hints: [{ key: 'same_host', values: [] }] },
      /given twice/,
      'berth.invalid_input',
    ],
    [
      'an empty key',
      { hints: [{ key: '', values: [] }] },
      /1 to 255 characters/,
      'berth.invalid_input',
    ],
    [
      'a malformed instance uuid',
      { differentHost: ['not-a-uuid'] },
      /different_host instance uuid/,
      'berth.invalid_uuid',
    ],
    [
      'too many hints',
      { hints: Array.from({ length: 65 }, (_, i) => ({ key: `k${i}`, values: [] })) },
      /At most 64/,
      'berth.invalid_input',
    ],
  ])('refuses %s', async (_name, extra, message, code) => {
    const consumer = randomUUID();
    const r = await gql(t.app, SCHEDULE, input(extra, [consumer]));
    expect(firstError(r)).toMatchObject({ code });
    expect(firstError(r)?.message).toMatch(message);
    expect(await t.app.services.allocations.findConsumer(consumer)).toBeNull();
  });

  /** A consumer with allocations on host `uuid` (written directly). */
  async function placeOn(uuid: string) {
    const consumer = randomUUID();
    await t.app.services.allocations.set([
      {
        consumerUuid: consumer,
        projectId: 'p',
        userId: 'u',
        consumerGeneration: null,
        allocations: [{ providerUuid: uuid, resources: { VCPU: 1 } }],
      },
    ]);
    return { consumer };
  }
});

/** An operator filter keeping only the host named by the free-form hint `only_host`. */
const ONLY_HOST = `exports.NAME = 'OnlyHostFilter'; exports.kind = 'filter';
exports.create = () => ({ name: 'OnlyHostFilter', kind: 'filter', onError: 'closed',
  filter: (host, req) => !req.hints.only_host || req.hints.only_host.includes(host.name)
    ? { fits: true } : { fits: false, reason: 'not ' + req.hints.only_host.join(',') } });`;

describe('free-form scheduler hints', () => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'berth-hints-'));
    writeFileSync(join(dir, 'only-host-filter.js'), ONLY_HOST);
    t = await createTestApp({ BERTH_PLUGIN_DIRS: dir, BERTH_SCHEDULER_FILTERS: 'OnlyHostFilter' });
    for (const name of ['free-a', 'free-b', 'free-c']) {
      await buildResourceProvider(t.app.services, {
        name,
        inventories: [{ resourceClass: 'VCPU', total: 8 }],
      });
    }
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reach operator plugins as request.hints', async () => {
    for (let i = 0; i < 3; i++) {
      const r = await gql(
        t.app,
        SCHEDULE,
        input({ hints: [{ key: 'only_host', values: ['free-b'] }] }),
      );
      expect(r.errors).toBeUndefined();
      const host = r.data.schedule.selections[0].host.uuid;
      expect((await t.app.services.providers.get(host)).name).toBe('free-b');
    }
  });
});

const SET_METADATA = `mutation M($uuid: ID!, $name: String, $metadata: [KeyValueInput!]!) {
  setAggregateMetadata(uuid: $uuid, name: $name, metadata: $metadata) { uuid }
}`;

describe('availability zones', () => {
  let t: TestApp;
  const zone: Record<string, string> = {};
  beforeAll(async () => {
    t = await createTestApp();
    const az1 = randomUUID();
    const r = await gql(t.app, SET_METADATA, {
      uuid: az1,
      name: 'az1',
      metadata: [{ key: 'availability_zone', value: 'az1' }],
    });
    expect(r.errors).toBeUndefined();
    for (const [name, aggregates] of [
      ['in-az1', [az1]],
      ['in-default', []],
    ] as const) {
      const rp = await buildResourceProvider(t.app.services, {
        name,
        inventories: [{ resourceClass: 'VCPU', total: 64 }],
        aggregates: [...aggregates],
      });
      zone[rp.uuid] = name;
    }
  });
  afterAll(async () => {
    await t.close();
  });

  const placeIn = async (availabilityZone?: string) => {
    const r = await gql(t.app, SCHEDULE, input(availabilityZone ? { availabilityZone } : {}));
    expect(r.errors).toBeUndefined();
    const sel = r.data.schedule.selections[0];
    return sel.host ? zone[sel.host.uuid] : sel.reason;
  };

  it.each([
    ['az1', 'in-az1'],
    ['nova', 'in-default'],
  ])('places a request for zone %s on %s, every time', async (az, host) => {
    for (let i = 0; i < 4; i++) {
      expect(await placeIn(az)).toBe(host);
    }
  });

  it('finds no host in a zone no aggregate has, and says why', async () => {
    expect(await placeIn('az9')).toMatch(/no aggregate has availability_zone az9/);
  });
});
