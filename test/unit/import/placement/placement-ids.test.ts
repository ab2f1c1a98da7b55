// Placement's resource class ids for an export: os-resource-classes index for standard classes,
// 10000 upwards for custom ones, the target's own row when it has one.
import { STANDARD_RESOURCE_CLASSES } from '../../../../src/db/seed';
import { exportedNames, placementClassIds } from '../../../../src/import/placement/placement-ids';

describe('placementClassIds', () => {
  it.each([
    {
      name: 'an empty target: standard by index, custom from 10000 in name order',
      wanted: ['CUSTOM_B', 'MEMORY_MB', 'CUSTOM_A', 'VCPU'],
      existing: {},
      inserts: [
        ['CUSTOM_A', 10000],
        ['CUSTOM_B', 10001],
        ['MEMORY_MB', 1],
        ['VCPU', 0],
      ],
    },
    {
      name: 'rows the target has are reused; new custom ids follow its highest',
      wanted: ['CUSTOM_A', 'CUSTOM_C', 'VCPU'],
      existing: { VCPU: 0, CUSTOM_A: 10004 },
      inserts: [['CUSTOM_C', 10005]],
    },
  ])('$name', ({ wanted, existing, inserts }) => {
    const got = placementClassIds(wanted, new Map(Object.entries(existing)));
    expect(got.inserts).toEqual(inserts);
    for (const name of wanted) {
      expect(got.ids.has(name)).toBe(true);
    }
  });

  it('gives every standard class its os-resource-classes index', () => {
    const got = placementClassIds(STANDARD_RESOURCE_CLASSES, new Map());
    expect(STANDARD_RESOURCE_CLASSES.map((n) => got.ids.get(n))).toEqual(
      STANDARD_RESOURCE_CLASSES.map((_, i) => i),
    );
  });

  it('throws for a class that is neither standard nor custom', () => {
    expect(() => placementClassIds(['NOT_A_CLASS'], new Map())).toThrow(/NOT_A_CLASS/);
  });
});

describe('exportedNames', () => {
  it('keeps custom names and the ones in use, sorted, once each', () => {
    expect(exportedNames(['VCPU', 'CUSTOM_X', 'DISK_GB'], ['DISK_GB', 'CUSTOM_X'])).toEqual([
      'CUSTOM_X',
      'DISK_GB',
    ]);
  });
});
