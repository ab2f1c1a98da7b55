// CandidateAnswers: one answer per request and index revision, kept from the second ask on.
import { CandidateAnswers } from '../../../src/app/candidate-answers';
import type { CandidateService } from '../../../src/placement/allocation-candidates/candidate-service';
import type { FindOptions } from '../../../src/placement/allocation-candidates/find-allocation-candidates';
import type { CandidateRequest } from '../../../src/placement/allocation-candidates/request';
import type { AllocationCandidates } from '../../../src/placement/allocation-candidates/results';
import { candidatesJson } from '../../../src/rest/candidate-json';

/** The part of CandidateService the answers use: a revision, current() and find(). */
class Source {
  revision = 1;
  computed = 0;
  /** Applied by the next current() (a change heard but not applied yet). */
  pending = false;
  /** A change applied while a find is in flight. */
  changeDuringFind = false;
  readonly options: FindOptions[] = [];

  async current(): Promise<void> {
    if (this.pending) {
      this.pending = false;
      this.revision++;
    }
  }

  async find(request: CandidateRequest, options: FindOptions = {}): Promise<AllocationCandidates> {
    await this.current();
    this.computed++;
    this.options.push(options);
    if (this.changeDuringFind) {
      this.changeDuringFind = false;
      this.revision++;
    }
    const uuid = `00000000-0000-0000-0000-${String(this.revision).padStart(12, '0')}`;
    return {
      allocationRequests: [
        {
          allocations: [{ providerUuid: uuid, resources: request.groups[0]!.resources }],
          mappings: { '': [uuid] },
        },
      ],
      providerSummaries: [],
    };
  }
}

const request = (vcpu: number, extra: Partial<CandidateRequest> = {}): CandidateRequest => ({
  groups: [
    {
      suffix: '',
      resources: { VCPU: vcpu },
      requiredTraits: [],
      forbiddenTraits: [],
      memberOf: [],
      forbiddenAggregates: [],
    },
  ],
  ...extra,
});

function setup(bounds?: { answers: number; requests: number }) {
  const source = new Source();
  const answers = new CandidateAnswers(source as unknown as CandidateService, bounds);
  return { source, answers };
}

describe('CandidateAnswers', () => {
  it('computes a request asked for once, keeps it on the second ask and answers the third from it', async () => {
    const { source, answers } = setup();
    const first = await answers.find(request(2));
    expect(Object.isFrozen(first)).toBe(false);
    const second = await answers.find(request(2));
    expect(Object.isFrozen(second)).toBe(true);
    const third = await answers.find(request(2));
    expect(third).toBe(second);
    expect(second).toEqual(first);
    expect(source.computed).toBe(2);
    expect(answers.stats).toEqual({ hits: 1, misses: 2 });
  });

  it('never answers from a revision the index has left, including changes heard but not applied', async () => {
    const { source, answers } = setup();
    await answers.find(request(2));
    const kept = await answers.find(request(2));
    source.pending = true; // a write heard: the next answer must include it
    const after = await answers.find(request(2));
    expect(after).not.toBe(kept);
    expect(after.allocationRequests[0]!.allocations[0]!.providerUuid).toMatch(/2$/);
    expect(source.computed).toBe(3);
  });

  it('does not keep an answer computed while a change was applied', async () => {
    const { source, answers } = setup();
    await answers.find(request(2));
    source.changeDuringFind = true;
    const moved = await answers.find(request(2)); // computed at revision 2, asked at 1
    expect(Object.isFrozen(moved)).toBe(false);
    await answers.find(request(2)); // revision 2: first ask there
    await answers.find(request(2));
    expect(source.computed).toBe(4);
  });

  it('keys answers by request and by nestedAware', async () => {
    const { source, answers } = setup();
    for (let i = 0; i < 3; i++) {
      await answers.find(request(2));
      await answers.find(request(4));
      await answers.find(request(2), { nestedAware: false });
    }
    expect(source.computed).toBe(6);
    expect(
      (await answers.find(request(4))).allocationRequests[0]!.allocations[0]!.resources,
    ).toEqual({
      VCPU: 4,
    });
    expect(source.options.filter((o) => o.nestedAware === false)).toHaveLength(2);
  });

  it('never keeps randomised requests', async () => {
    const { source, answers } = setup();
    for (let i = 0; i < 3; i++) {
      expect(Object.isFrozen(await answers.find(request(2, { randomize: true })))).toBe(false);
    }
    expect(source.computed).toBe(3);
  });

  it('keeps at most `answers` answers, dropping the least recently used', async () => {
    const { source, answers } = setup({ answers: 2, requests: 100 });
    for (const vcpu of [1, 1, 2, 2, 1, 3, 3]) {
      await answers.find(request(vcpu));
    }
    // kept: 1 (used last before 3 came) and 3; 2 was dropped.
    const before = source.computed;
    await answers.find(request(1));
    await answers.find(request(3));
    expect(source.computed).toBe(before);
    await answers.find(request(2));
    expect(source.computed).toBe(before + 1);
  });

  it('keeps nothing with answers 0', async () => {
    const { source, answers } = setup({ answers: 0, requests: 100 });
    for (let i = 0; i < 3; i++) {
      await answers.find(request(2));
    }
    expect(source.computed).toBe(3);
  });

  it('lets the REST writer keep the body of a kept answer, per shape', async () => {
    const { answers } = setup();
    await answers.find(request(2));
    const kept = await answers.find(request(2));
    const shape = {
      dict: true,
      mappings: true,
      traits: true,
      tree: true,
      requestedClasses: undefined,
    };
    const body = candidatesJson(kept, shape);
    expect(candidatesJson(kept, shape)).toBe(body);
    const list = candidatesJson(kept, { ...shape, dict: false });
    expect(list).not.toBe(body);
    expect(JSON.parse(list.toString()).allocation_requests[0].allocations).toEqual([
      {
        resource_provider: { uuid: kept.allocationRequests[0]!.allocations[0]!.providerUuid },
        resources: { VCPU: 2 },
      },
    ]);
    const fresh = await answers.find(request(2, { limit: 5 }));
    expect(candidatesJson(fresh, shape)).not.toBe(candidatesJson(fresh, shape));
  });
});
