// The parts of an explanation around the funnel: the verdict (said once, with a heading), the top
// hosts with each weigher's contribution, and plugin failures.
import type { Explained } from './query';

/** "No valid host: no allocation candidates for the request" -> "No allocation candidates for the request." */
export function plainReason(reason: string): string {
  let r = reason.trim();
  while (/^no valid host:\s*/i.test(r)) {
    r = r.replace(/^no valid host:\s*/i, '');
  }
  r = r.charAt(0).toUpperCase() + r.slice(1);
  return /[.!?]$/.test(r) ? r : `${r}.`;
}

const sameText = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** Where the request would go, or why nothing can take it. */
export function Verdict({ e }: { e: Explained }) {
  const first = e.selections[0];
  if (first?.host) {
    return (
      <section className="verdict verdict-placed" data-testid="verdict" aria-labelledby="verdict-h">
        <h3 id="verdict-h">
          Would place on <a href={`#/providers/${first.host.uuid}`}>{first.host.name}</a>
        </h3>
        <p>
          Profile <code>{e.profile}</code>; {e.ranking.length} host(s) ranked. Nothing was claimed.
        </p>
      </section>
    );
  }
  const reason = plainReason(first?.reason ?? 'nothing fits');
  // The candidate stage's one-line summary, unless the reason already says it.
  const stage = e.candidateStage;
  const summary =
    stage && stage.hostsWithCandidates === 0 && !sameText(plainReason(stage.summary), reason)
      ? stage.summary
      : null;
  return (
    <section className="verdict verdict-none" data-testid="verdict" aria-labelledby="verdict-h">
      <h3 id="verdict-h">No valid host</h3>
      <p data-testid="reason">{reason}</p>
      {summary && (
        <p className="muted" data-testid="summary">
          {summary}
        </p>
      )}
    </section>
  );
}

/** The best hosts, with each weigher's part of their weight. */
export function Ranking({ e }: { e: Explained }) {
  if (e.ranking.length === 0) {
    return null;
  }
  return (
    <section aria-labelledby="ranking-h">
      <h3 id="ranking-h">Top hosts</h3>
      <table data-testid="ranking">
        <thead>
          <tr>
            <th scope="col">Host</th>
            <th scope="col">Weight</th>
            <th scope="col">Weigher contributions</th>
          </tr>
        </thead>
        <tbody>
          {e.ranking.slice(0, 10).map((h) => (
            <tr key={h.host.uuid}>
              <td>
                <a href={`#/providers/${h.host.uuid}`}>{h.host.name}</a>
              </td>
              <td className="num">{h.weight.toFixed(3)}</td>
              <td>
                {h.weights
                  .map((w) => `${w.weigher} ${(w.normalized * w.multiplier).toFixed(3)}`)
                  .join(', ')}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** Plugin calls that failed and were isolated. */
export function PluginFailures({ e }: { e: Explained }) {
  if (e.pluginFailures.length === 0) {
    return null;
  }
  return (
    <section aria-labelledby="failures-h">
      <h3 id="failures-h">Plugin failures</h3>
      <ul data-testid="plugin-failures">
        {e.pluginFailures.map((f) => (
          <li key={`${f.plugin}:${f.phase}:${f.message}`}>
            <code>{f.plugin}</code> ({f.phase}): {f.message}
          </li>
        ))}
      </ul>
    </section>
  );
}
