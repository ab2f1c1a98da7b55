// The differential half of the Placement migration tests: the same GETs to two Placement APIs
// (the real Placement and berth, or two real Placements), answers compared as parsed JSON.
// Normalised, as docs/rest-facade.md documents: JSON whitespace (parsed), object key order,
// the order of every list (Placement reads traits, aggregates, providers, allocation requests and
// usages without ORDER BY), the mount prefix of berth's links (`/placement`) and error request ids.
import type { Filled, PlacementCall } from './placement-fill';

/** One GET: its path and the microversion it is sent at. */
export interface Probe {
  readonly path: string;
  readonly microversion: string;
}

/** A GET whose answers differ. */
export interface Difference {
  readonly probe: Probe;
  readonly a: { status: number; json: unknown };
  readonly b: { status: number; json: unknown };
}

/** The GETs a migration must answer identically, over everything `fillPlacement` created. */
export function migrationProbes(f: Filled, o: { typedUsages?: boolean } = {}): Probe[] {
  const at = (path: string, microversion = '1.39'): Probe => ({ path, microversion });
  const p = f.providers;
  const a = f.aggregates;
  const out: Probe[] = [
    at('/resource_providers'),
    at(`/resource_providers?in_tree=${p.cn1}`),
    at(`/resource_providers?in_tree=${p.numa1}`),
    at(`/resource_providers?member_of=${a.a1}`),
    at(`/resource_providers?member_of=in:${a.a2},${a.a3}`),
    at(`/resource_providers?member_of=!${a.a1}`),
    at('/resource_providers?required=CUSTOM_RACK_7'),
    at('/resource_providers?required=!HW_NUMA_ROOT'),
    at('/resource_providers?resources=VCPU:2,MEMORY_MB:1024'),
    at('/resource_providers?resources=DISK_GB:100'),
    at('/resource_providers?name=mig-cn2'),
    at('/resource_classes'),
    at('/resource_classes/CUSTOM_FPGA_XILINX'),
    at('/traits?name=startswith:CUSTOM_'),
    at('/traits?associated=true'),
  ];
  for (const rp of Object.values(p)) {
    for (const sub of ['', '/inventories', '/traits', '/aggregates', '/usages', '/allocations']) {
      out.push(at(`/resource_providers/${rp}${sub}`));
    }
  }
  for (const rp of [p.numa0, p.cn2, p.cn3])
    out.push(at(`/resource_providers/${rp}/inventories/VCPU`));
  for (const c of Object.values(f.consumers)) out.push(at(`/allocations/${c}`));
  for (const project of f.projects) {
    // Without consumer_type from 1.38 Placement on PostgreSQL answers 500 when a consumer has no
    // type (docs/rest-facade.md): compared at 1.37 instead.
    out.push(at(`/usages?project_id=${project}`, '1.37'));
    // A named consumer_type makes Placement 8.0 on PostgreSQL answer 500 (GroupingError in its
    // usage query); compared only when the source is MariaDB (`typedUsages`).
    const types = o.typedUsages ? ['INSTANCE', 'MIGRATION', 'CUSTOM_PORT_CLAIM'] : [];
    for (const t of ['all', 'unknown', ...types]) {
      out.push(at(`/usages?project_id=${project}&consumer_type=${t}`));
    }
    for (const user of f.users)
      out.push(at(`/usages?project_id=${project}&user_id=${user}`, '1.37'));
  }
  const ac = (q: string) => at(`/allocation_candidates?${q}`);
  out.push(
    ac('resources=VCPU:1,MEMORY_MB:512'),
    ac('resources=VCPU:1,MEMORY_MB:512,DISK_GB:10'),
    ac('resources=VCPU:1,MEMORY_MB:256,IPV4_ADDRESS:1'),
    ac('resources=DISK_GB:500'),
    ac('resources1=VCPU:1&resources2=VCPU:1&group_policy=isolate'),
    ac('resources1=VCPU:1&resources2=VCPU:1&group_policy=none'),
    ac('resources=CUSTOM_FPGA_XILINX:1&resources1=VCPU:1,MEMORY_MB:256&group_policy=none'),
    ac('resources=VCPU:1&required=CUSTOM_RACK_7'),
    ac('resources=VCPU:1&required=!HW_NUMA_ROOT'),
    ac('resources=VCPU:1&required=in:CUSTOM_GOLD,HW_CPU_X86_SSE42'),
    ac('resources=VCPU:1&root_required=HW_CPU_X86_AVX2'),
    ac(`resources=VCPU:1,IPV4_ADDRESS:1&member_of=${a.a2}`),
    ac(`resources=VCPU:1,DISK_GB:10&member_of=${a.a1}`),
    ac(`resources1=VCPU:1&member_of1=${a.a3}&resources2=IPV4_ADDRESS:1&group_policy=none`),
    ac('resources=VCPU:1,MEMORY_MB:512,DISK_GB:10&required=STORAGE_DISK_SSD'),
    ac('resources=CUSTOM_MAGIC_BEANS:3'),
    ac('resources=VCPU:1&limit=2'),
  );
  return out;
}

