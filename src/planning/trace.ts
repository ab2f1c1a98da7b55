// Simulation traces written by hand: a JSONL file, one ScheduleInput JSON object per line (the
// GraphQL `ScheduleInput` fields; `consumerUuids` optional), with `count` for "this many
// consumers" when no uuids are given. Consumer uuids a line leaves out are made from the seed, so
// the same file and seed name the same consumers. `projectId` / `userId` default to `simulation`.
// Per-request `profile` and `filters` are ignored: the simulation's configuration decides.
import type { CandidateRequest, RequestGroup } from '../placement/allocation-candidates/request';
import { BadRequestError, ErrorCode } from '../placement/errors';
import {
  isGroupSuffix,
  parseMemberOfOrThrow,
  parseTraitTermsOrThrow,
} from '../placement/query-syntax';
import { normalizeUuidOrThrow } from '../placement/uuid';
import type { ScheduleRequest } from '../scheduler/schedule-types';
import { seededRandom } from './pipeline-config';
import { MAX_SIMULATED_CONSUMERS } from './simulation';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

function bad(line: number, message: string): BadRequestError {
  return new BadRequestError(`Trace line ${line}: ${message}`, ErrorCode.SIMULATION_INVALID_TRACE);
}

/** Consumer uuids made from a seeded random source (version 4 layout). */
export function consumerUuidMaker(seed: number): () => string {
  const rng = seededRandom(seed ^ 0x5bd1e995);
  return () => {
    const hex = Array.from({ length: 32 }, () => Math.floor(rng() * 16).toString(16));
    hex[12] = '4';
    hex[16] = ((Number.parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
    const h = hex.join('');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  };
}

function strings(line: number, v: unknown, what: string): string[] {
  if (v === undefined || v === null) {
    return [];
  }
  if (!Array.isArray(v) || v.some((s) => typeof s !== 'string')) {
    throw bad(line, `${what} must be a list of strings`);
  }
  return v as string[];
}

function groupOf(line: number, g: unknown): RequestGroup {
  if (!isObject(g)) {
    throw bad(line, 'each request group must be an object');
  }
  const suffix = typeof g.suffix === 'string' ? g.suffix : '';
  if (!isGroupSuffix(suffix)) {
    throw bad(line, `invalid request group suffix '${suffix}'`);
  }
  const resources: Record<string, number> = {};
  const list = Array.isArray(g.resources) ? g.resources : [];
  for (const r of list) {
    const rc = isObject(r) ? r.resourceClass : undefined;
    const amount = isObject(r) ? r.amount : undefined;
    if (typeof rc !== 'string' || !Number.isInteger(amount) || (amount as number) < 1) {
      throw bad(line, 'resources are { "resourceClass": "VCPU", "amount": 2 } (amount at least 1)');
    }
    if (Object.hasOwn(resources, rc)) {
      throw bad(line, `resource class ${rc} appears more than once in group '${suffix}'`);
    }
    resources[rc] = amount as number;
  }
  const traits = parseTraitTermsOrThrow(strings(line, g.required, 'required'));
  const members = parseMemberOfOrThrow(strings(line, g.memberOf, 'memberOf'));
  return {
    suffix,
    resources,
    requiredTraits: traits.required,
    forbiddenTraits: traits.forbidden,
    memberOf: members.memberOf,
    forbiddenAggregates: members.forbidden,
    ...(typeof g.inTree === 'string' ? { inTree: normalizeUuidOrThrow(g.inTree, 'inTree') } : {}),
  };
}

function requestOf(line: number, r: unknown): CandidateRequest {
  if (!isObject(r) || !Array.isArray(r.groups) || r.groups.length === 0) {
    throw bad(line, 'request must be { "groups": [ { "suffix": "", "resources": [...] } ] }');
  }
  const groups = r.groups.map((g) => groupOf(line, g));
  if (new Set(groups.map((g) => g.suffix)).size !== groups.length) {
    throw bad(line, 'a request group suffix appears more than once');
  }
  const root = parseTraitTermsOrThrow(strings(line, r.rootRequired, 'rootRequired'), {
    allowAnyOf: false,
  });
  const limit = r.limit;
  if (
    limit !== undefined &&
    limit !== null &&
    !(Number.isInteger(limit) && (limit as number) >= 1)
  ) {
    throw bad(line, 'limit must be a positive integer');
  }
  return {
    groups,
    ...(r.groupPolicy === 'ISOLATE' || r.groupPolicy === 'isolate'
      ? { groupPolicy: 'isolate' }
      : {}),
    ...(r.groupPolicy === 'NONE' || r.groupPolicy === 'none' ? { groupPolicy: 'none' } : {}),
    rootRequired: root.required,
    rootForbidden: root.forbidden,
    sameSubtree: Array.isArray(r.sameSubtree)
      ? r.sameSubtree.map((s) => strings(line, s, 'sameSubtree'))
      : [],
    ...(typeof limit === 'number' ? { limit } : {}),
  };
}

function hintsOf(line: number, o: Json): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const hints = Array.isArray(o.hints) ? o.hints : [];
  for (const h of hints) {
    if (!isObject(h) || typeof h.key !== 'string' || h.key === '__proto__') {
      throw bad(line, 'hints are { "key": "...", "values": ["..."] }');
    }
    out[h.key] = strings(line, h.values, `hint ${h.key}`);
  }
  const uuids = (v: unknown, what: string) =>
    strings(line, v, what).map((u) => normalizeUuidOrThrow(u, what));
  if (o.sameHost) out.same_host = uuids(o.sameHost, 'sameHost');
  if (o.differentHost) out.different_host = uuids(o.differentHost, 'differentHost');
  if (typeof o.group === 'string') out.group = [normalizeUuidOrThrow(o.group, 'group')];
  return out;
}

function extraSpecsOf(line: number, v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  const list = Array.isArray(v)
    ? v
    : isObject(v)
      ? Object.entries(v).map(([key, value]) => ({ key, value }))
      : [];
  for (const kv of list) {
    if (!isObject(kv) || typeof kv.key !== 'string' || typeof kv.value !== 'string') {
      throw bad(line, 'extraSpecs are [{ "key": "...", "value": "..." }] or { "key": "value" }');
    }
    out[kv.key] = kv.value;
  }
  return out;
}

/** One trace line as a scheduling request (`newUuid` names consumers the line leaves out). */
export function traceRequestOf(line: number, o: unknown, newUuid: () => string): ScheduleRequest {
  if (!isObject(o)) {
    throw bad(line, 'not a JSON object');
  }
  const given = strings(line, o.consumerUuids, 'consumerUuids');
  const count = o.count ?? (given.length > 0 ? given.length : 1);
  if (
    !Number.isInteger(count) ||
    (count as number) < 1 ||
    (count as number) > MAX_SIMULATED_CONSUMERS
  ) {
    throw bad(line, `count must be a whole number from 1 to ${MAX_SIMULATED_CONSUMERS}`);
  }
  if (given.length > 0 && given.length !== count) {
    throw bad(line, `count ${String(count)} but ${given.length} consumerUuids`);
  }
  const consumerUuids =
    given.length > 0
      ? given.map((u) => normalizeUuidOrThrow(u, 'consumer uuid'))
      : Array.from({ length: count as number }, newUuid);
  const text = (v: unknown, dflt: string) => (typeof v === 'string' && v !== '' ? v : dflt);
  return {
    consumerUuids,
    projectId: text(o.projectId, 'simulation'),
    userId: text(o.userId, 'simulation'),
    ...(typeof o.consumerType === 'string' ? { consumerType: o.consumerType } : {}),
    request: requestOf(line, o.request),
    extraSpecs: extraSpecsOf(line, o.extraSpecs),
    hints: hintsOf(line, o),
    ...(typeof o.availabilityZone === 'string' ? { availabilityZone: o.availabilityZone } : {}),
  };
}

/**
 * A JSONL trace: one request per non-blank line (lines starting with `#` are comments).
 * @throws BadRequestError SIMULATION_INVALID_TRACE naming the line.
 */
export function parseTrace(text: string, seed: number): ScheduleRequest[] {
  const newUuid = consumerUuidMaker(seed);
  const out: ScheduleRequest[] = [];
  for (const [i, raw] of text.split('\n').entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) {
      continue;
    }
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      throw bad(i + 1, `not JSON: ${(err as Error).message}`);
    }
    try {
      out.push(traceRequestOf(i + 1, value, newUuid));
    } catch (err) {
      if (err instanceof BadRequestError && err.code !== ErrorCode.SIMULATION_INVALID_TRACE) {
        throw bad(i + 1, err.message);
      }
      throw err;
    }
  }
  return out;
}
