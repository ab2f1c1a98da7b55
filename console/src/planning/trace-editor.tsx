// The simulation page's inputs: the trace as a table of requests (a planning flavor or any
// resources, how many, an availability zone, traits, scheduler hints), as JSON lines, or, for an
// admin, the last N schedule calls of the audit trail; the profile, a profile to compare with,
// and the seed that breaks ties.
import { useQuery } from 'urql';
import { pipelineOf } from './pipeline';
import { PipelineEditor } from './pipeline-editor';
import { PLANNING_CHOICES } from './queries';
import {
  EMPTY_ROW,
  rowsToJsonl,
  type SimulationForm,
  type TraceMode,
  type TraceRow,
} from './trace';

/** The compare selector's value for a candidate configuration (not a profile name). */
const CUSTOM = ' custom';

const MODES: readonly (readonly [TraceMode, string])[] = [
  ['table', 'Requests'],
  ['jsonl', 'JSON lines'],
  ['audit', 'Last schedule calls'],
];

function RowsTable(props: {
  rows: readonly TraceRow[];
  flavors: ReadonlyMap<string, { resources: string; traits: string }>;
  onChange: (rows: TraceRow[]) => void;
}) {
  const { rows, flavors } = props;
  const set = (i: number, change: Partial<TraceRow>) =>
    props.onChange(rows.map((r, j) => (j === i ? { ...r, ...change } : r)));
  const pickFlavor = (i: number, name: string) => {
    const f = flavors.get(name);
    set(i, f ? { name, resources: f.resources, traits: f.traits } : { name });
  };
  return (
    <table className="dense sim-trace" data-testid="trace-rows">
      <thead>
        <tr>
          <th scope="col">Flavor</th>
          <th scope="col">Resources (class:amount)</th>
          <th scope="col">Traits</th>
          <th scope="col" className="num">
            Count
          </th>
          <th scope="col">Zone</th>
          <th scope="col">Hints (key=v1,v2; …)</th>
          <th scope="col">
            <span className="visually-hidden">Remove</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity but their place
          <tr key={i} data-row={i}>
            <td>
              <input
                name="flavor"
                aria-label={`Request ${i + 1} flavor`}
                list="sim-flavors"
                size={10}
                value={r.name}
                onChange={(e) => pickFlavor(i, e.target.value)}
              />
            </td>
            <td>
              <input
                name="resources"
                aria-label={`Request ${i + 1} resources`}
                size={34}
                value={r.resources}
                onChange={(e) => set(i, { resources: e.target.value })}
              />
            </td>
            <td>
              <input
                name="traits"
                aria-label={`Request ${i + 1} traits`}
                size={12}
                value={r.traits}
                onChange={(e) => set(i, { traits: e.target.value })}
              />
            </td>
            <td>
              <input
                name="count"
                type="number"
                min={1}
                aria-label={`Request ${i + 1} count`}
                className="sim-count"
                value={r.count}
                onChange={(e) =>
                  set(i, { count: Math.max(1, Math.floor(Number(e.target.value) || 1)) })
                }
              />
            </td>
            <td>
              <input
                name="az"
                aria-label={`Request ${i + 1} availability zone`}
                size={6}
                value={r.availabilityZone}
                onChange={(e) => set(i, { availabilityZone: e.target.value })}
              />
            </td>
            <td>
              <input
                name="hints"
                aria-label={`Request ${i + 1} scheduler hints`}
                size={16}
                value={r.hints}
                onChange={(e) => set(i, { hints: e.target.value })}
              />
            </td>
            <td>
              <button
                type="button"
                aria-label={`Remove request ${i + 1}`}
                disabled={rows.length === 1}
                onClick={() => props.onChange(rows.filter((_, j) => j !== i))}
              >
                ×
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The inputs; `onChange` gets the whole new form, `onRun` runs it. */
export function TraceEditor(props: {
  form: SimulationForm;
  admin: boolean;
  running: boolean;
  onChange: (form: SimulationForm) => void;
  onRun: () => void;
}) {
  const { form, onChange } = props;
  const [choices] = useQuery({ query: PLANNING_CHOICES });
  const flavors = new Map(
    choices.data?.planningFlavors.map((f) => [
      f.name,
      {
        resources: f.resources.map((r) => `${r.resourceClass}:${r.amount}`).join(', '),
        traits: f.required.join(', '),
      },
    ]) ?? [],
  );
  const profiles = choices.data?.schedulerProfiles.map((p) => p.name) ?? [];
  for (const p of [form.profile, form.compareProfile]) {
    if (p && !profiles.includes(p)) {
      profiles.push(p);
    }
  }
  const compareWith = (v: string): SimulationForm =>
    v === CUSTOM
      ? {
          ...form,
          compareProfile: '',
          comparePipeline:
            form.comparePipeline ??
            pipelineOf(
              choices.data?.schedulerProfiles.find((p) => p.name === form.profile),
              form.profile,
            ),
        }
      : { ...form, compareProfile: v, comparePipeline: null };
  const modes = MODES.filter(([m]) => m !== 'audit' || props.admin || form.mode === 'audit');
  const setMode = (mode: TraceMode) =>
    onChange({
      ...form,
      mode,
      // The table's requests carried over when switching to text, so nothing is typed twice.
      jsonl: mode === 'jsonl' && !form.jsonl.trim() ? rowsToJsonl(form.rows) : form.jsonl,
    });
  return (
    <form
      className="sim-form panel"
      aria-label="Trace"
      onSubmit={(e) => {
        e.preventDefault();
        props.onRun();
      }}
    >
      <datalist id="sim-flavors">
        {[...flavors.keys()].map((n) => (
          <option key={n} value={n} />
        ))}
      </datalist>
      <fieldset className="sim-modes">
        <legend>Trace</legend>
        {modes.map(([m, label]) => (
          <label key={m}>
            <input
              type="radio"
              name="mode"
              value={m}
              checked={form.mode === m}
              onChange={() => setMode(m)}
            />{' '}
            {label}
          </label>
        ))}
      </fieldset>
      {form.mode === 'table' && (
        <>
          <RowsTable
            rows={form.rows}
            flavors={flavors}
            onChange={(rows) => onChange({ ...form, rows })}
          />
          <button
            type="button"
            onClick={() => onChange({ ...form, rows: [...form.rows, EMPTY_ROW] })}
          >
            Add request
          </button>
        </>
      )}
      {form.mode === 'jsonl' && (
        <label className="sim-jsonl">
          <span>
            One request a line: a <code>ScheduleInput</code> (with <code>request</code>) or{' '}
            <code>{'{"resources": {"VCPU": 2, "MEMORY_MB": 4096}, "count": 3}'}</code>
          </span>
          <textarea
            name="jsonl"
            rows={8}
            spellCheck={false}
            value={form.jsonl}
            onChange={(e) => onChange({ ...form, jsonl: e.target.value })}
          />
        </label>
      )}
      {form.mode === 'audit' && (
        <label className="inline">
          The last{' '}
          <input
            name="fromAudit"
            type="number"
            min={1}
            className="sim-count"
            value={form.fromAudit}
            onChange={(e) =>
              onChange({ ...form, fromAudit: Math.max(1, Math.floor(Number(e.target.value) || 1)) })
            }
          />{' '}
          schedule calls of the audit trail, replayed in order
        </label>
      )}
      <div className="sim-choices">
        <label>
          <span>Profile</span>
          <select
            name="profile"
            value={form.profile}
            onChange={(e) => onChange({ ...form, profile: e.target.value })}
          >
            {profiles.map((p) => (
              <option key={p}>{p}</option>
            ))}
          </select>
        </label>
        <label>
          <span>Compare with</span>
          <select
            name="compareProfile"
            value={form.comparePipeline ? CUSTOM : form.compareProfile}
            onChange={(e) => onChange(compareWith(e.target.value))}
          >
            <option value="">no comparison</option>
            {profiles.map((p) => (
              <option key={p}>{p}</option>
            ))}
            {(props.admin || form.comparePipeline) && (
              <option value={CUSTOM}>a candidate configuration…</option>
            )}
          </select>
        </label>
        <label>
          <span>Seed (ties)</span>
          <input
            name="seed"
            type="number"
            className="sim-count"
            value={form.seed}
            onChange={(e) => onChange({ ...form, seed: Math.floor(Number(e.target.value) || 0) })}
          />
        </label>
        <button type="submit" className="primary" disabled={props.running}>
          {props.running ? 'Simulating…' : 'Simulate'}
        </button>
      </div>
      {form.comparePipeline && (
        <PipelineEditor
          pipeline={form.comparePipeline}
          profiles={profiles}
          onChange={(comparePipeline) => onChange({ ...form, comparePipeline })}
        />
      )}
    </form>
  );
}
