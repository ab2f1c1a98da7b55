// History: how full the cloud, or one aggregate, was per resource class over the last hours or
// days, charted from the samples berth writes to its database every
// BERTH_CAPACITY_HISTORY_INTERVAL (capacityHistory; no Prometheus needed). Range, classes and
// aggregate are pickers whose state is in the URL hash; each chart's numbers are also a table.
import { useEffect, useMemo, useState } from 'react';
import { useQuery } from 'urql';
import { amount, percent } from '../format';
import { graphql } from '../graphql';
import { CapacityChart, type ChartPoint } from '../history/chart';
import { duration, pointTime } from '../history/units';
import { ErrorBox } from '../ui';
import '../history/history.css';

const CHOICES = graphql(`
  query HistoryChoices {
    aggregates { uuid name }
    capacity { lines { resourceClass } }
    capacityHistory(hours: 1, points: 1) { intervalSeconds retentionSeconds }
  }
`);

const HISTORY = graphql(`
  query History($hours: Int!, $resourceClasses: [String!], $aggregate: ID) {
    capacityHistory(hours: $hours, resourceClasses: $resourceClasses, aggregate: $aggregate, points: 288) {
      intervalSeconds
      retentionSeconds
      series {
        resourceClass
        aggregate { uuid name }
        points { at capacity used utilisation }
      }
    }
  }
`);

/** The range picker's choices, in hours. */
const RANGES = [
  [6, '6 h'],
  [24, '24 h'],
  [168, '7 d'],
  [336, '14 d'],
] as const;

interface View {
  readonly hours: number;
  /** Empty: every class. */
  readonly classes: readonly string[];
  /** null: the whole cloud. */
  readonly aggregate: string | null;
}

/** The view the hash describes (`#/history/?hours=24&class=VCPU&aggregate=<uuid>`). */
function viewFromHash(): View {
  const hash = window.location.hash;
  const at = hash.indexOf('?');
  const q = new URLSearchParams(at < 0 ? '' : hash.slice(at + 1));
  const hours = Number(q.get('hours'));
  return {
    hours: RANGES.some(([h]) => h === hours) ? hours : 24,
    classes: q.getAll('class'),
    aggregate: q.get('aggregate') || null,
  };
}

function viewToHash(v: View): string {
  const q = new URLSearchParams({ hours: String(v.hours) });
  for (const c of v.classes) {
    q.append('class', c);
  }
  if (v.aggregate) {
    q.set('aggregate', v.aggregate);
  }
  return `#/history/?${q.toString()}`;
}

/** What to say when there are no points yet. */
function EmptyState(props: { intervalSeconds: number; retentionSeconds: number; hours: number }) {
  const { intervalSeconds } = props;
  if (intervalSeconds === 0 || props.retentionSeconds === 0) {
    return (
      <div className="history-empty" data-testid="history-empty">
        <h3>Capacity history is off</h3>
        <p>
          This berth takes no samples: <code>BERTH_CAPACITY_HISTORY_INTERVAL</code> or{' '}
          <code>BERTH_CAPACITY_HISTORY_RETENTION</code> is 0. Set them (e.g. <code>300</code> and{' '}
          <code>14d</code>) and restart to record how full the cloud is.
        </p>
      </div>
    );
  }
  const now = Date.now() / 1000;
  const next = Math.ceil(now / intervalSeconds) * intervalSeconds;
  const minutes = Math.max(1, Math.ceil((next - now) / 60));
  return (
    <div className="history-empty" data-testid="history-empty">
      <h3>No samples yet</h3>
      <p>
        berth records how full the cloud is once every {duration(intervalSeconds)} (
        <code>BERTH_CAPACITY_HISTORY_INTERVAL</code>), at the start of each interval, and keeps the
        samples for {duration(props.retentionSeconds)}. Nothing was recorded in the last{' '}
        {props.hours} h for this selection: the next sample is due at {pointTime(next * 1000)}, in
        about {minutes} min; a chart needs it to show its first point.
      </p>
    </div>
  );
}

