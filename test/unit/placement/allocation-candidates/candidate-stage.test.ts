// "Why no allocation candidates?" over the capacity index: the per-constraint host counts, the
// blocking constraints and the closest misses on hand-made clouds, and, on random clouds and
// requests, that every row is a necessary condition of the engine's own answer.
import fc from 'fast-check';
import { explainCandidateStage } from '../../../../src/placement/allocation-candidates/candidate-stage';
import {
  CapacityIndex,
  SHARING_TRAIT,
} from '../../../../src/placement/allocation-candidates/capacity-index';
import { findAllocationCandidates } from '../../../../src/placement/allocation-candidates/find-allocation-candidates';
import type { CandidateRequest } from '../../../../src/placement/allocation-candidates/request';
import { stageConstraints } from '../../../../src/placement/allocation-candidates/stage-constraints';
import { type InvSpec, loadFixture, type ProviderSpec } from './fixture-builder';
import { UNBOUNDED } from './helpers';
import { caseArb } from './random-world';

const inv = (total: number, ratio = 1, max = total, step = 1): InvSpec => [
  total,
  0,
  1,
  max,
  step,
  ratio,
];

/** 50 hosts: memory 64 GiB .. 512 GiB free, CUSTOM_GOLD on every tenth, two racks. */
function demoCloud() {
  const providers: ProviderSpec[] = [];
  for (let i = 1; i <= 50; i++) {
    providers.push([
      `host-${i}`,
      `H${i}`,
      null,
      [i % 2 === 0 ? 'RACK_A' : 'RACK_B'],
      i % 10 === 0 ? ['CUSTOM_GOLD'] : [],
      { VCPU: inv(32, 4), MEMORY_MB: inv(i === 7 ? 512_000 : 65_536 + i * 1024) },
    ]);
  }
  return loadFixture({
    customClasses: [],
    customTraits: ['CUSTOM_GOLD'],
    providers,
    usage: [['host-3', 'VCPU', 120]],
  });
}

const group = (suffix: string, resources: Record<string, number>, more = {}) => ({
  suffix,
  resources,
  requiredTraits: [],
  forbiddenTraits: [],
  memberOf: [],
  forbiddenAggregates: [],
  ...more,
});

describe('explainCandidateStage', () => {
  it('names the resource no host has and the host closest to having it', () => {
    const fx = demoCloud();
    const req: CandidateRequest = {
      groups: [group('', { VCPU: 16, MEMORY_MB: 600_000 }, { requiredTraits: [['CUSTOM_GOLD']] })],
    };
    const stage = explainCandidateStage(fx.index, req, { hostsWithCandidates: 0 });
    expect(stage.hostsTotal).toBe(50);
    const rows = stage.constraints.map((c) => [c.kind, c.label, c.hostsAlone, c.hostsAfter]);
    expect(rows).toEqual([
      ['RESOURCE_CAPACITY', 'VCPU: 16', 49, 49],
      ['RESOURCE_UNITS', 'VCPU: 16 within min_unit, max_unit and step_size', 50, 49],
      ['RESOURCE_CAPACITY', 'MEMORY_MB: 600000', 0, 0],
      ['RESOURCE_UNITS', 'MEMORY_MB: 600000 within min_unit, max_unit and step_size', 0, 0],
      ['REQUIRED_TRAITS', 'required trait CUSTOM_GOLD', 5, 0],
      ['GROUP_TOGETHER', 'unsuffixed group: every constraint at once', 0, 0],
    ]);
    expect(stage.blocking.map((b) => b.code)).toEqual([
      'candidate.resource.capacity',
      'candidate.resource.units',
    ]);
    // host-7 has the most memory free but not the trait: it misses by three constraints like
    // every other host without the trait; gold hosts miss by capacity, units and together.
    const first = stage.closestMisses[0]!;
    expect(first.hostName).toBe('host-50');
    expect(first.misses.map((m) => m.message)).toEqual([
      'MEMORY_MB 600000 requested, 116736 free',
      'MEMORY_MB 600000 requested; inventory takes 1..116736 in steps of 1',
    ]);
    expect(stage.closestMisses.map((m) => m.hostName)).toEqual([
      'host-50',
      'host-40',
      'host-30',
      'host-20',
      'host-10',
    ]);
    expect(stage.summary).toBe(
      'no allocation candidates: no host has MEMORY_MB: 600000; MEMORY_MB: 600000 within ' +
        'min_unit, max_unit and step_size; closest: host-50 (MEMORY_MB 600000 requested, ' +
        '116736 free; MEMORY_MB 600000 requested; inventory takes 1..116736 in steps of 1)',
    );
  });

  it('ranks the host with the most free capacity first when one resource is short everywhere', () => {
    const fx = demoCloud();
    const req: CandidateRequest = { groups: [group('', { MEMORY_MB: 600_000 })] };
    const stage = explainCandidateStage(fx.index, req, { hostsWithCandidates: 0 });
    expect(stage.closestMisses[0]).toEqual({
      hostUuid: fx.uuid('host-7'),
      hostName: 'host-7',
      misses: [
        expect.objectContaining({
          kind: 'RESOURCE_CAPACITY',
          message: 'MEMORY_MB 600000 requested, 512000 free',
        }),
        // The group's "all at once" row follows from the miss above: not listed again.
        expect.objectContaining({ kind: 'RESOURCE_UNITS' }),
      ],
    });
    expect(stage.closestMisses).toHaveLength(10);
  });

  it('says when a granular group is met only across providers of one tree', () => {
    const fx = loadFixture({
      customClasses: [],
      customTraits: ['CUSTOM_FAST'],
      providers: [
        ['cn1', 'CN1', null, [], [], {}],
        ['numa0', 'N0', 'cn1', [], [], { VCPU: inv(8) }],
        ['numa1', 'N1', 'cn1', [], ['CUSTOM_FAST'], { MEMORY_MB: inv(4096) }],
      ],
      usage: [],
    });
    const req: CandidateRequest = {
      groups: [group('1', { VCPU: 2 }, { requiredTraits: [['CUSTOM_FAST']] })],
    };
    const found = findAllocationCandidates(fx.index, req).allocationRequests.length;
    expect(found).toBe(0);
    const stage = explainCandidateStage(fx.index, req, { hostsWithCandidates: found });
    expect(stage.constraints.map((c) => [c.kind, c.hostsAlone, c.hostsAfter])).toEqual([
      ['RESOURCE_CAPACITY', 1, 1],
      ['RESOURCE_UNITS', 1, 1],
      ['REQUIRED_TRAITS', 1, 1],
      ['GROUP_TOGETHER', 0, 0],
    ]);
    expect(stage.closestMisses[0]!.misses[0]!.message).toBe(
      'no single provider meets every constraint of group 1',
    );
  });

  it('names forbidden and missing aggregates, root traits and in_tree', () => {
    const fx = demoCloud();
    const req: CandidateRequest = {
      groups: [
        group(
          '',
          { VCPU: 1 },
          {
            memberOf: [[fx.env.RACK_A!]],
            forbiddenAggregates: [fx.env.RACK_A!],
          },
        ),
      ],
      rootForbidden: ['CUSTOM_GOLD'],
    };
    const names = (uuid: string) => (uuid === fx.env.RACK_A ? 'rack-a' : undefined);
    const stage = explainCandidateStage(fx.index, req, {
      hostsWithCandidates: 0,
      aggregateName: names,
    });
    const byKind = new Map(stage.constraints.map((c) => [c.kind, c]));
    expect(byKind.get('MEMBER_OF')).toMatchObject({
      label: `member_of rack-a (${fx.env.RACK_A})`,
      hostsAlone: 25,
    });
    expect(byKind.get('FORBIDDEN_AGGREGATES')).toMatchObject({ hostsAlone: 25, hostsAfter: 0 });
    expect(byKind.get('ROOT_FORBIDDEN')).toMatchObject({ hostsAlone: 45, hostsAfter: 0 });
    // member_of rack-a and not in rack-a: each keeps hosts, together none.
    expect(stage.blocking.map((b) => b.kind)).toEqual(['GROUP_TOGETHER']);
    expect(stage.summary).toBe(
      'no allocation candidates: no host meets every constraint of the unsuffixed group at once; ' +
        `closest: host-1 (not in aggregate rack-a (${fx.env.RACK_A}))`,
    );
  });

  it('reports how many hosts have candidates and no misses when some do', () => {
    const fx = demoCloud();
    const req: CandidateRequest = { groups: [group('', { VCPU: 16 })] };
    const stage = explainCandidateStage(fx.index, req, { hostsWithCandidates: 49 });
    expect(stage.closestMisses).toEqual([]);
    expect(stage.summary).toBe('49 of 50 hosts have allocation candidates');
  });
});

