// The request as the GraphQL it sends: the query and its variables (JSON), both editable, with
// Run. The page keeps the variables in step with the form; edits here flow back to the form when
// they parse and the form can show them.
import { useId } from 'react';

/** The panel; `note` says why the form could not follow the text, when it could not. */
export function GraphqlPanel(props: {
  query: string;
  variables: string;
  note: string | null;
  modifiedQuery: boolean;
  onQuery: (text: string) => void;
  onVariables: (text: string) => void;
  onResetQuery: () => void;
  onRun: () => void;
}) {
  const noteId = useId();
  return (
    <section className="graphql-panel" aria-label="GraphQL">
      <h3>As GraphQL</h3>
      <p className="hint-text">
        What Run sends to <code>/graphql</code>, exactly. Edit either part: the form follows the
        variables when they parse.
      </p>
      <label>
        <span>Query</span>
        <textarea
          name="query"
          spellCheck={false}
          rows={12}
          value={props.query}
          onChange={(ev) => props.onQuery(ev.target.value)}
        />
      </label>
      <label>
        <span>Variables (JSON)</span>
        <textarea
          name="variables"
          spellCheck={false}
          rows={12}
          aria-describedby={props.note ? noteId : undefined}
          value={props.variables}
          onChange={(ev) => props.onVariables(ev.target.value)}
        />
      </label>
      {props.note && (
        <p id={noteId} className="panel-note" data-testid="panel-note">
          The form does not show this text: {props.note}.
        </p>
      )}
      <div className="panel-buttons">
        <button type="button" onClick={props.onRun}>
          Run
        </button>
        {props.modifiedQuery && (
          <button type="button" onClick={props.onResetQuery}>
            Reset query
          </button>
        )}
      </div>
    </section>
  );
}
