// The candidate configuration an admin compares a trace under: base profile, filters and weighers
// in order, plugin settings (JSON), host subset size and plugin directories on the server (plugins
// not yet deployed: enable them in the filters or weighers); what is left empty comes from the base.
import type { PipelineForm } from './pipeline';

export function PipelineEditor(props: {
  pipeline: PipelineForm;
  profiles: readonly string[];
  onChange: (p: PipelineForm) => void;
}) {
  const { pipeline: p } = props;
  const set = (k: keyof PipelineForm) => (e: { target: { value: string } }) =>
    props.onChange({ ...p, [k]: e.target.value });
  return (
    <fieldset className="sim-pipeline" data-testid="compare-pipeline">
      <legend>
        Candidate configuration (compared with the run; empty fields: the base profile's)
      </legend>
      <label>
        <span>Base profile</span>
        <select name="cpProfile" value={p.profile} onChange={set('profile')}>
          {props.profiles.map((name) => (
            <option key={name}>{name}</option>
          ))}
        </select>
      </label>
      <label>
        <span>Filters, in order</span>
        <input name="cpFilters" value={p.filters} onChange={set('filters')} />
      </label>
      <label>
        <span>Weighers</span>
        <input name="cpWeighers" value={p.weighers} onChange={set('weighers')} />
      </label>
      <label>
        <span>Host subset size</span>
        <input
          name="cpSubset"
          type="number"
          min={1}
          className="sim-count"
          value={p.hostSubsetSize}
          onChange={set('hostSubsetSize')}
        />
      </label>
      <label>
        <span>Plugin directories on the server (not yet deployed)</span>
        <input
          name="cpDirs"
          placeholder="/etc/berth/candidate-plugins"
          value={p.pluginDirs}
          onChange={set('pluginDirs')}
        />
      </label>
      <label className="sim-pipeline-plugins">
        <span>
          Plugin settings (JSON, as <code>BERTH_SCHEDULER_CONFIG</code>)
        </span>
        <textarea
          name="cpPlugins"
          rows={3}
          spellCheck={false}
          value={p.plugins}
          onChange={set('plugins')}
        />
      </label>
    </fieldset>
  );
}
