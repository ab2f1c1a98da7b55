// A simulation's trace in the shapes the simulation page uses: table rows (a flavor's resources,
// how many, an availability zone, scheduler hints), JSON lines pasted or written by hand, the
// URL hash (so a simulation is a link), and the ScheduleInput list `simulate` is sent.
import { type PipelineForm, pipelineFromHash, pipelineInput, pipelineToHash } from './pipeline';

/** One row of the trace table: `count` consumers asking for the same thing, in one request. */
export interface TraceRow {
  /** A label for people (a flavor's name); not sent. */
  readonly name: string;
  /** "VCPU:2, MEMORY_MB:4096" */
  readonly resources: string;
  /** "CUSTOM_GOLD, !CUSTOM_SLOW" */
  readonly traits: string;
  readonly count: number;
  readonly availabilityZone: string;
  /** "same_host=a,b; different_host=c" */
  readonly hints: string;
}

/** How the trace is given. */
export type TraceMode = 'table' | 'jsonl' | 'audit';

/** Everything the page's inputs hold. */
export interface SimulationForm {
  readonly mode: TraceMode;
  readonly rows: readonly TraceRow[];
  readonly jsonl: string;
  /** The last N schedule calls of the audit trail (admin). */
  readonly fromAudit: number;
  readonly profile: string;
  /** '' for no comparison. */
  readonly compareProfile: string;
  /** A candidate configuration to compare with instead (admin), or null. */
  readonly comparePipeline: PipelineForm | null;
  readonly seed: number;
}

export const EMPTY_ROW: TraceRow = {
  name: '',
  resources: 'VCPU:2, MEMORY_MB:4096',
  traits: '',
  count: 1,
  availabilityZone: '',
  hints: '',
};

export const DEFAULT_SIMULATION: SimulationForm = {
  mode: 'table',
  rows: [EMPTY_ROW],
  jsonl: '',
  fromAudit: 100,
  profile: 'default',
  compareProfile: '',
  comparePipeline: null,
  seed: 1,
};

