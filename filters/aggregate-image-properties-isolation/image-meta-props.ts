// The image properties Nova 26 knows, and their values as Nova holds them (upstream:
// nova/objects/image_meta.py ImageMetaProps.fields, _legacy_property_map,
// _set_attr_from_legacy_names; coercion by field type from nova/objects/fields.py and
// oslo_utils.strutils.bool_from_string). Enumerations are not validated (Nova refuses an invalid
// value when the image is uploaded); list fields (NUMA lists, mappings, traits_required) are not
// read, their Python `str()` being a repr no aggregate metadata would hold.

/** How a field's value is coerced: Nova's field type, reduced to what changes its `str()`. */
export type FieldKind =
  | 'string'
  | 'int'
  | 'bool'
  | 'lower'
  | 'arch'
  | 'vm_mode'
  | 'hv_type'
  | 'list';

function fields(kind: FieldKind, names: string): [string, FieldKind][] {
  return names
    .split(/\s+/)
    .filter((n) => n !== '')
    .map((n) => [n, kind]);
}

/** ImageMetaProps field name -> kind. */
export const IMAGE_META_FIELDS: ReadonlyMap<string, FieldKind> = new Map([
  ...fields('arch', 'hw_architecture hw_emulation_architecture'),
  ...fields(
    'string',
    `hw_auto_disk_config hw_cdrom_bus hw_cpu_policy hw_cpu_realtime_mask hw_cpu_thread_policy
     hw_disk_bus hw_disk_type hw_ephemeral_encryption_format hw_firmware_type hw_floppy_bus
     hw_input_bus hw_machine_type hw_mem_page_size hw_pci_numa_affinity_policy
     hw_pointer_model hw_rescue_bus hw_rescue_device hw_rng_model hw_tpm_model hw_tpm_version
     hw_video_model hw_viommu_model hw_watchdog_action img_config_drive
     img_hv_requested_version img_owner_id img_root_device_name img_signature
     img_signature_certificate_uuid img_signature_hash_method img_signature_key_type
     os_admin_user os_command_line os_distro os_secure_boot`,
  ),
  ...fields(
    'bool',
    `hw_boot_menu hw_ephemeral_encryption hw_ipxe_boot hw_locked_memory hw_mem_encryption
     hw_pmu hw_qemu_guest_agent hw_time_hpet hw_vif_multiqueue_enabled img_bdm_v2
     img_bittorrent img_cache_in_nova img_hide_hypervisor_id img_linked_clone img_use_agent
     os_require_quiesce os_skip_agent_inject_files_at_boot os_skip_agent_inject_ssh`,
  ),
  ...fields(
    'int',
    `hw_cpu_cores hw_cpu_max_cores hw_cpu_max_sockets hw_cpu_max_threads hw_cpu_sockets
     hw_cpu_threads hw_device_id hw_numa_nodes hw_serial_port_count hw_video_ram
     img_compression_level img_version`,
  ),
  ...fields(
    'list',
    'hw_numa_cpus hw_numa_mem img_block_device_mapping img_mappings traits_required',
  ),
  ...fields('lower', 'hw_scsi_model hw_vif_model os_type'),
  ...fields('vm_mode', 'hw_vm_mode'),
  ...fields('hv_type', 'img_hv_type'),
]);

/** Legacy image property name -> the field it sets (used when the field's own name is absent). */
export const LEGACY_PROPERTY_MAP: Readonly<Record<string, string>> = {
  architecture: 'hw_architecture',
  owner_id: 'img_owner_id',
  vmware_disktype: 'hw_disk_type',
  vmware_image_version: 'img_version',
  vmware_ostype: 'os_distro',
  auto_disk_config: 'hw_auto_disk_config',
  ipxe_boot: 'hw_ipxe_boot',
  xenapi_device_id: 'hw_device_id',
  xenapi_image_compression_level: 'img_compression_level',
  vmware_linked_clone: 'img_linked_clone',
  xenapi_use_agent: 'img_use_agent',
  xenapi_skip_agent_inject_ssh: 'os_skip_agent_inject_ssh',
  xenapi_skip_agent_inject_files_at_boot: 'os_skip_agent_inject_files_at_boot',
  cache_in_nova: 'img_cache_in_nova',
  vm_mode: 'hw_vm_mode',
  bittorrent: 'img_bittorrent',
  mappings: 'img_mappings',
  block_device_mapping: 'img_block_device_mapping',
  bdm_v2: 'img_bdm_v2',
  root_device_name: 'img_root_device_name',
  hypervisor_version_requires: 'img_hv_requested_version',
  hypervisor_type: 'img_hv_type',
};

