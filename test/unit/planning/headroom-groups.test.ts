// headroomOn's groups and limits on a planning view of an in-memory index (no database): a host
// in two aggregates counts in both, hosts in no zone aggregate count in the default zone, per
// host keys are the roots; limits are a host's class, the refusing filter's code or why the
// engine offers it nothing; runsOutFirst is the limit of the most hosts with room; a nested host
// is filled one instance at a time; the view is left as it was found.

import type { CandidateService } from '../../../src/placement/allocation-candidates/candidate-service';
import { CapacityIndex } from '../../../src/placement/allocation-candidates/capacity-index';
import { emptyRequestGroup } from '../../../src/placement/allocation-candidates/request';
import type { AggregateMetadataCache } from '../../../src/placement/host-rows';
import { headroomOn, type PlanningFlavor } from '../../../src/planning/headroom';
import { PlanningView } from '../../../src/planning/planning-view';
import type { FilterPlugin } from '../../../src/scheduler/plugin-api';
import { createPipeline } from '../../../src/scheduler/runtime/pipeline';
import { HostViewCache } from '../../../src/scheduler/state/host-view-cache';
import { provider, uuid, vcpuInventory } from '../scheduler/index-fixtures';

const AGG_A = 'aaaaaaaa-0000-4000-8000-000000000001';
const AGG_B = 'bbbbbbbb-0000-4000-8000-000000000002';

const vcpu = vcpuInventory;

/** h1 8 VCPU in A and B, h2 2 in A, h3 1 in none, h4 4 in B, h5 nested (4 on a child) in none. */
function cloud(): CapacityIndex {
  return CapacityIndex.fromRows({
    providers: [1, 2, 3, 4, 5].map((n) => provider(n, null, `h${n}`)).concat([provider(6, 5)]),
    inventories: [vcpu(1, 8), vcpu(2, 2), vcpu(3, 1), vcpu(4, 4), vcpu(6, 4)],
    traits: [],
    aggregates: [
      { providerId: 1, aggregateUuid: AGG_A },
      { providerId: 1, aggregateUuid: AGG_B },
      { providerId: 2, aggregateUuid: AGG_A },
      { providerId: 4, aggregateUuid: AGG_B },
    ],
  });
}

/** At most two instances per host. */
const twoPerHost: FilterPlugin<unknown> = {
  name: 'TwoPerHost',
  kind: 'filter',
  onError: 'closed',
  filter: (host) =>
    host.numInstances < 2 ? { fits: true } : { fits: false, reason: 'two', code: 'test.two' },
};

async function open(index: CapacityIndex) {
  const aggregates = [
    { uuid: AGG_A, name: 'rack-a', metadata: { availability_zone: 'az1' } },
    { uuid: AGG_B, name: 'rack-b', metadata: {} },
  ];
  return PlanningView.open({
    candidates: { current: async () => index } as unknown as CandidateService,
    aggregates: { all: async () => aggregates } as unknown as AggregateMetadataCache,
    hostViews: new HostViewCache(),
    instanceHosts: async () => new Map(),
  });
}

const chosen = {
  pipeline: createPipeline({ filters: [twoPerHost], weighers: [] }),
  profile: 'test',
  key: 'test',
};

const flavor: PlanningFlavor = {
  name: 'two-vcpu',
  request: { groups: [{ ...emptyRequestGroup(''), resources: { VCPU: 2 } }] },
  extraSpecs: {},
};

const pick = (groups: readonly { key: string; count: number; hosts: number }[]) =>
  groups.map((g) => [g.key, g.count, g.hosts]);

describe('headroomOn groups and limits', () => {
  it('counts cloud-wide with each host’s limit and what runs out first', async () => {
    const index = cloud();
    const view = await open(index);
    const used = Array.from(view.index.inventories.used);
    const [f] = await headroomOn(view, [flavor], chosen, { groupBy: 'root' });
    // h1 2 (the filter: 4 would fit), h2 1 (VCPU), h3 0 (VCPU: not a candidate), h4 2 (VCPU
    // first: the filter would allow 2 as well), h5 2 (filled on its child, then VCPU).
    expect(f).toMatchObject({ count: 7, independentCount: 7, hosts: 5, hostsWithRoom: 4 });
    expect(f!.limits).toEqual([
      { by: 'VCPU', hosts: 4 },
      { by: 'test.two', hosts: 1 },
    ]);
    expect(f!.runsOutFirst).toBe('VCPU');
    expect(f!.groups.map((g) => [g.name, g.count, g.runsOutFirst])).toEqual([
      ['h1', 2, 'test.two'],
      ['h2', 1, 'VCPU'],
      ['h3', 0, 'VCPU'],
      ['h4', 2, 'VCPU'],
      ['h5', 2, 'VCPU'],
    ]);
    // Among the hosts with room only: a filter ending the most of them runs out first.
    const [three] = await headroomOn(
      view,
      [
        {
          ...flavor,
          name: 'one-vcpu',
          request: { groups: [{ ...emptyRequestGroup(''), resources: { VCPU: 1 } }] },
        },
      ],
      chosen,
      { groupBy: 'none' },
    );
    // h1, h4, h5 stop at two instances; h2 at two by VCPU as well (2 VCPU), h3 at one.
    expect(three).toMatchObject({ count: 9, runsOutFirst: 'test.two' });
    expect(f!.groups[0]!.key).toBe(uuid(1));
    // Left as found: the usage column and no placement on the view.
    expect(Array.from(view.index.inventories.used)).toEqual(used);
    expect(view.placedOn(uuid(5))).toEqual([]);
  });

  it('counts a host in two aggregates in both, and zones with the default zone', async () => {
    const view = await open(cloud());
    const [byAgg] = await headroomOn(view, [flavor], chosen, { groupBy: 'aggregate' });
    expect(pick(byAgg!.groups)).toEqual([
      [AGG_A, 3, 2],
      [AGG_B, 4, 2],
    ]);
    expect(byAgg!.groups.map((g) => g.name)).toEqual(['rack-a', 'rack-b']);
    const [byZone] = await headroomOn(view, [flavor], chosen, { groupBy: 'zone' });
    expect(pick(byZone!.groups)).toEqual([
      ['az1', 3, 2],
      ['nova', 4, 3],
    ]);
    const [custom] = await headroomOn(view, [flavor], chosen, {
      groupBy: 'zone',
      defaultZone: 'az0',
    });
    expect(pick(custom!.groups)).toEqual([
      ['az0', 4, 3],
      ['az1', 3, 2],
    ]);
    const [none] = await headroomOn(view, [flavor], chosen, { groupBy: 'none' });
    expect(none!.groups).toEqual([]);
  });

  it('says why a host is not a candidate, and counts a flavor no host takes', async () => {
    const view = await open(cloud());
    const [big, gpu] = await headroomOn(
      view,
      [
        {
          ...flavor,
          name: 'big',
          request: { groups: [{ ...emptyRequestGroup(''), resources: { VCPU: 16 } }] },
        },
        {
          ...flavor,
          name: 'gpu',
          request: { groups: [{ ...emptyRequestGroup(''), resources: { VGPU: 1 } }] },
        },
      ],
      chosen,
      { groupBy: 'none' },
    );
    expect(big).toMatchObject({ count: 0, hostsWithRoom: 0, runsOutFirst: 'VCPU' });
    expect(big!.limits).toEqual([{ by: 'VCPU', hosts: 5 }]);
    expect(gpu).toMatchObject({ count: 0, runsOutFirst: 'candidate.resource.capacity' });
  });
});
