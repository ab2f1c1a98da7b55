// ReservationFilter: Blazar-style reserved aggregates, pushed down into the candidate query as
// member_of / member_of=!in: (upstream: nova-specs negative-aggregate-membership, "developer impact"
// flow with [scheduler]placement_req_required_member_prefix / placement_req_default_forbidden_member_prefix).

import {
  configKeys,
  nameList,
  nameListField,
  pluginConfig,
  splitMetadataValue,
  withConfig,
} from '../../src/scheduler/helpers';
import type { AggregateView, AmendFactory, RequestAmendment } from '../../src/scheduler/plugin-api';

/** Name as written in `enabledFilters` (no Nova class; Blazar's post-filter is BlazarFilter). */
export const NAME = 'ReservationFilter';
/** Plugin kind. */
export const kind = 'filter';

/** Unsatisfiable: the request names a reservation no aggregate carries. */
export const REASON_NO_RESERVATION_AGGREGATE = 'no aggregate carries the requested reservation';

function startsWithAny(key: string, prefixes: readonly string[]): boolean {
  return prefixes.some((prefix) => key.startsWith(prefix));
}

function hasValue(aggregate: AggregateView, key: string, value: string): boolean {
  const raw = aggregate.metadata[key];
  return raw !== undefined && splitMetadataValue(raw).includes(value.trim());
}

const CONFIG = pluginConfig({
  requiredMemberPrefix: nameListField(
    'an extra spec whose key starts with one (`reservation:`) needs an aggregate with that key and value',
  ),
  defaultForbiddenMemberPrefix: nameListField(
    'aggregates with a metadata key starting with one are forbidden to requests without such an extra spec',
  ),
});
/** The configuration schema; its keys are the configuration keys (any other stops start-up). */
export const configSchema = () => CONFIG;
/** Configuration keys; any other key stops start-up. */
export const CONFIG_KEYS = configKeys(CONFIG);

/**
 * Creates the filter. Config: `requiredMemberPrefix` and `defaultForbiddenMemberPrefix`, each a
 * string or a list of strings (e.g. `'reservation:'`); either may be omitted.
 * @throws Error when a prefix is not a non-empty string.
 */
export const create: AmendFactory = withConfig(CONFIG, (config) => {
  const required = nameList(config.requiredMemberPrefix);
  const forbidden = nameList(config.defaultForbiddenMemberPrefix);
  return {
    name: NAME,
    kind,
    // Failing open would let unreserved requests land on reserved hosts.
    onError: 'closed',
    amendRequest(req, ctx): RequestAmendment | null {
      const specs = Object.entries(req.extraSpecs);
      const memberOf: string[][] = [];
      for (const [key, value] of specs.filter(([k]) => startsWithAny(k, required))) {
        const uuids = ctx.aggregates.filter((a) => hasValue(a, key, value)).map((a) => a.uuid);
        if (uuids.length === 0) {
          return { unsatisfiable: `${REASON_NO_RESERVATION_AGGREGATE}: ${key}=${value}` };
        }
        memberOf.push(uuids);
      }
      const skipForbidden =
        forbidden.length === 0 || specs.some(([k]) => startsWithAny(k, forbidden));
      const forbiddenAggregates = skipForbidden
        ? []
        : ctx.aggregates
            .filter((a) => Object.keys(a.metadata).some((k) => startsWithAny(k, forbidden)))
            .map((a) => a.uuid);
      if (memberOf.length === 0 && forbiddenAggregates.length === 0) {
        return null;
      }
      const note = [
        memberOf.length > 0
          ? `required member_of ${memberOf.map((s) => `in:${s.join(',')}`).join(' & ')}`
          : '',
        forbiddenAggregates.length > 0
          ? `forbidden member_of !in:${forbiddenAggregates.join(',')}`
          : '',
      ].filter((s) => s !== '');
      return { memberOf, forbiddenAggregates, note: note.join('; ') };
    },
  };
});
