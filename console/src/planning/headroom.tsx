// The overview's headroom table: how many more of each planning flavor still fit, cloud-wide and
// per aggregate or zone, under a chosen scheduler profile (headroom, packing each flavor alone on
// a private copy of the capacity index); each flavor links to a simulation of it.
import { Fragment, useEffect, useRef, useState } from 'react';
import { useQuery } from 'urql';
import { amount, int } from '../format';
import { AggregateLink, ErrorBox } from '../ui';
import { HEADROOM, type HeadroomAnswer, PLANNING_CHOICES } from './queries';
import { flavorSimulationLink } from './trace';
import './planning.css';

type GroupBy = 'NONE' | 'AGGREGATE' | 'ZONE';
type Counts = Pick<
  HeadroomAnswer['flavors'][number],
  'count' | 'independentCount' | 'hosts' | 'hostsWithRoom' | 'runsOutFirst'
>;

/** How many consumers the simulation link places: one more than fit, up to a readable trace. */
const SIMULATED_AT_MOST = 20;

/** The count cells of a flavor's or a group's row. */
function CountCells({ c }: { c: Counts }) {
  return (
    <>
      <td className="num" data-field="count" data-value={c.count}>
        <b>{int(c.count)}</b>
      </td>
      <td className="num" data-field="independent" data-value={c.independentCount}>
        {c.independentCount !== c.count ? (
          int(c.independentCount)
        ) : (
          <span className="none" title="the same as packed">
            =
          </span>
        )}
      </td>
      <td className="num" data-field="hosts-with-room" data-value={c.hostsWithRoom}>
        {int(c.hostsWithRoom)} <span className="of">of {int(c.hosts)}</span>
      </td>
      <td data-field="runs-out-first">
        {c.runsOutFirst ? <code>{c.runsOutFirst}</code> : <span className="none">—</span>}
      </td>
    </>
  );
}

function GroupName(props: { groupBy: GroupBy; k: string; name: string | null }) {
  if (props.groupBy === 'AGGREGATE') {
    return <AggregateLink uuid={props.k} name={props.name} />;
  }
  return <a href={`#/providers?zone=${encodeURIComponent(props.k)}`}>{props.name ?? props.k}</a>;
}

/** Capacity changes refresh the headroom at most this often... */
const REFRESH_AT_MOST_EVERY_MS = 10_000;
/** ...and at most once per this many times the server took to count it. */
const REFRESH_COST_FACTOR = 50;

/**
 * Runs `run` again after `tick` moved, but no sooner than the refresh interval after the last
 * answer (a count over a large cloud is not redone for every claim): the last change is always
 * shown, late at most by the interval.
 */
function useThrottledRefresh(
  tick: number,
  answeredAt: number,
  durationMs: number,
  run: (o: { requestPolicy: 'network-only' }) => void,
) {
  const seen = useRef(tick);
  useEffect(() => {
    if (seen.current === tick || answeredAt === 0) {
      return;
    }
    const due = answeredAt + Math.max(REFRESH_AT_MOST_EVERY_MS, durationMs * REFRESH_COST_FACTOR);
    const timer = setTimeout(
      () => {
        seen.current = tick;
        run({ requestPolicy: 'network-only' });
      },
      Math.max(0, due - Date.now()),
    );
    return () => clearTimeout(timer);
  }, [tick, answeredAt, durationMs, run]);
}

/**
 * The headroom panel. It asks once `ready` (after the rest of the overview, which a count over a
 * large cloud would otherwise hold up on the server), and again as `tick` moves (capacity
 * changes), throttled.
 */
export function HeadroomPanel({ tick, ready }: { tick: number; ready: boolean }) {
  const [groupBy, setGroupBy] = useState<GroupBy>('NONE');
  const [profile, setProfile] = useState('default');
  const [choices] = useQuery({ query: PLANNING_CHOICES });
  const [r, run] = useQuery({
    query: HEADROOM,
    variables: { input: { groupBy, profile } },
    pause: !ready,
  });
  const [answeredAt, setAnsweredAt] = useState(0);
  useEffect(() => {
    if (r.data) {
      setAnsweredAt(Date.now());
    }
  }, [r.data]);
  useThrottledRefresh(tick, answeredAt, r.data?.headroom.durationMs ?? 0, run);
  const profiles = choices.data?.schedulerProfiles.map((p) => p.name) ?? [profile];
  const flavors = new Map(choices.data?.planningFlavors.map((f) => [f.name, f]) ?? []);
  const h = r.data?.headroom;
  return (
    <section aria-labelledby="headroom-h" className="panel headroom" data-testid="headroom">
      <div className="table-head">
        <h3 id="headroom-h">
          Headroom{' '}
          <small>
            (how many more of each flavor fit
            {h ? `, ${int(h.hosts)} hosts, profile ${h.profile}` : ''})
          </small>
        </h3>
        <label className="inline">
          Profile{' '}
          <select
            name="headroom-profile"
            value={profile}
            onChange={(e) => setProfile(e.target.value)}
          >
            {profiles.map((p) => (
              <option key={p}>{p}</option>
            ))}
          </select>
        </label>
        <label className="inline">
          Per{' '}
          <select
            name="headroom-group-by"
            value={groupBy}
            onChange={(e) => setGroupBy(e.target.value as GroupBy)}
          >
            <option value="NONE">cloud only</option>
            <option value="AGGREGATE">aggregate</option>
            <option value="ZONE">availability zone</option>
          </select>
        </label>
        {r.fetching && <span className="loading">Counting…</span>}
      </div>
      {r.error && <ErrorBox error={r.error} />}
      {!h && !r.error && <p className="loading">Counting…</p>}
      {h && (
        <>
          <table className="dense headroom-table">
            <thead>
              <tr>
                <th scope="col">Flavor</th>
                <th scope="col" className="num">
                  More fit
                </th>
                <th scope="col" className="num" title="if every host were filled on its own">
                  Each host alone
                </th>
                <th scope="col" className="num">
                  Hosts with room
                </th>
                <th scope="col">Runs out first</th>
              </tr>
            </thead>
            <tbody>
              {h.flavors.map((f) => {
                const flavor = flavors.get(f.name);
                return (
                  <Fragment key={f.name}>
                    <tr data-flavor={f.name} className="flavor-row">
                      <th scope="row">
                        {flavor ? (
                          <a
                            href={flavorSimulationLink(
                              flavor,
                              Math.min(f.count + 1, SIMULATED_AT_MOST),
                              h.profile,
                            )}
                            title="Simulate placing this flavor"
                          >
                            {f.name}
                          </a>
                        ) : (
                          f.name
                        )}
                        {flavor && (
                          <span className="flavor-size">
                            {' '}
                            {flavor.resources
                              .map((x) => `${x.resourceClass} ${amount(x.resourceClass, x.amount)}`)
                              .join(' · ')}
                          </span>
                        )}
                      </th>
                      <CountCells c={f} />
                    </tr>
                    {f.groups.map((g) => (
                      <tr key={g.key} data-flavor={f.name} data-group={g.key} className="group-row">
                        <th scope="row" className="group-name">
                          <GroupName groupBy={groupBy} k={g.key} name={g.name} />
                        </th>
                        <CountCells c={g} />
                      </tr>
                    ))}
                  </Fragment>
                );
              })}
            </tbody>
          </table>
          <p className="hint-text" data-testid="packing">
            {h.packing} Counted in {int(h.durationMs)} ms; nothing was claimed.
          </p>
        </>
      )}
    </section>
  );
}
