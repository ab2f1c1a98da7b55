#!/usr/bin/python3
"""Nova parity harness, Nova side: runs the real Nova 26 filter and weigher classes (Debian
python3-nova) over the scenarios berth was given, and prints their verdicts and weights as JSON.

Usage: /usr/bin/python3 nova_side.py IN.json OUT.json   (written by main.ts)

Mapping of a scenario into Nova's objects, as nova-compute's resource tracker and the scheduler's
HostState._update_from_compute_node (nova/scheduler/host_manager.py:182) would produce them:
  ComputeNode       memory_mb / vcpus / local_gb = the Placement inventory totals;
                    *_used = reserved + the allocations on the host (the tracker starts
                    memory_mb_used at reserved_host_memory_mb, vcpus_used at reserved_host_cpus,
                    local_gb_used at reserved_host_disk_mb / 1024: resource_tracker.py:1599-1603,
                    and adds instance and incoming-migration usage: resource_tracker.py:1352-1360);
                    free_ram_mb = memory_mb - memory_mb_used, free_disk_gb = local_gb -
                    local_gb_used, disk_available_least None; *_allocation_ratio = the
                    inventory's; supported_hv_specs = the scenario's supported tuples.
                    HostState.update(compute=...) then derives free_disk_mb, vcpus_total, ...
  ComputeNode also  host_ip, hypervisor_version (the scenario's), hypervisor_type 'QEMU' (what
                    libvirt reports; berth has none), cpu_info '{}', metrics (the host's, as
                    nova-compute's monitors write them: JSON of name, value, source, timestamp),
                    pci_device_pools (one pool of the host's free PCI devices, vendor 8086
                    product 1572), and stats as nova/compute/stats.py keeps them (strings):
                    num_instances, num_vm_active, num_task_*, num_os_type_None,
                    num_proj_<project>, io_workload, failed_builds (when not 0)
  moves             A move in progress is Nova's resize in task_state resize_migrating (an io op,
                    nova/compute/stats.py:45-62): instance.host is the source until the resize
                    finishes, so the destination has the usage (migration tracking) but neither
                    the instance, its stats nor its io op. Every scenario is also judged under
                    berth's documented model (a moving instance runs on, and is an io op of,
                    both hosts: docs/scheduler-plugins.md) as filtersBerthModel /
                    weightsBerthModel, so a disagreement this model alone explains is told
                    apart exactly (tag move-model).
  instances         {uuid: Instance} of the instances whose instance.host is this host
  aggregates        nova.objects.Aggregate with the scenario's metadata (the scope aggregate,
                    which has none, is left out)
  service           {'disabled': host.disabled, last_seen_up: now}: the real servicegroup DB
                    driver then finds it up (berth has no liveness to compare)
  cell              HostState(host, node, cell_uuid = the host's cell)
  RequestSpec       flavor (name, vcpus, memory_mb, root_gb, extra_specs), ImageMeta.from_dict of
                    the image id, disk_format and properties (is_bfv: no image id),
                    requested_destination = Destination(cell, allow_cross_cell_move) from the
                    hints requested_destination_cell / allow_cross_cell_move (oslo's
                    bool_from_string), project_id, user_id, availability_zone,
                    instance_uuid, scheduler_hints (same_host / different_host / group, query,
                    build_near_host_ip, cidr), and instance_group: policy, rules, members (a new
                    instance added, as compute/api.py does before scheduling; a moving one is in
                    its own group already) and hosts = the members' instance.host
                    (InstanceGroup.get_hosts()).
Request filters (nova/scheduler/request_filter.py) run for the filters listing them; their
Placement narrowing (requested_destination aggregates and forbidden aggregates, root_required and
root_forbidden traits against the host's traits as berth has them, main.ts) is applied to the
host as Placement would; a request filter raising is Nova raising for every host. The only stubs:
AggregateList.get_by_metadata and get_non_matching_by_metadata_keys, the API-database queries,
answered from every scenario's aggregates (one cloud, as berth's database holds them) with the
same semantics (exact value match; only matching metadata rows are loaded, as contains_eager does).
"""
import datetime
import importlib
import json
import logging
import sys

