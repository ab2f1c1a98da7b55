// The one-line "No valid host" reason: the candidate stage's summary when the candidate query
// found nothing, else each filter's counts and, for the filter that removed the last hosts, its
// rejections by code.
import { noValidHost } from '../../../src/scheduler/host-requests';
import type { Explanation, FilterStep } from '../../../src/scheduler/runtime/explanation';

const explanation = (hostsIn: number, filters: FilterStep[]): Explanation => ({
  amendments: [],
  hostsIn,
  filters,
  skippedFilters: [],
  weighers: [],
  failures: [],
});

const reject = (n: number, code: string) =>
  Array.from({ length: n }, (_, i) => ({ host: `h${i}`, hostName: `h${i}`, reason: code, code }));

describe('noValidHost', () => {
  it('gives the candidate stage summary once when no candidate was found', () => {
    const summary = 'no allocation candidates: no host has MEMORY_MB: 600000';
    expect(noValidHost(explanation(0, []), { summary })).toBe(`No valid host: ${summary}`);
    expect(noValidHost(explanation(0, []))).toBe(
      'No valid host: no allocation candidates for the request',
    );
  });

  it('names the codes of the filter that removed the last hosts, largest first', () => {
    const e = explanation(10, [
      {
        plugin: 'ComputeFilter',
        before: 10,
        after: 8,
        rejections: reject(2, 'compute.disabled'),
        durationMs: 0,
      },
      {
        plugin: 'RamFilter',
        before: 8,
        after: 0,
        rejections: [...reject(2, 'ram.ratio'), ...reject(6, 'ram.insufficient')],
        durationMs: 0,
      },
    ]);
    expect(noValidHost(e)).toBe(
      'No valid host: ComputeFilter: 10 -> 8, RamFilter: 8 -> 0 (ram.insufficient ×6, ram.ratio ×2)',
    );
  });
});