/** `v` with every list sorted (by canonical JSON) and berth's mount prefix off link hrefs. */
export function normalise(v: unknown): unknown {
  if (Array.isArray(v)) {
    return v.map(normalise).sort((x, y) => {
      const sx = canonical(x);
      const sy = canonical(y);
      return sx < sy ? -1 : sx > sy ? 1 : 0;
    });
  }
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(o)
        .filter((k) => k !== 'request_id')
        .sort()
        .map((k) => [
          k,
          k === 'href' && typeof o[k] === 'string'
            ? (o[k] as string).replace(/^\/placement(?=\/|$)/, '')
            : normalise(o[k]),
        ]),
    );
  }
  return v;
}

/** JSON with sorted keys (input already normalised or any JSON value). */
export function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

/**
 * Sends every probe to `a` and `b` and returns the ones whose status or normalised body differ.
 * `limit=2` of allocation_candidates picks *which* two differently by design (Placement shuffles
 * or takes the first rows); there only the count and the status are compared.
 */
export async function compareProbes(
  a: PlacementCall,
  b: PlacementCall,
  probes: Probe[],
): Promise<Difference[]> {
  const found: (Difference | undefined)[] = new Array(probes.length);
  // GETs only: both sides at once, four probes in flight (uWSGI's four threads).
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < probes.length; i = next++) {
      found[i] = await compareOne(a, b, probes[i]!);
    }
  };
  await Promise.all([lane(), lane(), lane(), lane()]);
  return found.filter((d): d is Difference => d !== undefined);
}

async function compareOne(
  a: PlacementCall,
  b: PlacementCall,
  probe: Probe,
): Promise<Difference | undefined> {
  const [ra, rb] = await Promise.all([
    a('GET', probe.path, undefined, probe.microversion),
    b('GET', probe.path, undefined, probe.microversion),
  ]);
  let ja: unknown = normalise(ra.json);
  let jb: unknown = normalise(rb.json);
  if (probe.path.includes('limit=')) {
    ja = ra.json?.allocation_requests?.length;
    jb = rb.json?.allocation_requests?.length;
  }
  if (ra.status !== rb.status || canonical(ja) !== canonical(jb)) {
    return { probe, a: { status: ra.status, json: ja }, b: { status: rb.status, json: jb } };
  }
  return undefined;
}

/** A readable report of `diffs` (for a failing expectation). */
export function describeDifferences(diffs: Difference[], names: [string, string]): string {
  return diffs
    .map(
      (d) =>
        `GET ${d.probe.path} @${d.probe.microversion}\n  ${names[0]} ${d.a.status}: ${canonical(
          d.a.json,
        )}\n  ${names[1]} ${d.b.status}: ${canonical(d.b.json)}`,
    )
    .join('\n');
}
