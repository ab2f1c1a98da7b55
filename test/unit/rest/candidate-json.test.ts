// The directly written candidates body is exactly JSON.stringify of the documented body
// (Placement's allocation_candidate.py shapes), for every microversion shape, with shared frozen
// summaries reused across answers and granular (numeric-looking) suffixes.

import type {
  AllocationCandidates,
  ProviderSummary,
} from '../../../src/placement/allocation-candidates/results';
import { type CandidateJsonShape, candidatesJson } from '../../../src/rest/candidate-json';

/** The body as objects, the way Placement builds it; the oracle. */
function reference(c: AllocationCandidates, s: CandidateJsonShape): string {
  const allocation_requests = c.allocationRequests.map((ar) => {
    if (!s.dict) {
      return {
        allocations: ar.allocations.map((a) => ({
          resource_provider: { uuid: a.providerUuid },
          resources: a.resources,
        })),
      };
    }
    const allocations = Object.fromEntries(
      ar.allocations.map((a) => [a.providerUuid, { resources: a.resources }]),
    );
    return s.mappings ? { allocations, mappings: ar.mappings } : { allocations };
  });
  const provider_summaries: Record<string, unknown> = {};
  for (const ps of c.providerSummaries) {
    const entry: Record<string, unknown> = {
      resources: Object.fromEntries(
        ps.resources
          .filter((r) => !s.requestedClasses || s.requestedClasses.has(r.resourceClass))
          .map((r) => [r.resourceClass, { capacity: r.capacity, used: r.used }]),
      ),
    };
    if (s.traits) {
      entry.traits = ps.traits;
    }
    if (s.tree) {
      entry.parent_provider_uuid = ps.parentProviderUuid;
      entry.root_provider_uuid = ps.rootProviderUuid;
    }
    provider_summaries[ps.providerUuid] = entry;
  }
  return JSON.stringify({ allocation_requests, provider_summaries });
}

const root: ProviderSummary = Object.freeze({
  providerUuid: '00000000-0000-4000-8000-000000000001',
  rootProviderUuid: '00000000-0000-4000-8000-000000000001',
  parentProviderUuid: null,
  resources: [
    { resourceClass: 'DISK_GB', capacity: 2000, used: 20 },
    { resourceClass: 'VCPU', capacity: 1024, used: 2 },
  ],
  traits: ['CUSTOM_GOLD', 'HW_CPU_X86_AVX2'],
});
const numa: ProviderSummary = Object.freeze({
  providerUuid: '00000000-0000-4000-8000-000000000002',
  rootProviderUuid: '00000000-0000-4000-8000-000000000001',
  parentProviderUuid: '00000000-0000-4000-8000-000000000001',
  resources: [{ resourceClass: 'MEMORY_MB', capacity: 196224, used: 0 }],
  traits: [],
});
const cands: AllocationCandidates = {
  allocationRequests: [
    {
      allocations: [
        { providerUuid: numa.providerUuid, resources: { VCPU: 2, MEMORY_MB: 4096 } },
        { providerUuid: root.providerUuid, resources: { DISK_GB: 20 } },
      ],
      mappings: { '': [root.providerUuid], '1': [numa.providerUuid], _NET: [numa.providerUuid] },
    },
    { allocations: [], mappings: {} },
  ],
  providerSummaries: [root, numa],
};

const shapes: [string, CandidateJsonShape][] = [
  [
    '1.10',
    {
      dict: false,
      mappings: false,
      traits: false,
      tree: false,
      requestedClasses: new Set(['VCPU']),
    },
  ],
  [
    '1.12',
    {
      dict: true,
      mappings: false,
      traits: false,
      tree: false,
      requestedClasses: new Set(['VCPU', 'DISK_GB']),
    },
  ],
  [
    '1.17',
    { dict: true, mappings: false, traits: true, tree: false, requestedClasses: new Set(['VCPU']) },
  ],
  ['1.27', { dict: true, mappings: false, traits: true, tree: false, requestedClasses: undefined }],
  ['1.29', { dict: true, mappings: false, traits: true, tree: true, requestedClasses: undefined }],
  ['1.34+', { dict: true, mappings: true, traits: true, tree: true, requestedClasses: undefined }],
];

/** The body as text (candidatesJson writes UTF-8 bytes). */
function text(c: AllocationCandidates, s: CandidateJsonShape): string {
  return candidatesJson(c, s).toString('utf8');
}

describe('candidatesJson', () => {
  it.each(shapes)('writes the %s body byte for byte', (_v, shape) => {
    expect(text(cands, shape)).toBe(reference(cands, shape));
    // The second answer reuses the kept summary bytes and must not differ.
    expect(text(cands, shape)).toBe(reference(cands, shape));
  });

  it('writes an empty answer', () => {
    const empty = { allocationRequests: [], providerSummaries: [] };
    expect(text(empty, shapes[5]![1])).toBe(reference(empty, shapes[5]![1]));
  });

  it('escapes and encodes names outside printable ASCII exactly as JSON.stringify', () => {
    const odd: AllocationCandidates = {
      allocationRequests: [
        {
          allocations: [{ providerUuid: 'quote"back\\slash', resources: { CLASS_É: 1.5 } }],
          mappings: { 'tab\there': ['line\nbreak'], '€uro': ['\u{1F680}'] },
        },
      ],
      providerSummaries: [
        Object.freeze({ ...root, providerUuid: 'ünïcode', traits: ['CUSTOM_\u0001'] }),
      ],
    };
    for (const [, shape] of shapes) {
      expect(text(odd, shape)).toBe(reference(odd, shape));
    }
  });

  it('answers stay intact when a later answer is written (no shared bytes)', () => {
    const shape = shapes[5]![1];
    const first = candidatesJson(cands, shape);
    const copy = Buffer.from(first);
    candidatesJson({ allocationRequests: [], providerSummaries: [numa] }, shape);
    expect(first.equals(copy)).toBe(true);
  });

  it('grows past its first buffer for large answers', () => {
    const many: AllocationCandidates = {
      allocationRequests: Array.from({ length: 3000 }, () => cands.allocationRequests[0]!),
      providerSummaries: [root, numa],
    };
    const shape = shapes[5]![1];
    expect(text(many, shape)).toBe(reference(many, shape));
  });

  it('does not keep the text of a summary that is not frozen (it may still change)', () => {
    const live = { ...root, resources: [{ resourceClass: 'VCPU', capacity: 8, used: 0 }] };
    const shape = shapes[5]![1];
    const one = { allocationRequests: [], providerSummaries: [live] };
    expect(text(one, shape)).toContain('"capacity":8');
    live.resources = [{ resourceClass: 'VCPU', capacity: 9, used: 0 }];
    expect(text(one, shape)).toContain('"capacity":9');
  });
});
