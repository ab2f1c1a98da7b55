// checkSource (src/import/placement/validate-source.ts): every rule on a table of small
// hand-made sources, what --skip-invalid keeps and lists as depending on a refused row, uuids
// normalised but never merged, and a parent chain deeper than any stack.
import { STANDARD_RESOURCE_CLASSES, STANDARD_TRAITS } from '../../../../src/db/seed';
import type { InventoryRow, SourceRows } from '../../../../src/import/placement/source-rows';
import { checkSource } from '../../../../src/import/placement/validate-source';
import { alloc, base, inv, rp, U } from './source-rows-builders';

const STANDARD = { classes: STANDARD_RESOURCE_CLASSES, traits: STANDARD_TRAITS };

function outcome(rows: SourceRows) {
  const r = checkSource(rows, STANDARD);
  return {
    invalid: r.invalid.map((f) => `${f.kind}/${f.rule}`),
    dependents: r.dependents.map((f) => `${f.kind} ${f.row.split(',')[0]}`),
    providers: r.snapshot.providers.map((p) => p.name),
    consumers: r.snapshot.consumers.map((c) => c.uuid.slice(-4)),
  };
}

describe('checkSource', () => {
  it('keeps a valid source whole, parents first, with nothing listed', () => {
    const r = checkSource(base(), STANDARD);
    expect(r.invalid).toEqual([]);
    expect(r.dependents).toEqual([]);
    expect(r.snapshot.providers.map((p) => [p.name, p.parentUuid, p.rootUuid])).toEqual([
      ['rp1', null, U(1)],
      ['rp2', U(1), U(1)],
      ['rp3', U(2), U(1)],
      ['rp4', null, U(4)],
    ]);
    expect(r.snapshot.consumers.map((c) => [c.uuid, c.consumerType, c.allocations])).toEqual([
      [U(1001), 'INSTANCE', [{ providerUuid: U(2), resourceClass: 'VCPU', used: 1 }]],
      [U(1002), null, [{ providerUuid: U(4), resourceClass: 'VCPU', used: 1 }]],
    ]);
    expect(Object.values(r.skipped).every((n) => n === 0)).toBe(true);
  });

  const withInv = (o: Partial<InventoryRow>) =>
    base({ inventories: [inv(1, 1), inv(2, 2), inv(3, 3), inv(4, 4, o)] });
  it.each([
    { name: 'Infinity ratio', rows: withInv({ allocationRatio: Number.POSITIVE_INFINITY }) },
    { name: 'NaN ratio', rows: withInv({ allocationRatio: Number.NaN }) },
    { name: 'ratio 0', rows: withInv({ allocationRatio: 0 }) },
    { name: 'negative ratio', rows: withInv({ allocationRatio: -1 }) },
    { name: 'ratio past single precision', rows: withInv({ allocationRatio: 1e39 }) },
    { name: 'negative total', rows: withInv({ total: -5 }) },
    { name: 'total past 32 bits', rows: withInv({ total: 2 ** 31 }) },
    { name: 'fractional total', rows: withInv({ total: 1.5 }) },
    { name: 'NULL total (NaN)', rows: withInv({ total: Number.NaN }) },
    { name: 'reserved above total', rows: withInv({ reserved: 11 }) },
    { name: 'negative reserved', rows: withInv({ reserved: -1 }) },
    { name: 'min_unit 0', rows: withInv({ minUnit: 0 }) },
    { name: 'step_size 0', rows: withInv({ stepSize: 0 }) },
    { name: 'min_unit above max_unit', rows: withInv({ minUnit: 5, maxUnit: 4 }) },
  ])('refuses an inventory with $name; its provider and consumers are left out', ({ rows }) => {
    expect(outcome(rows)).toEqual({
      invalid: ['inventory/invalid-inventory'],
      dependents: ['provider id 4', 'consumer id 2'],
      providers: ['rp1', 'rp2', 'rp3'],
      consumers: ['1001'],
    });
  });

  it.each([
    { name: 'an amount of 0', used: 0 },
    { name: 'a negative amount', used: -3 },
    { name: 'an amount past 32 bits', used: 2 ** 31 },
    { name: 'a NaN amount', used: Number.NaN },
  ])('refuses $name; only its consumer is left out', ({ used }) => {
    expect(
      outcome(
        base({ allocations: [alloc(1, 2, { used }), alloc(2, 4, { consumerUuid: U(1002) })] }),
      ),
    ).toEqual({
      invalid: ['allocation/invalid-amount'],
      dependents: ['consumer id 1'],
      providers: ['rp1', 'rp2', 'rp3', 'rp4'],
      consumers: ['1002'],
    });
  });

  it.each([
    { name: 'a negative generation', o: { generation: -1 }, rule: 'invalid-generation' },
    { name: 'a NULL generation', o: { generation: Number.NaN }, rule: 'invalid-generation' },
    { name: 'an empty name', o: { name: '' }, rule: 'invalid-name' },
    { name: 'a NULL name', o: { name: null }, rule: 'invalid-name' },
    { name: 'a name with NUL', o: { name: 'a\u0000b' }, rule: 'invalid-name' },
    { name: 'a 201-character name', o: { name: 'x'.repeat(201) }, rule: 'invalid-name' },
    { name: 'a malformed uuid', o: { uuid: 'not-a-uuid' }, rule: 'invalid-uuid' },
    { name: 'a NULL uuid', o: { uuid: null }, rule: 'invalid-uuid' },
  ])('refuses a root with $name; its whole tree and its consumers are left out', ({ o, rule }) => {
    const rows = base();
    expect(outcome({ ...rows, providers: [rp(1, o), ...rows.providers.slice(1)] })).toEqual({
      invalid: [`provider/${rule}`],
      dependents: ['provider id 2', 'provider id 3', 'consumer id 1'],
      providers: ['rp4'],
      consumers: ['1002'],
    });
  });

  it('accepts what the API accepts: 150 emoji (200 UTF-16 units too many, 150 characters), control characters', () => {
    const rows = base();
    const names = ['💥'.repeat(150), 'tab\there', 'esc\u001b[31m'];
    const r = checkSource(
      {
        ...rows,
        providers: [
          rp(1, { name: names[0] }),
          rp(2, { name: names[1], parentId: '1', rootId: '1' }),
          rp(3, { name: names[2], parentId: '2', rootId: '1' }),
          rows.providers[3]!,
        ],
      },
      STANDARD,
    );
    expect(r.invalid).toEqual([]);
    expect(r.snapshot.providers.map((p) => p.name)).toEqual([...names, 'rp4']);
  });

  it('normalises a uuid written once in capitals without dashes, as the API does', () => {
    const r = checkSource(
      base({
        providers: [
          rp(1),
          rp(2, { parentId: '1', rootId: '1' }),
          rp(3, { parentId: '2', rootId: '1' }),
          rp(4, { uuid: U(4).replace(/-/g, '').toUpperCase() }),
        ],
      }),
      STANDARD,
    );
    expect(r.invalid).toEqual([]);
    expect(r.snapshot.providers[3]!.uuid).toBe(U(4));
  });

  it('never merges two spellings of one provider uuid: both are refused, naming each other', () => {
    const rows = base();
    const r = checkSource(
      { ...rows, providers: [...rows.providers, rp(5, { uuid: U(4).toUpperCase() })] },
      STANDARD,
    );
    expect(r.invalid.map((f) => [f.kind, f.rule, f.row])).toEqual([
      ['provider', 'duplicate-uuid', `id 4, uuid "${U(4)}"`],
      ['provider', 'duplicate-uuid', `id 5, uuid "${U(4).toUpperCase()}"`],
    ]);
    expect(r.invalid[0]!.message).toContain(`id 5, uuid "${U(4).toUpperCase()}"`);
    expect(r.snapshot.providers.map((p) => p.name)).toEqual(['rp1', 'rp2', 'rp3']);
  });

  it('never merges an allocation spelling its consumer differently from the consumers row', () => {
    const rows = base();
    const r = checkSource(
      {
        ...rows,
        allocations: [
          ...rows.allocations,
          alloc(3, 4, { consumerUuid: U(1001).replace(/-/g, '') }),
        ],
      },
      STANDARD,
    );
    expect(r.invalid.map((f) => `${f.kind}/${f.rule} ${f.row}`)).toEqual([
      `consumer/duplicate-uuid id 1, uuid "${U(1001)}"`,
      `consumer/duplicate-uuid uuid "${U(1001).replace(/-/g, '')}" (allocations only, no consumers row)`,
    ]);
    expect(r.snapshot.consumers.map((c) => c.uuid)).toEqual([U(1002)]);
  });

  it('makes an allocation without a consumers row an incomplete consumer (Placement does)', () => {
    const rows = base();
    const r = checkSource(
      { ...rows, allocations: [...rows.allocations, alloc(3, 4, { consumerUuid: U(1003) })] },
      STANDARD,
    );
    expect(r.invalid).toEqual([]);
    expect(r.snapshot.incompleteConsumers).toBe(1);
    expect(r.snapshot.consumers.at(-1)).toMatchObject({
      uuid: U(1003),
      project: '00000000-0000-0000-0000-000000000000',
      generation: 0,
    });
  });

  it.each([
    {
      name: 'a root that is not the top of the parent chain',
      providers: [
        rp(1),
        rp(2, { parentId: '1', rootId: '4' }),
        rp(3, { parentId: '2', rootId: '1' }),
        rp(4),
      ],
      invalid: ['provider/root-mismatch'],
      dependents: ['provider id 3', 'consumer id 1'],
    },
    {
      name: 'a child whose root is NULL',
      providers: [
        rp(1),
        rp(2, { parentId: '1', rootId: null }),
        rp(3, { parentId: '2', rootId: '1' }),
        rp(4),
      ],
      invalid: ['provider/root-mismatch'],
      dependents: ['provider id 3', 'consumer id 1'],
    },
    {
      name: 'a parent cycle',
      providers: [
        rp(1, { parentId: '3' }),
        rp(2, { parentId: '1', rootId: '1' }),
        rp(3, { parentId: '2', rootId: '1' }),
        rp(4),
      ],
      invalid: ['provider/parent-cycle', 'provider/parent-cycle', 'provider/parent-cycle'],
      dependents: ['consumer id 1'],
    },
    {
      name: 'a provider that is its own parent',
      providers: [
        rp(1, { parentId: '1' }),
        rp(2, { parentId: '1', rootId: '1' }),
        rp(3, { parentId: '2', rootId: '1' }),
        rp(4),
      ],
      invalid: ['provider/invalid-parent'],
      dependents: ['provider id 2', 'provider id 3', 'consumer id 1'],
    },
    {
      name: 'a parent that does not exist',
      providers: [
        rp(1),
        rp(2, { parentId: '99', rootId: '1' }),
        rp(3, { parentId: '2', rootId: '1' }),
        rp(4),
      ],
      invalid: ['provider/missing-reference'],
      dependents: ['provider id 3', 'consumer id 1'],
    },
    {
      name: 'two providers of one name',
      providers: [
        rp(1),
        rp(2, { parentId: '1', rootId: '1' }),
        rp(3, { parentId: '2', rootId: '1' }),
        rp(4, { name: 'rp1' }),
      ],
      invalid: ['provider/duplicate-name', 'provider/duplicate-name'],
      dependents: ['provider id 2', 'provider id 3', 'consumer id 1', 'consumer id 2'],
    },
  ])('refuses $name', ({ providers, invalid, dependents }) => {
    const o = outcome(base({ providers }));
    expect(o.invalid).toEqual(invalid);
    expect(o.dependents).toEqual(dependents);
  });

  it.each([
    {
      name: 'a class the provider has no inventory of',
      a: alloc(1, 2, { classId: '1' }),
      rule: 'no-inventory',
    },
    { name: 'a provider that does not exist', a: alloc(1, 99), rule: 'missing-reference' },
    {
      name: 'a class that does not exist',
      a: alloc(1, 2, { classId: '99999' }),
      rule: 'missing-reference',
    },
    { name: 'a NULL consumer', a: alloc(1, 2, { consumerUuid: null }), rule: 'invalid-uuid' },
  ])('refuses an allocation of $name', ({ a, rule }) => {
    const rows = base();
    expect(outcome({ ...rows, allocations: [a, rows.allocations[1]!] }).invalid).toEqual([
      `allocation/${rule}`,
    ]);
  });

  it.each([
    {
      name: 'a lower-case custom trait',
      o: { traits: [{ id: '1', name: 'CUSTOM_lower' }] },
      want: 'trait/invalid-name',
      dependents: ['provider id 1', 'provider id 2', 'provider id 3', 'consumer id 1'],
    },
    {
      name: 'an unknown standard trait',
      o: { traits: [{ id: '1', name: 'HW_NOPE' }] },
      want: 'trait/unknown-name',
      dependents: ['provider id 1', 'provider id 2', 'provider id 3', 'consumer id 1'],
    },
    {
      name: 'a malformed aggregate uuid',
      o: { aggregates: [{ id: '1', uuid: 'nope' }] },
      want: 'aggregate/invalid-uuid',
      dependents: ['provider id 4', 'consumer id 2'],
    },
    {
      name: 'an empty project',
      o: { projects: [{ id: '1', name: '' }] },
      want: 'project/invalid-name',
      dependents: ['consumer id 1', 'consumer id 2'],
    },
    {
      name: 'a 256-character user',
      o: { users: [{ id: '1', name: 'u'.repeat(256) }] },
      want: 'user/invalid-name',
      dependents: ['consumer id 1', 'consumer id 2'],
    },
    {
      name: 'a lower-case consumer type',
      o: { consumerTypes: [{ id: '1', name: 'instance' }] },
      want: 'consumer type/invalid-name',
      dependents: ['consumer id 1'],
    },
  ])('refuses $name and leaves out what uses it', ({ o, want, dependents }) => {
    const r = outcome(base(o as Partial<SourceRows>));
    expect(r.invalid).toEqual([want]);
    expect(r.dependents).toEqual(dependents);
  });

  it('refuses an unused invalid class too (the API would), leaving everything else', () => {
    const rows = base();
    const r = checkSource(
      { ...rows, resourceClasses: [...rows.resourceClasses, { id: '10000', name: 'CUSTOM_bad' }] },
      STANDARD,
    );
    expect(r.invalid.map((f) => `${f.kind}/${f.rule}`)).toEqual(['resource class/invalid-name']);
    expect(r.dependents).toEqual([]);
    expect(r.skipped['resource classes']).toBe(1);
    expect(r.snapshot.providers).toHaveLength(4);
  });

  it('walks a 50,000-deep parent chain without recursion (a recursive walk overflows the stack), parents first', () => {
    const n = 50_000;
    const providers = Array.from({ length: n }, (_, i) =>
      rp(i + 1, { parentId: i === 0 ? null : String(i), rootId: '1', name: `d${i}` }),
    );
    const r = checkSource(
      base({
        providers: providers.reverse(),
        inventories: [],
        providerTraits: [],
        providerAggregates: [],
        consumers: [],
        allocations: [],
      }),
      STANDARD,
    );
    expect(r.invalid).toEqual([]);
    expect(r.snapshot.providers).toHaveLength(n);
    expect(r.snapshot.providers[0]!.name).toBe('d0');
    expect(r.snapshot.providers[n - 1]!.parentUuid).toBe(U(n - 1));
  });
});
