// Table tests for ServerGroupAntiAffinityFilter (after nova/tests/unit/scheduler/filters/
// test_affinity_filters.py TestGroupAntiAffinityFilter, including max_server_per_host): a host
// passes while it runs fewer members than the rule allows; no group or another policy, all pass.

import type { ServerGroupView } from '../../src/scheduler/plugin-api';
import { buildHostView, buildRequestSpec } from '../../src/scheduler/plugin-testing';
import { buildPlugin, verdictOf } from '../../test/support/plugin';
import { create, NAME, REASON_GROUP_FULL } from './index';

const plugin = buildPlugin(create, NAME);
const host = buildHostView({ providers: [{ uuid: 'cn1', name: 'compute-1' }] });
const group = (
  policy: ServerGroupView['policy'],
  hosts: Record<string, number>,
  maxServerPerHost = 1,
) => ({ uuid: 'g1', policy, maxServerPerHost, hosts });

describe(NAME, () => {
  it.each<{ name: string; serverGroup?: ServerGroupView; want: boolean | number }>([
    { name: 'passes without a server group', want: true },
    {
      name: 'passes when no member is placed',
      serverGroup: group('anti-affinity', {}),
      want: true,
    },
    {
      name: 'passes when members run elsewhere',
      serverGroup: group('anti-affinity', { cn2: 3 }),
      want: true,
    },
    {
      name: 'fails on a host running a member',
      serverGroup: group('anti-affinity', { cn1: 1 }),
      want: 1,
    },
    {
      name: 'passes below max_server_per_host 2',
      serverGroup: group('anti-affinity', { cn1: 1 }, 2),
      want: true,
    },
    {
      name: 'fails at max_server_per_host 2',
      serverGroup: group('anti-affinity', { cn1: 2 }, 2),
      want: 2,
    },
    { name: 'ignores an affinity group', serverGroup: group('affinity', { cn1: 1 }), want: true },
    {
      name: 'ignores a soft-anti-affinity group (a weigher handles it)',
      serverGroup: group('soft-anti-affinity', { cn1: 1 }),
      want: true,
    },
    {
      name: 'a moving member does not count against its own host',
      serverGroup: { ...group('anti-affinity', {}), placingHosts: { cn1: 1 } },
      want: true,
    },
    {
      // Nova passes the host the moving instance runs on whatever else runs there
      // (affinity_filter.py:98); berth keeps the rule, as the claim-time check does.
      name: "a moving member's own host already full of others fails (berth)",
      serverGroup: { ...group('anti-affinity', { cn1: 1 }), placingHosts: { cn1: 1 } },
      want: 1,
    },
  ])('$name', ({ serverGroup, want }) => {
    const verdict = verdictOf(plugin, host, buildRequestSpec(serverGroup ? { serverGroup } : {}));
    expect(verdict).toEqual(
      want === true
        ? { fits: true }
        : {
            fits: false,
            reason: `${REASON_GROUP_FULL} ${want} member(s) of anti-affinity server group g1 (max_server_per_host ${serverGroup!.maxServerPerHost})`,
            code: 'server_group.anti_affinity',
          },
    );
  });
});
