// Table tests for NumInstancesWeigher (after nova/tests/unit/scheduler/weights/test_weights_num_instances.py): the raw weight is the
// host's count; the pipeline normalises it and applies the (aggregate-overridable) multiplier.
import { buildHostView, buildRequestSpec } from '../../src/scheduler/plugin-testing';
import { createPipeline } from '../../src/scheduler/runtime/pipeline';
import { buildPlugin, runPipeline } from '../../test/support/plugin';
import { create, DEFAULT_MULTIPLIER, MULTIPLIER_KEY, NAME } from './index';

const make = (config: Record<string, unknown> = {}) => buildPlugin(create, NAME, config);

describe(NAME, () => {
  it.each([0, 1, 7])('weighs a host with %i by its count', (count) => {
    const host = buildHostView({ providers: [{ uuid: 'cn1' }], numInstances: count });
    expect(make().weigh(host, buildRequestSpec(), undefined)).toBe(count);
  });

  it("defaults the multiplier to Nova's 0, reads it from config and names its aggregate key", () => {
    expect(DEFAULT_MULTIPLIER).toBe(0);
    expect(make().multiplier).toBe(0);
    expect(make({ multiplier: 2.5 }).multiplier).toBe(2.5);
    expect(make().multiplierMetadataKey).toBe(MULTIPLIER_KEY);
    expect(MULTIPLIER_KEY).toBe('num_instances_weight_multiplier');
  });

  it('declares minval 0, as the upstream NumInstancesWeigher', () => {
    expect(make().minval).toBe(0);
    expect(make().maxval).toBeUndefined();
  });

  // Counts 1 / 2 / 3 normalise from 0: 1/3, 2/3, 1 (the list's own minimum would give 0, .5, 1).
  it.each([
    { multiplier: -1, want: [-1 / 3, -2 / 3, -1] },
    { multiplier: 1, want: [1 / 3, 2 / 3, 1] },
  ])('weighs counts 1/2/3 from 0 with multiplier $multiplier', async ({ multiplier, want }) => {
    const hosts = [1, 2, 3].map((n) =>
      buildHostView({ providers: [{ uuid: `h${n}` }], numInstances: n }),
    );
    const result = await runPipeline(
      createPipeline({ filters: [], weighers: [make({ multiplier })] }),
      hosts,
      buildRequestSpec(),
    );
    const got = Object.fromEntries(result.hosts.map((r) => [r.host.uuid, r.weight]));
    want.forEach((w, i) => {
      expect(got[`h${i + 1}`]).toBeCloseTo(w, 12);
    });
  });

  it('rejects a non-numeric multiplier at start-up', () => {
    expect(() => make({ multiplier: 'x' })).toThrow(
      `${NAME}: config "multiplier" must be a finite number`,
    );
  });
});
