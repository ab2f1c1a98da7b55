// Test helper: builds IndexRows (and a CapacityIndex) from compact provider specs, with
// deterministic ids and uuids (upstream: placement/tests/functional/fixtures/gabbits.py helpers).
import { CapacityIndex } from '../../../../src/placement/allocation-candidates/capacity-index';
import type {
  IndexInventoryRow,
  IndexRows,
} from '../../../../src/placement/allocation-candidates/index-rows';

/** total, reserved, min_unit, max_unit, step_size, allocation_ratio. */
export type InvSpec = readonly [number, number, number, number, number, number];
/** name, env key, parent name, aggregate keys, traits, inventories. */
export type ProviderSpec = readonly [
  string,
  string,
  string | null,
  readonly string[],
  readonly string[],
  Readonly<Record<string, InvSpec>>,
];
/** A fixture: custom classes/traits, providers, and usage as [provider name, class, amount]. */
export interface FixtureSpec {
  readonly customClasses: readonly string[];
  readonly customTraits: readonly string[];
  readonly providers: readonly ProviderSpec[];
  readonly usage: readonly (readonly [string, string, number])[];
}

/** Standard names known to the test catalogue (a subset of os-resource-classes / os-traits). */
export const STANDARD_CLASSES = [
  'VCPU',
  'MEMORY_MB',
  'DISK_GB',
  'PCI_DEVICE',
  'SRIOV_NET_PF',
  'SRIOV_NET_VF',
  'IPV4_ADDRESS',
  'VGPU',
  'PGPU',
  'FPGA',
  'PCPU',
  'NET_BW_EGR_KILOBIT_PER_SEC',
  'NET_BW_IGR_KILOBIT_PER_SEC',
  'NET_PACKET_RATE_KILOPACKET_PER_SEC',
];
export const STANDARD_TRAITS = [
  'MISC_SHARES_VIA_AGGREGATE',
  'HW_CPU_X86_SSE',
  'HW_CPU_X86_SSE2',
  'HW_CPU_X86_SSE3',
  'HW_CPU_X86_SSE42',
  'HW_CPU_X86_AVX',
  'HW_CPU_X86_AVX2',
  'HW_CPU_X86_MMX',
  'HW_GPU_API_DXVA',
  'HW_NIC_DCB_PFC',
  'HW_NIC_ACCEL_TLS',
  'HW_NUMA_ROOT',
  'COMPUTE_VOLUME_MULTI_ATTACH',
  'HW_NIC_OFFLOAD_GENEVE',
];

/** A loaded fixture. */
export interface Fixture {
  readonly rows: IndexRows;
  readonly index: CapacityIndex;
  /** Env key (provider or aggregate) -> uuid, as gabbits' $ENVIRON. */
  readonly env: Readonly<Record<string, string>>;
  /** Provider name -> uuid. */
  readonly uuid: (name: string) => string;
}

/** Deterministic uuid-looking string for a name. */
export function fakeUuid(kind: string, name: string): string {
  return `${kind}-${name}`;
}

/** Builds rows and an index from a spec (provider ids follow spec order, starting at 1). */
export function loadFixture(spec: FixtureSpec): Fixture {
  const env: Record<string, string> = {};
  const idByName = new Map(spec.providers.map(([name], i) => [name, i + 1]));
  const used = new Map<string, number>();
  for (const [name, rc, amount] of spec.usage) {
    used.set(`${name}/${rc}`, (used.get(`${name}/${rc}`) ?? 0) + amount);
  }
  const inventories: IndexInventoryRow[] = [];
  const providers = spec.providers.map(([name, envKey, parent, aggs, , inv]) => {
    const id = idByName.get(name)!;
    env[envKey] = fakeUuid('rp', name);
    for (const agg of aggs) {
      env[agg] = fakeUuid('agg', agg);
    }
    for (const [
      rc,
      [total, reserved, minUnit, maxUnit, stepSize, allocationRatio],
    ] of Object.entries(inv)) {
      inventories.push({
        providerId: id,
        resourceClass: rc,
        total,
        reserved,
        minUnit,
        maxUnit,
        stepSize,
        allocationRatio,
        used: used.get(`${name}/${rc}`) ?? 0,
      });
    }
    let root = name;
    for (
      let p: string | null = parent;
      p !== null;
      p = spec.providers.find((x) => x[0] === p)![2]
    ) {
      root = p;
    }
    return {
      id,
      uuid: fakeUuid('rp', name),
      name,
      generation: 1,
      parentId: parent === null ? null : idByName.get(parent)!,
      rootId: idByName.get(root)!,
    };
  });
  const rows: IndexRows = {
    providers,
    inventories,
    traits: spec.providers.flatMap(([name, , , , traits]) =>
      traits.map((trait) => ({ providerId: idByName.get(name)!, trait })),
    ),
    aggregates: spec.providers.flatMap(([name, , , aggs]) =>
      aggs.map((agg) => ({ providerId: idByName.get(name)!, aggregateUuid: fakeUuid('agg', agg) })),
    ),
    resourceClassNames: [...STANDARD_CLASSES, ...spec.customClasses],
    traitNames: [...STANDARD_TRAITS, ...spec.customTraits],
  };
  return { rows, index: CapacityIndex.fromRows(rows), env, uuid: (n) => fakeUuid('rp', n) };
}
