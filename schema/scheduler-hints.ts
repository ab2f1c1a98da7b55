// Scheduler hints in ScheduleInput (Nova `os:scheduler_hints`): free-form hints for operator
// plugins, plus `sameHost` / `differentHost`, the hints `same_host` / `different_host` that
// SameHostFilter and DifferentHostFilter read, and `group`, the server group (hint `group`).
import { BadRequestError, ErrorCode } from '../src/placement/errors';
import { normalizeUuidOrThrow } from '../src/placement/uuid';
import { builder } from './builder';

/** GraphQL SchedulerHintInput. */
export const SchedulerHintInput = builder.inputType('SchedulerHintInput', {
  description:
    'One scheduler hint (Nova `os:scheduler_hints`): a key and its values, read by filters and weighers as `request.hints[key]`.',
  fields: (t) => ({
    key: t.string({ description: 'The hint name, e.g. `same_host`.', required: true }),
    values: t.stringList({
      description: 'Its values (a single value is a list of one).',
      required: true,
    }),
  }),
});

/** Most hints, and most values per hint, one request may carry. */
const MAX_HINTS = 64;
const MAX_HINT_VALUES = 1000;

/** The hints of `input` as `request.hints`; instance hints normalised to canonical uuids. */
export function hintsOrThrow(input: {
  hints?: readonly { key: string; values: readonly string[] }[] | null;
  sameHost?: readonly (string | number)[] | null;
  differentHost?: readonly (string | number)[] | null;
  group?: string | number | null;
}): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const bad = (message: string) => new BadRequestError(message, ErrorCode.INVALID_INPUT);
  const entries: [string, readonly string[]][] = [
    ...(input.hints ?? []).map((h) => [h.key, h.values] as [string, readonly string[]]),
    ...(input.sameHost ? [['same_host', input.sameHost.map(String)] as [string, string[]]] : []),
    ...(input.differentHost
      ? [['different_host', input.differentHost.map(String)] as [string, string[]]]
      : []),
    ...(input.group != null ? [['group', [String(input.group)]] as [string, string[]]] : []),
  ];
  if (entries.length > MAX_HINTS) {
    throw bad(`At most ${MAX_HINTS} scheduler hints per request (got ${entries.length}).`);
  }
  for (const [key, values] of entries) {
    if (key.length === 0 || key.length > 255) {
      throw bad('A scheduler hint key must be 1 to 255 characters.');
    }
    if (Object.hasOwn(out, key) || key === '__proto__') {
      throw bad(
        `Scheduler hint '${key}' is given twice (sameHost / differentHost / group are the hints same_host / different_host / group).`,
      );
    }
    if (values.length > MAX_HINT_VALUES) {
      throw bad(`Scheduler hint '${key}' has more than ${MAX_HINT_VALUES} values.`);
    }
    if (key === 'group' && values.length !== 1) {
      throw bad(`Scheduler hint 'group' names one server group (got ${values.length} values).`);
    }
    out[key] =
      key === 'same_host' || key === 'different_host'
        ? values.map((v) => normalizeUuidOrThrow(v, `${key} instance uuid`))
        : key === 'group'
          ? [normalizeUuidOrThrow(values[0]!, 'server group uuid')]
          : [...values];
  }
  return out;
}
