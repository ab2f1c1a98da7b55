// The capacity gauges, the outcome counters and the readiness gauge on /metrics: cloud figures per
// resource class equal the capacity query's, schedules that find no host are counted by where the
// hosts ran out, claim conflicts have a counter from the start, and a ready replica says 1.
import { createTestApp, type TestApp } from '../support/app';
import { buildResourceProvider } from '../support/factories';
import { gql } from '../support/graphql';
import { type Line, sampleLines, scheduleOverHttp, scrape, served } from '../support/metrics';

const SCHEDULE = `mutation Place($i: ScheduleInput!) {
  schedule(input: $i) { selections { host { uuid } reason } } }`;

const value = (lines: readonly Line[], name: string, labels: Record<string, string> = {}) =>
  lines.find((l) => l.name === name && Object.entries(labels).every(([k, v]) => l.labels[k] === v))
    ?.value;

describe('/metrics capacity and outcomes', () => {
  let t: TestApp;
  let lines: Line[];
  const reasons: string[] = [];

  beforeAll(async () => {
    t = await createTestApp({
      BERTH_SCHEDULER_FILTERS: 'NumInstancesFilter',
      BERTH_SCHEDULER_CONFIG: JSON.stringify({ NumInstancesFilter: { maxInstancesPerHost: 1 } }),
    });
    await buildResourceProvider(t.app.services, {
      inventories: [
        { resourceClass: 'VCPU', total: 8, reserved: 2, allocationRatio: 2 },
        { resourceClass: 'MEMORY_MB', total: 4096 },
      ],
    });
    lines = sampleLines(
      await served(t.app, async (base) => {
        // Placed; then refused by the filter (one instance per host); then no candidate at all.
        for (const [vcpu, memoryMb] of [
          [2, 512],
          [2, 512],
          [64, 512],
        ] as const) {
          const { body } = await scheduleOverHttp(base, { query: SCHEDULE, vcpu, memoryMb });
          expect(body.errors).toBeUndefined();
          reasons.push(body.data.schedule.selections[0].reason);
        }
        return scrape(base);
      }),
    );
  });
  afterAll(async () => {
    await t.close();
  });

  it('shows the cloud per resource class as the capacity query does', async () => {
    expect(reasons[0]).toBeNull();
    const res = await gql(
      t.app,
      '{ capacity { lines { resourceClass total reserved capacity used free } } }',
    );
    for (const l of res.data.capacity[0].lines) {
      const rc = { resource_class: l.resourceClass };
      expect({
        resourceClass: l.resourceClass,
        total: value(lines, 'berth_capacity_inventory_units', rc),
        reserved: value(lines, 'berth_capacity_reserved_units', rc),
        capacity: value(lines, 'berth_capacity_allocatable_units', rc),
        used: value(lines, 'berth_capacity_used_units', rc),
        free: value(lines, 'berth_capacity_free_units', rc),
      }).toEqual(l);
    }
    expect(value(lines, 'berth_capacity_allocatable_units', { resource_class: 'VCPU' })).toBe(12);
    expect(value(lines, 'berth_capacity_used_units', { resource_class: 'VCPU' })).toBe(2);
  });

  it('counts the schedules that found no host by where the hosts ran out', () => {
    expect(reasons.slice(1).every((r) => r.startsWith('No valid host'))).toBe(true);
    const count = (operation: string, stage: string) =>
      value(lines, 'berth_schedule_no_valid_host_total', { operation, stage });
    expect([count('schedule', 'filters'), count('schedule', 'candidates')]).toEqual([1, 1]);
    expect([count('explain', 'filters'), count('explain', 'candidates')]).toEqual([0, 0]);
  });

  it('has the claim conflict counter and says the replica is ready', () => {
    expect(
      value(lines, 'berth_claim_conflicts_total', { code: 'placement.concurrent_update' }),
    ).toBe(0);
    expect(value(lines, 'berth_ready')).toBe(1);
  });
});
