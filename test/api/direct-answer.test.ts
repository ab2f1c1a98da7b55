// allocationCandidates answers written directly (src/graphql/direct-answer.ts with the specs of
// schema/allocation-candidate-answer.ts) are byte for byte the executor's answers: every field
// of every candidate type, aliases, fragments, __typename, granular mappings, sharing and nested
// providers, Int saturation beyond 2^31 - 1. Errors, selections the specs do not cover and
// answers over the result budget are the executor's.
import { getNamedType, isObjectType, parse } from 'graphql';
import { DIRECT_ROOTS } from '../../schema/allocation-candidate-answer';
import { schema } from '../../schema/index';
import { directAnswerStats } from '../../src/graphql/direct-answer';
import type { ObjectSpec } from '../../src/graphql/direct-answer-spec';
import { createTestApp, type TestApp } from '../support/app';
import { buildResourceProvider } from '../support/factories';

const FULL = `query($r: AllocationCandidatesRequest!) { ac: allocationCandidates(request: $r) ROOT {
  __typename
  allocationRequests {
    __typename
    allocations { resources { amount resourceClass } provider { __typename id: uuid } }
    mappings { suffix uuids: providerUuids __typename }
  }
  providerSummaries {
    provider { uuid }
    traits
    resources { resourceClass capacity capacityExact used usedExact __typename }
    __typename
  } } }`;

/** The query written directly, and the same query the executor answers (@include on the root). */
const direct = FULL.replace('ROOT', '');
const executed = FULL.replace('ROOT', '@include(if: true)');

async function post(t: TestApp, query: string, variables: object): Promise<string> {
  const res = await t.app.graphql.fetch('http://berth.test/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  return res.text();
}

/** Answers `query` both ways; returns the text after checking the direct one was written. */
async function both(t: TestApp, variables: object, query = direct, other = executed) {
  const before = directAnswerStats.written;
  const fast = await post(t, query, variables);
  const written = directAnswerStats.written - before;
  const slow = await post(t, other, variables);
  return { fast, slow, written };
}

const group = (suffix: string, resources: Record<string, number>, extra: object = {}) => ({
  suffix,
  resources: Object.entries(resources).map(([resourceClass, amount]) => ({
    resourceClass,
    amount,
  })),
  ...extra,
});

describe('direct candidate answers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    const s = t.app.services;
    const agg = '00000000-0000-4000-8000-0000000000aa';
    for (let i = 0; i < 3; i++) {
      await s.traits.create(`CUSTOM_RACK_${i}`);
    }
    for (let i = 0; i < 3; i++) {
      const root = await buildResourceProvider(s, {
        name: `direct-${i}`,
        inventories: [
          { resourceClass: 'VCPU', total: 8 },
          // (2^31 - 1) × 4: `capacity` saturates, `capacityExact` does not.
          { resourceClass: 'MEMORY_MB', total: 2_147_483_647, allocationRatio: 4 },
        ],
        traits: ['HW_CPU_X86_AVX2', `CUSTOM_RACK_${i}`],
        aggregates: [agg],
      });
      if (i === 0) {
        for (let n = 0; n < 2; n++) {
          await buildResourceProvider(s, {
            name: `direct-0-numa-${n}`,
            parentUuid: root.uuid,
            inventories: [{ resourceClass: 'VCPU', total: 4 }],
          });
        }
      }
    }
    await buildResourceProvider(s, {
      name: 'direct-storage',
      inventories: [{ resourceClass: 'DISK_GB', total: 1000 }],
      traits: ['MISC_SHARES_VIA_AGGREGATE'],
      aggregates: [agg],
    });
    await s.candidates.current();
  });
  afterAll(async () => {
    await t.close();
  });

  it.each([
    ['one group with sharing storage', { groups: [group('', { VCPU: 1, DISK_GB: 10 })] }],
    [
      'granular groups, numeric and named suffixes, nested providers',
      {
        groups: [
          group('', { MEMORY_MB: 1024 }),
          group('1', { VCPU: 1 }),
          group('_NET', { VCPU: 1 }),
        ],
        groupPolicy: 'NONE',
      },
    ],
    ['a limited answer', { groups: [group('', { VCPU: 1 })], limit: 2 }],
    ['an empty answer', { groups: [group('', { VCPU: 100 })] }],
  ])('writes %s byte for byte as the executor does', async (_name, r) => {
    const { fast, slow, written } = await both(t, { r });
    expect(written).toBe(1);
    expect(fast).toBe(slow);
    expect(JSON.parse(fast).errors).toBeUndefined();
  });

  it('saturates Int capacities and keeps SafeInt ones exact', async () => {
    const { fast } = await both(t, { r: { groups: [group('', { MEMORY_MB: 1 })] } });
    const summaries = JSON.parse(fast).data.ac.providerSummaries;
    const memory = summaries
      .flatMap((s: { resources: { resourceClass: string }[] }) => s.resources)
      .find((x: { resourceClass: string }) => x.resourceClass === 'MEMORY_MB');
    expect(memory).toMatchObject({ capacity: 2_147_483_647, capacityExact: 8_589_934_588 });
  });

  it('leaves errors to the executor (the same error as without the writer)', async () => {
    const r = { groups: [group('', { CUSTOM_NOPE: 1 })] };
    const { fast, slow, written } = await both(t, { r });
    expect(written).toBe(0);
    expect(fast).toBe(slow);
    expect(JSON.parse(fast).errors[0].message).toMatch(/CUSTOM_NOPE/);
  });

  it('leaves selections without a spec to the executor (provider names are looked up)', async () => {
    const named = direct.replace('provider { uuid }', 'provider { uuid name }');
    const { fast, written } = await both(t, { r: { groups: [group('', { VCPU: 1 })] } }, named);
    expect(written).toBe(0);
    const names = JSON.parse(fast).data.ac.providerSummaries.map(
      (s: { provider: { name: string } }) => s.provider.name,
    );
    expect(names).toContain('direct-1');
  });

  it('leaves fragments to the executor (it orders fragment fields its own way)', async () => {
    const withFragment = `${direct.replace('traits', '...t')} fragment t on ProviderSummary { traits }`;
    const { written } = await both(t, { r: { groups: [group('', { VCPU: 1 })] } }, withFragment);
    expect(written).toBe(0);
  });

  it('counts list items against the result budget exactly as the executor does', async () => {
    const r = { groups: [group('', { VCPU: 1 })] };
    /** An app answering 30 hosts, with `budget` list items per response (default 50,000). */
    const withBudget = async (budget?: number) => {
      const app = await createTestApp(
        budget === undefined ? {} : { BERTH_GRAPHQL_MAX_RESULT_ITEMS: String(budget) },
      );
      await app.app.services.traits.create('CUSTOM_RACK_0');
      for (let i = 0; i < 30; i++) {
        await buildResourceProvider(app.app.services, {
          inventories: [{ resourceClass: 'VCPU', total: 8 }],
          traits: ['HW_CPU_X86_AVX2', 'CUSTOM_RACK_0'],
        });
      }
      await app.app.services.candidates.current();
      return app;
    };
    const items = (v: unknown): number =>
      Array.isArray(v)
        ? v.length + v.reduce((n: number, x) => n + items(x), 0)
        : v && typeof v === 'object'
          ? Object.values(v).reduce((n: number, x) => n + items(x), 0)
          : 0;
    const big = await withBudget();
    const count = items(JSON.parse(await post(big, executed, { r })).data);
    await big.close();
    expect(count).toBeGreaterThan(100); // the smallest budget the configuration accepts
    for (const [budget, fits] of [
      [count, true],
      [count - 1, false],
    ] as const) {
      const small = await withBudget(budget);
      try {
        const { fast, slow, written } = await both(small, { r });
        expect(written).toBe(fits ? 1 : 0);
        expect(fast).toBe(slow);
        const codes = (JSON.parse(fast).errors ?? []).map(
          (e: { extensions: { code: string } }) => e.extensions.code,
        );
        expect(codes).toEqual(fits ? [] : ['berth.result_too_large']);
      } finally {
        await small.close();
      }
    }
  }, 60_000);
});

