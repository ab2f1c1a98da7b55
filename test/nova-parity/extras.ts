// Nova parity harness: the parts of a scenario only some plugins read, drawn from a dice of their
// own (so adding them left the rest of every seed's scenarios as they were): host capability
// traits (for Nova's request filters), failed builds, monitor metrics, free PCI devices and a
// cell per host; image disk format and hw_* properties, required traits, a device profile,
// ephemeral encryption and a cross-cell move hint on the request. berth-side.ts and nova_side.py
// write in their headers how each maps.
import { Dice } from './dice';
import type { Aggregate, HostBase, Request } from './scenario';

/** What only some plugins read of a host. */
export interface HostExtras {
  /** Root traits besides those berth derives from the rest of the host (berth-side.ts). */
  readonly capabilities: readonly string[];
  /** Consecutive failed builds (Nova stats failed_builds; berth reportBuildFailure). */
  readonly failedBuilds: number;
  /** Monitor metrics as nova-compute reports them (cpu.percent as a fraction). */
  readonly metrics: Readonly<Record<string, number>>;
  /** Free PCI devices (Nova one pool of that count; berth PCI_DEVICE inventory). */
  readonly pciDevices: number;
  /** The host's cell uuid (Nova HostState.cell_uuid; berth aggregate metadata `cell`). */
  readonly cell: string;
}

/** Traits isolate_aggregates aggregates require, and some hosts have. */
export const ISOLATION_TRAITS = ['CUSTOM_ISO_A', 'CUSTOM_ISO_B'];

const CAPABILITIES: readonly (readonly string[])[] = [
  ['QCOW2', 'RAW', 'ISO', 'VMDK', 'PLOOP'].map((t) => `COMPUTE_IMAGE_TYPE_${t}`),
  ['VIRTIO', 'SCSI', 'IDE', 'SATA', 'USB'].map((t) => `COMPUTE_STORAGE_BUS_${t}`),
  ['VIRTIO', 'VGA', 'QXL', 'CIRRUS', 'BOCHS'].map((t) => `COMPUTE_GRAPHICS_MODEL_${t}`),
  ['VIRTIO', 'E1000', 'E1000E', 'RTL8139'].map((t) => `COMPUTE_NET_VIF_MODEL_${t}`),
  ['X86_64', 'AARCH64', 'PPC64LE'].map((t) => `COMPUTE_ARCH_${t}`),
  ['INTEL', 'SMMUV3', 'VIRTIO'].map((t) => `COMPUTE_VIOMMU_MODEL_${t}`),
  ['PLAIN', 'LUKS', 'LUKSV2'].map((t) => `COMPUTE_EPHEMERAL_ENCRYPTION_${t}`),
];

function hostExtras(d: Dice, cells: readonly string[]): HostExtras {
  const capabilities = CAPABILITIES.flatMap((group) => d.some(group, 0, group.length - 1));
  for (const t of ['COMPUTE_ACCELERATORS', 'COMPUTE_EPHEMERAL_ENCRYPTION', ...ISOLATION_TRAITS]) {
    if (d.chance(0.5)) {
      capabilities.push(t);
    }
  }
  const metrics: Record<string, number> = {};
  if (!d.chance(0.1)) {
    metrics['cpu.frequency'] = d.int(10, 35) * 100;
  }
  if (!d.chance(0.1)) {
    metrics['cpu.percent'] = d.int(0, 100) / 100;
  }
  return {
    capabilities: capabilities.sort(),
    failedBuilds: d.chance(0.75) ? 0 : d.int(1, 8),
    metrics,
    pciDevices: d.chance(0.6) ? 0 : d.pick([1, 2, 4, 8, 64, 120]),
    cell: d.pick(cells),
  };
}

const pickValue = (d: Dice, values: readonly string[], p: number) =>
  d.chance(p) ? d.pick(values) : undefined;

