// The JSON body of GET /allocation_candidates, written directly as bytes (src/lib/json-bytes.ts).
// An answer for 1,000 hosts is ~500 KB: building it as objects and then serialising them costs
// several times the search. Provider summaries are the engine's shared, frozen objects (one per
// provider until it changes), so the bytes of each are kept with it and copied into every
// answer that names the provider. The output is byte-for-byte what JSON.stringify of the
// documented body gives (test/unit/rest/candidate-json.test.ts checks it against that).

import { memoOnFrozen } from '../lib/frozen-memo';
import { JsonBytes } from '../lib/json-bytes';
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

function amounts(w: JsonBytes, resources: Readonly<Record<string, number>>): void {
  w.raw('{');
  let first = true;
  for (const rc in resources) {
    if (!first) {
      w.raw(',');
    }
    w.str(rc).raw(':').num(resources[rc]!);
    first = false;
  }
  w.raw('}');
}

function requestJson(w: JsonBytes, ar: AllocationRequest, shape: CandidateJsonShape): void {
  const allocations = ar.allocations;
  if (!shape.dict) {
    w.raw('{"allocations":[');
    for (let i = 0; i < allocations.length; i++) {
      const a = allocations[i]!;
      w.raw(i ? ',{"resource_provider":{"uuid":' : '{"resource_provider":{"uuid":');
      w.str(a.providerUuid).raw('},"resources":');
      amounts(w, a.resources);
      w.raw('}');
    }
    w.raw(']}');
    return;
  }
  w.raw('{"allocations":{');
  for (let i = 0; i < allocations.length; i++) {
    const a = allocations[i]!;
    if (i) {
      w.raw(',');
    }
    w.str(a.providerUuid).raw(':{"resources":');
    amounts(w, a.resources);
    w.raw('}');
  }
  w.raw('}');
  if (shape.mappings) {
    w.raw(',"mappings":{');
    let first = true;
    for (const suffix in ar.mappings) {
      if (!first) {
        w.raw(',');
      }
      w.str(suffix).raw(':[');
      const uuids = ar.mappings[suffix]!;
      for (let k = 0; k < uuids.length; k++) {
        if (k) {
          w.raw(',');
        }
        w.str(uuids[k]!);
      }
      w.raw(']');
      first = false;
    }
    w.raw('}');
  }
  w.raw('}');
}

const q = JSON.stringify;

/** `"<uuid>":{...}` of one summary, as text. */
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

/** Summary bytes by shape (only the shapes without a class filter are kept). */
const summaryBytes = new Map<string, WeakMap<ProviderSummary, Buffer>>();

/** Where the bytes of summaries in `shape` are kept; undefined when they are not (class filter). */
function keptFor(shape: CandidateJsonShape): WeakMap<ProviderSummary, Buffer> | undefined {
  if (shape.requestedClasses) {
    return undefined;
  }
  const key = `${shape.traits ? 't' : ''}${shape.tree ? 'p' : ''}`;
  let kept = summaryBytes.get(key);
  if (!kept) {
    kept = new WeakMap();
    summaryBytes.set(key, kept);
  }
  return kept;
}

function summaryBytesOf(
  ps: ProviderSummary,
  shape: CandidateJsonShape,
  kept: WeakMap<ProviderSummary, Buffer> | undefined,
): Buffer {
  if (!kept || !Object.isFrozen(ps)) {
    return Buffer.from(summaryJson(ps, shape));
  }
  let bytes = kept.get(ps);
  if (bytes === undefined) {
    bytes = Buffer.from(summaryJson(ps, shape));
    kept.set(ps, bytes);
  }
  return bytes;
}

function shapeKey(shape: CandidateJsonShape): string {
  const classes = shape.requestedClasses ? [...shape.requestedClasses].join(',') : '*';
  return `${+shape.dict}${+shape.mappings}${+shape.traits}${+shape.tree}${classes}`;
}

/**
 * The body of GET /allocation_candidates for `cands` in `shape`, as UTF-8 bytes. The bytes of a
 * frozen answer (a shared answer of an unchanged index) are kept with it: callers must not change
 * the Buffer.
 */
export function candidatesJson(cands: AllocationCandidates, shape: CandidateJsonShape): Buffer {
  return memoOnFrozen(cands, shapeKey(shape), () => writeCandidates(cands, shape));
}

function writeCandidates(cands: AllocationCandidates, shape: CandidateJsonShape): Buffer {
  const w = new JsonBytes();
  w.raw('{"allocation_requests":[');
  const requests = cands.allocationRequests;
  for (let i = 0; i < requests.length; i++) {
    if (i) {
      w.raw(',');
    }
    requestJson(w, requests[i]!, shape);
  }
  w.raw('],"provider_summaries":{');
  const summaries = cands.providerSummaries;
  const kept = keptFor(shape);
  for (let i = 0; i < summaries.length; i++) {
    if (i) {
      w.raw(',');
    }
    w.bytes(summaryBytesOf(summaries[i]!, shape, kept));
  }
  return w.raw('}}').done();
}