import nova.conf
from nova import context as nova_context
from nova import exception
from nova import objects
from nova import weights as nova_weights

CONF = nova.conf.CONF
CLASSES = ('VCPU', 'MEMORY_MB', 'DISK_GB')
MODEL_NOVA = 'nova'
MODEL_BERTH = 'berth'  # a moving instance counted on source and destination
DISABLED_TRAIT = 'COMPUTE_STATUS_DISABLED'


def load(path):
    module, _, name = path.rpartition('.')
    return getattr(importlib.import_module(module), name)


def used_by_host(s):
    used = {h['uuid']: dict.fromkeys(CLASSES, 0) for h in s['hosts']}
    for inst in s['instances']:
        for host in [inst['host']] + ([inst['moveTo']] if inst.get('moveTo') else []):
            for rc in CLASSES:
                used[host][rc] += inst['resources'][rc]
    return used


def runs_on(inst, model):
    """The hosts an instance runs on: instance.host (Nova), or wherever it has allocations
    (berth's documented model, MODEL_BERTH: a moving instance on both sides)."""
    dest = [inst['moveTo']] if model == MODEL_BERTH and inst.get('moveTo') else []
    return [inst['host']] + dest


def metrics_json(metrics, now):
    return json.dumps([{'name': name, 'value': value, 'source': 'parity',
                        'timestamp': now.isoformat()} for name, value in sorted(metrics.items())])


def pci_pools(count):
    if not count:
        return objects.PciDevicePoolList(objects=[])
    return objects.PciDevicePoolList(objects=[objects.PciDevicePool(
        vendor_id='8086', product_id='1572', numa_node=None, tags={}, count=count)])


def stats_of(on_host):
    """nova/compute/stats.py after update_stats_for_instance() of each instance: every instance
    active, a moving one in task_state resize_migrating (an io op), os_type None."""
    stats = {'num_instances': len(on_host), 'num_vm_active': len(on_host),
             'num_os_type_None': len(on_host)}
    moving = sum(1 for x in on_host if x.get('moveTo'))
    if len(on_host) > moving:
        stats['num_task_None'] = len(on_host) - moving
    if moving:
        stats['num_task_resize_migrating'] = moving
    for x in on_host:
        key = 'num_proj_%s' % x['project']
        stats[key] = stats.get(key, 0) + 1
    stats['io_workload'] = moving
    return {k: str(v) for k, v in stats.items()}


