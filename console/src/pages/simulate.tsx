// What would the scheduler do? A trace of requests (a table, JSON lines, or for an admin the last
// schedule calls) placed by `simulate` on a copy-on-write view of the capacity index, under a
// profile and optionally a second one: each run's placements and end state, and the side-by-side
// diff. Nothing is claimed. The trace and choices are in the URL hash, so a simulation is a link
// that runs on arrival.
import { useCallback, useEffect, useRef, useState } from 'react';
import { type CombinedError, useClient } from 'urql';
import { usePermissions } from '../planning/permissions';
import { SIMULATE, type SimulationAnswer } from '../planning/queries';
import { SimulationDiffView } from '../planning/simulation-diff';
import { RunView } from '../planning/simulation-run';
import {
  DEFAULT_SIMULATION,
  fromSimulationHash,
  type SimulationForm,
  simulateVariables,
  toSimulationHash,
} from '../planning/trace';
import { TraceEditor } from '../planning/trace-editor';
import { ErrorBox } from '../ui';
import '../planning/planning.css';

/** The form the URL hash describes (`#/simulate?rows=...`), or null. */
function formFromHash(): SimulationForm | null {
  const hash = window.location.hash;
  const at = hash.indexOf('?');
  return at < 0 ? null : fromSimulationHash(hash.slice(at + 1));
}

type Outcome =
  | { readonly answer: SimulationAnswer }
  | { readonly error: CombinedError | Error }
  | { readonly problem: string };

export function Simulate() {
  const client = useClient();
  const permissions = usePermissions();
  const [initial] = useState(() => formFromHash());
  const [form, setForm] = useState<SimulationForm>(initial ?? DEFAULT_SIMULATION);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [running, setRunning] = useState(false);
  const latest = useRef(0);

  const run = useCallback(
    async (f: SimulationForm) => {
      const vars = simulateVariables(f);
      const hash = `#/simulate?${toSimulationHash(f)}`;
      if (window.location.hash !== hash) {
        window.history.replaceState(null, '', hash);
      }
      if ('problem' in vars) {
        setOutcome({ problem: vars.problem });
        return;
      }
      const mine = ++latest.current;
      setRunning(true);
      const r = await client
        .query(SIMULATE, vars as never, { requestPolicy: 'network-only' })
        .toPromise();
      if (mine === latest.current) {
        setRunning(false);
        setOutcome(
          r.error
            ? { error: r.error }
            : r.data
              ? { answer: r.data.simulate }
              : { problem: 'no answer' },
        );
      }
    },
    [client],
  );

  // A linked simulation runs on arrival, and again when another link is followed.
  useEffect(() => {
    if (initial) {
      void run(initial);
    }
    const onHash = () => {
      const f = formFromHash();
      if (f) {
        setForm(f);
        void run(f);
      }
    };
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, [initial, run]);

  const answer = outcome && 'answer' in outcome ? outcome.answer : null;
  return (
    <div
      className="simulate"
      data-admin={permissions.known ? String(permissions.admin) : undefined}
    >
      <div className="page-title">
        <h2>What would the scheduler do?</h2>
        <p className="subtitle">
          The trace is placed in order on a private copy of the capacity index; nothing is claimed.
        </p>
      </div>
      <TraceEditor
        form={form}
        admin={permissions.admin}
        running={running}
        onChange={setForm}
        onRun={() => void run(form)}
      />
      {running && <p className="loading">Simulating…</p>}
      {outcome && 'problem' in outcome && (
        <p className="error" role="alert">
          The trace cannot be sent: {outcome.problem}.
        </p>
      )}
      {outcome && 'error' in outcome && <ErrorBox error={outcome.error} />}
      {answer && (
        <div data-testid="simulation">
          {answer.compare && answer.diff && (
            <SimulationDiffView run={answer.run} compare={answer.compare} diff={answer.diff} />
          )}
          <div className={answer.compare ? 'sim-side-by-side' : undefined}>
            <RunView run={answer.run} side="run" />
            {answer.compare && <RunView run={answer.compare} side="compare" />}
          </div>
        </div>
      )}
    </div>
  );
}
