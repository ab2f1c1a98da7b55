// The JSON text of GET /allocation_candidates, written directly. An answer for 1,000 hosts is
// ~500 KB: building it as objects and then serialising them costs twice the work and most of
// the garbage of the request. Provider summaries are the engine's shared, frozen objects (one
// per provider until it changes), so the text of each is kept with it and reused by every
// answer that names the provider. The output is byte-for-byte what JSON.stringify of the
// documented body gives (test/unit/rest/candidate-json.test.ts checks it against that).
import type {
  AllocationCandidates,
  AllocationRequest,
  ProviderSummary,
} from '../placement/allocation-candidates/results';

/** Which parts of the body a microversion shows. */
export interface CandidateJsonShape {
  /** 1.12: allocations as an object keyed by provider uuid (else a list). */
  readonly dict: boolean;
  /** 1.34: `mappings` in each allocation request. */
  readonly mappings: boolean;
  /** 1.17: traits in provider summaries. */
  readonly traits: boolean;
  /** 1.29: parent and root provider uuids in provider summaries. */
  readonly tree: boolean;
  /** Below 1.27 only the requested classes appear in summaries; undefined = all classes. */
  readonly requestedClasses: ReadonlySet<string> | undefined;
}

const q = JSON.stringify;

function amounts(resources: Readonly<Record<string, number>>): string {
  let out = '{';
  let first = true;
  for (const rc in resources) {
    out += `${first ? '' : ','}${q(rc)}:${q(resources[rc])}`;
    first = false;
  }
  return `${out}}`;
}

function requestJson(ar: AllocationRequest, shape: CandidateJsonShape): string {
  let out: string;
  if (shape.dict) {
    out = '{"allocations":{';
    ar.allocations.forEach((a, i) => {
      out += `${i ? ',' : ''}${q(a.providerUuid)}:{"resources":${amounts(a.resources)}}`;
    });
    out += '}';
    if (shape.mappings) {
      out += ',"mappings":{';
      let first = true;
      for (const suffix in ar.mappings) {
        out += `${first ? '' : ','}${q(suffix)}:${q(ar.mappings[suffix])}`;
        first = false;
      }
      out += '}';
    }
  } else {
    out = '{"allocations":[';
    ar.allocations.forEach((a, i) => {
      out += `${i ? ',' : ''}{"resource_provider":{"uuid":${q(a.providerUuid)}},"resources":${amounts(a.resources)}}`;
    });
    out += ']';
  }
  return `${out}}`;
}

function summaryJson(ps: ProviderSummary, shape: CandidateJsonShape): string {
  let out = `${q(ps.providerUuid)}:{"resources":{`;
  let first = true;
  for (const r of ps.resources) {
    if (shape.requestedClasses && !shape.requestedClasses.has(r.resourceClass)) {
      continue;
    }
    out += `${first ? '' : ','}${q(r.resourceClass)}:{"capacity":${q(r.capacity)},"used":${q(r.used)}}`;
    first = false;
  }
  out += '}';
  if (shape.traits) {
    out += `,"traits":${q(ps.traits)}`;
  }
  if (shape.tree) {
    out += `,"parent_provider_uuid":${q(ps.parentProviderUuid)},"root_provider_uuid":${q(ps.rootProviderUuid)}`;
  }
  return `${out}}`;
}

/** Summary texts by shape (only the shapes without a class filter are kept). */
const summaryTexts = new Map<string, WeakMap<ProviderSummary, string>>();

function cachedSummaryJson(ps: ProviderSummary, shape: CandidateJsonShape): string {
  if (shape.requestedClasses || !Object.isFrozen(ps)) {
    return summaryJson(ps, shape);
  }
  const key = `${shape.traits ? 't' : ''}${shape.tree ? 'p' : ''}`;
  let texts = summaryTexts.get(key);
  if (!texts) {
    texts = new WeakMap();
    summaryTexts.set(key, texts);
  }
  let text = texts.get(ps);
  if (text === undefined) {
    text = summaryJson(ps, shape);
    texts.set(ps, text);
  }
  return text;
}

/** The body of GET /allocation_candidates for `cands` in `shape`. */
export function candidatesJson(cands: AllocationCandidates, shape: CandidateJsonShape): string {
  const parts: string[] = [];
  for (const ar of cands.allocationRequests) {
    parts.push(requestJson(ar, shape));
  }
  const summaries: string[] = [];
  for (const ps of cands.providerSummaries) {
    summaries.push(cachedSummaryJson(ps, shape));
  }
  return `{"allocation_requests":[${parts.join(',')}],"provider_summaries":{${summaries.join(',')}}}`;
}
