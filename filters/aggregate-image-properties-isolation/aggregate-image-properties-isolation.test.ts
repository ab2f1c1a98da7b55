// Table tests for AggregateImagePropertiesIsolation (after nova/tests/unit/scheduler/filters/
// test_aggregate_image_properties_isolation_filters.py), plus Nova's value coercion and legacy
// property names (nova/objects/image_meta.py).
import { buildHostView, buildRequestSpec } from '../../src/scheduler/plugin-testing';
import { buildPlugin, verdictOf } from '../../test/support/plugin';
import { coerceProperty, imageMetaProps } from './image-meta-props';
import {
  CODE_PROPERTY_MISMATCH,
  create,
  NAME,
  REASON_INVALID_PROPERTY,
  REASON_PROPERTY_MISMATCH,
} from './index';

type Meta = Record<string, string>;

function fits(image: Meta, aggregates: Meta[], config: Record<string, unknown> = {}) {
  const host = buildHostView({
    providers: [{ uuid: 'h1', name: 'host1' }],
    aggregates: aggregates.map((metadata, i) => ({ uuid: `agg${i}`, metadata })),
  });
  const extraSpecs = Object.fromEntries(Object.entries(image).map(([k, v]) => [`image:${k}`, v]));
  return verdictOf(buildPlugin(create, NAME, config), host, buildRequestSpec({ extraSpecs }));
}

