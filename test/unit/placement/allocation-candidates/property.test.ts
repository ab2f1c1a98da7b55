// Property tests: the engine returns exactly the brute-force reference's set of allocation
// requests (with mappings) and summaries on random forests and requests (berth-specific).
import fc from 'fast-check';
import { CapacityIndex } from '../../../../src/placement/allocation-candidates/capacity-index';
import { findAllocationCandidates } from '../../../../src/placement/allocation-candidates/find-allocation-candidates';
import type { AllocationCandidates } from '../../../../src/placement/allocation-candidates/results';
import { UNBOUNDED } from './helpers';
import { caseArb } from './random-world';
import { canonicalOf, referenceCandidates } from './reference-enumerator';

function engineSet(r: AllocationCandidates): string[] {
  return r.allocationRequests.map((ar) =>
    canonicalOf(
      new Map(ar.allocations.map((a) => [a.providerUuid, new Map(Object.entries(a.resources))])),
      new Map(Object.entries(ar.mappings).map(([k, v]) => [k, new Set(v)])),
    ),
  );
}

describe('findAllocationCandidates against the reference enumerator', () => {
  it('returns the same set of allocation requests, mappings and summaries', () => {
    fc.assert(
      fc.property(caseArb, ({ rows, req }) => {
        const got = findAllocationCandidates(CapacityIndex.fromRows(rows), req, {
          bounds: UNBOUNDED,
        });
        const want = referenceCandidates(rows, req);
        const list = engineSet(got);
        expect(new Set(list).size).toBe(list.length);
        expect(new Set(list)).toEqual(want.requests);
        expect(new Set(got.providerSummaries.map((s) => s.providerUuid))).toEqual(
          want.summaryUuids,
        );
        expect(got.providerSummaries).toHaveLength(want.summaryUuids.size);
      }),
      { numRuns: 1500 },
    );
    // 1,500 cases take ~2 s alone; a loaded 2-core machine can take several times longer.
  }, 60_000);

  it('returns a prefix of the full answer under limit, with summaries of just those trees', () => {
    fc.assert(
      fc.property(caseArb, fc.integer({ min: 1, max: 4 }), ({ rows, req }, limit) => {
        const index = CapacityIndex.fromRows(rows);
        const full = engineSet(findAllocationCandidates(index, req, { bounds: UNBOUNDED }));
        const limited = findAllocationCandidates(index, { ...req, limit });
        expect(engineSet(limited)).toEqual(full.slice(0, limit));
        const roots = new Set(
          limited.allocationRequests.flatMap((ar) =>
            ar.allocations.map(
              (a) => rows.providers.find((p) => p.uuid === a.providerUuid)!.rootId,
            ),
          ),
        );
        const wantSummaries = rows.providers.filter((p) => roots.has(p.rootId)).map((p) => p.uuid);
        expect(new Set(limited.providerSummaries.map((s) => s.providerUuid))).toEqual(
          new Set(wantSummaries),
        );
      }),
      { numRuns: 300 },
    );
  });

  it('randomize returns a sample of the same set', () => {
    fc.assert(
      fc.property(caseArb, fc.integer({ min: 1, max: 4 }), ({ rows, req }, limit) => {
        const index = CapacityIndex.fromRows(rows);
        const full = new Set(
          engineSet(findAllocationCandidates(index, req, { bounds: UNBOUNDED })),
        );
        const sample = engineSet(
          findAllocationCandidates(index, { ...req, limit, randomize: true }),
        );
        expect(sample).toHaveLength(Math.min(limit, full.size));
        expect(new Set(sample).size).toBe(sample.length);
        for (const s of sample) {
          expect(full.has(s)).toBe(true);
        }
      }),
      { numRuns: 200 },
    );
  });
});
