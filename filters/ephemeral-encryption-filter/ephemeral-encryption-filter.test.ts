// Table tests for ephemeral_encryption_filter (after nova/tests/unit/scheduler/
// test_request_filter.py test_ephemeral_encryption_filter_*, and nova/virt/hardware.py's
// conflicts).
import { STANDARD_TRAITS } from '../../src/db/seed';
import type { RequestAmendment } from '../../src/scheduler/plugin-api';
import { buildRequestSpec } from '../../src/scheduler/plugin-testing';
import { buildPlugin } from '../../test/support/plugin';
import {
  boolFromString,
  create,
  FORMATS,
  NAME,
  REASON_CONFLICT,
  REASON_INVALID_FORMAT,
  TRAIT,
} from './index';

const plugin = buildPlugin(create, NAME);
const amend = (extraSpecs: Record<string, string>) =>
  plugin.amendRequest(buildRequestSpec({ extraSpecs }), {
    aggregates: [],
  }) as RequestAmendment | null;
const requires = (...traits: string[]) => ({
  rootRequiredTraits: traits.map((t) => [t]),
  note: `required root traits ${traits.join(', ')}`,
});

describe(NAME, () => {
  it.each<{ name: string; specs: Record<string, string>; want: RequestAmendment | null }>([
    { name: 'no encryption', specs: {}, want: null },
    {
      name: 'encryption disabled on the image',
      specs: { 'image:hw_ephemeral_encryption': 'False' },
      want: null,
    },
    {
      name: 'encryption disabled on the flavor',
      specs: { 'hw:ephemeral_encryption': 'False' },
      want: null,
    },
    {
      name: 'encryption, no format',
      specs: { 'hw:ephemeral_encryption': 'True' },
      want: requires(TRAIT),
    },
    {
      name: 'encryption and format',
      specs: { 'hw:ephemeral_encryption': 'True', 'hw:ephemeral_encryption_format': 'luks' },
      want: requires(TRAIT, `${TRAIT}_LUKS`),
    },
    {
      name: 'image encryption with an image format',
      specs: {
        'image:hw_ephemeral_encryption': 'yes',
        'image:hw_ephemeral_encryption_format': 'luksv2',
      },
      want: requires(TRAIT, `${TRAIT}_LUKSV2`),
    },
    {
      name: 'flavor and image agree',
      specs: {
        'hw:ephemeral_encryption': ' ON ',
        'image:hw_ephemeral_encryption': '1',
        'hw:ephemeral_encryption_format': 'plain',
        'image:hw_ephemeral_encryption_format': 'plain',
      },
      want: requires(TRAIT, `${TRAIT}_PLAIN`),
    },
    {
      name: 'an empty flavor format leaves the image format',
      specs: {
        'hw:ephemeral_encryption': 'true',
        'hw:ephemeral_encryption_format': '',
        'image:hw_ephemeral_encryption_format': 'luks',
      },
      want: requires(TRAIT, `${TRAIT}_LUKS`),
    },
    {
      name: 'a format without encryption asks for nothing',
      specs: { 'hw:ephemeral_encryption_format': 'luks' },
      want: null,
    },
    {
      name: 'flavor and image disagree on encryption (FlavorImageConflict)',
      specs: { 'hw:ephemeral_encryption': 'garbage', 'image:hw_ephemeral_encryption': 'true' },
      want: {
        unsatisfiable: `${REASON_CONFLICT}: hw:ephemeral_encryption=garbage, image:hw_ephemeral_encryption=true`,
      },
    },
    {
      name: 'flavor and image disagree on the format',
      specs: {
        'hw:ephemeral_encryption': 'true',
        'hw:ephemeral_encryption_format': 'luks',
        'image:hw_ephemeral_encryption_format': 'plain',
      },
      want: {
        unsatisfiable: `${REASON_CONFLICT}: hw:ephemeral_encryption_format=luks, image:hw_ephemeral_encryption_format=plain`,
      },
    },
    {
      name: 'a flavor format Nova does not know (Invalid)',
      specs: { 'hw:ephemeral_encryption': 'true', 'hw:ephemeral_encryption_format': 'LUKS' },
      want: { unsatisfiable: `${REASON_INVALID_FORMAT}: LUKS (allowed: plain, luks, luksv2)` },
    },
    {
      name: 'an image format Nova does not know',
      specs: { 'hw:ephemeral_encryption': 'true', 'image:hw_ephemeral_encryption_format': 'aes' },
      want: { unsatisfiable: `${REASON_INVALID_FORMAT}: image:hw_ephemeral_encryption_format=aes` },
    },
  ])('$name', ({ specs, want }) => {
    expect(amend(specs)).toEqual(want);
  });

  it.each([
    ['1', true],
    ['t', true],
    ['TRUE', true],
    [' yes\n', true],
    ['on', true],
    ['Y', true],
    ['0', false],
    ['no', false],
    ['', false],
    ['2', false],
  ])('reads %j as oslo bool_from_string: %p', (text, want) => {
    expect(boolFromString(text)).toBe(want);
  });

  it('requires only traits berth seeds (os-traits)', () => {
    for (const t of [TRAIT, ...FORMATS.map((f) => `${TRAIT}_${f.toUpperCase()}`)]) {
      expect(STANDARD_TRAITS).toContain(t);
    }
  });
});
