// Overview: how full the cloud is per resource class, an aggregates × classes heatmap, the hosts
// that need a look (≥ 90 % full, disabled), the fullest and emptiest hosts for one class, the
// projects holding the most, and the headroom per flavor (planning/headroom.tsx). Live:
// capacityChanged re-sends the totals after every change, and each event refreshes the rest (at
// most every 2 s).
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useQuery, useSubscription } from 'urql';
import { Heatmap } from '../components/heatmap';
import { HostList, useRefresh } from '../components/host-list';
import { amount, int } from '../format';
import { graphql } from '../graphql';
import { HeadroomPanel } from '../planning/headroom';
import { ErrorBox, ProjectLink, UsageBar } from '../ui';

const OVERVIEW = graphql(`
  query Overview {
    capacity(groupBy: NONE) {
      providerCount
      lines { resourceClass total reserved capacity used free utilisation providers }
    }
    byAggregate: capacity(groupBy: AGGREGATE) {
      aggregateUuid
      providerCount
      lines { resourceClass capacity used utilisation }
    }
    aggregates { uuid name }
    hosts: hostList(first: 0) { totalCount }
    full: hostList(filter: { state: FULL }, orderBy: { field: MAX_UTILISATION, direction: DESC }, first: 8) {
      ...HostListFields
    }
    disabled: hostList(filter: { state: DISABLED }, first: 8) { ...HostListFields }
  }
  fragment HostListFields on HostListPage {
    totalCount
    hosts { uuid name disabled maxUtilisation usage { resourceClass capacity used utilisation } }
  }
`);

const RANKED = graphql(`
  query Ranked($rc: String!) {
    fullest: hostList(orderBy: { field: UTILISATION, resourceClass: $rc, direction: DESC }, first: 20) {
      ...RankedFields
    }
    emptiest: hostList(orderBy: { field: UTILISATION, resourceClass: $rc, direction: ASC }, first: 20) {
      ...RankedFields
    }
  }
  fragment RankedFields on HostListPage {
    totalCount
    hosts { uuid name disabled maxUtilisation usage { resourceClass capacity used utilisation } }
  }
`);

const LIVE = graphql(`
  subscription LiveCapacity {
    capacityChanged(groupBy: NONE, minIntervalMs: 500) {
      groups {
        providerCount
        lines { resourceClass total reserved capacity used free utilisation providers }
      }
    }
  }
`);

// Separate: a token scoped to one project may not list projects; the rest of the page stays.
const TOP_PROJECTS = graphql(`
  query TopProjects {
    projects(first: 8) {
      totalCount
      edges { node { projectId consumerCount usages { resourceClass used } } }
    }
  }
`);