def host_states(s, now, model, only=None):
    """HostState per host uuid (of the hosts in `only`, when given)."""
    from nova.scheduler import host_manager
    used = used_by_host(s)
    names = {h['uuid']: h['name'] for h in s['hosts']}
    states = {}
    for i, h in enumerate(s['hosts']):
        if only is not None and h['uuid'] not in only:
            continue
        inv = h['inventories']
        extras = h['extras']
        on_host = [x for x in s['instances'] if h['uuid'] in runs_on(x, model)]
        stats = stats_of(on_host)
        if extras['failedBuilds']:
            stats['failed_builds'] = str(extras['failedBuilds'])
        mem_used = inv['MEMORY_MB']['reserved'] + used[h['uuid']]['MEMORY_MB']
        disk_used = inv['DISK_GB']['reserved'] + used[h['uuid']]['DISK_GB']
        cn = objects.ComputeNode(
            id=i + 1, uuid=h['uuid'], host=h['name'], hypervisor_hostname=h['name'],
            memory_mb=inv['MEMORY_MB']['total'], memory_mb_used=mem_used,
            free_ram_mb=inv['MEMORY_MB']['total'] - mem_used,
            local_gb=inv['DISK_GB']['total'], local_gb_used=disk_used,
            free_disk_gb=inv['DISK_GB']['total'] - disk_used, disk_available_least=None,
            vcpus=inv['VCPU']['total'],
            vcpus_used=inv['VCPU']['reserved'] + used[h['uuid']]['VCPU'],
            cpu_allocation_ratio=inv['VCPU']['ratio'],
            ram_allocation_ratio=inv['MEMORY_MB']['ratio'],
            disk_allocation_ratio=inv['DISK_GB']['ratio'],
            updated_at=None, numa_topology=None, pci_device_pools=None, host_ip=h['ip'],
            hypervisor_type='QEMU', hypervisor_version=h['hypervisorVersion'],
            cpu_info='{}', metrics=metrics_json(extras['metrics'], now),
            supported_hv_specs=[objects.HVSpec(arch=a, hv_type=t, vm_mode=m)
                                for a, t, m in h['supported']],
            stats=stats)
        cn.pci_device_pools = pci_pools(extras['pciDevices'])
        aggs = [objects.Aggregate(id=j + 1, uuid=a['uuid'], name=a['name'],
                                  hosts=[names[u] for u in a['hosts']],
                                  metadata=dict(a['metadata']))
                for j, a in enumerate(s['aggregates']) if h['uuid'] in a['hosts']]
        service = {'id': i + 1, 'host': h['name'], 'binary': 'nova-compute',
                   'disabled': h['disabled'],
                   'disabled_reason': 'parity' if h['disabled'] else None,
                   'forced_down': False, 'last_seen_up': now, 'created_at': now}
        state = host_manager.HostState(h['name'], h['name'], extras['cell'])
        state.update(compute=cn, service=service, aggregates=aggs,
                     inst_dict={x['uuid']: objects.Instance(uuid=x['uuid']) for x in on_host})
        states[h['uuid']] = state
    return states


def request_spec(s, model):
    r = s['request']
    host_name = {h['uuid']: h['name'] for h in s['hosts']}
    inst_hosts = {x['uuid']: [host_name[u] for u in runs_on(x, model)] for x in s['instances']}
    hints = {k: list(v) for k, v in r['hints'].items()}
    for key, field in (('same_host', 'sameHost'), ('different_host', 'differentHost')):
        if r.get(field):
            hints[key] = list(r[field])
    group = None
    if r.get('group'):
        g = next(g for g in s['groups'] if g['uuid'] == r['group'])
        hints['group'] = [g['uuid']]
        members = list(g['members'])
        if not r['moving']:
            members.append(r['consumer'])  # compute/api.py adds a new instance before scheduling
        rules = ({'max_server_per_host': str(g['maxServerPerHost'])}
                 if g.get('maxServerPerHost') else {})
        group = objects.InstanceGroup(
            uuid=g['uuid'], name=g['name'], project_id=g['project'], user_id='u1',
            policy=g['policy'], policies=[g['policy']], rules=rules, members=members,
            hosts=sorted({n for m in members for n in inst_hosts.get(m, [])}))
    res = r['resources']
    flavor = objects.Flavor(
        id=1, flavorid='parity', name=r['flavorName'], vcpus=res['VCPU'],
        memory_mb=res['MEMORY_MB'],
        root_gb=res['DISK_GB'], ephemeral_gb=0, swap=0, extra_specs=dict(r['extraSpecs']))
    return objects.RequestSpec(
        flavor=flavor, image=image_meta(r['image']), is_bfv='id' not in r['image'],
        project_id=r['project'], user_id=r['user'],
        availability_zone=r.get('availabilityZone'), instance_uuid=r['consumer'],
        num_instances=1, scheduler_hints=hints, instance_group=group,
        requested_destination=destination(r['hints']), ignore_hosts=None, force_hosts=None,
        force_nodes=None)


def destination(hints):
    from oslo_utils import strutils
    cell = hints.get('requested_destination_cell')
    if not cell:
        return None
    allow = strutils.bool_from_string((hints.get('allow_cross_cell_move') or ['false'])[0])
    return objects.Destination(cell=objects.CellMapping(uuid=cell[0]),
                               allow_cross_cell_move=allow)