/** The points of one series as a table (the charts' numbers, for screen readers and copying). */
function PointsTable(props: { resourceClass: string; points: readonly ChartPoint[] }) {
  return (
    <details className="points">
      <summary>The numbers ({props.points.length} points)</summary>
      <table data-testid="history-table">
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Used</th>
            <th scope="col">Capacity</th>
            <th scope="col">Utilisation</th>
          </tr>
        </thead>
        <tbody>
          {[...props.points].reverse().map((p) => (
            <tr key={p.atMs} data-at={new Date(p.atMs).toISOString()}>
              <td>{pointTime(p.atMs)}</td>
              <td data-field="used" data-value={p.used}>
                {amount(props.resourceClass, p.used)}
              </td>
              <td data-field="capacity" data-value={p.capacity}>
                {amount(props.resourceClass, p.capacity)}
              </td>
              <td data-field="utilisation">{percent(p.utilisation)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}

export function History() {
  const [view, setView] = useState<View>(viewFromHash);
  const [choices] = useQuery({ query: CHOICES });
  // A followed link (another hash) changes the view; the page's own replaceState does not fire this.
  useEffect(() => {
    const on = () => setView(viewFromHash());
    window.addEventListener('hashchange', on);
    return () => window.removeEventListener('hashchange', on);
  }, []);
  useEffect(() => {
    const hash = viewToHash(view);
    if (window.location.hash !== hash) {
      window.history.replaceState(null, '', hash);
    }
  }, [view]);
  const retentionHours = (choices.data?.capacityHistory.retentionSeconds ?? 336 * 3600) / 3600;
  const hours = Math.min(view.hours, Math.max(1, Math.floor(retentionHours)));
  const [r] = useQuery({
    query: HISTORY,
    variables: {
      hours,
      resourceClasses: view.classes.length > 0 ? [...view.classes] : null,
      aggregate: view.aggregate,
    },
    requestPolicy: 'cache-and-network',
  });
  const classes = useMemo(
    () =>
      [
        ...new Set(choices.data?.capacity.flatMap((g) => g.lines.map((l) => l.resourceClass))),
      ].sort(),
    [choices.data],
  );
  const toMs = Date.now();
  const fromMs = toMs - hours * 3600 * 1000;
  const h = r.data?.capacityHistory;
  const series = (h?.series ?? [])
    .map((s) => ({
      resourceClass: s.resourceClass,
      aggregate: s.aggregate,
      points: s.points.map((p) => ({
        atMs: Date.parse(p.at),
        capacity: p.capacity,
        used: p.used,
        utilisation: p.utilisation,
      })),
    }))
    .filter((s) => s.points.length > 0);
  const scopeName = (agg: { uuid: string; name?: string | null } | null | undefined) =>
    agg ? (agg.name ?? agg.uuid) : 'whole cloud';
  const toggle = (rc: string) => {
    const all = view.classes.length === 0 ? classes : view.classes;
    const next = all.includes(rc) ? all.filter((c) => c !== rc) : [...all, rc];
    setView({ ...view, classes: next.length === classes.length ? [] : next });
  };
  return (
    <div className="history">
      <h2>Capacity history</h2>
      <div className="history-controls">
        <fieldset>
          <legend>Range</legend>
          {RANGES.map(([h2, label]) => (
            <button
              key={h2}
              type="button"
              aria-pressed={view.hours === h2}
              disabled={h2 > retentionHours && h2 !== RANGES[0][0]}
              onClick={() => setView({ ...view, hours: h2 })}
            >
              {label}
            </button>
          ))}
        </fieldset>
        <fieldset>
          <legend>Resource classes</legend>
          {classes.map((rc) => (
            <label key={rc} className="check">
              <input
                type="checkbox"
                name="class"
                value={rc}
                checked={view.classes.length === 0 || view.classes.includes(rc)}
                onChange={() => toggle(rc)}
              />{' '}
              {rc}
            </label>
          ))}
        </fieldset>
        <label className="aggregate-picker">
          <span>Aggregate</span>
          <select
            name="aggregate"
            value={view.aggregate ?? ''}
            onChange={(e) => setView({ ...view, aggregate: e.target.value || null })}
          >
            <option value="">Whole cloud</option>
            {choices.data?.aggregates.map((a) => (
              <option key={a.uuid} value={a.uuid}>
                {a.name ?? a.uuid}
              </option>
            ))}
          </select>
        </label>
      </div>
      {(r.error ?? choices.error) && <ErrorBox error={(r.error ?? choices.error)!} />}
      {h && series.length === 0 && (
        <EmptyState
          intervalSeconds={h.intervalSeconds}
          retentionSeconds={h.retentionSeconds}
          hours={hours}
        />
      )}
      {h && series.length > 0 && (
        <p className="muted" data-testid="history-note">
          Sampled every {duration(h.intervalSeconds)}; up to 288 points per chart (a longer range
          keeps the busiest sample of each step). Dashed: capacity after the allocation ratio.
        </p>
      )}
      <div className="charts">
        {series.map((s) => {
          const last = s.points[s.points.length - 1]!;
          const peak = s.points.reduce((a, b) => (b.utilisation > a.utilisation ? b : a));
          return (
            <section
              key={`${s.resourceClass}:${s.aggregate?.uuid ?? ''}`}
              className="series"
              data-testid="series"
              data-class={s.resourceClass}
            >
              <h3>
                {s.resourceClass} <span className="muted">— {scopeName(s.aggregate)}</span>
              </h3>
              <p className="series-summary">
                Now {amount(s.resourceClass, last.used)} of {amount(s.resourceClass, last.capacity)}{' '}
                ({percent(last.utilisation)}); peak {percent(peak.utilisation)} at{' '}
                {pointTime(peak.atMs)}.
              </p>
              <CapacityChart
                resourceClass={s.resourceClass}
                title={`${s.resourceClass} used and capacity, ${scopeName(s.aggregate)}, last ${hours} h`}
                points={s.points}
                fromMs={fromMs}
                toMs={toMs}
                rangeHours={hours}
              />
              <PointsTable resourceClass={s.resourceClass} points={s.points} />
            </section>
          );
        })}
      </div>
    </div>
  );
}
