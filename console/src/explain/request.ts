// The explain page's request in its three shapes: the form's fields, the URL hash (so an
// explanation is linkable) and the GraphQL variables it sends. Form -> variables always works;
// variables -> form works when the variables say nothing the form cannot show.

/** One scheduler hint row: its key and its values, comma-separated. */
export interface HintRow {
  readonly key: string;
  readonly values: string;
}

/** The form's fields, as typed. */
export interface ExplainForm {
  /** "VCPU:2, MEMORY_MB:2048" */
  readonly resources: string;
  /** "CUSTOM_GOLD, !CUSTOM_SLOW": `!` forbids. */
  readonly traits: string;
  /** Aggregate uuids, comma-separated: the host must be in any of them. */
  readonly memberOf: string;
  /** `key=value`, one per line. */
  readonly extraSpecs: string;
  readonly projectId: string;
  readonly availabilityZone: string;
  readonly hints: readonly HintRow[];
  /** A server group uuid. */
  readonly group: string;
  readonly profile: string;
}

/** What the page opens with. */
export const DEFAULT_FORM: ExplainForm = {
  resources: 'VCPU:2, MEMORY_MB:2048',
  traits: '',
  memberOf: '',
  extraSpecs: '',
  projectId: 'demo',
  availabilityZone: '',
  hints: [],
  group: '',
  profile: 'default',
};

/**
 * The consumer the console explains for. explainPlacement claims nothing, so one fixed uuid keeps
 * the GraphQL text stable while the form is edited.
 */
export const CONSOLE_CONSUMER = '00000000-0000-4000-8000-00000000c0de';

