// The candidate stage of an explanation: how the allocation-candidate query narrowed the hosts,
// one constraint at a time (hosts kept after it, and hosts it alone keeps), the constraints that
// keep no host ("blocking"), and the hosts that missed by the fewest constraints.
import { int } from '../format';
import type { Explained } from './query';

type Stage = NonNullable<Explained['candidateStage']>;
type Constraint = Stage['constraints'][number];

/** A bar of `n` out of `of`, drawn twice when `alone` is given (alone behind, after in front). */
function Bars({ n, alone, of }: { n: number; alone?: number; of: number }) {
  const w = (x: number) => `${of > 0 ? Math.min(100, (x / of) * 100) : 0}%`;
  return (
    // Decoration: the same numbers are written next to it.
    <span className="fbar" aria-hidden="true">
      {alone !== undefined && <span className="fbar-alone" style={{ width: w(alone) }} />}
      <span className="fbar-after" style={{ width: w(n) }} />
    </span>
  );
}

const same = (a: Pick<Constraint, 'code' | 'group' | 'label'>, b: typeof a) =>
  a.code === b.code && (a.group ?? null) === (b.group ?? null) && a.label === b.label;

/** "MEMORY_MB: 600000 (group 1)" */
function constraintName(c: Pick<Constraint, 'label' | 'group'>): string {
  return c.group ? `${c.label} (group ${c.group})` : c.label;
}

/** The candidate stage as a funnel with bars, the blocking constraints highlighted. */
export function CandidateFunnel({ stage }: { stage: Stage }) {
  const total = stage.hostsTotal;
  const blocking = stage.blocking ?? [];
  return (
    <section aria-labelledby="candidate-stage-h">
      <h3 id="candidate-stage-h">Candidate stage</h3>
      <p className="hint-text">
        Each constraint of the request in order: the dark bar is the hosts left after it and the
        ones before it, the light bar the hosts it alone would keep.
      </p>
      <ol className="stage-funnel" data-testid="candidate-funnel">
        <li data-step="all">
          <span className="step">All hosts</span>
          <Bars n={total} of={total} />
          <span className="counts">
            <b>{int(total)}</b> hosts
          </span>
        </li>
        {(stage.constraints ?? []).map((c) => {
          const blocks = blocking.some((b) => same(b, c));
          return (
            <li
              key={`${c.code}:${c.group ?? ''}:${c.label}`}
              data-step="constraint"
              data-code={c.code}
              className={blocks ? 'blocking' : undefined}
            >
              <span className="step">
                {constraintName(c)}
                {blocks && <strong className="blocking-badge">blocking</strong>}
              </span>
              <Bars n={c.hostsAfter} alone={c.hostsAlone} of={total} />
              <span className="counts">
                <b data-field="after">{int(c.hostsAfter)}</b> left ·{' '}
                <span data-field="alone">{int(c.hostsAlone)}</span> alone
              </span>
            </li>
          );
        })}
        <li data-step="with-candidates">
          <span className="step">Hosts with allocation candidates</span>
          <Bars n={stage.hostsWithCandidates} of={total} />
          <span className="counts">
            <b>{int(stage.hostsWithCandidates)}</b> hosts
          </span>
        </li>
      </ol>
      {blocking.length > 0 && (
        <p className="blocking-note" data-testid="blocking">
          {blocking.length === 1 ? 'Blocking constraint: ' : 'Blocking constraints: '}
          {blocking.map((b, i) => (
            <span key={`${b.code}:${b.group ?? ''}:${b.label}`}>
              {i > 0 && ', '}
              <strong>{constraintName(b)}</strong>
            </span>
          ))}{' '}
          — no host meets {blocking.length === 1 ? 'it' : 'any of them'}, whatever else is asked.
        </p>
      )}
    </section>
  );
}

/** Hosts that fail the fewest constraints, with what each is missing. */
export function ClosestMisses({ stage }: { stage: Stage }) {
  const misses = stage.closestMisses ?? [];
  if (misses.length === 0) {
    return null;
  }
  return (
    <section aria-labelledby="closest-misses-h">
      <h3 id="closest-misses-h">Closest misses</h3>
      <table data-testid="closest-misses">
        <thead>
          <tr>
            <th scope="col">Host</th>
            <th scope="col">What it misses</th>
          </tr>
        </thead>
        <tbody>
          {misses.map((m) => (
            <tr key={m.host.uuid} data-host={m.host.uuid}>
              <td>
                <a href={`#/providers/${m.host.uuid}`}>{m.host.name}</a>
              </td>
              <td>
                <ul className="misses">
                  {m.misses.map((x) => (
                    <li key={`${x.code}:${x.label}`} data-code={x.code}>
                      {x.message} <span className="muted">({x.label})</span>
                    </li>
                  ))}
                </ul>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