/** A coerced property: Python's `str()` of it, and whether Python finds it truthy. */
export interface PropertyValue {
  readonly text: string;
  readonly truthy: boolean;
}

const TRUE_STRINGS = new Set(['1', 't', 'true', 'on', 'y', 'yes']);

function canonicalArch(v: string): string {
  const lower = v.toLowerCase();
  if (['i386', 'i486', 'i586', 'x86_32', 'x86_32p'].includes(lower)) {
    return 'i686';
  }
  return lower === 'amd64' ? 'x86_64' : lower;
}

function canonicalVmMode(v: string): string {
  const lower = v.toLowerCase();
  return lower === 'pv' ? 'xen' : lower === 'hv' || lower === 'baremetal' ? 'hvm' : lower;
}

/**
 * The value of field `name` as Nova's ImageMetaProps holds it, from the raw property text;
 * `undefined` for list fields (not read). @throws Error for an integer field that is not one.
 */
export function coerceProperty(name: string, raw: string): PropertyValue | undefined {
  switch (IMAGE_META_FIELDS.get(name)) {
    case 'int': {
      const text = raw.trim();
      if (!/^[+-]?\d+(?:_\d+)*$/.test(text)) {
        throw new Error(`image property ${name}=${JSON.stringify(raw)} is not an integer`);
      }
      const n = BigInt(text.replace(/_/g, ''));
      return { text: n.toString(), truthy: n !== 0n };
    }
    case 'bool': {
      const b = TRUE_STRINGS.has(raw.trim().toLowerCase());
      return { text: b ? 'True' : 'False', truthy: b };
    }
    case 'lower':
      return { text: raw.toLowerCase(), truthy: raw !== '' };
    case 'arch':
      return { text: canonicalArch(raw), truthy: raw !== '' };
    case 'vm_mode':
      return { text: canonicalVmMode(raw), truthy: raw !== '' };
    case 'hv_type': {
      const lower = raw.toLowerCase();
      return { text: lower === 'xapi' ? 'xen' : lower, truthy: raw !== '' };
    }
    case 'string':
      return { text: raw, truthy: raw !== '' };
    default:
      return undefined;
  }
}

/**
 * The image's properties as Nova's ImageMetaProps.from_dict sets them from raw properties:
 * legacy names first, then the current names (which win), then `vmware_adaptertype`.
 * @throws Error for an integer property that is not one.
 */
export function imageMetaProps(
  raw: Readonly<Record<string, string>>,
): ReadonlyMap<string, PropertyValue> {
  const set = new Map<string, string>();
  for (const [legacy, field] of Object.entries(LEGACY_PROPERTY_MAP)) {
    if (Object.hasOwn(raw, legacy)) {
      set.set(field, raw[legacy]!);
    }
  }
  const adapter = raw.vmware_adaptertype;
  if (adapter === 'ide') {
    set.set('hw_disk_bus', 'ide');
  } else if (adapter) {
    set.set('hw_disk_bus', 'scsi');
    set.set('hw_scsi_model', adapter);
  }
  for (const [key, value] of Object.entries(raw)) {
    if (IMAGE_META_FIELDS.has(key)) {
      set.set(key, value);
    }
  }
  const props = new Map<string, PropertyValue>();
  for (const [key, value] of set) {
    const coerced = coerceProperty(key, value);
    if (coerced !== undefined) {
      props.set(key, coerced);
    }
  }
  return props;
}
