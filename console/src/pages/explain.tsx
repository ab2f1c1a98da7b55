// Why no valid host? A request form that runs explainPlacement (nothing is claimed) and draws
// the funnel (hosts left after the candidate query and after each filter, in pipeline order),
// the rejection reasons with counts, and the top of the weighed ranking with each weigher's part.
import { type FormEvent, useState } from 'react';
import { useClient } from 'urql';
import { int } from '../format';
import { graphql, type ResultOf } from '../graphql';
import { ErrorBox } from '../ui';

const EXPLAIN = graphql(`
  query Explain($input: ScheduleInput!) {
    explainPlacement(input: $input) {
      selections { host { name } reason }
      filterSteps { filter before after rejections { reason } }
      ranking { host { uuid name } weight weights { weigher normalized multiplier } }
      pluginFailures { plugin phase message }
    }
  }
`);

type Explained = ResultOf<typeof EXPLAIN>['explainPlacement'];

/** The non-empty, trimmed terms of `text`, split on `separator` (default: commas). */
const list = (text: string, separator: string | RegExp = ',') =>
  text
    .split(separator)
    .map((s) => s.trim())
    .filter(Boolean);

/** "VCPU:2, MEMORY_MB:2048" -> resource amounts. */
function parseResources(text: string) {
  return list(text).map((term) => {
    const [resourceClass = '', amount = ''] = term.split(':').map((x) => x.trim());
    return { resourceClass, amount: Number(amount) };
  });
}

function Funnel({ e }: { e: Explained }) {
  const first = e.filterSteps[0];
  const candidates = first ? first.before : e.ranking.length;
  return (
    <section aria-label="Funnel">
      <h3>Funnel</h3>
      <ol className="funnel" data-testid="funnel">
        <li data-step="candidates">
          <span className="step">allocation candidates</span> <b>{int(candidates)}</b> hosts
        </li>
        {e.filterSteps.map((s) => {
          const reasons = new Map<string, number>();
          for (const r of s.rejections) {
            reasons.set(r.reason, (reasons.get(r.reason) ?? 0) + 1);
          }
          return (
            <li key={s.filter} data-step={s.filter}>
              <span className="step">{s.filter}</span> <b>{int(s.after)}</b> hosts
              {s.before > s.after && ` (${int(s.before - s.after)} rejected)`}
              {reasons.size > 0 && (
                <ul>
                  {[...reasons].map(([reason, n]) => (
                    <li key={reason}>
                      {int(n)} × {reason}
                    </li>
                  ))}
                </ul>
              )}
            </li>
          );
        })}
      </ol>
    </section>
  );
}

export function Explain() {
  const client = useClient();
  const [form, setForm] = useState({
    resources: 'VCPU:2, MEMORY_MB:2048',
    traits: '',
    memberOf: '',
    extraSpecs: '',
    projectId: 'demo',
  });
  const [result, setResult] = useState<{ data?: Explained; error?: Error }>({});
  const set = (k: keyof typeof form) => (ev: { target: { value: string } }) =>
    setForm({ ...form, [k]: ev.target.value });

  async function run(ev: FormEvent) {
    ev.preventDefault();
    const extraSpecs = list(form.extraSpecs, /\n|,/).map((kv) => ({
      key: kv.split('=')[0]!.trim(),
      value: kv.split('=').slice(1).join('=').trim(),
    }));
    const memberOf = list(form.memberOf);
    const r = await client
      .query(
        EXPLAIN,
        {
          input: {
            consumerUuids: [crypto.randomUUID()],
            projectId: form.projectId,
            userId: 'console',
            request: {
              groups: [
                {
                  suffix: '',
                  resources: parseResources(form.resources),
                  required: list(form.traits),
                  memberOf: memberOf.length ? [memberOf.join(',')] : null,
                },
              ],
            },
            extraSpecs,
          },
        },
        { requestPolicy: 'network-only' },
      )
      .toPromise();
    setResult(r.error ? { error: r.error } : { data: r.data?.explainPlacement });
  }

  const e = result.data;
  return (
    <div>
      <h2>Why no valid host?</h2>
      <form onSubmit={run} className="explain-form">
        <label>
          <span>Resources (class:amount, comma-separated)</span>
          <input value={form.resources} onChange={set('resources')} />
        </label>
        <label>
          <span>
            Traits (comma-separated; <code>!</code> forbids)
          </span>
          <input value={form.traits} onChange={set('traits')} />
        </label>
        <label>
          <span>Member of (aggregate uuids, any of)</span>
          <input value={form.memberOf} onChange={set('memberOf')} />
        </label>
        <label>
          <span>
            Flavor extra specs (<code>key=value</code>, one per line)
          </span>
          <textarea rows={3} value={form.extraSpecs} onChange={set('extraSpecs')} />
        </label>
        <label>
          <span>Project</span>
          <input value={form.projectId} onChange={set('projectId')} />
        </label>
        <button type="submit">Explain</button>
      </form>
      {result.error && <ErrorBox error={result.error} />}
      {e && (
        <>
          <p data-testid="verdict">
            {e.selections[0]?.host
              ? `Would place on ${e.selections[0].host.name}.`
              : `No valid host: ${e.selections[0]?.reason ?? 'nothing fits'}.`}
          </p>
          <Funnel e={e} />
          <section aria-label="Ranking">
            <h3>Top hosts</h3>
            <table>
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
                    <td>{h.host.name}</td>
                    <td>{h.weight.toFixed(3)}</td>
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
          {e.pluginFailures.length > 0 && (
            <section aria-label="Plugin failures">
              <h3>Plugin failures</h3>
              <ul>
                {e.pluginFailures.map((f) => (
                  <li key={`${f.plugin}:${f.phase}:${f.message}`}>
                    {f.plugin} ({f.phase}): {f.message}
                  </li>
                ))}
              </ul>
            </section>
          )}
        </>
      )}
    </div>
  );
}