/** Image properties and flavor extra specs only Nova's request filters read. */
function requestExtras(d: Dice, image: Record<string, string>, specs: Record<string, string>) {
  const props: [string, string | undefined][] = [
    // an image of Glance has a disk format; a volume-backed request (no image id) has none
    [
      'disk_format',
      image.id ? d.pick(['qcow2', 'raw', 'iso', 'vmdk', 'ploop', 'vhdx']) : undefined,
    ],
    ['hw_disk_bus', pickValue(d, ['virtio', 'scsi', 'ide', 'sata', 'usb', 'fdc'], 0.2)],
    ['hw_cdrom_bus', pickValue(d, ['ide', 'sata', 'scsi'], 0.1)],
    ['hw_video_model', pickValue(d, ['virtio', 'vga', 'qxl', 'cirrus', 'bochs', 'none'], 0.15)],
    ['hw_vif_model', pickValue(d, ['virtio', 'e1000', 'e1000e', 'rtl8139', 'ne2k_pci'], 0.15)],
    ['hw_emulation_architecture', pickValue(d, ['x86_64', 'aarch64', 'ppc64le', 'i686'], 0.1)],
    ['hw_viommu_model', pickValue(d, ['intel', 'smmuv3', 'virtio', 'auto'], 0.05)],
    ['hw_ephemeral_encryption', pickValue(d, ['true', 'True', 'yes', 'false'], 0.1)],
    ['hw_ephemeral_encryption_format', pickValue(d, ['plain', 'luks', 'luksv2'], 0.05)],
    [`trait:${d.pick(ISOLATION_TRAITS)}`, pickValue(d, ['required'], 0.15)],
  ];
  for (const [key, value] of props) {
    if (value !== undefined) {
      image[key] = value;
    }
  }
  const flavor: [string, string | undefined][] = [
    [`trait:${d.pick(ISOLATION_TRAITS)}`, pickValue(d, ['required'], 0.15)],
    ['accel:device_profile', pickValue(d, ['dp-gpu', 'dp-fpga', ''], 0.1)],
    ['hw:ephemeral_encryption', pickValue(d, ['true', 'yes', 'false'], 0.1)],
    ['hw:ephemeral_encryption_format', pickValue(d, ['luks', 'plain', 'luksv2', 'bogus'], 0.05)],
  ];
  for (const [key, value] of flavor) {
    if (value !== undefined) {
      specs[key] ??= value;
    }
  }
}

/** Aggregate multiplier keys of the weighers paired after the first ones. */
const MULTIPLIER_KEYS = [
  'metrics_weight_multiplier',
  'pci_weight_multiplier',
  'build_failure_weight_multiplier',
  'cross_cell_move_weight_multiplier',
];

/**
 * The extras of a generated scenario (scenario.ts generate): each host's, the request's (added to
 * it in place), and the aggregates they need: one per cell (every host in its cell's), and maybe
 * an isolate_aggregates one (metadata trait:<T> = required) and one with a multiplier.
 */
export function addExtras(
  seed: number,
  k: number,
  hosts: readonly HostBase[],
  r: Request,
): { extras: Record<string, HostExtras>; aggregates: Aggregate[] } {
  const d = new Dice((seed ^ 0x5eed5eed) >>> 0);
  const cells = [d.uuid(), d.uuid()];
  const extras = Object.fromEntries(hosts.map((h) => [h.uuid, hostExtras(d, cells)]));
  requestExtras(d, r.image, r.extraSpecs);
  if (d.chance(0.3)) {
    r.hints.requested_destination_cell = [d.chance(0.9) ? d.pick(cells) : d.uuid()];
    r.hints.allow_cross_cell_move = [d.pick(['true', 'True', 'yes', 'false'])];
  }
  const aggregates: Aggregate[] = cells.map((cell, i) => ({
    uuid: d.uuid(),
    name: `s${k}-cell${i}`,
    metadata: { cell },
    hosts: hosts.filter((h) => extras[h.uuid]!.cell === cell).map((h) => h.uuid),
  }));
  const some = () => hosts.filter(() => d.chance(0.4)).map((h) => h.uuid);
  if (d.chance(0.4)) {
    const metadata = { [`trait:${d.pick(ISOLATION_TRAITS)}`]: d.pick(['required', 'forbidden']) };
    aggregates.push({ uuid: d.uuid(), name: `s${k}-iso`, metadata, hosts: some() });
  }
  if (d.chance(0.3)) {
    const value = d.pick(['2', '-1', '0.5', '0', '3.5', 'abc', '', '1,2']);
    const metadata = { [d.pick(MULTIPLIER_KEYS)]: value };
    aggregates.push({ uuid: d.uuid(), name: `s${k}-mult`, metadata, hosts: some() });
  }
  return { extras, aggregates };
}