describe('direct answer specs', () => {
  const specs = new Map<string, ObjectSpec<never>>();
  const walk = (spec: ObjectSpec<never>) => {
    if (specs.has(spec.typeName)) {
      return;
    }
    specs.set(spec.typeName, spec);
    for (const f of Object.values(spec.fields)) {
      if ('object' in f) {
        walk(f.object);
      } else if ('list' in f) {
        walk(f.list);
      }
    }
  };
  for (const root of DIRECT_ROOTS) {
    walk(root.spec);
  }

  it.each([...specs.keys()])('%s: every field of the GraphQL type has a spec', (name) => {
    const type = schema.getType(name);
    if (!isObjectType(type)) {
      throw new Error(`${name} is not an object type`);
    }
    const spec = specs.get(name)!;
    // ResourceProvider is answered directly only for its uuid (candidates carry nothing else).
    const expected = name === 'ResourceProvider' ? ['uuid'] : Object.keys(type.getFields());
    expect(Object.keys(spec.fields).sort()).toEqual(expected.sort());
    for (const [field, f] of Object.entries(spec.fields)) {
      const named = getNamedType(type.getFields()[field]!.type);
      if ('object' in f) {
        expect(f.object.typeName).toBe(named.name);
      } else if ('list' in f) {
        expect(f.list.typeName).toBe(named.name);
      }
    }
  });

  it('the root fields named exist on Query with the spec’s type', () => {
    for (const root of DIRECT_ROOTS) {
      const field = schema.getQueryType()!.getFields()[root.field]!;
      expect(getNamedType(field.type).name).toBe(root.spec.typeName);
    }
    expect(parse(direct)).toBeDefined();
  });
});
