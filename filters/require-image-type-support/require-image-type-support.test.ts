// Table tests for require_image_type_support (after nova/tests/unit/scheduler/
// test_request_filter.py test_require_image_type_support_*).
import { STANDARD_TRAITS } from '../../src/db/seed';
import type { RequestAmendment } from '../../src/scheduler/plugin-api';
import { buildRequestSpec } from '../../src/scheduler/plugin-testing';
import { buildPlugin } from '../../test/support/plugin';
import { create, IMAGE_TYPE_TRAITS, NAME, NOTE_UNKNOWN_TRAIT, TRAIT_PREFIX } from './index';

function amend(extraSpecs: Record<string, string>, config: Record<string, unknown> = {}) {
  return buildPlugin(create, NAME, config).amendRequest(buildRequestSpec({ extraSpecs }), {
    aggregates: [],
  }) as RequestAmendment | null;
}

describe(NAME, () => {
  it.each<{ name: string; specs: Record<string, string>; want: RequestAmendment | null }>([
    {
      name: 'adds the trait of the disk format (raw)',
      specs: { 'image:disk_format': 'raw' },
      want: {
        rootRequiredTraits: [['COMPUTE_IMAGE_TYPE_RAW']],
        note: 'required root trait COMPUTE_IMAGE_TYPE_RAW',
      },
    },
    {
      name: 'upper-cases the format (qcow2)',
      specs: { 'image:disk_format': 'qcow2' },
      want: {
        rootRequiredTraits: [['COMPUTE_IMAGE_TYPE_QCOW2']],
        note: 'required root trait COMPUTE_IMAGE_TYPE_QCOW2',
      },
    },
    {
      name: 'volume-backed (no disk format): nothing',
      specs: { 'image:hw_architecture': 'x86_64' },
      want: null,
    },
    {
      name: 'unknown format: nothing required, as Nova (which logs an error)',
      specs: { 'image:disk_format': 'danformat' },
      want: {
        note: `image:disk_format="danformat": COMPUTE_IMAGE_TYPE_DANFORMAT: ${NOTE_UNKNOWN_TRAIT}`,
      },
    },
    {
      name: 'an unscoped disk_format is not the image',
      specs: { disk_format: 'raw' },
      want: null,
    },
  ])('$name', ({ specs, want }) => {
    expect(amend(specs)).toEqual(want);
  });

  it('does nothing when queryPlacementForImageTypeSupport is false', () => {
    expect(
      amend({ 'image:disk_format': 'raw' }, { queryPlacementForImageTypeSupport: false }),
    ).toBe(null);
  });

  it('refuses a non-boolean queryPlacementForImageTypeSupport at start-up', () => {
    expect(() => amend({}, { queryPlacementForImageTypeSupport: 'yes' })).toThrow(
      `${NAME}: config "queryPlacementForImageTypeSupport" must be true or false`,
    );
  });

  it('knows exactly the COMPUTE_IMAGE_TYPE_* traits berth seeds (os-traits)', () => {
    expect([...IMAGE_TYPE_TRAITS].sort()).toEqual(
      STANDARD_TRAITS.filter((t) => t.startsWith(TRAIT_PREFIX)).sort(),
    );
  });
});
