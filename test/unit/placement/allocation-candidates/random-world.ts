// Test helper: fast-check generators of small provider forests (inventories, usage, traits,
// aggregates, sharing providers, identical siblings) and of valid 1.39 requests over them.
import fc from 'fast-check';
import type {
  IndexInventoryRow,
  IndexRows,
} from '../../../../src/placement/allocation-candidates/index-rows';
import type {
  CandidateRequest,
  RequestGroup,
} from '../../../../src/placement/allocation-candidates/request';

export const RCS = ['VCPU', 'DISK_GB', 'VF'];
const TRAITS = ['T1', 'T2', 'T3'];
const AGGS = ['A1', 'A2', 'A3'];

const invArb = fc.record({
  total: fc.integer({ min: 2, max: 8 }),
  reserved: fc.constantFrom(0, 0, 0, 0, 1),
  minUnit: fc.constantFrom(1, 1, 1, 1, 1, 2),
  maxUnit: fc.integer({ min: 2, max: 8 }),
  stepSize: fc.constantFrom(1, 1, 1, 1, 1, 2),
  allocationRatio: fc.constantFrom(1, 1, 1.5, 2),
  used: fc.constantFrom(0, 0, 0, 0, 1, 2, 8),
});

/** `arb` once in `freq + 1` draws, else `empty` (filters that would otherwise empty most answers). */
function rarely<T>(arb: fc.Arbitrary<T>, empty: T, freq = 3): fc.Arbitrary<T> {
  return fc.integer({ min: 0, max: freq }).chain((n) => (n === 0 ? arb : fc.constant(empty)));
}

const nodeArb = fc.record({
  root: fc.integer({ min: 0, max: 2 }).map((n) => n === 0),
  parentPick: fc.nat(),
  /** When set, the node copies an earlier node (attributes and parent): identical siblings. */
  copyPick: fc.option(fc.nat(), { freq: 3 }),
  inv: fc.record({ VCPU: fc.option(invArb), DISK_GB: fc.option(invArb), VF: fc.option(invArb) }),
  traits: fc.subarray(TRAITS),
  aggs: fc.subarray(AGGS.slice(0, 2)),
  childAggs: fc.integer({ min: 0, max: 3 }).map((n) => n === 0),
  sharing: fc.integer({ min: 0, max: 3 }).map((n) => n === 0),
});

interface NodeSpec {
  parent: number | null;
  inv: Readonly<Record<string, Omit<IndexInventoryRow, 'providerId' | 'resourceClass'> | null>>;
  traits: string[];
  aggs: string[];
  sharing: boolean;
}

/** A random forest of at most 9 providers, as IndexRows (no catalogue: names are free). */
export const worldArb: fc.Arbitrary<IndexRows> = fc
  .array(nodeArb, { minLength: 1, maxLength: 9 })
  .map((nodes) => {
    const specs: NodeSpec[] = [];
    nodes.forEach((n, i) => {
      const parent = i === 0 || n.root ? null : n.parentPick % i;
      if (n.copyPick !== null && i > 0) {
        const src = specs[n.copyPick % i]!;
        specs.push({ ...src, parent: src.parent ?? parent });
        return;
      }
      // Aggregates mostly sit on roots, so member_of relies on the root spanning its tree.
      const aggs = parent === null || n.childAggs ? n.aggs : [];
      specs.push({ parent, inv: n.inv, traits: n.traits, aggs, sharing: n.sharing });
    });
    const inventories: IndexInventoryRow[] = [];
    const providers = specs.map((s, i) => {
      for (const rc of RCS) {
        const inv = s.inv[rc];
        if (inv) {
          inventories.push({
            providerId: i + 1,
            resourceClass: rc,
            ...inv,
            used: Math.min(inv.used, inv.total),
          });
        }
      }
      let root = i;
      while (specs[root]!.parent !== null) {
        root = specs[root]!.parent!;
      }
      return {
        id: i + 1,
        uuid: `rp-${i + 1}`,
        name: `p${i + 1}`,
        generation: 0,
        parentId: s.parent === null ? null : s.parent + 1,
        rootId: root + 1,
      };
    });
    return {
      providers,
      inventories,
      traits: specs.flatMap((s, i) => [
        ...s.traits.map((trait) => ({ providerId: i + 1, trait })),
        ...(s.sharing ? [{ providerId: i + 1, trait: 'MISC_SHARES_VIA_AGGREGATE' }] : []),
      ]),
      aggregates: specs.flatMap((s, i) =>
        s.aggs.map((aggregateUuid) => ({ providerId: i + 1, aggregateUuid })),
      ),
    };
  });

