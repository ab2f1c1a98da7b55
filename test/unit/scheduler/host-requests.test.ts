// The plugins' view of an allocation request is the plugin's own: changing it (a plugin that
// mutates what it is given) leaves the cached allocation request, and so every other caller's
// view and claim, as it was.
import type { AllocationRequest } from '../../../src/placement/allocation-candidates/results';
import { toView } from '../../../src/scheduler/host-requests';

const request = (): AllocationRequest => ({
  allocations: [
    { providerUuid: 'cn1', resources: { VCPU: 2, MEMORY_MB: 2048 } },
    { providerUuid: 'gpu1', resources: { VGPU: 1 } },
  ],
  mappings: { '': ['cn1'], _GPU: ['gpu1'] },
});

describe('toView', () => {
  it('gives the allocations and mappings of the request', () => {
    expect(toView(request())).toEqual({
      allocations: { cn1: { VCPU: 2, MEMORY_MB: 2048 }, gpu1: { VGPU: 1 } },
      mappings: { '': ['cn1'], _GPU: ['gpu1'] },
    });
  });

  it.each([
    ['pushes a provider into a mapping', (v: Mutable) => v.mappings!._GPU!.push('gpu2')],
    [
      'replaces a mapping',
      (v: Mutable) => {
        v.mappings!['']! = ['cn9'];
      },
    ],
    [
      'changes an amount',
      (v: Mutable) => {
        v.allocations.cn1!.VCPU = 64;
      },
    ],
    [
      'adds a provider',
      (v: Mutable) => {
        v.allocations.cn9 = { VCPU: 1 };
      },
    ],
  ])('a plugin that %s changes only its own view', (_what, mutate) => {
    const ar = request();
    const view = toView(ar) as unknown as Mutable;
    mutate(view);
    expect(ar).toEqual(request());
    expect(toView(ar)).toEqual(toView(request()));
  });
});

interface Mutable {
  allocations: Record<string, Record<string, number>>;
  mappings?: Record<string, string[]>;
}
