// Why no valid host? A request form (its state in the URL hash, so an explanation is linkable),
// the same request as editable GraphQL, and the answer of explainPlacement (nothing is claimed):
// the verdict, the candidate stage as a funnel with the blocking constraints and the closest
// misses, the filters with their rejections grouped by reason code, the top hosts, plugin failures.
import { useCallback, useEffect, useRef, useState } from 'react';
import { CandidateFunnel, ClosestMisses } from '../explain/candidate-stage';
import { FilterFunnel } from '../explain/filter-steps';
import { GraphqlPanel } from '../explain/graphql-panel';
import { PluginFailures, Ranking, Verdict } from '../explain/outcome';
import { EXPLAIN_QUERY, type RunResult, runExplain } from '../explain/query';
import {
  DEFAULT_FORM,
  type ExplainForm,
  fromHashQuery,
  fromVariables,
  toHashQuery,
  toVariables,
} from '../explain/request';
import { RequestForm } from '../explain/request-form';
import { ErrorBox } from '../ui';
import '../explain/explain.css';

/** The form the URL hash describes (`#/explain/?resources=...`), or null. */
function formFromHash(): ExplainForm | null {
  const hash = window.location.hash;
  const at = hash.indexOf('?');
  return at < 0 ? null : fromHashQuery(hash.slice(at + 1));
}

const variablesText = (form: ExplainForm) => JSON.stringify(toVariables(form), null, 2);

export function Explain() {
  const [initial] = useState(() => formFromHash());
  const [form, setForm] = useState<ExplainForm>(initial ?? DEFAULT_FORM);
  const [query, setQuery] = useState(EXPLAIN_QUERY);
  const [variables, setVariables] = useState(() => variablesText(initial ?? DEFAULT_FORM));
  const [note, setNote] = useState<string | null>(null);
  const [result, setResult] = useState<RunResult | null>(null);
  const [running, setRunning] = useState(false);
  const latest = useRef(0);

  const run = useCallback(async (q: string, varsText: string, linkForm: ExplainForm | null) => {
    let vars: unknown;
    try {
      vars = JSON.parse(varsText);
    } catch (err) {
      setResult({ error: new Error(`The variables are not JSON: ${(err as Error).message}`) });
      return;
    }
    if (linkForm) {
      const hash = `#/explain/?${toHashQuery(linkForm)}`;
      if (window.location.hash !== hash) {
        window.history.replaceState(null, '', hash);
      }
    }
    const mine = ++latest.current;
    setRunning(true);
    const r = await runExplain(q, vars).catch((err: Error) => ({ error: err }));
    if (mine === latest.current) {
      setResult(r);
      setRunning(false);
    }
  }, []);

  // A linked explanation runs on arrival, and again when another link is followed.
  useEffect(() => {
    if (initial) {
      void run(EXPLAIN_QUERY, variablesText(initial), null);
    }
    const onHash = () => {
      const f = formFromHash();
      if (f) {
        setForm(f);
        setVariables(variablesText(f));
        setNote(null);
        void run(EXPLAIN_QUERY, variablesText(f), null);
      }
    };
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, [initial, run]);

  const onForm = (f: ExplainForm) => {
    setForm(f);
    setVariables(variablesText(f));
    setNote(null);
  };
  // The form's Explain sends what the form shows (its variables replace any text it cannot show).
  const runForm = () => {
    const text = variablesText(form);
    setVariables(text);
    setNote(null);
    void run(query, text, form);
  };
  const onVariables = (text: string) => {
    setVariables(text);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      setNote(`the JSON does not parse (${(err as Error).message})`);
      return;
    }
    const back = fromVariables(parsed);
    if ('form' in back) {
      setForm(back.form);
      setNote(null);
    } else {
      setNote(back.problem);
    }
  };

  return (
    <div className="explain">
      <h2>Why no valid host?</h2>
      <div className="explain-inputs">
        <RequestForm form={form} onChange={onForm} onRun={runForm} />
        <GraphqlPanel
          query={query}
          variables={variables}
          note={note}
          modifiedQuery={query !== EXPLAIN_QUERY}
          onQuery={setQuery}
          onVariables={onVariables}
          onResetQuery={() => setQuery(EXPLAIN_QUERY)}
          onRun={() => run(query, variables, note === null ? form : null)}
        />
      </div>
      {running && <p className="muted">Explaining…</p>}
      {result && 'error' in result && <ErrorBox error={result.error} />}
      {result && 'undrawable' in result && (
        <section className="error" role="alert">
          <strong>
            The edited query does not select what this page draws ({result.missing.join(', ')}).
          </strong>{' '}
          berth answered:
          <pre>{JSON.stringify(result.undrawable, null, 2)}</pre>
        </section>
      )}
      {result && 'explained' in result && (
        <div className="explain-result" data-testid="explanation">
          <Verdict e={result.explained} />
          {result.explained.candidateStage && (
            <>
              <CandidateFunnel stage={result.explained.candidateStage} />
              <ClosestMisses stage={result.explained.candidateStage} />
            </>
          )}
          <FilterFunnel e={result.explained} />
          <Ranking e={result.explained} />
          <PluginFailures e={result.explained} />
        </div>
      )}
    </div>
  );
}
