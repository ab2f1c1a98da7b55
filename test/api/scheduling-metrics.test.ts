// /metrics shows what the scheduler's shortcuts did: evaluations run and shared, candidate-cache
// hits (all and per-replica), claim batches.

import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestApp, type TestApp } from '../support/app';
import { buildResourceProvider } from '../support/factories';
import { gql } from '../support/graphql';

const EXPLAIN = `query E($i: ScheduleInput!) { explainPlacement(input: $i) { selections { reason } } }`;

const input = (vcpu: number) => ({
  consumerUuids: [randomUUID()],
  projectId: 'p',
  userId: 'u',
  request: { groups: [{ resources: [{ resourceClass: 'VCPU', amount: vcpu }] }] },
});

describe('scheduler metrics', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ BERTH_SCHEDULER_FILTERS: 'ComputeFilter' });
    await buildResourceProvider(t.app.services, {
      inventories: [{ resourceClass: 'VCPU', total: 8 }],
    });
  });
  afterAll(async () => {
    await t.close();
  });

  async function metrics(): Promise<Map<string, number>> {
    const server = createServer((req, res) => t.app.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      return new Map(
        text
          .split('\n')
          .filter((l) => l && !l.startsWith('#'))
          .map((l) => [l.split(' ')[0]!, Number(l.split(' ')[1])]),
      );
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  }

  it('counts evaluations run and shared, and candidate-cache lookups', async () => {
    const before = await metrics();
    const delta = (after: Map<string, number>, name: string) =>
      after.get(name)! - (before.get(name) ?? 0);
    // Two identical requests share one evaluation; a third (another flavor) runs its own and its
    // candidate query misses.
    for (const vcpu of [2, 2, 3]) {
      const res = await gql(t.app, EXPLAIN, { i: input(vcpu) });
      expect(res.errors).toBeUndefined();
    }
    const after = await metrics();
    expect(delta(after, 'berth_scheduler_evaluations_total')).toBe(2);
    expect(delta(after, 'berth_scheduler_evaluations_shared_total')).toBe(1);
    expect(delta(after, 'berth_candidate_cache_misses_total')).toBe(2);
    expect(after.has('berth_candidate_cache_shared_bypassed_total')).toBe(true);
    expect(after.has('berth_claim_batches_total')).toBe(true);
  });
});
