// Hand-written simulation traces (src/planning/trace.ts): JSONL lines to scheduling requests,
// consumer uuids made from the seed when a line leaves them out, errors naming the line; and
// the consumer-by-consumer diff of two runs (src/planning/simulation.ts diffRuns).
import { BadRequestError } from '../../../src/placement/errors';
import { seededRandom } from '../../../src/planning/pipeline-config';
import { diffRuns, type SimulationRun } from '../../../src/planning/simulation';
import { consumerUuidMaker, parseTrace } from '../../../src/planning/trace';

const line = (o: object) =>
  JSON.stringify({
    request: { groups: [{ suffix: '', resources: [{ resourceClass: 'VCPU', amount: 2 }] }] },
    ...o,
  });

describe('parseTrace', () => {
  it('reads one request per line, skipping blanks and comments, with defaults', () => {
    const uuid = '5b489811-f71b-4d5c-8471-c82622ccf8d8';
    const trace = parseTrace(
      [
        '# a comment',
        line({ consumerUuids: [uuid.toUpperCase()], projectId: 'p', userId: 'u' }),
        '',
        line({
          count: 3,
          extraSpecs: { 'hw:cpu_policy': 'dedicated' },
          availabilityZone: 'az1',
          group: uuid,
          hints: [{ key: 'k', values: ['v'] }],
        }),
      ].join('\n'),
      1,
    );
    expect(trace).toHaveLength(2);
    expect(trace[0]).toMatchObject({ consumerUuids: [uuid], projectId: 'p', userId: 'u' });
    expect(trace[0]!.request.groups[0]!.resources).toEqual({ VCPU: 2 });
    expect(trace[1]).toMatchObject({
      projectId: 'simulation',
      userId: 'simulation',
      extraSpecs: { 'hw:cpu_policy': 'dedicated' },
      availabilityZone: 'az1',
      hints: { k: ['v'], group: [uuid] },
    });
    expect(trace[1]!.consumerUuids).toHaveLength(3);
    expect(new Set(trace[1]!.consumerUuids).size).toBe(3);
    for (const u of trace[1]!.consumerUuids) {
      expect(u).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
  });

  it('names the same consumers for the same seed, other ones for another', () => {
    const text = line({ count: 2 });
    expect(parseTrace(text, 5)[0]!.consumerUuids).toEqual(parseTrace(text, 5)[0]!.consumerUuids);
    expect(parseTrace(text, 5)[0]!.consumerUuids).not.toEqual(
      parseTrace(text, 6)[0]!.consumerUuids,
    );
    const make = consumerUuidMaker(1);
    expect(make()).not.toBe(make());
  });

  it.each([
    ['{not json', /^Trace line 2: not JSON/],
    ['[1]', /^Trace line 2: not a JSON object/],
    [line({ count: 0 }), /^Trace line 2: count must be a whole number/],
    [line({ count: 2, consumerUuids: ['5b489811-f71b-4d5c-8471-c82622ccf8d8'] }), /count 2 but 1/],
    [JSON.stringify({ request: { groups: [] } }), /^Trace line 2: request must be/],
    [
      JSON.stringify({
        request: { groups: [{ resources: [{ resourceClass: 'VCPU', amount: 0 }] }] },
      }),
      /^Trace line 2: resources are/,
    ],
    [line({ consumerUuids: ['not-a-uuid'] }), /^Trace line 2: /],
  ])('refuses %s', (bad, message) => {
    const parse = () => parseTrace(`${line({})}\n${bad}`, 1);
    expect(parse).toThrow(BadRequestError);
    expect(parse).toThrow(message);
    try {
      parse();
    } catch (err) {
      expect((err as BadRequestError).code).toBe('berth.simulation.invalid_trace');
    }
  });
});

describe('seededRandom', () => {
  it('repeats for a seed and stays in [0, 1)', () => {
    const a = seededRandom(42);
    const b = seededRandom(42);
    const xs = Array.from({ length: 1000 }, () => a());
    expect(xs).toEqual(Array.from({ length: 1000 }, () => b()));
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...xs)).toBeLessThan(1);
    expect(new Set(xs).size).toBeGreaterThan(990);
  });
});

describe('diffRuns', () => {
  const run = (hosts: (string | null)[]): SimulationRun =>
    ({
      placements: hosts.map((host, index) => ({ index, consumerUuid: `c${index}`, host })),
    }) as unknown as SimulationRun;

  it('counts same, other host and placed by one run only, listing the differing consumers', () => {
    const d = diffRuns(run(['a', 'b', null, 'c', null]), run(['a', 'c', null, null, 'd']));
    expect(d).toEqual({
      same: 2,
      differentHost: 1,
      onlyInRun: 1,
      onlyInCompare: 1,
      entries: [
        { index: 1, consumerUuid: 'c1', runHost: 'b', compareHost: 'c' },
        { index: 3, consumerUuid: 'c3', runHost: 'c', compareHost: null },
        { index: 4, consumerUuid: 'c4', runHost: null, compareHost: 'd' },
      ],
    });
  });
});
