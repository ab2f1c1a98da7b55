// The explain page's form: resources, traits, member_of, extra specs, project, availability zone,
// scheduler hints, server group and profile. Pickers are filled from the server.
import { useQuery } from 'urql';
import { CHOICES, GROUPS } from './query';
import type { ExplainForm, HintRow } from './request';

/** The form; `onChange` gets the whole new form, `onRun` runs it. */
export function RequestForm(props: {
  form: ExplainForm;
  onChange: (form: ExplainForm) => void;
  onRun: () => void;
}) {
  const { form, onChange } = props;
  const [choices] = useQuery({ query: CHOICES });
  const [groups] = useQuery({
    query: GROUPS,
    variables: { projectId: form.projectId.trim() },
    pause: !form.projectId.trim(),
  });
  const set = (k: keyof ExplainForm) => (ev: { target: { value: string } }) =>
    onChange({ ...form, [k]: ev.target.value });
  const setHint = (i: number, row: Partial<HintRow>) =>
    onChange({ ...form, hints: form.hints.map((h, j) => (j === i ? { ...h, ...row } : h)) });
  const profiles = choices.data?.schedulerProfiles.map((p) => p.name) ?? [];
  if (!profiles.includes(form.profile)) {
    profiles.push(form.profile);
  }
  return (
    <form
      className="explain-form"
      aria-label="Request"
      onSubmit={(ev) => {
        ev.preventDefault();
        props.onRun();
      }}
    >
      <label>
        <span>Resources (class:amount, comma-separated)</span>
        <input name="resources" value={form.resources} onChange={set('resources')} />
      </label>
      <label>
        <span>
          Traits (comma-separated; <code>!</code> forbids)
        </span>
        <input name="traits" value={form.traits} onChange={set('traits')} />
      </label>
      <label>
        <span>Member of (aggregate uuids, any of)</span>
        <input
          name="memberOf"
          list="explain-aggregates"
          value={form.memberOf}
          onChange={set('memberOf')}
        />
        <datalist id="explain-aggregates">
          {choices.data?.aggregates.map((a) => (
            <option key={a.uuid} value={a.uuid}>
              {a.name ?? a.uuid}
            </option>
          ))}
        </datalist>
      </label>
      <label>
        <span>
          Flavor extra specs (<code>key=value</code>, one per line)
        </span>
        <textarea name="extraSpecs" rows={2} value={form.extraSpecs} onChange={set('extraSpecs')} />
      </label>
      <div className="explain-row">
        <label>
          <span>Project</span>
          <input name="projectId" value={form.projectId} onChange={set('projectId')} />
        </label>
        <label>
          <span>Availability zone</span>
          <input
            name="availabilityZone"
            value={form.availabilityZone}
            onChange={set('availabilityZone')}
          />
        </label>
      </div>
      <div className="explain-row">
        <label>
          <span>Server group</span>
          <select name="group" value={form.group} onChange={set('group')}>
            <option value="">none</option>
            {groups.data?.serverGroups.map((g) => (
              <option key={g.uuid} value={g.uuid}>
                {g.name} ({g.policy.toLowerCase()})
              </option>
            ))}
            {form.group && !groups.data?.serverGroups.some((g) => g.uuid === form.group) && (
              <option value={form.group}>{form.group}</option>
            )}
          </select>
        </label>
        <label>
          <span>Scheduler profile</span>
          <select name="profile" value={form.profile} onChange={set('profile')}>
            {profiles.map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </select>
        </label>
      </div>
      <fieldset className="hints">
        <legend>Scheduler hints</legend>
        {form.hints.map((h, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity but their place
          <div key={i} className="hint-row" data-hint={i}>
            <input
              aria-label={`Hint ${i + 1} key`}
              placeholder="key, e.g. same_host"
              value={h.key}
              onChange={(ev) => setHint(i, { key: ev.target.value })}
            />
            <input
              aria-label={`Hint ${i + 1} values`}
              placeholder="values, comma-separated"
              value={h.values}
              onChange={(ev) => setHint(i, { values: ev.target.value })}
            />
            <button
              type="button"
              aria-label={`Remove hint ${i + 1}`}
              onClick={() => onChange({ ...form, hints: form.hints.filter((_, j) => j !== i) })}
            >
              ×
            </button>
          </div>
        ))}
        <button
          type="button"
          onClick={() => onChange({ ...form, hints: [...form.hints, { key: '', values: '' }] })}
        >
          Add hint
        </button>
      </fieldset>
      <button type="submit">Explain</button>
    </form>
  );
}