/**
 * Roots hosting the engine's answer, as the scheduler groups it (host-requests.ts treeOf). An
 * allocation made of sharing providers only is left out: the engine may anchor it at any tree
 * of the sharing provider's aggregates, so it names no host.
 */
function candidateHosts(index: CapacityIndex, req: CandidateRequest): Set<number> | null {
  let found: ReturnType<typeof findAllocationCandidates>;
  try {
    found = findAllocationCandidates(index, req, { bounds: UNBOUNDED });
  } catch {
    return null; // unknown names: the request never reaches an explanation
  }
  const sharingId = index.traitTable.lookup(SHARING_TRAIT);
  const hosts = new Set<number>();
  for (const ar of found.allocationRequests) {
    const slots = ar.allocations.map((a) => index.slotOfUuid(a.providerUuid));
    const own = slots.find((s) => !index.hasTrait(s, sharingId));
    if (own !== undefined) {
      hosts.add(index.root[own]!);
    }
  }
  return hosts;
}

describe('explainCandidateStage on random clouds', () => {
  it('keeps every host the engine finds in every row, and counts rows consistently', () => {
    let explained = 0;
    fc.assert(
      fc.property(caseArb, ({ rows, req }) => {
        const index = CapacityIndex.fromRows(rows);
        const hosts = candidateHosts(index, req);
        if (hosts === null) {
          return;
        }
        const real = [...hosts].filter((t) => index.sharing[t] !== 1);
        for (const c of stageConstraints(index, req)) {
          for (const t of real) {
            expect([c.kind, c.label, index.name[t], c.test(t)]).toEqual([
              c.kind,
              c.label,
              index.name[t],
              true,
            ]);
          }
        }
        const stage = explainCandidateStage(index, req, { hostsWithCandidates: real.length });
        explained++;
        let before = stage.hostsTotal;
        for (const c of stage.constraints) {
          expect(c.hostsAfter).toBeLessThanOrEqual(Math.min(before, c.hostsAlone));
          expect(c.hostsAfter).toBeGreaterThanOrEqual(real.length);
          before = c.hostsAfter;
        }
        expect(before).toBe(real.length === 0 ? 0 : before);
        if (real.length === 0 && stage.hostsTotal > 0) {
          expect(stage.closestMisses.length).toBeGreaterThan(0);
          for (const m of stage.closestMisses) {
            expect(m.misses.length).toBeGreaterThan(0);
          }
        }
      }),
      { numRuns: Number(process.env.STAGE_RUNS ?? 800) },
    );
    // Requests naming unknown traits or classes never reach an explanation.
    expect(explained).toBeGreaterThan(400);
  }, 60_000);
});
