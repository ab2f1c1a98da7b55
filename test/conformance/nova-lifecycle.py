#!/usr/bin/python3
"""Drives Nova's own report client (nova.scheduler.client.report.SchedulerReportClient, Debian
python3-nova) through a compute lifecycle against berth's Placement REST facade, checking at each
step what Nova checks (return values, raised exceptions) and the resulting usages.

Run by test/conformance/nova-lifecycle.sh (npm run conformance:nova), which starts berth on an
empty database. Environment:
  NOVA_LIFECYCLE_AUTH   token (default) | keystone
  token:    PLACEMENT_ENDPOINT (http://host:port/placement), BERTH_TOKEN (a berth API token,
            role service) -> keystoneauth `admin_token` plugin, X-Auth-Token: <token>
  keystone: OS_AUTH_URL, KEYSTONE_NOVA_USERNAME / _PASSWORD / _PROJECT, OS_USER_DOMAIN_NAME,
            OS_PROJECT_DOMAIN_NAME, OS_REGION_NAME -> keystoneauth `password` plugin; the client
            finds berth through the catalog (PLACEMENT_ENDPOINT, if set, is what it must find).

The client is built exactly as nova-compute / nova-scheduler build it: `[placement]` options in a
nova.conf read by oslo.config, then SchedulerReportClient() with no adapter (openstacksdk +
keystoneauth from those options). The only Nova pieces replaced are the two Nova-database
lookups in delete_resource_provider(cascade=True) (instances on the node, evacuations from it).
Exits non-zero with `FAIL: ...` at the first deviation.
"""
# As every Nova service (nova/cmd/__init__.py): eventlet monkey patching, before anything else.
# The report client relies on it (ProviderTree's lock is deep-copied with the tree).
import nova.monkey_patch  # noqa: F401,I001

import copy
import os
import sys
import tempfile
import traceback
import uuid
from unittest import mock

import nova.conf
from nova import context as nova_context
from nova import exception
from nova import objects
from nova.scheduler import utils as scheduler_utils
from nova.scheduler.client import report

CONF = nova.conf.CONF
STEP = ['setup']


class Failure(Exception):
    pass


def fail(msg):
    raise Failure('%s: %s' % (STEP[0], msg))


def ok(msg):
    print('ok   %s' % msg, flush=True)


def step(name):
    STEP[0] = name
    print('--   %s' % name, flush=True)


def expect(cond, msg, got=None):
    if not cond:
        fail(msg if got is None else '%s (got %r)' % (msg, got))
    ok(msg)


def expect_raises(exc, msg, fn, *a, **k):
    try:
        r = fn(*a, **k)
    except exc as e:
        ok('%s -> %s' % (msg, type(e).__name__))
        return e
    except Exception as e:  # noqa: BLE001 - report what was raised instead
        fail('%s: expected %s, raised %s: %s' % (msg, exc.__name__, type(e).__name__, e))
    fail('%s: expected %s, returned %r' % (msg, exc.__name__, r))


def configure():
    mode = os.environ.get('NOVA_LIFECYCLE_AUTH', 'token')
    if mode == 'token':
        conf = ('[placement]\nauth_type = admin_token\nendpoint = %s\ntoken = %s\n' % (
            os.environ['PLACEMENT_ENDPOINT'], os.environ['BERTH_TOKEN']))
    elif mode == 'keystone':
        e = os.environ
        conf = ('[placement]\nauth_type = password\nauth_url = %s\nusername = %s\n'
                'password = %s\nproject_name = %s\nuser_domain_name = %s\n'
                'project_domain_name = %s\nregion_name = %s\nvalid_interfaces = public\n' % (
                    e['OS_AUTH_URL'], e.get('KEYSTONE_NOVA_USERNAME', 'nova'),
                    e['KEYSTONE_NOVA_PASSWORD'], e.get('KEYSTONE_NOVA_PROJECT', 'service'),
                    e.get('OS_USER_DOMAIN_NAME', 'Default'),
                    e.get('OS_PROJECT_DOMAIN_NAME', 'Default'),
                    e.get('OS_REGION_NAME', 'RegionOne')))
    else:
        sys.exit('NOVA_LIFECYCLE_AUTH must be token or keystone, not %r' % mode)
    f = tempfile.NamedTemporaryFile('w', prefix='nova-lifecycle-', suffix='.conf', delete=False)
    f.write(conf)
    f.close()
    CONF([], project='nova', default_config_files=[f.name])
    os.unlink(f.name)
    return mode