function groupArb(
  uuids: readonly string[],
  suffix: string,
  filters: boolean,
): fc.Arbitrary<RequestGroup> {
  const f = filters ? 1 : 4;
  return fc.record({
    suffix: fc.constant(suffix),
    resources: fc
      .integer({ min: 0, max: 19 })
      .chain((n) =>
        n === 0 && suffix !== ''
          ? fc.constant<string[]>([])
          : fc.subarray(n === 1 ? [...RCS, 'PGPU'] : RCS, {
              minLength: 1,
              maxLength: suffix === '' ? 3 : 2,
            }),
      )
      .chain((rcs: string[]) =>
        fc
          .tuple(...rcs.map(() => fc.integer({ min: 1, max: 2 })))
          .map((n) => Object.fromEntries(rcs.map((rc, i) => [rc, n[i]!]))),
      ),
    requiredTraits: rarely(
      fc.array(
        fc.subarray([...TRAITS, 'MISC_SHARES_VIA_AGGREGATE'], { minLength: 1, maxLength: 2 }),
        { minLength: 1, maxLength: 2 },
      ),
      [],
      3 * f,
    ),
    forbiddenTraits: rarely(fc.subarray(TRAITS, { minLength: 1, maxLength: 1 }), [], 4 * f),
    memberOf: rarely(
      fc.array(fc.subarray(AGGS, { minLength: 1, maxLength: 2 }), { minLength: 1, maxLength: 2 }),
      [],
      2 * f,
    ),
    forbiddenAggregates: rarely(fc.subarray(AGGS, { minLength: 1, maxLength: 1 }), [], 3 * f),
    inTree: rarely(fc.constantFrom(...uuids, 'rp-missing'), undefined as string | undefined, 6 * f),
  });
}

function sanitize(req: CandidateRequest): CandidateRequest {
  let groups = req.groups.map((g) => ({
    ...g,
    forbiddenTraits: g.forbiddenTraits.filter(
      (t) => !g.requiredTraits.some((term) => term.every((x) => x === t)),
    ),
  }));
  groups = groups.filter((g) => g.suffix !== '' || Object.keys(g.resources).length > 0);
  if (!groups.some((g) => Object.keys(g.resources).length > 0)) {
    groups.push({
      suffix: '9',
      resources: { VCPU: 1 },
      requiredTraits: [],
      forbiddenTraits: [],
      memberOf: [],
      forbiddenAggregates: [],
    });
  }
  const suffixes = groups.map((g) => g.suffix);
  const sameSubtree = (req.sameSubtree ?? [])
    .map((set) => set.filter((s) => suffixes.includes(s)))
    .filter((set) => set.length > 0);
  for (const g of groups) {
    if (
      Object.keys(g.resources).length === 0 &&
      !sameSubtree.some((set) => set.includes(g.suffix))
    ) {
      sameSubtree.push([g.suffix]);
    }
  }
  const suffixed = groups.filter((g) => g.suffix !== '').length;
  const rootForbidden = (req.rootForbidden ?? []).filter(
    (t) => !(req.rootRequired ?? []).some((term) => term.includes(t)),
  );
  return {
    ...req,
    groups,
    sameSubtree,
    rootForbidden,
    groupPolicy: suffixed > 1 ? (req.groupPolicy ?? 'none') : req.groupPolicy,
  };
}

/** A valid request over `rows` (unsuffixed group sometimes, up to three suffixed groups). */
export function requestArb(rows: IndexRows): fc.Arbitrary<CandidateRequest> {
  const uuids = rows.providers.map((p) => p.uuid);
  return fc.boolean().chain((filters) =>
    fc
      .record({
        unsuffixed: fc.option(groupArb(uuids, '', filters), { freq: 2 }),
        suffixed: fc
          .integer({ min: 0, max: 3 })
          .chain((n) =>
            fc.tuple(...Array.from({ length: n }, (_, i) => groupArb(uuids, `${i + 1}`, filters))),
          ),
        groupPolicy: fc
          .option(fc.constantFrom('none' as const, 'isolate' as const))
          .map((v) => v ?? undefined),
        rootRequired: rarely(fc.subarray(TRAITS, { minLength: 1, maxLength: 1 }), [], 5).map((ts) =>
          ts.map((t) => [t]),
        ),
        rootForbidden: rarely(fc.subarray(TRAITS, { minLength: 1, maxLength: 1 }), [], 5),
        sameSubtree: rarely(
          fc.array(fc.subarray(['1', '2', '3'], { minLength: 2 }), { minLength: 1, maxLength: 2 }),
          [],
          2,
        ),
      })
      .map((r) =>
        sanitize({
          groups: [...(r.unsuffixed ? [r.unsuffixed] : []), ...r.suffixed],
          groupPolicy: r.groupPolicy,
          rootRequired: r.rootRequired,
          rootForbidden: r.rootForbidden,
          sameSubtree: r.sameSubtree,
        }),
      ),
  );
}

/** A world together with a request over it. */
export const caseArb = worldArb.chain((rows) =>
  fc.record({ rows: fc.constant(rows), req: requestArb(rows) }),
);
