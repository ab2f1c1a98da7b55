// explainPlacement groups each filter's rejections by reason code (FilterStep.reasonGroups): twenty
// hosts a filter turns down for the same cause are one group of twenty, whatever their names; an
// operator plugin's own codes and its default code (its NAME in snake case) group the same way.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestApp, type TestApp } from '../support/app';
import { buildResourceProvider } from '../support/factories';
import { gql } from '../support/graphql';

const EXPLAIN = `query E($i: ScheduleInput!) {
  explainPlacement(input: $i) {
    selections { host { name } }
    filterSteps {
      filter before after
      rejections { host { name } code reason }
      reasonGroups { code count message examples { host { name } code reason } }
    }
  }
}`;

/** An operator filter: `odd-*` and `bad-*` hosts with codes of its own, `plain-*` without one. */
const SHAPE_FILTER = `exports.NAME = 'ShapeFilter'; exports.kind = 'filter';
exports.create = () => ({ name: 'ShapeFilter', kind: 'filter', onError: 'closed',
  filter: (host) => {
    if (host.name.startsWith('odd-')) return { fits: false, reason: 'odd shape', code: 'shape.odd' };
    if (host.name.startsWith('bad-')) return { fits: false, reason: 'bad shape', code: 'shape.bad' };
    if (host.name.startsWith('plain-')) return { fits: false, reason: 'plain shape' };
    return { fits: true };
  } });`;

interface Rejection {
  host: { name: string };
  code: string;
  reason: string;
}
interface Step {
  filter: string;
  before: number;
  after: number;
  rejections: Rejection[];
  reasonGroups: { code: string; count: number; message: string; examples: Rejection[] }[];
}

// Placement counts 4096 MB at ratio 1.5 as 6144; RamFilter reads the aggregate's ratio 1.0.
const SHORT_REASON =
  'insufficient free RAM: wanted 5000 MB, found 4096 MB free (aggregate ram_allocation_ratio=1)';

describe('FilterStep.reasonGroups', () => {
  let t: TestApp;
  let dir: string;
  const run = randomUUID().slice(0, 8);
  const short = Array.from({ length: 20 }, (_, i) => `short-${run}-${i + 1}`);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'berth-codes-'));
    writeFileSync(join(dir, 'shape-filter.js'), SHAPE_FILTER);
    t = await createTestApp({
      BERTH_PLUGIN_DIRS: dir,
      BERTH_SCHEDULER_FILTERS: 'RamFilter,ShapeFilter',
      BERTH_SCHEDULER_WEIGHERS: 'none',
    });
    const strict = randomUUID();
    await t.app.services.aggregates.setMetadata(strict, `strict-${run}`, [
      { key: 'ram_allocation_ratio', value: '1.0' },
    ]);
    for (const name of short) {
      await buildResourceProvider(t.app.services, {
        name,
        inventories: [{ resourceClass: 'MEMORY_MB', total: 4096, allocationRatio: 1.5 }],
        aggregates: [strict],
      });
    }
    for (const shape of ['keep', 'odd', 'odd', 'bad', 'plain']) {
      await buildResourceProvider(t.app.services, {
        name: `${shape}-${run}-${randomUUID().slice(0, 4)}`,
        inventories: [{ resourceClass: 'MEMORY_MB', total: 8192 }],
      });
    }
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function explain(): Promise<Step[]> {
    const r = await gql(t.app, EXPLAIN, {
      i: {
        consumerUuids: [randomUUID()],
        projectId: 'p',
        userId: 'u',
        request: { groups: [{ resources: [{ resourceClass: 'MEMORY_MB', amount: 5000 }] }] },
      },
    });
    expect(r.errors).toBeUndefined();
    expect(r.data.explainPlacement.selections[0].host.name).toMatch(/^keep-/);
    return r.data.explainPlacement.filterSteps;
  }

  it('makes one group of count 20 of twenty hosts rejected by one filter for one cause', async () => {
    const [ram] = await explain();
    expect(ram!.filter).toBe('RamFilter');
    expect([ram!.before, ram!.after]).toEqual([25, 5]);
    expect(ram!.rejections).toHaveLength(20);
    expect(new Set(ram!.rejections.map((r) => r.host.name))).toEqual(new Set(short));
    expect(new Set(ram!.rejections.map((r) => [r.code, r.reason].join(' | ')))).toEqual(
      new Set([`ram.insufficient | ${SHORT_REASON}`]),
    );
    expect(ram!.reasonGroups).toEqual([
      {
        code: 'ram.insufficient',
        count: 20,
        message: SHORT_REASON,
        examples: ram!.rejections.slice(0, 3),
      },
    ]);
  });

  it("groups a plugin's own codes and its default code, largest first, then by code", async () => {
    const [, shape] = await explain();
    expect(shape!.filter).toBe('ShapeFilter');
    expect([shape!.before, shape!.after]).toEqual([5, 1]);
    expect(
      shape!.reasonGroups.map(({ code, count, message, examples }) => ({
        code,
        count,
        message,
        hosts: examples.map((e) => e.host.name.split('-')[0]),
      })),
    ).toEqual([
      { code: 'shape.odd', count: 2, message: 'odd shape', hosts: ['odd', 'odd'] },
      { code: 'shape.bad', count: 1, message: 'bad shape', hosts: ['bad'] },
      { code: 'shape_filter', count: 1, message: 'plain shape', hosts: ['plain'] },
    ]);
  });
});