/** The project and user simulated requests are made for, unless a JSON line names its own. */
export const SIMULATION_PROJECT = 'simulation';
const SIMULATION_USER = 'console';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** The n-th consumer of a trace: a fixed uuid, so two runs of one trace name the same consumers. */
export function consumerUuid(n: number): string {
  return `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
}

const terms = (text: string, separator: string | RegExp = ',') =>
  text
    .split(separator)
    .map((s) => s.trim())
    .filter(Boolean);

/** "VCPU:2, MEMORY_MB:4096" as resource amounts (an unreadable amount is sent as text). */
export function parseResources(text: string): { resourceClass: string; amount: Json }[] {
  return terms(text).map((term) => {
    const [resourceClass = '', amount = ''] = term.split(':').map((x) => x.trim());
    const n = Number(amount);
    return { resourceClass, amount: amount !== '' && Number.isFinite(n) ? n : amount };
  });
}

/** One row's ScheduleInput, its consumers numbered from `first`. */
function rowInput(row: TraceRow, first: number): JsonObject {
  const group: JsonObject = { suffix: '', resources: parseResources(row.resources) };
  const traits = terms(row.traits);
  if (traits.length > 0) {
    group.required = traits;
  }
  const input: JsonObject = {
    consumerUuids: Array.from({ length: Math.max(1, row.count) }, (_, i) =>
      consumerUuid(first + i),
    ),
    projectId: SIMULATION_PROJECT,
    userId: SIMULATION_USER,
    request: { groups: [group] },
  };
  if (row.availabilityZone.trim()) {
    input.availabilityZone = row.availabilityZone.trim();
  }
  const hints = terms(row.hints, ';').map((h) => {
    const at = h.indexOf('=');
    return at < 0
      ? { key: h, values: [] }
      : { key: h.slice(0, at).trim(), values: terms(h.slice(at + 1)) };
  });
  if (hints.length > 0) {
    input.hints = hints;
  }
  return input;
}

const isObject = (v: unknown): v is JsonObject =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * One JSON line as a ScheduleInput: either a ScheduleInput itself (it has `request`; missing
 * consumerUuids, projectId and userId are filled in, `count` says how many consumers), or the
 * short form `{"resources": {"VCPU": 2}, "required": [...], "count": 3, "availabilityZone": ...}`.
 */
function lineInput(value: unknown, first: number): JsonObject | string {
  if (!isObject(value)) {
    return 'not a JSON object';
  }
  const { count, resources, required, ...rest } = value;
  const n = typeof count === 'number' && count >= 1 ? Math.floor(count) : 1;
  const input: JsonObject = { ...rest };
  if (!('request' in value)) {
    if (!isObject(resources)) {
      return 'neither "request" (a ScheduleInput) nor "resources" ({"VCPU": 2, ...})';
    }
    const group: JsonObject = {
      suffix: '',
      resources: Object.entries(resources).map(([resourceClass, amount]) => ({
        resourceClass,
        amount,
      })),
    };
    if (Array.isArray(required)) {
      group.required = required;
    }
    input.request = { groups: [group] };
  }
  if (!Array.isArray(input.consumerUuids)) {
    input.consumerUuids = Array.from({ length: n }, (_, i) => consumerUuid(first + i));
  }
  input.projectId ??= SIMULATION_PROJECT;
  input.userId ??= SIMULATION_USER;
  return input;
}

/** The trace's requests, or what is wrong with it (line numbers from 1). */
export function traceRequests(
  form: SimulationForm,
): { requests: JsonObject[] } | { problem: string } {
  const requests: JsonObject[] = [];
  let consumers = 0;
  const add = (input: JsonObject) => {
    requests.push(input);
    consumers += Array.isArray(input.consumerUuids) ? input.consumerUuids.length : 0;
  };
  if (form.mode === 'table') {
    for (const row of form.rows) {
      if (row.resources.trim()) {
        add(rowInput(row, consumers));
      }
    }
  } else {
    const lines = form.jsonl.split('\n');
    for (const [i, line] of lines.entries()) {
      if (!line.trim()) {
        continue;
      }
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch (err) {
        return { problem: `line ${i + 1} is not JSON (${(err as Error).message})` };
      }
      const input = lineInput(value, consumers);
      if (typeof input === 'string') {
        return { problem: `line ${i + 1}: ${input}` };
      }
      add(input);
    }
  }
  return requests.length > 0
    ? { requests }
    : { problem: 'the trace has no request: give one a resource amount' };
}

/** The variables of the Simulate query for `form`. */
export function simulateVariables(
  form: SimulationForm,
): { input: JsonObject } | { problem: string } {
  const input: JsonObject = { profile: form.profile || 'default', seed: form.seed };
  if (form.mode === 'audit') {
    input.fromAudit = form.fromAudit;
  } else {
    const trace = traceRequests(form);
    if ('problem' in trace) {
      return trace;
    }
    input.requests = trace.requests;
  }
  if (form.comparePipeline) {
    input.comparePipeline = pipelineInput(form.comparePipeline);
  } else if (form.compareProfile) {
    input.compareProfile = form.compareProfile;
  }
  return { input };
}

/** The table's rows as JSON lines in the short form (to go on editing them as text). */
export function rowsToJsonl(rows: readonly TraceRow[]): string {
  return rows
    .filter((r) => r.resources.trim())
    .map((r) => {
      const line: JsonObject = {
        resources: Object.fromEntries(
          parseResources(r.resources).map((x) => [x.resourceClass, x.amount]),
        ),
      };
      const traits = terms(r.traits);
      if (traits.length > 0) {
        line.required = traits;
      }
      if (r.count !== 1) {
        line.count = r.count;
      }
      if (r.availabilityZone.trim()) {
        line.availabilityZone = r.availabilityZone.trim();
      }
      return JSON.stringify(line);
    })
    .join('\n');
}

// The hash: `#/simulate?rows=<JSON>&profile=...&compare=...&seed=...&mode=jsonl&jsonl=...&audit=N`.

/** The hash's query part for `form` (only what differs from the defaults). */
export function toSimulationHash(form: SimulationForm): string {
  const q = new URLSearchParams();
  if (form.mode !== 'table') {
    q.set('mode', form.mode);
  }
  if (form.mode === 'table') {
    q.set(
      'rows',
      JSON.stringify(
        form.rows.map((r) => [r.name, r.resources, r.count, r.availabilityZone, r.traits, r.hints]),
      ),
    );
  } else if (form.mode === 'jsonl') {
    q.set('jsonl', form.jsonl);
  } else {
    q.set('audit', String(form.fromAudit));
  }
  if (form.profile !== 'default') {
    q.set('profile', form.profile);
  }
  if (form.comparePipeline) {
    pipelineToHash(form.comparePipeline, q);
  } else if (form.compareProfile) {
    q.set('compare', form.compareProfile);
  }
  if (form.seed !== 1) {
    q.set('seed', String(form.seed));
  }
  return q.toString();
}

const text = (v: unknown) => (v == null ? '' : String(v));

/** The form a hash's query part describes (null when it says nothing). */
export function fromSimulationHash(query: string): SimulationForm | null {
  const q = new URLSearchParams(query);
  if ([...q.keys()].length === 0) {
    return null;
  }
  let rows: TraceRow[] = [];
  try {
    const parsed: unknown = JSON.parse(q.get('rows') ?? '[]');
    if (Array.isArray(parsed)) {
      rows = parsed.filter(Array.isArray).map((r) => ({
        name: text(r[0]),
        resources: text(r[1]),
        count: Math.max(1, Math.floor(Number(r[2]) || 1)),
        availabilityZone: text(r[3]),
        traits: text(r[4]),
        hints: text(r[5]),
      }));
    }
  } catch {
    rows = [];
  }
  const mode = q.get('mode');
  return {
    mode: mode === 'jsonl' || mode === 'audit' ? mode : 'table',
    rows: rows.length > 0 ? rows : [EMPTY_ROW],
    jsonl: q.get('jsonl') ?? '',
    fromAudit: Math.max(1, Number(q.get('audit')) || DEFAULT_SIMULATION.fromAudit),
    profile: q.get('profile') || 'default',
    compareProfile: q.get('compare') ?? '',
    comparePipeline: pipelineFromHash(q),
    seed: Number.isInteger(Number(q.get('seed') ?? 1)) ? Number(q.get('seed') ?? 1) : 1,
  };
}

/** The link that opens the simulation page with `count` of one flavor (the overview's rows). */
export function flavorSimulationLink(
  flavor: {
    name: string;
    resources: readonly { resourceClass: string; amount: number }[];
    required: readonly string[];
  },
  count: number,
  profile: string,
): string {
  const row: TraceRow = {
    ...EMPTY_ROW,
    name: flavor.name,
    resources: flavor.resources.map((r) => `${r.resourceClass}:${r.amount}`).join(', '),
    traits: flavor.required.join(', '),
    count: Math.max(1, count),
  };
  return `#/simulate?${toSimulationHash({ ...DEFAULT_SIMULATION, rows: [row], profile })}`;
}
