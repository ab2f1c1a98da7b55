// Overview: how full the cloud is per resource class, an aggregates × classes heatmap, and the
// fullest and emptiest hosts for one class. Live: capacityChanged re-sends the totals after every
// change, and each event refreshes the rest (at most every 2 s).
import { useEffect, useMemo, useRef, useState } from 'react';
import { useQuery, useSubscription } from 'urql';
import { heat, int, percent } from '../format';
import { graphql } from '../graphql';
import { ErrorBox, UsageBar } from '../ui';

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

const RANKED = graphql(`
  query Ranked($rc: String!, $direction: SortDirection) {
    resourceProviders(first: 20, orderBy: { utilisationOf: $rc, direction: $direction }) {
      edges { node { uuid name inventories { resourceClass capacityExact usedExact } } }
    }
  }
`);

function Ranking(props: { title: string; rc: string; direction: 'ASC' | 'DESC'; tick: number }) {
  const [r, run] = useQuery({
    query: RANKED,
    variables: { rc: props.rc, direction: props.direction },
  });
  const tick = useRef(props.tick);
  useEffect(() => {
    if (tick.current !== props.tick) {
      tick.current = props.tick;
      run({ requestPolicy: 'network-only' });
    }
  }, [props.tick, run]);
  return (
    <section aria-label={props.title}>
      <h3>{props.title}</h3>
      {r.error && <ErrorBox error={r.error} />}
      <ol className="ranking">
        {r.data?.resourceProviders.edges.map(({ node }) => {
          const inv = node.inventories.find((i) => i.resourceClass === props.rc);
          return (
            <li key={node.uuid}>
              <UsageBar
                label={node.name}
                used={inv?.usedExact ?? 0}
                capacity={inv?.capacityExact ?? 0}
              />
            </li>
          );
        })}
      </ol>
    </section>
  );
}

export function Overview() {
  const [overview, refresh] = useQuery({ query: OVERVIEW });
  const [live] = useSubscription({ query: LIVE });
  const [tick, setTick] = useState(0);
  const last = useRef(0);
  useEffect(() => {
    if (!live.data) {
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
  const chosen = rc || (classes.includes('MEMORY_MB') ? 'MEMORY_MB' : (classes[0] ?? ''));
  const names = new Map(overview.data?.aggregates.map((a) => [a.uuid, a.name]) ?? []);

  if (overview.error) {
    return <ErrorBox error={overview.error} />;
  }
  return (
    <div>
      <h2>Overview</h2>
      <p className="live" aria-live="polite">
        {live.data ? 'Live: updates arrive as allocations change.' : 'Connecting the live feed…'}
      </p>
      <section aria-label="Cloud capacity">
        <h3>
          Cloud capacity <small>({int(totals?.providerCount ?? 0)} providers)</small>
        </h3>
        <table className="capacity" data-testid="cloud-capacity">
          <thead>
            <tr>
              <th scope="col">Resource class</th>
              <th scope="col">Total</th>
              <th scope="col">Reserved</th>
              <th scope="col">Capacity</th>
              <th scope="col">Used</th>
              <th scope="col">Free</th>
              <th scope="col">Utilisation</th>
            </tr>
          </thead>
          <tbody>
            {totals?.lines.map((l) => (
              <tr key={l.resourceClass} data-class={l.resourceClass}>
                <th scope="row">{l.resourceClass}</th>
                <td data-field="total">{int(l.total)}</td>
                <td data-field="reserved">{int(l.reserved)}</td>
                <td data-field="capacity">{int(l.capacity)}</td>
                <td data-field="used">{int(l.used)}</td>
                <td data-field="free">{int(l.free)}</td>
                <td>
                  <UsageBar label={l.resourceClass} used={l.used} capacity={l.capacity} hideLabel />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section aria-label="Utilisation by aggregate">
        <h3>Utilisation by aggregate</h3>
        <table className="heatmap" data-testid="heatmap">
          <thead>
            <tr>
              <th scope="col">Aggregate</th>
              {classes.map((c) => (
                <th scope="col" key={c}>
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {overview.data?.byAggregate.map((g) => (
              <tr key={g.aggregateUuid}>
                <th scope="row" title={g.aggregateUuid ?? ''}>
                  {names.get(g.aggregateUuid ?? '') ?? g.aggregateUuid?.slice(0, 8)} (
                  {g.providerCount})
                </th>
                {classes.map((c) => {
                  const l = g.lines.find((x) => x.resourceClass === c);
                  return l ? (
                    <td key={c} style={heat(l.utilisation)}>
                      {percent(l.utilisation)}
                    </td>
                  ) : (
                    <td key={c}>—</td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <label>
        Hosts ranked by{' '}
        <select value={chosen} onChange={(e) => setRc(e.target.value)}>
          {classes.map((c) => (
            <option key={c}>{c}</option>
          ))}
        </select>
      </label>
      {chosen && (
        <div className="columns">
          <Ranking title="20 fullest hosts" rc={chosen} direction="DESC" tick={tick} />
          <Ranking title="20 emptiest hosts" rc={chosen} direction="ASC" tick={tick} />
        </div>
      )}
    </div>
  );
}