describe(NAME, () => {
  it.each<{ name: string; image: Meta; aggs: Meta[]; want: boolean }>([
    // Nova's cases (metadata as aggregate_metadata_get_by_host returns it).
    { name: 'passes', image: { hw_vm_mode: 'hvm' }, aggs: [{ hw_vm_mode: 'hvm' }], want: true },
    {
      name: 'passes comma',
      image: { hw_vm_mode: 'hvm' },
      aggs: [{ hw_vm_mode: 'hvm,xen' }],
      want: true,
    },
    {
      name: 'props bad comma',
      image: { os_distro: 'windows,' },
      aggs: [{ os_distro: 'windows,linux' }],
      want: false,
    },
    {
      name: 'multi props passes',
      image: { hw_vm_mode: 'hvm', hw_cpu_cores: '2' },
      aggs: [{ hw_vm_mode: 'hvm', hw_cpu_cores: '2' }],
      want: true,
    },
    { name: 'image without the property', image: {}, aggs: [{ hw_vm_mode: 'hvm' }], want: true },
    { name: 'no metadata', image: { hw_vm_mode: 'hvm' }, aggs: [], want: true },
    {
      name: 'not match fails',
      image: { hw_vm_mode: 'xen' },
      aggs: [{ hw_vm_mode: 'hvm' }],
      want: false,
    },
    {
      name: 'not match 2 fails',
      image: { hw_vm_mode: 'hvm', hw_cpu_cores: '2' },
      aggs: [{ hw_vm_mode: 'hvm', hw_cpu_cores: '1' }],
      want: false,
    },
    {
      name: 'custom metadata key ignored',
      image: { os_type: 'linux' },
      aggs: [{ os: 'linux' }],
      want: true,
    },
    {
      name: 'matching meta passes',
      image: { os_type: 'linux' },
      aggs: [{ os_type: 'linux' }],
      want: true,
    },
    {
      name: 'matching meta fails',
      image: { os_type: 'linux' },
      aggs: [{ os_type: 'windows' }],
      want: false,
    },
    // berth: the same rules on values Nova coerces.
    {
      name: 'values united across aggregates',
      image: { hw_vm_mode: 'xen' },
      aggs: [{ hw_vm_mode: 'hvm' }, { hw_vm_mode: 'xen' }],
      want: true,
    },
    {
      name: 'an image property Nova does not know is ignored',
      image: { my_prop: 'a' },
      aggs: [{ my_prop: 'b' }],
      want: true,
    },
    {
      name: 'boolean properties compare as True / False',
      image: { hw_qemu_guest_agent: 'yes' },
      aggs: [{ hw_qemu_guest_agent: 'True' }],
      want: true,
    },
    {
      name: 'a false boolean is not checked (Python falsiness)',
      image: { hw_qemu_guest_agent: 'no' },
      aggs: [{ hw_qemu_guest_agent: 'True' }],
      want: true,
    },
    {
      name: 'integers compare in canonical form',
      image: { hw_cpu_cores: '02' },
      aggs: [{ hw_cpu_cores: '2' }],
      want: true,
    },
    {
      name: 'a zero integer is not checked',
      image: { hw_cpu_cores: '0' },
      aggs: [{ hw_cpu_cores: '2' }],
      want: true,
    },
    {
      name: 'an empty string is not checked',
      image: { os_distro: '' },
      aggs: [{ os_distro: 'x' }],
      want: true,
    },
    {
      name: 'architectures are canonicalised',
      image: { hw_architecture: 'AMD64' },
      aggs: [{ hw_architecture: 'x86_64' }],
      want: true,
    },
    {
      name: 'legacy property name',
      image: { vm_mode: 'hv' },
      aggs: [{ hw_vm_mode: 'hvm' }],
      want: true,
    },
    {
      name: 'the current name wins over the legacy one',
      image: { vm_mode: 'xen', hw_vm_mode: 'hvm' },
      aggs: [{ hw_vm_mode: 'hvm' }],
      want: true,
    },
    {
      name: 'strings are case-sensitive',
      image: { os_distro: 'Ubuntu' },
      aggs: [{ os_distro: 'ubuntu' }],
      want: false,
    },
  ])('$name -> $want', ({ image, aggs, want }) => {
    const verdict = fits(image, aggs);
    expect(verdict.fits).toBe(want);
    expect(!verdict.fits && verdict.code).toBe(!want && CODE_PROPERTY_MISMATCH);
  });

  it('reads only keys in the namespace when one is configured (Nova props_namespace)', () => {
    const config = {
      aggregateImagePropertiesIsolationNamespace: 'hw',
      aggregateImagePropertiesIsolationSeparator: '_',
    };
    const image = { hw_vm_mode: 'hvm', img_owner_id: 'wrong' };
    const aggs = [{ hw_vm_mode: 'hvm', img_owner_id: 'foo' }];
    expect(fits(image, aggs, config)).toEqual({ fits: true });
    expect(fits(image, aggs).fits).toBe(false);
    expect(fits(image, aggs, { aggregateImagePropertiesIsolationNamespace: 'hw' }).fits).toBe(true);
  });

  it('names the property, the image value and the allowed values', () => {
    expect(fits({ hw_vm_mode: 'pv' }, [{ hw_vm_mode: 'hvm, exe' }])).toEqual({
      fits: false,
      reason: `${REASON_PROPERTY_MISMATCH}: hw_vm_mode="xen", the host takes "hvm", "exe"`,
      code: 'aggregate_image_properties.mismatch',
    });
  });

  it('rejects every host for an integer property that is not one', () => {
    expect(fits({ hw_cpu_cores: '2.0' }, [])).toEqual({
      fits: false,
      reason: `${REASON_INVALID_PROPERTY}: image property hw_cpu_cores="2.0" is not an integer`,
      code: 'aggregate_image_properties.invalid_property',
    });
  });

  it.each([
    ['hw_cpu_cores', ' +1_000 ', '1000'],
    ['hw_boot_menu', 'ON', 'True'],
    ['hw_boot_menu', 'nope', 'False'],
    ['hw_vm_mode', 'baremetal', 'hvm'],
    ['img_hv_type', 'XAPI', 'xen'],
    ['hw_architecture', 'i386', 'i686'],
    ['hw_vif_model', 'VIRTIO', 'virtio'],
    ['hw_disk_bus', 'IDE', 'IDE'],
  ])('coerces %s=%j to %j as Nova does', (name, raw, text) => {
    expect(coerceProperty(name, raw)?.text).toBe(text);
  });

  it('maps vmware_adaptertype and ignores list fields', () => {
    const props = imageMetaProps({ vmware_adaptertype: 'lsiLogic', traits_required: 'x' });
    expect([...props]).toEqual([
      ['hw_disk_bus', { text: 'scsi', truthy: true }],
      ['hw_scsi_model', { text: 'lsilogic', truthy: true }],
    ]);
  });

  it('rejects a namespace that is not a string at start-up', () => {
    expect(() =>
      buildPlugin(create, NAME, { aggregateImagePropertiesIsolationNamespace: 1 }),
    ).toThrow(`${NAME}: config "aggregateImagePropertiesIsolationNamespace" must be a string`);
  });
});
