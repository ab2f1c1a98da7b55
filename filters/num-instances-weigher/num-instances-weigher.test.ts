// Table tests for NumInstancesWeigher (after nova/tests/unit/scheduler/weights/test_weights_num_instances.py): the raw weight is the
// host's count; the pipeline normalises it and applies the (aggregate-overridable) multiplier.
import { buildHostView, buildRequestSpec } from '../../src/scheduler/helpers';
import { buildPlugin } from '../../test/support/plugin';
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

  it('rejects a non-numeric multiplier at start-up', () => {
    expect(() => make({ multiplier: 'x' })).toThrow(
      `${NAME}: config "multiplier" must be a finite number`,
    );
  });
});