TOP_LEVEL = ('id', 'disk_format')


def image_meta(image):
    props = {k: v for k, v in image.items() if k not in TOP_LEVEL}
    meta = {'properties': props}
    meta.update({k: image[k] for k in TOP_LEVEL if k in image})
    return objects.ImageMeta.from_dict(meta)


class ApiDatabase(object):
    """Answers AggregateList.get_by_metadata from the scenario (the only stubbed piece)."""

    def __init__(self):
        self.aggregates = []

    def get_non_matching_by_metadata_keys(self, context, ignored_keys, key_prefix, value):
        found = []
        for i, a in enumerate(self.aggregates):
            rows = {k: v for k, v in a['metadata'].items()
                    if v == value and k.startswith(key_prefix) and k not in ignored_keys}
            if rows:
                found.append(objects.Aggregate(id=i + 1, uuid=a['uuid'], name=a['name'],
                                               hosts=[], metadata=rows))
        return found

    def get_by_metadata(self, context, key=None, value=None):
        found = []
        for i, a in enumerate(self.aggregates):
            rows = {k: v for k, v in a['metadata'].items()
                    if (key is None or k == key) and (value is None or v == value)}
            if rows:
                found.append(objects.Aggregate(id=i + 1, uuid=a['uuid'], name=a['name'],
                                               hosts=[], metadata=rows))
        return found


class Raised(object):
    """A request filter raised something other than RequestFilterFailed."""

    def __init__(self, error):
        self.error = 'raise: %s: %s' % (type(error).__name__, error)


def narrowing(spec, request_filters, ctxt):
    """Runs the request filters on a copy of spec: (required aggregate sets, forbidden
    aggregates, required root traits, forbidden root traits), the RequestFilterFailed message,
    or Raised."""
    from nova.scheduler import request_filter
    if not request_filters:
        return [], set(), set(), set()
    spec = spec.obj_clone()
    try:
        for name in request_filters:
            getattr(request_filter, name)(ctxt, spec)
    except exception.RequestFilterFailed as e:
        return str(e)
    except Exception as e:  # noqa: BLE001 - Nova raising is a result of its own
        return Raised(e)
    dest = spec.requested_destination
    required = [set(x.split(',')) for x in (dest.aggregates or [])] if dest else []
    forbidden = set(dest.forbidden_aggregates or []) if dest and 'forbidden_aggregates' in dest \
        else set()
    return required, forbidden, set(spec.root_required), set(spec.root_forbidden)


def placement_keeps(narrowed, host, agg_uuids):
    required, forbidden_aggs, root_required, root_forbidden = narrowed
    traits = set(host['traits'])
    return (all(agg_uuids & r for r in required) and not (agg_uuids & forbidden_aggs) and
            root_required <= traits and not (traits & root_forbidden))


def run_filters(s, pairs, states, spec, ctxt):
    """Verdict per filter and host (of the hosts in `states`)."""
    out = {}
    for pair in pairs:
        flt = load(pair['nova'])()
        narrowed = narrowing(spec, pair.get('requestFilters', []), ctxt)
        verdicts = {}
        for h in s['hosts']:
            if h['uuid'] not in states:
                continue
            aggs = {a['uuid'] for a in s['aggregates'] if h['uuid'] in a['hosts']}
            if isinstance(narrowed, str):
                verdicts[h['uuid']] = False
                continue
            if isinstance(narrowed, Raised):
                verdicts[h['uuid']] = narrowed.error
                continue
            if not placement_keeps(narrowed, h, aggs):
                verdicts[h['uuid']] = False
                continue
            try:
                verdicts[h['uuid']] = bool(flt._filter_one(states[h['uuid']], spec))
            except Exception as e:  # noqa: BLE001 - Nova raising is a result of its own
                verdicts[h['uuid']] = 'raise: %s: %s' % (type(e).__name__, e)
        out[pair['berth']] = verdicts
    return out