def inv(total, reserved=0, ratio=1.0, max_unit=None):
    return {'total': total, 'reserved': reserved, 'min_unit': 1,
            'max_unit': max_unit or total, 'step_size': 1, 'allocation_ratio': ratio}


def main():
    mode = configure()
    objects.register_all()
    ctx = nova_context.get_admin_context()
    rc = report.SchedulerReportClient()
    ok('SchedulerReportClient built from [placement] (%s auth)' % mode)
    endpoint = rc._client.get_endpoint()
    want = os.environ.get('PLACEMENT_ENDPOINT')
    if want:
        expect(endpoint.rstrip('/') == want.rstrip('/'),
               'client endpoint is berth (%s)' % endpoint, endpoint)
    # berth enforces authentication in this mode: an unknown token is refused.
    bad = rc._client.session.get(endpoint.rstrip('/') + '/resource_providers',
                                 authenticated=False, raise_exc=False,
                                 headers={'X-Auth-Token': 'not-a-token'})
    expect(bad.status_code == 401, 'an unknown X-Auth-Token gets 401', bad.status_code)

    def get(url, version='1.39'):
        r = rc.get(url, version=version)
        if r.status_code != 200:
            fail('GET %s: %s %s' % (url, r.status_code, r.text))
        return r.json()

    def usages(rp):
        return {k: v for k, v in get('/resource_providers/%s/usages' % rp)['usages'].items()
                if v}

    expected_usage = {}

    def check_usages(label):
        for rp, want in expected_usage.items():
            got = usages(rp)
            if got != want:
                fail('usages of %s %s: expected %r, got %r' % (names[rp], label, want, got))
        ok('usages %s: %s' % (label, ', '.join(
            '%s %s' % (names[rp], u or '{}') for rp, u in expected_usage.items())))

    project_id, user_id = uuid.uuid4().hex, uuid.uuid4().hex
    cn1, numa0, numa1, pgpu = (str(uuid.uuid4()) for _ in range(4))
    cn2, ss, agg = (str(uuid.uuid4()) for _ in range(3))
    inst1, inst2, mig = (str(uuid.uuid4()) for _ in range(3))
    names = {cn1: 'compute1', numa0: 'compute1_numa0', numa1: 'compute1_numa1',
             pgpu: 'compute1_pgpu0', cn2: 'compute2', ss: 'shared-storage'}

    # ---------------------------------------------------------------------------------------
    step('shared storage provider (operator, through the report client)')
    rc._ensure_resource_provider(ctx, ss, name='shared-storage')
    rc.set_inventory_for_provider(ctx, ss, {'DISK_GB': inv(1000, reserved=10)})
    rc.set_traits_for_provider(ctx, ss, ['MISC_SHARES_VIA_AGGREGATE'])
    rc.set_aggregates_for_provider(ctx, ss, [agg])
    p = get('/resource_providers/%s' % ss)
    expect(p['generation'] == 3, 'shared storage generation 3 after inventory, traits, aggregates',
           p['generation'])
    expect(rc._get_provider_aggregates(ctx, ss).aggregates == {agg}, 'shared storage aggregates')
    expected_usage[ss] = {}

    # ---------------------------------------------------------------------------------------
    step('compute1 start-up: update_from_provider_tree (root + 2 NUMA children)')
    tree = rc.get_provider_tree_and_ensure_root(ctx, cn1, name='compute1')
    expect(tree.exists(cn1) and tree.data(cn1).generation == 0,
           'get_provider_tree_and_ensure_root created the root (generation 0)')
    tree.update_inventory(cn1, {'VGPU': inv(4)})
    tree.update_traits(cn1, ['HW_CPU_X86_AVX2', 'COMPUTE_NET_VIF_MODEL_VIRTIO',
                             'CUSTOM_BERTH_LIFECYCLE'])
    tree.update_aggregates(cn1, [agg])
    for i, child in enumerate((numa0, numa1)):
        tree.new_child('compute1_numa%d' % i, cn1, uuid=child)
        tree.update_inventory(child, {'VCPU': inv(8, ratio=2.0),
                                      'MEMORY_MB': inv(16384, reserved=512)})
        tree.update_traits(child, ['HW_CPU_X86_AVX2', 'HW_NUMA_ROOT'])
    rc.update_from_provider_tree(ctx, tree)
    in_tree = {p['uuid']: p for p in rc.get_providers_in_tree(ctx, cn1)}
    expect(set(in_tree) == {cn1, numa0, numa1}, 'get_providers_in_tree: root and two children',
           sorted(in_tree))
    expect(all(in_tree[u]['parent_provider_uuid'] == cn1 and in_tree[u]['root_provider_uuid'] == cn1
               for u in (numa0, numa1)), 'children have parent and root compute1')
    got_inv = get('/resource_providers/%s/inventories' % numa0)['inventories']
    expect(got_inv == {'VCPU': inv(8, ratio=2.0), 'MEMORY_MB': inv(16384, reserved=512)},
           'numa0 inventories as set', got_inv)
    traits = rc.get_provider_traits(ctx, cn1).traits
    expect(traits == {'HW_CPU_X86_AVX2', 'COMPUTE_NET_VIF_MODEL_VIRTIO',
                      'CUSTOM_BERTH_LIFECYCLE'}, 'compute1 traits (custom trait created)', traits)
    gens = {u: get('/resource_providers/%s' % u)['generation'] for u in (cn1, numa0, numa1)}
    rc.update_from_provider_tree(ctx, copy.deepcopy(rc._provider_tree))
    gens2 = {u: get('/resource_providers/%s' % u)['generation'] for u in (cn1, numa0, numa1)}
    expect(gens == gens2, 'second update_from_provider_tree with no change writes nothing', gens2)
    rc.clear_provider_cache()
    tree = rc.get_provider_tree_and_ensure_root(ctx, cn1, name='compute1')
    expect(tree.exists(ss) and tree.in_aggregates(cn1, [agg]),
           'fresh cache finds the sharing provider through the aggregate')
    expected_usage.update({cn1: {}, numa0: {}, numa1: {}})

    # ---------------------------------------------------------------------------------------
    step('compute2 start-up, set_* directly (flat, disabled)')
    rc._ensure_resource_provider(ctx, cn2, name='compute2')
    rc.set_inventory_for_provider(ctx, cn2, {'VCPU': inv(16, ratio=4.0),
                                             'MEMORY_MB': inv(65536, reserved=1024)})
    rc.set_aggregates_for_provider(ctx, cn2, [agg])
    rc.set_traits_for_provider(ctx, cn2, ['HW_CPU_X86_AVX2', 'COMPUTE_STATUS_DISABLED'])
    expect(rc.get_provider_traits(ctx, cn2).traits == {'HW_CPU_X86_AVX2',
                                                       'COMPUTE_STATUS_DISABLED'},
           'compute2 traits')
    gen = get('/resource_providers/%s' % cn2)['generation']
    expect_raises(exception.ResourceProviderUpdateConflict,
                  'set_aggregates_for_provider with a stale generation',
                  rc.set_aggregates_for_provider, ctx, cn2, [agg, str(uuid.uuid4())],
                  use_cache=False, generation=gen - 1)
    # Nova dropped compute2 from its cache on the conflict; the next periodic task re-reads it.
    rc._ensure_resource_provider(ctx, cn2, name='compute2')
    expect(rc._get_provider_aggregates(ctx, cn2).aggregates == {agg},
           'aggregates unchanged by the refused update')
    expect_raises(exception.InvalidResourceClass,
                  'set_inventory_for_provider, invalid custom class name (PUT 400)',
                  rc.set_inventory_for_provider, ctx, cn2, {'CUSTOM_lower': inv(1)})
    expect_raises(exception.ResourceProviderUpdateFailed,
                  'set_inventory_for_provider, unknown standard class (400)',
                  rc.set_inventory_for_provider, ctx, cn2, {'NO_SUCH_CLASS': inv(1)})
    expected_usage[cn2] = {}

    # ---------------------------------------------------------------------------------------
    step('allocation candidates (scheduler)')

    def resource_request(vcpus, memory_mb, root_gb, extra_specs=None):
        spec = objects.RequestSpec(
            flavor=objects.Flavor(vcpus=vcpus, memory_mb=memory_mb, root_gb=root_gb,
                                  ephemeral_gb=0, swap=0, extra_specs=extra_specs or {}),
            image=objects.ImageMeta.from_dict({'properties': {}}), is_bfv=False,
            requested_resources=[], request_level_params=objects.RequestLevelParams())
        # nova.scheduler.request_filter.compute_status_filter
        spec.root_forbidden.add('COMPUTE_STATUS_DISABLED')
        rr = scheduler_utils.ResourceRequest.from_request_spec(spec)
        return rr

    def candidates(rr):
        areqs, summaries, version = rc.get_allocation_candidates(ctx, rr)
        if areqs is None:
            fail('get_allocation_candidates failed for %s' % rr.to_querystring())
        return areqs, summaries, version

    def shape(areq):
        return {names[rp]: a['resources'] for rp, a in areq['allocations'].items()}

    rr = resource_request(2, 2048, 20, {'trait:HW_CPU_X86_AVX2': 'required'})
    areqs, summaries, version = candidates(rr)
    expect(version == '1.36', 'candidates requested at 1.36', version)
    shapes = sorted(sorted((k, sorted(v.items())) for k, v in shape(a).items()) for a in areqs)
    want = sorted(sorted([(v, [('VCPU', 2)]), (m, [('MEMORY_MB', 2048)]),
                          ('shared-storage', [('DISK_GB', 20)])] if v != m else
                         [(v, [('MEMORY_MB', 2048), ('VCPU', 2)]),
                          ('shared-storage', [('DISK_GB', 20)])])
                  for v in ('compute1_numa0', 'compute1_numa1')
                  for m in ('compute1_numa0', 'compute1_numa1'))
    expect(shapes == want, '4 candidates in compute1 tree + shared DISK_GB (compute2 disabled)',
           shapes)
    expect(set(summaries) == {cn1, numa0, numa1, ss},
           'provider_summaries: whole compute1 tree + sharing provider',
           sorted(names.get(u, u) for u in summaries))
    s = summaries[numa0]
    expect(s['resources']['VCPU'] == {'capacity': 16, 'used': 0} and
           s['parent_provider_uuid'] == cn1 and s['root_provider_uuid'] == cn1 and
           set(s['traits']) == {'HW_CPU_X86_AVX2', 'HW_NUMA_ROOT'},
           'numa0 summary (capacity, parent, root, traits)', s)
    expect(all({k: sorted(v) for k, v in a['mappings'].items()} == {'': sorted(a['allocations'])}
               for a in areqs), 'mappings (1.34) name every provider of the unnumbered group',
           [a['mappings'] for a in areqs])

    rc.set_traits_for_provider(ctx, cn2, ['HW_CPU_X86_AVX2'])
    areqs, summaries, _ = candidates(rr)
    expect(len(areqs) == 5 and cn2 in summaries,
           'compute2 enabled (COMPUTE_STATUS_DISABLED removed): 5 candidates', len(areqs))
    rr_bad = resource_request(2, 2048, 20, {'trait:CUSTOM_NO_SUCH_TRAIT': 'required'})
    areqs_bad, _, _ = rc.get_allocation_candidates(ctx, rr_bad)
    expect(areqs_bad is None, 'unknown required trait: get_allocation_candidates -> (None, ...)')

    # ---------------------------------------------------------------------------------------
    step('claim (scheduler claim_resources)')
    areqs, _, version = candidates(rr)
    pick = next(a for a in areqs if set(a['allocations']) == {numa0, ss})
    expect(rc.claim_resources(ctx, inst1, pick, project_id, user_id, version) is True,
           'claim_resources(inst1) on numa0 + shared storage -> True')
    a = rc.get_allocs_for_consumer(ctx, inst1)
    expect(shape(a) == {'compute1_numa0': {'VCPU': 2, 'MEMORY_MB': 2048},
                        'shared-storage': {'DISK_GB': 20}} and
           a['consumer_generation'] == 1 and a['project_id'] == project_id and
           a['user_id'] == user_id, 'get_allocs_for_consumer(inst1)', a)
    expected_usage[numa0] = {'VCPU': 2, 'MEMORY_MB': 2048}
    expected_usage[ss] = {'DISK_GB': 20}
    check_usages('after claim')
    big = copy.deepcopy(pick)
    big['allocations'][numa0]['resources']['VCPU'] = 100
    expect(rc.claim_resources(ctx, str(uuid.uuid4()), big, project_id, user_id, version)
           is False, 'claim_resources beyond capacity -> False')
    expect_raises(exception.AllocationUpdateFailed,
                  'claim_resources for a new consumer with consumer_generation=0',
                  rc.claim_resources, ctx, str(uuid.uuid4()), pick, project_id, user_id,
                  version, consumer_generation=0)
    check_usages('after refused claims')
    counts = rc.get_usages_counts_for_quota(ctx, project_id)
    expect(counts == {'project': {'cores': 2, 'ram': 2048}},
           'get_usages_counts_for_quota(project)', counts)

    # ---------------------------------------------------------------------------------------
    step('cold migration compute1 -> compute2, confirm')
    expect(rc.move_allocations(ctx, inst1, mig) is True,
           'move_allocations(instance -> migration) -> True')
    expect(rc.get_allocs_for_consumer(ctx, inst1)['allocations'] == {},
           'instance holds nothing after the move')
    m = rc.get_allocs_for_consumer(ctx, mig)
    expect(shape(m) == {'compute1_numa0': {'VCPU': 2, 'MEMORY_MB': 2048},
                        'shared-storage': {'DISK_GB': 20}} and m['project_id'] == project_id,
           'migration consumer holds the source allocations', m)
    expect(rc.move_allocations(ctx, inst1, mig) is True,
           'move_allocations again (already moved) -> True')
    areqs, _, version = candidates(rr)
    dest = [a for a in areqs if cn2 in a['allocations']]
    expect(len(dest) == 1 and shape(dest[0]) == {'compute2': {'VCPU': 2, 'MEMORY_MB': 2048},
                                                 'shared-storage': {'DISK_GB': 20}},
           'one destination candidate on compute2', [shape(a) for a in dest])
    expect(rc.claim_resources(ctx, inst1, dest[0], project_id, user_id, version) is True,
           'claim_resources(inst1) on compute2 -> True')
    expected_usage[cn2] = {'VCPU': 2, 'MEMORY_MB': 2048}
    expected_usage[ss] = {'DISK_GB': 40}
    check_usages('during the migration (source held by the migration)')
    expect(rc.delete_allocation_for_instance(ctx, mig, consumer_type='migration') is True,
           'confirm: delete_allocation_for_instance(migration) -> True')
    expect(rc.delete_allocation_for_instance(ctx, mig, consumer_type='migration') is False,
           'delete_allocation_for_instance(migration) again -> False')
    expected_usage[numa0] = {}
    expected_usage[ss] = {'DISK_GB': 20}
    check_usages('after confirm')

    step('put_allocations (resize on compute2)')
    payload = rc.get_allocs_for_consumer(ctx, inst1)
    stale = copy.deepcopy(payload)
    payload['allocations'][cn2]['resources']['VCPU'] = 4
    del payload['allocations'][cn2]['generation']
    del payload['allocations'][ss]['generation']
    expect(rc.put_allocations(ctx, inst1, payload) is True, 'put_allocations -> True')
    expect_raises(exception.AllocationUpdateFailed,
                  'put_allocations with the previous consumer generation',
                  rc.put_allocations, ctx, inst1, stale)
    expected_usage[cn2] = {'VCPU': 4, 'MEMORY_MB': 2048}
    check_usages('after resize')

    # ---------------------------------------------------------------------------------------
    step('reshape: VGPU from compute1 root to a child')
    rr_gpu = resource_request(1, 1024, 10, {'resources:VGPU': '1'})
    areqs, _, version = candidates(rr_gpu)
    pick = next((a for a in areqs if set(a['allocations']) == {cn1, numa1, ss}), None)
    expect(pick is not None and shape(pick)['compute1'] == {'VGPU': 1},
           'VGPU candidate from the compute1 root', [shape(a) for a in areqs])
    expect(rc.claim_resources(ctx, inst2, pick, project_id, user_id, version) is True,
           'claim_resources(inst2) with VGPU on the root -> True')
    expected_usage[cn1] = {'VGPU': 1}
    expected_usage[numa1] = {'VCPU': 1, 'MEMORY_MB': 1024}
    expected_usage[ss] = {'DISK_GB': 30}
    check_usages('after VGPU claim')
    # The claim bumped the providers' generations: the next periodic task reads them afresh.
    rc.clear_provider_cache()
    rc.get_provider_tree_and_ensure_root(ctx, cn1, name='compute1')
    expect_raises(exception.InventoryInUse,
                  'set_inventory_for_provider removing in-use VGPU from the root',
                  rc.set_inventory_for_provider, ctx, cn1, {})
    # The resource tracker: driver.update_provider_tree raised ReshapeNeeded, so it reads the
    # tree's allocations and lets the driver move inventory and allocations together.
    tree = rc.get_provider_tree_and_ensure_root(ctx, cn1, name='compute1')
    allocs = rc.get_allocations_for_provider_tree(ctx, 'compute1')
    expect(set(allocs) == {inst2}, 'get_allocations_for_provider_tree: inst2 only',
           sorted(allocs))
    old_gen = tree.data(cn1).generation
    tree.update_inventory(cn1, {})
    tree.new_child('compute1_pgpu0', cn1, uuid=pgpu)
    tree.update_inventory(pgpu, {'VGPU': inv(4)})
    tree.update_traits(pgpu, ['CUSTOM_BERTH_LIFECYCLE_GPU'])
    a2 = allocs[inst2]['allocations']
    a2[pgpu] = {'resources': a2.pop(cn1)['resources']}
    rc.update_from_provider_tree(ctx, tree, allocations=allocs)
    expect(get('/resource_providers/%s/inventories' % cn1)['inventories'] == {},
           'root has no inventory after the reshape')
    expect(get('/resource_providers/%s/inventories' % pgpu)['inventories'] ==
           {'VGPU': inv(4)}, 'compute1_pgpu0 has VGPU 4')
    expect(get('/resource_providers/%s' % pgpu)['parent_provider_uuid'] == cn1,
           'compute1_pgpu0 is a child of compute1')
    expect(rc.get_provider_traits(ctx, pgpu).traits == {'CUSTOM_BERTH_LIFECYCLE_GPU'},
           'compute1_pgpu0 traits')
    a = rc.get_allocs_for_consumer(ctx, inst2)
    expect(shape(a) == {'compute1_pgpu0': {'VGPU': 1},
                        'compute1_numa1': {'VCPU': 1, 'MEMORY_MB': 1024},
                        'shared-storage': {'DISK_GB': 10}} and a['consumer_generation'] == 2,
           'inst2 allocations moved to the child (consumer generation 2)', a)
    expected_usage[cn1] = {}
    expected_usage[pgpu] = {'VGPU': 1}
    check_usages('after reshape')
    expect_raises(exception.PlacementReshapeConflict, '_reshape with a stale generation',
                  rc._reshape, ctx, {cn1: {'inventories': {'VGPU': inv(4)},
                                           'resource_provider_generation': old_gen}}, {})
    areqs, _, _ = candidates(rr_gpu)
    expect(areqs and all(a['allocations'].get(pgpu, {}).get('resources') == {'VGPU': 1}
                         for a in areqs), 'VGPU candidates now come from compute1_pgpu0')

    # ---------------------------------------------------------------------------------------
    step('delete')
    node1 = objects.ComputeNode(uuid=cn1, host='compute1', hypervisor_hostname='compute1')
    node2 = objects.ComputeNode(uuid=cn2, host='compute2', hypervisor_hostname='compute2')
    on_host = {'compute1': [inst2], 'compute2': [inst1]}
    with mock.patch.object(objects.InstanceList, 'get_uuids_by_host_and_node',
                           side_effect=lambda c, host, node: on_host[host]), \
            mock.patch.object(objects.MigrationList, 'get_by_filters', return_value=[]):
        # Without cascade, Nova ignores providers still in use (409) and deletes the rest.
        rc.delete_resource_provider(ctx, node1, cascade=False)
        left = {p['uuid'] for p in rc.get_providers_in_tree(ctx, cn1)}
        expect(left == {cn1, numa1, pgpu},
               'delete_resource_provider(compute1) without cascade: only unused numa0 deleted',
               sorted(names[u] for u in left))
        del expected_usage[numa0]
        expect(rc.delete_allocation_for_instance(ctx, inst2) is True,
               'delete_allocation_for_instance(inst2) -> True')
        expect(rc.delete_allocation_for_instance(ctx, inst2) is False,
               'delete_allocation_for_instance(inst2) again -> False')
        expected_usage.update({pgpu: {}, numa1: {}, ss: {'DISK_GB': 20}})
        check_usages('after deleting inst2')
        rc.delete_resource_provider(ctx, node1, cascade=True)
        left = {p['uuid'] for p in get('/resource_providers')['resource_providers']}
        expect(not left & {cn1, numa1, pgpu}, 'delete_resource_provider(compute1, cascade)'
               ' deleted the tree', sorted(names.get(u, u) for u in left))
        rc.delete_resource_provider(ctx, node2, cascade=True)
    for u in (cn1, numa1, pgpu, cn2):
        expected_usage.pop(u, None)
    expect(rc.get_allocs_for_consumer(ctx, inst1)['allocations'] == {},
           'cascade deleted inst1 allocations')
    left = {p['uuid'] for p in get('/resource_providers')['resource_providers']}
    expect(left == {ss}, 'only the shared storage provider remains',
           sorted(names.get(u, u) for u in left))
    expected_usage[ss] = {}
    check_usages('final')
    expect(get('/usages?project_id=%s' % project_id)['usages'] == {},
           'project usages empty')
    expect(rc.get_usages_counts_for_quota(ctx, project_id) ==
           {'project': {'cores': 0, 'ram': 0}}, 'get_usages_counts_for_quota(project) zero')
    print('Nova report client lifecycle passed against %s (%s auth)' % (endpoint, mode))


if __name__ == '__main__':
    try:
        main()
    except Failure as e:
        sys.exit('FAIL: %s' % e)
    except Exception as e:  # noqa: BLE001
        traceback.print_exc()
        sys.exit('FAIL: %s: unexpected %s: %s' % (STEP[0], type(e).__name__, e))
