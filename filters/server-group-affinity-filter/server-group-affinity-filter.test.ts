// Table tests for ServerGroupAffinityFilter (after nova/tests/unit/scheduler/filters/
// test_affinity_filters.py TestGroupAffinityFilter): with members placed, only their hosts pass;
// the first member goes anywhere; no group or another policy, every host passes.

import type { ServerGroupView } from '../../src/scheduler/plugin-api';
import { buildHostView, buildRequestSpec } from '../../src/scheduler/plugin-testing';
import { buildPlugin, verdictOf } from '../../test/support/plugin';
import { create, NAME, REASON_NOT_GROUP_HOST } from './index';

const plugin = buildPlugin(create, NAME);
const host = buildHostView({ providers: [{ uuid: 'cn1', name: 'compute-1' }] });
const group = (policy: ServerGroupView['policy'], hosts: Record<string, number>) => ({
  uuid: 'g1',
  policy,
  maxServerPerHost: 1,
  hosts,
});

describe(NAME, () => {
  it.each<{ name: string; serverGroup?: ServerGroupView; want: boolean }>([
    { name: 'passes without a server group', want: true },
    {
      name: 'passes for the first member (no member placed)',
      serverGroup: group('affinity', {}),
      want: true,
    },
    {
      name: 'passes on a host running a member',
      serverGroup: group('affinity', { cn1: 1 }),
      want: true,
    },
    {
      name: 'passes on one of several member hosts',
      serverGroup: group('affinity', { cn2: 1, cn1: 2 }),
      want: true,
    },
    { name: 'fails where no member runs', serverGroup: group('affinity', { cn2: 1 }), want: false },
    {
      name: 'ignores an anti-affinity group',
      serverGroup: group('anti-affinity', { cn2: 1 }),
      want: true,
    },
    {
      name: 'ignores a soft-affinity group (a weigher handles it)',
      serverGroup: group('soft-affinity', { cn2: 1 }),
      want: true,
    },
    {
      // Nova's instance_group.hosts includes the moving member's host: only cn2 would pass.
      name: "a moving lone member goes anywhere (berth: its own host is not the group's)",
      serverGroup: { ...group('affinity', {}), placingHosts: { cn2: 1 } },
      want: true,
    },
    {
      // Nova would pass cn1 (the moving member's host) as well as cn2.
      name: 'a moving member joins the others, not its own host (berth)',
      serverGroup: { ...group('affinity', { cn2: 1 }), placingHosts: { cn1: 1 } },
      want: false,
    },
  ])('$name', ({ serverGroup, want }) => {
    const verdict = verdictOf(plugin, host, buildRequestSpec(serverGroup ? { serverGroup } : {}));
    expect(verdict).toEqual(
      want
        ? { fits: true }
        : {
            fits: false,
            reason: `${REASON_NOT_GROUP_HOST} g1 (its members run on cn2)`,
            code: 'server_group.affinity',
          },
    );
  });
});
