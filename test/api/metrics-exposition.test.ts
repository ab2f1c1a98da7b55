// /metrics is valid Prometheus text (parse-prometheus-text-format, and promtool when installed)
// and after a REST call, a GraphQL operation and a `schedule` shows the request, operation,
// scheduler stage, claim and pool histograms with counts, next to the long-standing statistics.
import { spawnSync } from 'node:child_process';
import { createTestApp, type TestApp } from '../support/app';
import { buildResourceProvider } from '../support/factories';
import {
  family,
  histogramCount,
  parsePrometheus,
  sampleLines,
  scheduleOverHttp,
  scrape,
  served,
} from '../support/metrics';
import { ADMIN_LATEST } from '../support/rest';

const hasPromtool = spawnSync('promtool', ['--version']).status === 0;

const SCHEDULE = `mutation Place($i: ScheduleInput!) {
  schedule(input: $i) { selections { consumerUuid host { uuid } reason } } }`;

describe('/metrics exposition', () => {
  let t: TestApp;
  let text: string;
  let rpUuid: string;
  beforeAll(async () => {
    t = await createTestApp({
      BERTH_SCHEDULER_FILTERS: 'ComputeFilter,RamFilter',
      BERTH_SCHEDULER_WEIGHERS: 'RAMWeigher',
    });
    const rp = await buildResourceProvider(t.app.services, {
      inventories: [
        { resourceClass: 'VCPU', total: 8 },
        { resourceClass: 'MEMORY_MB', total: 4096 },
      ],
    });
    rpUuid = rp.uuid;
    text = await served(t.app, async (base) => {
      const rest = await fetch(`${base}${t.app.config.restPrefix}/resource_providers/${rpUuid}`, {
        headers: ADMIN_LATEST,
      });
      expect(rest.status).toBe(200);
      const { body } = await scheduleOverHttp(base, { query: SCHEDULE, vcpu: 2, memoryMb: 512 });
      expect(body.errors).toBeUndefined();
      expect(body.data.schedule.selections[0].host.uuid).toBe(rpUuid);
      return scrape(base);
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('parses, keeps every statistic, and shows the process metrics', () => {
    const families = parsePrometheus(text);
    const names = new Set(families.map((f) => f.name));
    for (const name of [
      'berth_candidate_cache_hits_total',
      'berth_candidate_cache_hit_ratio',
      'berth_candidate_index_providers',
      'berth_scheduler_evaluations_total',
      'berth_claim_batches_total',
      'berth_allocation_write_split_batches_total',
      'berth_cache_backend_errors_total',
      'process_cpu_user_seconds_total',
      'nodejs_eventloop_lag_seconds',
      'nodejs_active_handles',
    ]) {
      expect(names).toContain(name);
    }
    for (const name of ['nodejs_active_handles_total', 'nodejs_active_requests_total']) {
      expect(names).not.toContain(name);
    }
    expect(family(families, 'berth_scheduler_evaluations_total').type).toBe('COUNTER');
    expect(Number(family(families, 'berth_scheduler_evaluations_total').metrics[0]!.value)).toBe(1);
    expect(Number(family(families, 'berth_candidate_index_providers').metrics[0]!.value)).toBe(1);
  });

  it('times the REST call by route template, method and status class', () => {
    const lines = sampleLines(text);
    const route = `${t.app.config.restPrefix}/resource_providers/{uuid}`;
    expect(
      histogramCount(lines, 'berth_http_request_duration_seconds', {
        route,
        method: 'GET',
        status: '2xx',
      }),
    ).toBe(1);
    expect(
      histogramCount(lines, 'berth_http_request_duration_seconds', { route: '/graphql' }),
    ).toBe(1);
    expect(text).not.toContain(rpUuid);
  });

  it('times the GraphQL operation by name and type', () => {
    expect(
      histogramCount(sampleLines(text), 'berth_graphql_operation_duration_seconds', {
        operation_name: 'Place',
        operation_type: 'mutation',
      }),
    ).toBe(1);
  });

  it('times each scheduler stage, each plugin, the claim transaction and the pool waits', () => {
    const families = parsePrometheus(text);
    const lines = sampleLines(text);
    const stage = (labels: Record<string, string>) =>
      histogramCount(lines, 'berth_scheduler_stage_duration_seconds', labels);
    expect(stage({ stage: 'schedule', plugin: '' })).toBe(1);
    expect(stage({ stage: 'candidates' })).toBe(1);
    expect(stage({ stage: 'filter', plugin: 'ComputeFilter' })).toBe(1);
    expect(stage({ stage: 'filter', plugin: 'RamFilter' })).toBe(1);
    expect(stage({ stage: 'weighing' })).toBe(1);
    expect(stage({ stage: 'weigher', plugin: 'RAMWeigher' })).toBe(1);
    expect(stage({ stage: 'claim' })).toBe(1);
    expect(histogramCount(lines, 'berth_claim_transaction_duration_seconds')).toBe(1);
    expect(histogramCount(lines, 'berth_claim_batch_size')).toBe(1);
    expect(histogramCount(lines, 'berth_db_pool_acquire_duration_seconds')).toBeGreaterThan(0);
    expect(family(families, 'berth_db_pool_clients').metrics.map((m) => m.labels?.state)).toEqual([
      'total',
      'idle',
      'waiting',
    ]);
  });

  const promtoolTitle = `passes promtool check metrics${hasPromtool ? '' : ' (skipped: promtool is not on PATH)'}`;
  (hasPromtool ? it : it.skip)(promtoolTitle, () => {
    // Exit 1 is a format error, 3 lint remarks: neither is allowed (prom-client's
    // nodejs_active_*_total gauges, named like counters, are not registered).
    const r = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
    const remarks = `${r.stdout}${r.stderr}`.split('\n').filter((l) => l.trim() !== '');
    expect(remarks).toEqual([]);
    expect(r.status).toBe(0);
  });
});
