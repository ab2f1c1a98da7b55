// The filter stage of an explanation: hosts handed to the filters, each filter's before/after
// with a bar, its rejections grouped by reason code (count, message, a few example hosts), and
// the hosts left to rank.
import { int } from '../format';
import type { Explained } from './query';

type Step = Explained['filterSteps'][number];

function Bar({ n, of }: { n: number; of: number }) {
  return (
    <span className="fbar" aria-hidden="true">
      <span
        className="fbar-after"
        style={{ width: `${of > 0 ? Math.min(100, (n / of) * 100) : 0}%` }}
      />
    </span>
  );
}

function ReasonGroups({ step }: { step: Step }) {
  const groups = step.reasonGroups ?? [];
  if (groups.length === 0) {
    return null;
  }
  return (
    <ul className="reason-groups">
      {groups.map((g) => (
        <li key={g.code} data-code={g.code}>
          {int(g.count)} × {g.message} <code>{g.code}</code>
          {g.examples.length > 0 && (
            <span className="examples">
              {' '}
              e.g.{' '}
              {g.examples.map((x, i) => (
                <span key={x.host.uuid}>
                  {i > 0 && '; '}
                  <a href={`#/providers/${x.host.uuid}`}>{x.host.name}</a>
                  {x.reason !== g.message && `: ${x.reason}`}
                </span>
              ))}
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}

/** The filters in pipeline order, from the candidates to the ranked hosts. */
export function FilterFunnel({ e }: { e: Explained }) {
  const first = e.filterSteps[0];
  const candidates = first
    ? first.before
    : (e.candidateStage?.hostsWithCandidates ?? e.ranking.length);
  const of = Math.max(1, candidates);
  return (
    <section aria-labelledby="filter-stage-h">
      <h3 id="filter-stage-h">Filters</h3>
      <ol className="funnel" data-testid="funnel">
        <li data-step="candidates">
          <span className="step">allocation candidates</span>
          <Bar n={candidates} of={of} />
          <span className="counts">
            <b>{int(candidates)}</b> hosts
          </span>
        </li>
        {e.filterSteps.map((s) => (
          <li
            key={s.filter}
            data-step={s.filter}
            className={s.before > 0 && s.after === 0 ? 'blocking' : undefined}
          >
            <span className="step">{s.filter}</span>
            <Bar n={s.after} of={of} />
            <span className="counts">
              <b>{int(s.after)}</b> of {int(s.before)} kept
              {s.before > s.after && ` (${int(s.before - s.after)} rejected)`}
            </span>
            {s.failure && <span className="error-inline"> failed: {s.failure}</span>}
            <ReasonGroups step={s} />
          </li>
        ))}
      </ol>
      <p className="funnel-end" data-step="ranked">
        <span className="step">Ranked</span>
        <span className="counts">
          <b>{int(e.ranking.length)}</b> hosts
        </span>
      </p>
    </section>
  );
}
