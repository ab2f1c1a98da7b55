// Table tests for ServerGroupSoftAffinityWeigher and ServerGroupSoftAntiAffinityWeigher (after
// nova/tests/unit/scheduler/weights/test_weights_affinity.py): the raw weight is the number of
// members on the host, negated for soft-anti-affinity; 0 without the weigher's policy; a negative
// multiplier is refused. A moving member counts on its current host only with countMovingMembers
// (Nova's _SoftAffinityWeigherBase counts every member in host_state.instances, itself included).

import type { ServerGroupView } from '../../src/scheduler/plugin-api';
import { buildHostView, buildRequestSpec } from '../../src/scheduler/plugin-testing';
import { buildPlugin } from '../../test/support/plugin';
import * as affinity from '../server-group-soft-affinity-weigher/index';
import * as antiAffinity from '../server-group-soft-anti-affinity-weigher/index';

const host = buildHostView({ providers: [{ uuid: 'cn1', name: 'compute-1' }] });
const group = (
  policy: ServerGroupView['policy'],
  hosts: Record<string, number>,
  placingHosts?: Record<string, number>,
): ServerGroupView => ({
  uuid: 'g1',
  policy,
  maxServerPerHost: 1,
  hosts,
  ...(placingHosts === undefined ? {} : { placingHosts }),
});

describe.each([
  { module: affinity, policy: 'soft-affinity' as const, sign: 1 },
  { module: antiAffinity, policy: 'soft-anti-affinity' as const, sign: -1 },
])('$module.NAME', ({ module, policy, sign }) => {
  const make = (config: Record<string, unknown> = {}) =>
    buildPlugin(module.create, module.NAME, config);

  it.each<{ name: string; serverGroup?: ServerGroupView; members: number }>([
    { name: 'no server group', members: 0 },
    { name: 'no member on the host', serverGroup: group(policy, { cn2: 2 }), members: 0 },
    { name: 'one member on the host', serverGroup: group(policy, { cn1: 1 }), members: 1 },
    {
      name: 'three members on the host',
      serverGroup: group(policy, { cn1: 3, cn2: 1 }),
      members: 3,
    },
    {
      name: 'a group of another policy',
      serverGroup: group(policy === 'soft-affinity' ? 'soft-anti-affinity' : 'soft-affinity', {
        cn1: 3,
      }),
      members: 0,
    },
    { name: 'a hard policy group', serverGroup: group('anti-affinity', { cn1: 3 }), members: 0 },
  ])('weighs $name', ({ serverGroup, members }) => {
    const req = buildRequestSpec(serverGroup ? { serverGroup } : {});
    expect(make().weigh(host, req, undefined)).toBe(members === 0 ? 0 : sign * members);
  });

  it.each<{
    name: string;
    countMovingMembers?: boolean;
    hosts: Record<string, number>;
    placing?: Record<string, number>;
    members: number;
  }>([
    {
      name: 'a moving member is not counted on its own host by default',
      hosts: {},
      placing: { cn1: 1 },
      members: 0,
    },
    {
      name: 'a moving member is not counted beside another by default',
      hosts: { cn1: 1 },
      placing: { cn1: 1 },
      members: 1,
    },
    {
      name: 'countMovingMembers counts it on its own host (Nova)',
      countMovingMembers: true,
      hosts: {},
      placing: { cn1: 1 },
      members: 1,
    },
    {
      name: 'countMovingMembers counts it beside another (Nova)',
      countMovingMembers: true,
      hosts: { cn1: 1 },
      placing: { cn1: 1, cn2: 1 },
      members: 2,
    },
    {
      name: 'countMovingMembers without placing hosts given',
      countMovingMembers: true,
      hosts: { cn1: 2 },
      members: 2,
    },
  ])('$name', ({ countMovingMembers, hosts, placing, members }) => {
    const config = countMovingMembers === undefined ? {} : { countMovingMembers };
    const req = buildRequestSpec({ serverGroup: group(policy, hosts, placing) });
    expect(make(config).weigh(host, req, undefined)).toBe(members === 0 ? 0 : sign * members);
  });

  it('lists countMovingMembers among its configuration keys and refuses a non-boolean', () => {
    expect(module.CONFIG_KEYS).toEqual(['multiplier', 'countMovingMembers']);
    expect(() => make({ countMovingMembers: 'yes' })).toThrow(
      `${module.NAME}: config "countMovingMembers" must be true or false`,
    );
  });

  it('reads the multiplier from config (default 1) and the Nova aggregate key', () => {
    expect(make().multiplier).toBe(1);
    expect(make({ multiplier: 2.5 }).multiplier).toBe(2.5);
    expect(make().multiplierMetadataKey).toBe(module.MULTIPLIER_KEY);
  });

  it('refuses a negative multiplier at start-up', () => {
    expect(() => make({ multiplier: -1 })).toThrow(
      `${module.NAME}: config "multiplier" must not be negative`,
    );
  });
});