function Projects({ tick }: { tick: number }) {
  const [r, run] = useQuery({ query: TOP_PROJECTS });
  useRefresh(tick, run);
  if (!r.data) {
    return null;
  }
  const list = [...r.data.projects.edges].sort(
    (a, b) => b.node.consumerCount - a.node.consumerCount,
  );
  return (
    <section aria-label="Projects" className="panel">
      <h3>
        Projects <small>({int(r.data.projects.totalCount)})</small>
      </h3>
      <table className="dense">
        <thead>
          <tr>
            <th scope="col">Project</th>
            <th scope="col" className="num">
              Consumers
            </th>
            <th scope="col">Usage</th>
          </tr>
        </thead>
        <tbody>
          {list.map(({ node }) => (
            <tr key={node.projectId}>
              <th scope="row">
                <ProjectLink projectId={node.projectId} />
              </th>
              <td className="num">{int(node.consumerCount)}</td>
              <td>
                {node.usages
                  .map((u) => `${u.resourceClass} ${amount(u.resourceClass, u.used)}`)
                  .join(' · ')}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <a href="#/projects">All projects →</a>
    </section>
  );
}

function Rankings({ rc, tick, onData }: { rc: string; tick: number; onData: () => void }) {
  const [r, run] = useQuery({ query: RANKED, variables: { rc } });
  useRefresh(tick, run);
  useEffect(() => {
    if (r.data) {
      onData();
    }
  }, [r.data, onData]);
  return (
    <>
      {r.error && <ErrorBox error={r.error} />}
      <div className="columns">
        <HostList
          title="20 fullest hosts"
          rc={rc}
          list={r.data?.fullest}
          more={`#/providers?sort=${rc}&dir=desc`}
          ranking
        />
        <HostList
          title="20 emptiest hosts"
          rc={rc}
          list={r.data?.emptiest}
          more={`#/providers?sort=${rc}`}
          ranking
        />
      </div>
    </>
  );
}

export function Overview() {
  const [overview, refresh] = useQuery({ query: OVERVIEW });
  const [live] = useSubscription({ query: LIVE });
  const [tick, setTick] = useState(0);
  const last = useRef(0);
  const seenFirst = useRef(false);
  useEffect(() => {
    if (!live.data) {
      return;
    }
    if (!seenFirst.current) {
      // The feed's first event is the state the page has just loaded: nothing to refresh.
      seenFirst.current = true;
      return;
    }
    const wait = Math.max(0, last.current + 2000 - Date.now());
    const timer = setTimeout(() => {
      last.current = Date.now();
      refresh({ requestPolicy: 'network-only' });
      setTick((n) => n + 1);
    }, wait);
    return () => clearTimeout(timer);
  }, [live.data, refresh]);

  const totals = live.data?.capacityChanged.groups[0] ?? overview.data?.capacity[0];
  const classes = useMemo(() => totals?.lines.map((l) => l.resourceClass) ?? [], [totals]);
  const [rc, setRc] = useState<string>('');
  // Headroom is asked last: a count over a large cloud would hold up the other queries.
  const [ranked, setRanked] = useState(false);
  const onRanked = useCallback(() => setRanked(true), []);
  // MEMORY_MB until the totals say the cloud has none: the rankings load with the totals, not after.
  const chosen =
    rc || (classes.length === 0 || classes.includes('MEMORY_MB') ? 'MEMORY_MB' : classes[0]!);
  const names = new Map(overview.data?.aggregates.map((a) => [a.uuid, a.name]) ?? []);

  if (overview.error) {
    return <ErrorBox error={overview.error} />;
  }
  return (
    <div>
      <div className="page-title">
        <h2>Overview</h2>
        <p className="live" aria-live="polite">
          <span className={`dot${live.data ? ' on' : ''}`} aria-hidden="true" />
          {live.data ? 'Live: updates arrive as allocations change.' : 'Connecting the live feed…'}
        </p>
      </div>
      <section aria-label="Cloud capacity" className="panel">
        <h3>
          Cloud capacity{' '}
          <small>
            ({int(overview.data?.hosts.totalCount ?? 0)} hosts, {int(totals?.providerCount ?? 0)}{' '}
            providers)
          </small>
        </h3>
        <table className="capacity dense" data-testid="cloud-capacity">
          <thead>
            <tr>
              <th scope="col">Resource class</th>
              <th scope="col" className="num">
                Total
              </th>
              <th scope="col" className="num">
                Reserved
              </th>
              <th scope="col" className="num">
                Capacity
              </th>
              <th scope="col" className="num">
                Used
              </th>
              <th scope="col" className="num">
                Free
              </th>
              <th scope="col">Utilisation</th>
            </tr>
          </thead>
          <tbody>
            {totals?.lines.map((l) => (
              <tr key={l.resourceClass} data-class={l.resourceClass}>
                <th scope="row">{l.resourceClass}</th>
                {(['total', 'reserved', 'capacity', 'used', 'free'] as const).map((f) => (
                  <td key={f} data-field={f} data-value={l[f]} className="num">
                    {amount(l.resourceClass, l[f])}
                  </td>
                ))}
                <td>
                  <UsageBar
                    label={l.resourceClass}
                    resourceClass={l.resourceClass}
                    used={l.used}
                    capacity={l.capacity}
                    hideLabel
                    compact
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <HeadroomPanel tick={tick} ready={Boolean(overview.data) && ranked} />
      <section aria-label="Utilisation by aggregate" className="panel">
        <h3>Utilisation by aggregate</h3>
        <Heatmap rows={overview.data?.byAggregate ?? []} classes={classes} names={names} />
      </section>
      <div className="columns">
        <HostList
          title="Hosts at or above 90 %"
          testId="full-hosts"
          list={overview.data?.full}
          more="#/providers?state=full&sort=fullest&dir=desc"
          empty="No host is 90 % full."
        />
        <HostList
          title="Disabled hosts"
          testId="disabled-hosts"
          list={overview.data?.disabled}
          more="#/providers?state=disabled"
          empty="No host is disabled."
        />
        <Projects tick={tick} />
      </div>
      <label className="inline">
        Hosts ranked by{' '}
        <select value={chosen} onChange={(e) => setRc(e.target.value)}>
          {classes.map((c) => (
            <option key={c}>{c}</option>
          ))}
        </select>
      </label>
      {chosen && <Rankings rc={chosen} tick={tick} onData={onRanked} />}
    </div>
  );
}