def run_weighers(s, pairs, states, spec):
    from nova.scheduler import weights as host_weights
    hosts = [states[u] for u in s['weighHosts']]
    weighers = [load(p['nova'])() for p in pairs]
    per_host = {u: {} for u in s['weighHosts']}
    for pair, w in zip(pairs, weighers):
        objs = [host_weights.WeighedHost(h, 0.0) for h in hosts]
        raws = [w._weigh_object(h, spec) for h in hosts]
        clamped = w.weigh_objects(objs, spec)
        normalized = list(nova_weights.normalize(clamped, minval=w.minval, maxval=w.maxval))
        for u, h, raw, c, n in zip(s['weighHosts'], hosts, raws, clamped, normalized):
            per_host[u][pair['berth']] = {
                'raw': raw / pair.get('novaRawScale', 1), 'clamped': c, 'normalized': n,
                'multiplier': w.weight_multiplier(h)}
    weighed = host_weights.HostWeightHandler().get_weighed_objects(weighers, hosts, spec)
    by_name = {states[u].host: u for u in s['weighHosts']}
    totals = {by_name[x.obj.host]: x.weight for x in weighed}
    top = max(totals.values()) if totals else None
    best = [u for u, t in totals.items() if abs(t - top) <= 1e-9]
    return per_host, totals, best


def run_scenario(s, job, now, ctxt):
    states = host_states(s, now, MODEL_NOVA)
    spec = request_spec(s, MODEL_NOVA)
    filters = run_filters(s, job['filters'], states, spec, ctxt)
    weights, totals, best = run_weighers(s, job['weighers'], states, spec)
    # Under berth's model only the destinations of moves change, and the request when a group
    # member moves: judge those again, copy the rest.
    dests = {x['moveTo'] for x in s['instances'] if x.get('moveTo')}
    group = next((g for g in s['groups'] if g['uuid'] == s['request'].get('group')), None)
    spec_changes = group is not None and any(
        x.get('moveTo') and x['uuid'] in group['members'] for x in s['instances'])
    alt_states = dict(states)
    alt_states.update(host_states(s, now, MODEL_BERTH, only=dests))
    alt_spec = request_spec(s, MODEL_BERTH) if spec_changes else spec
    judged = alt_states if spec_changes else {u: alt_states[u] for u in dests}
    alt_filters = run_filters(s, job['filters'], judged, alt_spec, ctxt)
    for name, verdicts in filters.items():
        alt_filters[name] = dict(verdicts, **alt_filters[name])
    alt_weights = run_weighers(s, job['weighers'], alt_states, alt_spec)[0] if dests else weights
    return {'index': s['index'], 'filters': filters, 'weights': weights, 'totals': totals,
            'best': best, 'filtersBerthModel': alt_filters, 'weightsBerthModel': alt_weights}


def configure(options):
    for o in options:
        CONF.set_override(o['name'], o['value'], group=o['group'])


def unconfigure(options):
    for o in options:
        CONF.clear_override(o['name'], group=o['group'])


def main():
    logging.getLogger().setLevel(logging.CRITICAL)
    with open(sys.argv[1]) as f:
        job = json.load(f)
    CONF([], project='nova', default_config_files=[])
    objects.register_all()
    db = ApiDatabase()
    objects.AggregateList.get_by_metadata = db.get_by_metadata
    objects.AggregateList.get_non_matching_by_metadata_keys = \
        db.get_non_matching_by_metadata_keys
    ctxt = nova_context.get_admin_context()
    now = datetime.datetime.utcnow()
    configure(job['novaAlways'])
    results = []
    for s in job['scenarios']:
        configure(s['profile']['nova'])
        try:
            db.aggregates = job['cloudAggregates']
            results.append(run_scenario(s, job, now, ctxt))
        finally:
            unconfigure(s['profile']['nova'])
    with open(sys.argv[2], 'w') as f:
        f.write(json.dumps({'results': results}))


if __name__ == '__main__':
    main()