/** The non-empty, trimmed terms of `text`, split on `separator` (default: commas). */
export function list(text: string, separator: string | RegExp = ','): string[] {
  return text
    .split(separator)
    .map((s) => s.trim())
    .filter(Boolean);
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** The variables of the Explain query for `form` (empty fields left out). */
export function toVariables(form: ExplainForm): { input: Record<string, Json> } {
  const resources = list(form.resources).map((term) => {
    const [resourceClass = '', amount = ''] = term.split(':').map((x) => x.trim());
    return { resourceClass, amount: amount === '' ? Number.NaN : Number(amount) };
  });
  const group: Record<string, Json> = {
    suffix: '',
    resources: resources.map((r) => ({
      resourceClass: r.resourceClass,
      // JSON has no NaN: an unreadable amount goes to the server as text, which says what is wrong.
      amount: Number.isFinite(r.amount) ? r.amount : String(r.amount),
    })),
  };
  const traits = list(form.traits);
  if (traits.length > 0) {
    group.required = traits;
  }
  const aggregates = list(form.memberOf);
  if (aggregates.length > 0) {
    group.memberOf = [aggregates.length === 1 ? aggregates[0]! : `in:${aggregates.join(',')}`];
  }
  const input: Record<string, Json> = {
    consumerUuids: [CONSOLE_CONSUMER],
    projectId: form.projectId.trim(),
    userId: 'console',
    request: { groups: [group] },
  };
  const specs = list(form.extraSpecs, /\n/).map((kv) => {
    const at = kv.indexOf('=');
    return at < 0
      ? { key: kv, value: '' }
      : { key: kv.slice(0, at).trim(), value: kv.slice(at + 1).trim() };
  });
  if (specs.length > 0) {
    input.extraSpecs = specs;
  }
  if (form.availabilityZone.trim()) {
    input.availabilityZone = form.availabilityZone.trim();
  }
  const hints = form.hints
    .filter((h) => h.key.trim())
    .map((h) => ({ key: h.key.trim(), values: list(h.values) }));
  if (hints.length > 0) {
    input.hints = hints;
  }
  if (form.group.trim()) {
    input.group = form.group.trim();
  }
  if (form.profile && form.profile !== 'default') {
    input.profile = form.profile;
  }
  return { input };
}

/** A form read back from variables, or why it cannot be. */
export type FromVariables = { form: ExplainForm } | { problem: string };

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isStrings = (v: unknown): v is string[] =>
  Array.isArray(v) && v.every((x) => typeof x === 'string');

const INPUT_KEYS = new Set([
  'consumerUuids',
  'projectId',
  'userId',
  'request',
  'extraSpecs',
  'availabilityZone',
  'hints',
  'group',
  'profile',
]);

/** Reads the form back from the variables' JSON (text -> form). */
export function fromVariables(variables: unknown): FromVariables {
  const input = isObject(variables) ? variables.input : undefined;
  if (!isObject(input)) {
    return { problem: 'the variables have no "input" object' };
  }
  const extra = Object.keys(input).filter((k) => !INPUT_KEYS.has(k));
  if (extra.length > 0) {
    return { problem: `the form has no field for ${extra.join(', ')}` };
  }
  const request = input.request;
  const groups = isObject(request) ? request.groups : undefined;
  if (!isObject(request) || Object.keys(request).some((k) => k !== 'groups')) {
    return { problem: 'the form shows only request.groups' };
  }
  if (!Array.isArray(groups) || groups.length !== 1 || !isObject(groups[0])) {
    return { problem: 'the form shows exactly one request group' };
  }
  const g = groups[0];
  if ((g.suffix ?? '') !== '' || g.inTree != null) {
    return { problem: 'the form shows only the unsuffixed group, without inTree' };
  }
  const resources = Array.isArray(g.resources) ? g.resources : [];
  if (!resources.every((r) => isObject(r) && typeof r.resourceClass === 'string')) {
    return { problem: 'a resource has no resourceClass' };
  }
  const required = g.required ?? [];
  if (!isStrings(required)) {
    return { problem: 'required must be a list of strings' };
  }
  const memberOf = g.memberOf ?? [];
  if (!isStrings(memberOf) || memberOf.length > 1 || memberOf[0]?.startsWith('!')) {
    return { problem: 'the form shows one member_of term (any of some aggregates)' };
  }
  const specs = input.extraSpecs ?? [];
  if (!Array.isArray(specs) || !specs.every((s) => isObject(s) && typeof s.key === 'string')) {
    return { problem: 'extraSpecs must be a list of {key, value}' };
  }
  const hints = input.hints ?? [];
  if (!Array.isArray(hints) || !hints.every((h) => isObject(h) && typeof h.key === 'string')) {
    return { problem: 'hints must be a list of {key, values}' };
  }
  const text = (v: unknown) => (v == null ? '' : String(v));
  return {
    form: {
      resources: resources
        .map((r) => `${text((r as { resourceClass: string }).resourceClass)}:${text(r.amount)}`)
        .join(', '),
      traits: required.join(', '),
      memberOf: (memberOf[0] ?? '').replace(/^in:/, '').split(',').join(', '),
      extraSpecs: specs
        .map((s) => `${text((s as { key: string }).key)}=${text(s.value)}`)
        .join('\n'),
      projectId: text(input.projectId),
      availabilityZone: text(input.availabilityZone),
      hints: hints.map((h) => ({
        key: text((h as { key: string }).key),
        values: isStrings(h.values) ? h.values.join(', ') : text(h.values),
      })),
      group: text(input.group),
      profile: text(input.profile) || 'default',
    },
  };
}

// Hash parameters: short, readable names; only fields that differ from an empty form.
const PARAMS: readonly (readonly [keyof ExplainForm, string])[] = [
  ['resources', 'resources'],
  ['traits', 'traits'],
  ['memberOf', 'member_of'],
  ['extraSpecs', 'extra_specs'],
  ['projectId', 'project'],
  ['availabilityZone', 'az'],
  ['group', 'group'],
  ['profile', 'profile'],
];

/** The hash's query part for `form`: `resources=VCPU%3A2...&hint=same_host%3Da%2Cb`. */
export function toHashQuery(form: ExplainForm): string {
  const q = new URLSearchParams();
  for (const [field, name] of PARAMS) {
    const v = form[field] as string;
    if (v.trim() && !(field === 'profile' && v === 'default')) {
      q.set(name, v);
    }
  }
  for (const h of form.hints) {
    if (h.key.trim()) {
      q.append('hint', `${h.key.trim()}=${h.values}`);
    }
  }
  return q.toString();
}

/** The form a hash's query part describes (null when it has none). */
export function fromHashQuery(query: string): ExplainForm | null {
  const q = new URLSearchParams(query);
  if ([...q.keys()].length === 0) {
    return null;
  }
  const form: Record<string, unknown> = { ...DEFAULT_FORM, resources: '', projectId: '' };
  for (const [field, name] of PARAMS) {
    form[field] = q.get(name) ?? (field === 'profile' ? 'default' : '');
  }
  form.hints = q.getAll('hint').map((h) => {
    const at = h.indexOf('=');
    return at < 0 ? { key: h, values: '' } : { key: h.slice(0, at), values: h.slice(at + 1) };
  });
  return form as unknown as ExplainForm;
}
