// JsonFilter: a host passes when the scheduler hint `query`, a JSON query over host state, holds
// for it (upstream: nova/scheduler/filters/json_filter.py; the language in ./query.ts). Variables
// are Nova's HostState attributes, `$free_ram_mb`, `$free_disk_mb`, `$vcpus_total`, `$vcpus_used`,
// `$total_usable_ram_mb`, `$num_instances`, `$service.disabled`, `$host_ip`, ..., derived from what
// Placement holds (filters/host-state: MAPPED_ATTRIBUTES says from what). Those Placement has
// nothing for (`$cpu_info`, `$metrics`, `$pci_stats`, ...) are None, and so dropped, as an unknown
// variable is in Nova. Example: hint query = `[">=", "$free_ram_mb", 1024]`. A query Nova would
// raise on (an unknown operator, `<` between text and a number, malformed JSON, several values
// for the hint) rejects the host with the reason, where Nova fails the request. Config
// `countMovesOn` (`both`, or `source` as Nova): where a moving consumer counts in `$num_instances`,
// `$num_io_ops` and `$stats` (filters/host-counts).
import { configKeys, pluginConfig, withConfig } from '../../src/scheduler/helpers';
import type { FilterFactory } from '../../src/scheduler/plugin-api';
import { MOVE_COUNTING_KEY, type MoveCounting, moveCountingField } from '../host-counts';
import { hostStateValue, pyStr } from '../host-state';
import { type Json, passes, problemOf, QueryError, readVariable, variablesOf } from './query';

/** Nova-compatible name, as written in `enabledFilters`. */
export const NAME = 'JsonFilter';
/** Plugin kind. */
export const kind = 'filter';

/** The hint holding the query. */
export const QUERY_HINT = 'query';
/** Rejection: the query is false for the host. */
export const REASON_QUERY_FALSE = 'host does not satisfy the query hint';
/** Rejection: the query cannot be evaluated (Nova raises). */
export const REASON_INVALID_QUERY = 'invalid query hint';
/** Reason code of {@link REASON_QUERY_FALSE}. */
export const CODE_QUERY_FALSE = 'json.query_false';
/** Reason code of {@link REASON_INVALID_QUERY}. */
export const CODE_INVALID_QUERY = 'json.invalid_query';

/** Variables quoted, with their values, in a rejection. */
const QUOTED_VARIABLES = 6;

type State =
  | { readonly kind: 'none' }
  | { readonly kind: 'invalid'; readonly error: string }
  | { readonly kind: 'query'; readonly query: Json; readonly variables: readonly string[] };

/** The request's query: none, one that cannot run, or one to evaluate per host. */
export function readQuery(hints: Readonly<Record<string, readonly string[]>>): State {
  const values = hints[QUERY_HINT];
  if (values === undefined || values.length === 0 || (values.length === 1 && values[0] === '')) {
    return { kind: 'none' };
  }
  if (values.length > 1) {
    return {
      kind: 'invalid',
      error: `hint ${QUERY_HINT} holds one JSON query, got ${values.length} values`,
    };
  }
  let query: Json;
  try {
    query = JSON.parse(values[0]!) as Json;
  } catch (err) {
    return { kind: 'invalid', error: `not JSON (${(err as Error).message})` };
  }
  const problem = problemOf(query);
  return problem === null
    ? { kind: 'query', query, variables: variablesOf(query) }
    : { kind: 'invalid', error: problem };
}

const CONFIG = pluginConfig({
  [MOVE_COUNTING_KEY]: moveCountingField(),
});
/** The configuration schema; its keys are the configuration keys (any other stops start-up). */
export const configSchema = () => CONFIG;
/** Configuration keys: `countMovesOn` (filters/host-counts). */
export const CONFIG_KEYS = configKeys(CONFIG);

/** Creates the filter. @throws Error for an unknown `countMovesOn`. */
export const create: FilterFactory<State> = withConfig(CONFIG, (config) => {
  const moves = config[MOVE_COUNTING_KEY] as MoveCounting;
  return {
    name: NAME,
    kind,
    onError: 'closed',
    prepare: (req) => readQuery(req.hints),
    filter(host, _req, state) {
      if (state.kind === 'none') {
        return { fits: true };
      }
      if (state.kind === 'invalid') {
        return {
          fits: false,
          reason: `${REASON_INVALID_QUERY}: ${state.error}`,
          code: CODE_INVALID_QUERY,
        };
      }
      const lookup = (name: string) => hostStateValue(host, name, moves);
      try {
        if (passes(state.query, lookup)) {
          return { fits: true };
        }
      } catch (err) {
        if (err instanceof QueryError) {
          return {
            fits: false,
            reason: `${REASON_INVALID_QUERY}: ${err.message}`,
            code: CODE_INVALID_QUERY,
          };
        }
        throw err;
      }
      // The query ran, so every variable it names can be read.
      const shown = state.variables
        .slice(0, QUOTED_VARIABLES)
        .map((v) => `${v}=${pyStr(readVariable(v, lookup))}`);
      const detail = shown.length === 0 ? '' : ` (${shown.join(', ')})`;
      return { fits: false, reason: `${REASON_QUERY_FALSE}${detail}`, code: CODE_QUERY_FALSE };
    },
  };
});
