// The side-by-side diff of one trace under two configurations: the counts simulate's diff gives
// (same host, different host, placed in one run only) and every consumer's host in both runs,
// the rows that differ highlighted.
import { useState } from 'react';
import { int } from '../format';
import { HostLink } from '../ui';
import type { SimulationAnswer, SimulationRun } from './queries';

type Host = SimulationRun['placements'][number]['host'];

function HostCell({ host }: { host: Host }) {
  return (
    <td>
      {host ? (
        <HostLink uuid={host.uuid} name={host.name} />
      ) : (
        <span className="sim-none">not placed</span>
      )}
    </td>
  );
}

/** Which way a consumer's two placements differ. */
function kindOf(a: Host, b: Host): 'same' | 'different' | 'only-run' | 'only-compare' {
  if (a && b) {
    return a.uuid === b.uuid ? 'same' : 'different';
  }
  if (a) {
    return 'only-run';
  }
  return b ? 'only-compare' : 'same';
}

const KIND_TEXT = {
  same: '',
  different: 'different host',
  'only-run': 'placed only in the run',
  'only-compare': 'placed only in the comparison',
} as const;

export function SimulationDiffView(props: {
  run: SimulationRun;
  compare: SimulationRun;
  diff: NonNullable<SimulationAnswer['diff']>;
}) {
  const { run, compare, diff } = props;
  const [onlyDiffering, setOnlyDiffering] = useState(diff.entries.length > 0);
  const other = new Map(compare.placements.map((p) => [p.index, p]));
  const rows = run.placements
    .map((p) => {
      const q = other.get(p.index);
      return { index: p.index, consumer: p.consumerUuid, a: p.host, b: q?.host ?? null };
    })
    .map((r) => ({ ...r, kind: kindOf(r.a, r.b) }));
  const shown = onlyDiffering ? rows.filter((r) => r.kind !== 'same') : rows;
  const counts = [
    ['same', diff.same, 'same host'],
    ['different', diff.differentHost, 'different host'],
    ['only-run', diff.onlyInRun, `placed only under ${run.label}`],
    ['only-compare', diff.onlyInCompare, `placed only under ${compare.label}`],
  ] as const;
  return (
    <section className="panel sim-diff" data-testid="sim-diff" aria-labelledby="sim-diff-h">
      <h3 id="sim-diff-h">
        <code>{run.label}</code> vs <code>{compare.label}</code>
      </h3>
      <ul className="sim-diff-counts">
        {counts.map(([kind, n, label]) => (
          <li
            key={kind}
            data-kind={kind}
            className={kind !== 'same' && n > 0 ? 'differs' : undefined}
          >
            <b>{int(n)}</b> {label}
          </li>
        ))}
      </ul>
      <label className="inline">
        <input
          type="checkbox"
          checked={onlyDiffering}
          onChange={(e) => setOnlyDiffering(e.target.checked)}
        />{' '}
        Only the consumers placed differently ({int(diff.entries.length)})
      </label>
      <div className="scroll-x">
        <table className="dense sim-diff-table" data-testid="diff-rows">
          <thead>
            <tr>
              <th scope="col" className="num">
                #
              </th>
              <th scope="col">Consumer</th>
              <th scope="col">
                Host under <code>{run.label}</code>
              </th>
              <th scope="col">
                Host under <code>{compare.label}</code>
              </th>
              <th scope="col">Difference</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((r) => (
              <tr
                key={r.index}
                data-index={r.index}
                data-kind={r.kind}
                className={r.kind === 'same' ? undefined : 'sim-differs'}
              >
                <td className="num">{r.index}</td>
                <td className="mono" title={r.consumer}>
                  …{r.consumer.slice(-8)}
                </td>
                <HostCell host={r.a} />
                <HostCell host={r.b} />
                <td>{KIND_TEXT[r.kind]}</td>
              </tr>
            ))}
            {shown.length === 0 && (
              <tr>
                <td colSpan={5} className="none">
                  Both configurations placed every consumer on the same host.
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
    </section>
  );
}
