// The order a drain plan places consumers in (src/planning/drain-consumers.ts largestFirst):
// largest dominant share first, then the larger sum of shares, then uuid — the same whatever
// order the database returned them in.

import { DemoRandom } from '../../../src/demo/random';
import { type DrainConsumer, largestFirst } from '../../../src/planning/drain-consumers';

function consumer(uuid: string, resources: Record<string, number>): DrainConsumer {
  return {
    id: 1,
    uuid,
    projectId: 'p',
    userId: 'u',
    consumerType: 'INSTANCE',
    host: 'h',
    resources,
    moving: false,
  };
}

describe('largestFirst', () => {
  it('orders by dominant share, then by the sum of shares, then by uuid', () => {
    const list = [
      consumer('a', { VCPU: 1, MEMORY_MB: 1024 }), // shares 0.125, 0.0625
      consumer('b', { VCPU: 8, MEMORY_MB: 1024 }), // 1, 0.0625
      consumer('c', { VCPU: 2, MEMORY_MB: 16384 }), // 0.25, 1 -> sum 1.25
      consumer('d', { VCPU: 4, MEMORY_MB: 8192 }), // 0.5, 0.5
      consumer('e', { VCPU: 1, MEMORY_MB: 1024 }), // same as a: uuid decides
      consumer('f', { DISK_GB: 10 }), // 1 (the only DISK_GB)
    ];
    expect(largestFirst(list).map((c) => c.uuid)).toEqual(['c', 'b', 'f', 'd', 'a', 'e']);
  });

  it('gives the same order whatever the input order (seeded shuffles)', () => {
    const seed = Date.now() % 100000;
    const r = new DemoRandom(seed);
    const list = Array.from({ length: 30 }, (_, i) =>
      consumer(`c${String(i).padStart(2, '0')}`, {
        VCPU: r.pick([1, 2, 4, 8]),
        MEMORY_MB: r.pick([512, 2048, 8192]),
      }),
    );
    const expected = largestFirst(list).map((c) => c.uuid);
    for (let k = 0; k < 20; k++) {
      const shuffled = r.sample(list, list.length).reverse();
      shuffled.sort(() => r.next() - 0.5);
      expect({ seed, order: largestFirst(shuffled).map((c) => c.uuid) }).toEqual({
        seed,
        order: expected,
      });
    }
  });
});
