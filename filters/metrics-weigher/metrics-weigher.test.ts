// Table tests for MetricsWeigher (after nova/tests/unit/scheduler/weights/test_weights_metrics.py):
// Nova's six hosts, their metrics as traits, ranked through the pipeline (normalised, times the
// multiplier), and the required / weightOfUnavailable rules.

import type { HostView } from '../../src/scheduler/plugin-api';
import { buildHostView, buildRequestSpec } from '../../src/scheduler/plugin-testing';
import { buildPipeline, createRegistry } from '../../src/scheduler/runtime/registry';
import { buildPlugin, runPipeline } from '../../test/support/plugin';
import { metricTrait } from '../host-state/metrics';
import * as weigher from './index';

const { create, DEFAULT_MULTIPLIER, DEFAULT_WEIGHT_OF_UNAVAILABLE, MULTIPLIER_KEY, NAME } = weigher;
const IDLE = 'cpu.idle.time';
const KERNEL = 'cpu.kernel.time';
const USER = 'cpu.user.time';

function host(
  name: string,
  metrics: [string, number][],
  metadata?: Record<string, string>,
): HostView {
  return buildHostView({
    providers: [{ uuid: name, name, traits: metrics.map(([m, v]) => metricTrait(m, v)) }],
    aggregates: metadata === undefined ? [] : [{ uuid: 'agg', metadata }],
  });
}

const allHosts = (metadata?: Record<string, string>) => [
  host(
    'host1',
    [
      [IDLE, 512],
      [KERNEL, 1],
    ],
    metadata,
  ),
  host(
    'host2',
    [
      [IDLE, 1024],
      [KERNEL, 2],
    ],
    metadata,
  ),
  host(
    'host3',
    [
      [IDLE, 3072],
      [KERNEL, 1],
    ],
    metadata,
  ),
  host(
    'host4',
    [
      [IDLE, 8192],
      [KERNEL, 0],
    ],
    metadata,
  ),
  host(
    'host5',
    [
      [IDLE, 768],
      [KERNEL, 0],
      [USER, 1],
    ],
    metadata,
  ),
  host(
    'host6',
    [
      [IDLE, 2048],
      [KERNEL, 0],
      [USER, 2],
    ],
    metadata,
  ),
];

async function best(config: Record<string, unknown>, hosts: HostView[] = allHosts()) {
  const pipeline = buildPipeline(createRegistry([weigher]), {
    enabledFilters: [],
    enabledWeighers: [NAME],
    plugins: { [NAME]: config },
  });
  return runPipeline(pipeline, hosts, buildRequestSpec());
}

describe(NAME, () => {
  it.each<[string, Record<string, unknown>, number, string]>([
    ['single resource', { weightSetting: [`${IDLE}=1`] }, 1, 'host4'],
    ['multiple resource', { weightSetting: [`${IDLE}=0.0001`, `${KERNEL}=1`] }, 1, 'host2'],
    [
      'single resource, duplicate setting',
      { weightSetting: [`${IDLE}=-2`, `${IDLE}=1`] },
      1,
      'host1',
    ],
    ['single resource, negative ratio', { weightSetting: [`${IDLE}=-1`] }, 1, 'host1'],
    [
      'metric not found, not required',
      { weightSetting: [`${IDLE}=0.0001`, `${USER}=-1`], required: false },
      1,
      'host5',
    ],
  ])('%s: %s wins with weight %p', async (_name, config, weight, winner) => {
    const result = await best(config);
    expect(result.explanation.failures).toEqual([]);
    expect(result.hosts[0]!.host.name).toBe(winner);
    expect(result.hosts[0]!.weight).toBeCloseTo(weight);
  });

  it('uses the aggregate multiplier (Nova test_host_with_agg)', async () => {
    const result = await best(
      { weightSetting: [`${IDLE}=0.0001`, `${KERNEL}=1`] },
      allHosts({ [MULTIPLIER_KEY]: '1.5' }),
    );
    expect(result.hosts[0]!.host.name).toBe('host2');
    expect(result.hosts[0]!.weight).toBeCloseTo(1.5);
  });

  it.each([
    ['a host has no metrics at all', [host('host1', []), host('host2', [])]],
    ['a weighed metric is missing', allHosts()],
  ])('fails for the request, dropped and reported, when required and %s', async (_name, hosts) => {
    const result = await best({ weightSetting: [`${IDLE}=1`, `${USER}=2`] }, hosts);
    expect(result.explanation.failures).toEqual([
      expect.objectContaining({ plugin: NAME, policy: 'dropped', phase: 'weigh' }),
    ]);
    expect(result.hosts.every((h) => h.components.length === 0)).toBe(true);
  });

  it('weighs a host lacking a metric weightOfUnavailable, unless ratio x multiplier is 0', () => {
    const lacking = host('host1', [[IDLE, 512]]);
    const spec = buildRequestSpec();
    const config = { weightSetting: [`${IDLE}=1`, `${USER}=2`], required: false };
    expect(buildPlugin(create, NAME, config).weigh(lacking, spec, undefined)).toBe(
      DEFAULT_WEIGHT_OF_UNAVAILABLE,
    );
    const custom = { ...config, weightOfUnavailable: -5 };
    expect(buildPlugin(create, NAME, custom).weigh(lacking, spec, undefined)).toBe(-5);
    const zeroRatio = { weightSetting: [`${IDLE}=1`, `${USER}=0`], required: false };
    expect(buildPlugin(create, NAME, zeroRatio).weigh(lacking, spec, undefined)).toBe(512);
    const zeroMultiplier = { ...config, multiplier: 0 };
    expect(buildPlugin(create, NAME, zeroMultiplier).weigh(lacking, spec, undefined)).toBe(512);
    const zeroInAggregate = host('host1', [[IDLE, 512]], { [MULTIPLIER_KEY]: '0' });
    expect(buildPlugin(create, NAME, config).weigh(zeroInAggregate, spec, undefined)).toBe(512);
  });

  it('weighs metrics as Nova reads them: integers, percentages times 100', () => {
    const h = host('host1', [
      ['cpu.percent', 0.25],
      ['cpu.frequency', 2400.5],
    ]);
    const w = buildPlugin(create, NAME, { weightSetting: 'cpu.percent=2' });
    expect(w.weigh(h, buildRequestSpec(), undefined)).toBe(50);
    const f = buildPlugin(create, NAME, { weightSetting: 'cpu.frequency=1' });
    expect(f.weigh(h, buildRequestSpec(), undefined)).toBe(2400);
  });

  it('defaults as Nova and names its aggregate key (Nova test_metrics_weigher_multiplier)', () => {
    const w = buildPlugin(create, NAME);
    expect(DEFAULT_MULTIPLIER).toBe(1);
    expect(w.multiplier).toBe(1);
    expect(w.multiplierMetadataKey).toBe('metrics_weight_multiplier');
    expect(w.weigh(host('host1', []), buildRequestSpec(), undefined)).toBe(0);
    expect(buildPlugin(create, NAME, { multiplier: -1 }).multiplier).toBe(-1);
  });

  it.each([
    [{ required: 'yes' }, 'required'],
    [{ weightOfUnavailable: 'low' }, 'weightOfUnavailable'],
    [{ multiplier: 'x' }, 'multiplier'],
    [{ weightSetting: ['x=1', 'y'] }, 'weightSetting'],
  ])('rejects %j at start-up', (config, key) => {
    expect(() => buildPlugin(create, NAME, config)).toThrow(`${NAME}: config "${key}"`);
  });
});
