// Table tests for BuildFailureWeigher (after nova/tests/unit/scheduler/weights/
// test_weights_compute.py): the raw weight is the host's failed builds; the pipeline normalises
// it and applies the negated (aggregate-overridable) multiplier, so Nova's expected weights come
// out exactly.

import type { HostView } from '../../src/scheduler/plugin-api';
import { buildHostView, buildRequestSpec } from '../../src/scheduler/plugin-testing';
import { createPipeline } from '../../src/scheduler/runtime/pipeline';
import { buildPlugin, runPipeline } from '../../test/support/plugin';
import { create, DEFAULT_MULTIPLIER, MULTIPLIER_KEY, NAME } from './index';

const make = (config: Record<string, unknown> = {}) => buildPlugin(create, NAME, config);

type Agg = Record<string, string>;

/** Nova's four hosts: failed_builds 0, 1, 10, 100 (in aggregates with `metadata`). */
function allHosts(metadata: Agg[][] = [[], [], [], []]): HostView[] {
  return [0, 1, 10, 100].map((failedBuilds, i) =>
    buildHostView({
      providers: [{ uuid: `host${i + 1}` }],
      aggregates: metadata[i]!.map((m, j) => ({ uuid: `agg${j}`, metadata: m })),
      failedBuilds,
    }),
  );
}

/** The weights Nova's handler gives, in host order. */
async function weights(config: Record<string, unknown>, hosts: HostView[]): Promise<number[]> {
  const result = await runPipeline(
    createPipeline({ filters: [], weighers: [make(config)] }),
    hosts,
    buildRequestSpec(),
  );
  const byUuid = new Map(result.hosts.map((r) => [r.host.uuid, r.weight]));
  return hosts.map((h) => byUuid.get(h.uuid)! + 0); // + 0: -0 reads as 0
}

describe(NAME, () => {
  it.each([0, 1, 10])('weighs a host with %i failed builds by that count', (failedBuilds) => {
    const host = buildHostView({ providers: [{ uuid: 'cn1' }], failedBuilds });
    expect(make().weigh(host, buildRequestSpec(), undefined)).toBe(failedBuilds);
  });

  it('build failure weigher disabled (multiplier 0): every host weighs 0', async () => {
    expect(await weights({ multiplier: 0.0 }, allHosts())).toEqual([0, 0, 0, 0]);
  });

  it('build failure weigher scaled (multiplier 1000): [0, -10, -100, -1000]', async () => {
    expect(await weights({ multiplier: 1000.0 }, allHosts())).toEqual([0, -10, -100, -1000]);
  });

  it('default multiplier 1000000: more failures rank lower', async () => {
    const hosts = allHosts();
    expect(await weights({}, hosts)).toEqual([0, -10000, -100000, -1000000]);
    const result = await runPipeline(
      createPipeline({ filters: [], weighers: [make()] }),
      hosts,
      buildRequestSpec(),
    );
    expect(result.hosts.map((r) => r.host.uuid)).toEqual(['host1', 'host2', 'host3', 'host4']);
    expect(result.hosts[3]!.components).toEqual([
      { weigher: NAME, raw: 100, normalised: 1, multiplier: -1000000 },
    ]);
  });

  it('host with agg (build_failure_weight_multiplier 1000 overrides 0)', async () => {
    const agg = [{ [MULTIPLIER_KEY]: '1000' }];
    expect(await weights({ multiplier: 0.0 }, allHosts([agg, agg, agg, agg]))).toEqual([
      0, -10, -100, -1000,
    ]);
  });

  // test_build_failure_weight_multiplier: the lowest aggregate value, then negated (500 -> -500).
  it.each([
    { name: 'no aggregate: the configuration', metadata: [], want: 0 },
    { name: 'one aggregate: its value', metadata: [{ [MULTIPLIER_KEY]: '1000.0' }], want: -1000 },
    {
      name: 'two aggregates: the lowest, negated',
      metadata: [{ [MULTIPLIER_KEY]: '500' }, { [MULTIPLIER_KEY]: '1000' }],
      want: -500,
    },
  ])('multiplier of one host, $name', async ({ metadata, want }) => {
    const host = (uuid: string, failedBuilds: number) =>
      buildHostView({
        providers: [{ uuid }],
        aggregates: metadata.map((m, j) => ({ uuid: `agg${j}`, metadata: m })),
        failedBuilds,
      });
    const result = await runPipeline(
      createPipeline({ filters: [], weighers: [make({ multiplier: 0.0 })] }),
      [host('fake-host', 1), host('other', 0)],
      buildRequestSpec(),
    );
    const fake = result.hosts.find((r) => r.host.uuid === 'fake-host')!;
    expect(fake.components[0]!.multiplier).toBe(want);
  });

  // Hosts with different overrides keep Nova's weights: a host without failures weighs 0
  // whatever its multiplier (a weigher negating its raw weights would add the multiplier).
  it('gives 0 to hosts without failures whatever their aggregate multiplier', async () => {
    const hosts = allHosts([
      [{ [MULTIPLIER_KEY]: '5' }],
      [{ [MULTIPLIER_KEY]: '1000' }],
      [],
      [{ [MULTIPLIER_KEY]: '2' }],
    ]);
    expect(await weights({ multiplier: 100 }, hosts)).toEqual([0, -10, -10, -2]);
  });

  it("defaults the multiplier to Nova's 1000000.0, negated at weighing", () => {
    expect(DEFAULT_MULTIPLIER).toBe(1000000);
    expect(make().multiplier).toBe(1000000);
    expect(make().negateMultiplier).toBe(true);
    expect(make().multiplierMetadataKey).toBe('build_failure_weight_multiplier');
    expect(make().minval).toBeUndefined();
  });

  it('rejects a non-numeric multiplier at start-up', () => {
    expect(() => make({ multiplier: '1e6' })).toThrow(
      `${NAME}: config "multiplier" must be a finite number`,
    );
  });
});
