// One run of a simulation: how many consumers were placed and failed, each placement (its host,
// the filters' funnel as small bars, the chosen host's weight; for a failure its reason and the
// candidate stage), and the end state (fill per class, the hosts placed on, aggregates, how many
// of the largest request still fit, stranded capacity).
import { Fragment } from 'react';
import { CandidateFunnel, ClosestMisses } from '../explain/candidate-stage';
import { amount, int } from '../format';
import { AggregateLink, HostLink, UsageBar } from '../ui';
import type { SimulationRun } from './queries';

type Placement = SimulationRun['placements'][number];
type Fill = SimulationRun['end']['classes'][number];

/** Hosts listed in the end state before "and N more". */
const HOSTS_SHOWN = 20;

/** The filters' funnel of one placement: one small bar per filter, the counts in text. */
function Funnel({ steps }: { steps: Placement['funnel'] }) {
  if (steps.length === 0) {
    return <span className="none">—</span>;
  }
  const of = Math.max(1, steps[0]!.before);
  const text = [
    `${int(steps[0]!.before)} candidates`,
    ...steps.map((s) => `${s.filter} ${int(s.after)}`),
  ].join(' → ');
  return (
    <span className="sim-funnel" title={text}>
      <span className="sim-funnel-bars" aria-hidden="true">
        {steps.map((s) => (
          <span
            key={s.filter}
            className={`sim-fbar${s.after === 0 ? ' empty' : ''}`}
            style={{ height: `${Math.max(8, (s.after / of) * 100)}%` }}
          />
        ))}
      </span>
      <span className="sim-funnel-end">
        {int(steps[0]!.before)} → {int(steps.at(-1)!.after)}
      </span>
      <span className="visually-hidden">{text}</span>
    </span>
  );
}

function Placements({ run }: { run: SimulationRun }) {
  const cols = 6;
  return (
    <div className="scroll-x">
      <table className="dense sim-placements" data-testid="placements">
        <thead>
          <tr>
            <th scope="col" className="num">
              #
            </th>
            <th scope="col">Consumer</th>
            <th scope="col">Host</th>
            <th scope="col">Filters</th>
            <th scope="col" className="num">
              Weight
            </th>
            <th scope="col">Reason</th>
          </tr>
        </thead>
        <tbody>
          {run.placements.map((p) => (
            <Fragment key={p.index}>
              <tr
                data-index={p.index}
                data-host={p.host?.uuid ?? ''}
                className={p.host ? undefined : 'sim-failed'}
              >
                <td className="num">{p.index}</td>
                <td className="mono" title={`${p.consumerUuid}, request ${p.request}`}>
                  …{p.consumerUuid.slice(-8)}
                </td>
                <td>
                  {p.host ? (
                    <HostLink uuid={p.host.uuid} name={p.host.name} />
                  ) : (
                    <span className="sim-none">not placed</span>
                  )}
                </td>
                <td>
                  <Funnel steps={p.funnel} />
                </td>
                <td className="num">{p.weight == null ? '' : p.weight.toFixed(3)}</td>
                <td className="sim-reason">{p.reason ?? ''}</td>
              </tr>
              {p.candidateStage && (
                <tr className="sim-stage-row">
                  <td colSpan={cols}>
                    <details>
                      <summary>Candidate stage: {p.candidateStage.summary}</summary>
                      <div className="explain">
                        <CandidateFunnel stage={p.candidateStage} />
                        <ClosestMisses stage={p.candidateStage} />
                      </div>
                    </details>
                  </td>
                </tr>
              )}
            </Fragment>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function FillBars({ fills, testId }: { fills: readonly Fill[]; testId?: string }) {
  return (
    <div data-testid={testId}>
      {fills.map((c) => (
        <div key={c.resourceClass} data-class={c.resourceClass} data-used={c.used}>
          <UsageBar
            label={c.resourceClass}
            resourceClass={c.resourceClass}
            used={c.used}
            capacity={c.capacity}
          />
        </div>
      ))}
    </div>
  );
}

const fillText = (fills: readonly Fill[]) =>
  fills.map((c) => `${c.resourceClass} ${amount(c.resourceClass, c.free)} free`).join(' · ');

function EndState({ end }: { end: SimulationRun['end'] }) {
  const hosts = end.hosts.slice(0, HOSTS_SHOWN);
  return (
    <section aria-label="End state" className="sim-end">
      <h4>End state</h4>
      <FillBars fills={end.classes} testId="end-classes" />
      <p data-testid="largest-fits">
        {end.largestFlavor ? (
          <>
            <b>{int(end.largestFlavorFits)}</b> more of the largest request (
            <code>{end.largestFlavor}</code>) still fit.
          </>
        ) : (
          'The trace placed nothing to size a largest request on.'
        )}
      </p>
      <p data-testid="stranded">
        Stranded (free on hosts where not one more of the smallest request fits):{' '}
        {end.stranded.some((c) => c.free > 0) ? (
          fillText(end.stranded.filter((c) => c.free > 0))
        ) : (
          <span className="none">none</span>
        )}
      </p>
      {hosts.length > 0 && (
        <table className="dense" data-testid="end-hosts">
          <caption>
            Hosts placed on, fullest first
            {end.hosts.length > hosts.length &&
              ` (the first ${HOSTS_SHOWN} of ${int(end.hosts.length)})`}
          </caption>
          <thead>
            <tr>
              <th scope="col">Host</th>
              <th scope="col" className="num">
                Placed
              </th>
              <th scope="col">Fill</th>
            </tr>
          </thead>
          <tbody>
            {hosts.map((h) => (
              <tr key={h.host.uuid} data-host={h.host.uuid}>
                <th scope="row">
                  <HostLink uuid={h.host.uuid} name={h.host.name} />
                </th>
                <td className="num">{int(h.placed)}</td>
                <td>
                  {h.classes.map((c) => (
                    <UsageBar
                      key={c.resourceClass}
                      label={c.resourceClass}
                      resourceClass={c.resourceClass}
                      used={c.used}
                      capacity={c.capacity}
                      compact
                    />
                  ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {end.aggregates.length > 0 && (
        <details>
          <summary>Aggregates ({int(end.aggregates.length)})</summary>
          <table className="dense">
            <tbody>
              {end.aggregates.map((a) => (
                <tr key={a.uuid}>
                  <th scope="row">
                    <AggregateLink uuid={a.uuid} name={a.name ?? null} />
                  </th>
                  <td>{fillText(a.classes)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      )}
    </section>
  );
}

/** One run: its counts, its placements and its end state. */
export function RunView({ run, side }: { run: SimulationRun; side: 'run' | 'compare' }) {
  return (
    <section className="panel sim-run" data-testid={`sim-${side}`} aria-label={`Run ${run.label}`}>
      <h3>
        {side === 'compare' ? 'Compared with' : 'Run'} <code>{run.label}</code>
      </h3>
      <p className="sim-counts">
        <span data-field="placed" className="sim-placed">
          <b>{int(run.placed)}</b> placed
        </span>{' '}
        ·{' '}
        <span data-field="failed" className={run.failed > 0 ? 'sim-failed-count' : undefined}>
          <b>{int(run.failed)}</b> failed
        </span>{' '}
        · {int(run.consumers)} consumers in {int(run.requests)} requests · {int(run.durationMs)} ms
      </p>
      <EndState end={run.end} />
      <h4>Placements</h4>
      <Placements run={run} />
    </section>
  );
}
