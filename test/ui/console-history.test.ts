// The History page in a real browser against a real berth: 12 hosts in 2 racks, claims made and
// released through GraphQL, and berth's own sampler (CapacityHistoryService.sampleNow, its clock
// set to each past bucket in turn) recording the last ~6 hours into capacity_samples. The charts'
// tables must hold exactly what was sampled; the pickers change what is asked; an aggregate with
// no samples gets the empty state.
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { CapacityHistoryService } from '../../src/placement/capacity-history';
import { createTestApp, type TestApp } from '../support/app';
import { browserIt, browserTitle, shotPath } from '../support/browser';
import { CHROMIUM, type ConsoleHarness, openConsole } from '../support/console-build';
import { buildResourceProvider, nameAggregate } from '../support/factories';
import { gql } from '../support/graphql';

const HOST = { VCPU: 32, MEMORY_MB: 131_072, DISK_GB: 2_000 };
const CLAIM = { VCPU: 4, MEMORY_MB: 16_384, DISK_GB: 80 };
type Rc = keyof typeof HOST;
const CLASSES = Object.keys(HOST).sort() as Rc[];
const HOSTS_PER_RACK = 6;
/** Samples taken, one per interval, ending one interval before now. */
const STEPS = 70;
/** Buckets (intervals before now) left unsampled: the charts break their lines there. */
const GAP = [30, 29, 28];

const HISTORY = `query($hours: Int!, $aggregate: ID) {
  capacityHistory(hours: $hours, aggregate: $aggregate) {
    intervalSeconds
    series { resourceClass points { at capacity used } }
  }
}`;

interface Series {
  resourceClass: string;
  points: { at: string; capacity: number; used: number }[];
}

describe(browserTitle('the history page in chromium'), () => {
  let t: TestApp;
  let harness: ConsoleHarness | undefined;
  let base: string;
  let page: Page;
  const racks = [randomUUID(), randomUUID()];
  const hosts: string[][] = [[], []];
  /** Cloud-wide used VCPU per sampled bucket (ISO time). */
  const usedVcpu = new Map<string, number>();

  /** capacityHistory's own answer. */
  const history = async (hours: number, aggregate: string | null = null) => {
    const r = await gql<{ capacityHistory: { intervalSeconds: number; series: Series[] } }>(
      t.app,
      HISTORY,
      { hours, aggregate },
    );
    expect(r.errors).toBeUndefined();
    return r.data!.capacityHistory;
  };

  /** What the page's tables hold, per class: [ISO time, used, capacity], oldest first. */
  const tables = () =>
    page.$$eval('[data-testid=series]', (sections) =>
      sections.map((s) => ({
        resourceClass: s.getAttribute('data-class'),
        rows: [...s.querySelectorAll('[data-testid=history-table] tbody tr')]
          .map((tr) => [
            tr.getAttribute('data-at'),
            Number(tr.querySelector('[data-field=used]')!.getAttribute('data-value')),
            Number(tr.querySelector('[data-field=capacity]')!.getAttribute('data-value')),
          ])
          .reverse(),
      })),
    );
  const asRows = (series: Series[]) =>
    series.map((s) => ({
      resourceClass: s.resourceClass,
      rows: s.points.map((p) => [p.at, p.used, p.capacity]),
    }));

  beforeAll(async () => {
    if (!CHROMIUM) {
      return;
    }
    t = await createTestApp();
    for (const [i, agg] of racks.entries()) {
      await nameAggregate(t.app.services, agg, `rack-${i + 1}`);
      for (let h = 0; h < HOSTS_PER_RACK; h++) {
        const rp = await buildResourceProvider(t.app.services, {
          name: `host-${i + 1}-${h}`,
          aggregates: [agg],
          inventories: CLASSES.map((rc) => ({ resourceClass: rc, total: HOST[rc] })),
        });
        hosts[i]!.push(rp.uuid);
      }
    }
    // berth's sampler, its clock walked through the last STEPS buckets; between samples the
    // number of claims rises and falls like a working day (rack 1 busier than rack 2).
    const settings = t.app.services.capacityHistory.settings;
    const interval = settings.intervalSeconds;
    let clock = 0;
    const sampler = new CapacityHistoryService(
      t.db.dataSource,
      t.app.services.candidates,
      settings,
      () => clock,
    );
    const nowBucket = Math.floor(Date.now() / 1000 / interval) * interval;
    const live: { consumer: string; rack: number }[] = [];
    for (let k = STEPS; k >= 1; k--) {
      const j = STEPS - k;
      const want = Math.round(14 + 10 * Math.sin(j / 9) + j / 7);
      while (live.length < want) {
        const rack = live.length % 3 === 2 ? 1 : 0;
        const host = hosts[rack]![live.length % HOSTS_PER_RACK]!;
        const consumer = randomUUID();
        const r = await gql(
          t.app,
          'mutation($i: [ConsumerAllocationsInput!]!) { setAllocations(input: $i) { uuid } }',
          {
            i: [
              {
                consumerUuid: consumer,
                projectId: 'demo',
                userId: 'u',
                allocations: [
                  {
                    providerUuid: host,
                    resources: CLASSES.map((rc) => ({ resourceClass: rc, amount: CLAIM[rc] })),
                  },
                ],
              },
            ],
          },
        );
        expect(r.errors).toBeUndefined();
        live.push({ consumer, rack });
      }
      while (live.length > want) {
        const gone = live.pop()!;
        const r = await gql(
          t.app,
          'mutation($i: DeleteAllocationsInput) { deleteAllocations(input: $i) }',
          { i: { consumerUuid: gone.consumer } },
        );
        expect(r.errors).toBeUndefined();
      }
      if (GAP.includes(k)) {
        continue; // no replica sampled these buckets
      }
      const bucket = nowBucket - k * interval;
      clock = bucket * 1000 + 1000;
      expect(await sampler.sampleNow()).toBeGreaterThan(0);
      usedVcpu.set(new Date(bucket * 1000).toISOString(), live.length * CLAIM.VCPU);
    }
    harness = await openConsole(t.app);
    ({ base, page } = harness);
  }, 180_000);

  afterAll(async () => {
    await harness?.close();
    await t?.close();
  });

  browserIt(
    'charts every class of the whole cloud, its table holding what was sampled',
    async () => {
      const want = await history(24);
      expect(want.series.map((s) => s.resourceClass)).toEqual(CLASSES);
      const vcpu = want.series.find((s) => s.resourceClass === 'VCPU')!;
      // What the sampler recorded, bucket by bucket (a sample berth's own timer took is extra).
      const sampled = new Map(vcpu.points.map((p) => [p.at, p.used]));
      for (const [at, used] of usedVcpu) {
        expect({ at, used: sampled.get(at) }).toEqual({ at, used });
      }
      expect(vcpu.points[0]!.capacity).toBe(HOST.VCPU * HOSTS_PER_RACK * racks.length);

      await page.goto(`${base}/ui/#/history`);
      await page.waitForSelector('[data-testid=series] [data-testid=history-table]', {
        state: 'attached',
      });
      expect(
        await page.getAttribute('.history-controls button[aria-pressed=true]', 'aria-pressed'),
      ).toBe('true');
      expect(await page.textContent('.history-controls button[aria-pressed=true]')).toBe('24 h');
      expect(await tables()).toEqual(asRows(want.series));
      // Each chart draws its series: a used line and a capacity line, an axis in human units; the
      // unsampled buckets break the line in two.
      for (const rc of CLASSES) {
        const d = await page.getAttribute(`[data-testid=series][data-class=${rc}] .used-line`, 'd');
        expect(d!.split(/[ML]/).slice(1)).toHaveLength(
          want.series.find((s) => s.resourceClass === rc)!.points.length,
        );
      }
      const vcpuLine = await page.getAttribute(
        '[data-testid=series][data-class=VCPU] .used-line',
        'd',
      );
      expect(vcpuLine!.match(/M/g)).toHaveLength(2);
      const memAxis = await page.$$eval(
        '[data-testid=series][data-class=MEMORY_MB] svg .tick text',
        (ts) => ts.map((x) => x.textContent),
      );
      expect(memAxis.some((label) => /GiB|TiB/.test(label!))).toBe(true);

      // The readout: the last point, then the one before it, picked with the keyboard.
      const last = vcpu.points.at(-1)!;
      const before = vcpu.points.at(-2)!;
      await page.focus('[data-testid=series][data-class=VCPU] [role=slider]');
      await page.keyboard.press('End');
      const readout = '[data-testid=series][data-class=VCPU] [data-testid=readout]';
      expect(await page.textContent(readout)).toContain(`${last.used} used of ${last.capacity}`);
      await page.keyboard.press('ArrowLeft');
      expect(await page.textContent(readout)).toContain(
        `${before.used} used of ${before.capacity}`,
      );
      // And with the pointer, over the chart's right-hand end.
      const area = (await page.$('[data-testid=series][data-class=MEMORY_MB] [role=slider]'))!;
      const box = (await area.boundingBox())!;
      await page.mouse.move(box.x + box.width * 0.97, box.y + box.height / 2);
      expect(
        await page.textContent('[data-testid=series][data-class=MEMORY_MB] [data-testid=readout]'),
      ).toMatch(/GiB used of .* TiB \(\d+\.\d %\)$/);
    },
  );

  browserIt(
    'asks for the range, the classes and the aggregate picked, and keeps them in the hash',
    async () => {
      await page.goto(`${base}/ui/#/history`);
      await page.waitForSelector('[data-testid=series]');
      await page.click('.history-controls button:text("6 h")');
      await page.waitForFunction(() => window.location.hash.includes('hours=6'));
      await page.uncheck('.history-controls input[value=DISK_GB]');
      await page.waitForFunction(
        () => document.querySelectorAll('[data-testid=series]').length === 2,
      );
      await page.selectOption('.history-controls select[name=aggregate]', racks[0]!);
      await page.waitForSelector('[data-testid=series] h3:has-text("rack-1")');
      const want = await history(6, racks[0]!);
      expect(await tables()).toEqual(
        asRows(want.series.filter((s) => s.resourceClass !== 'DISK_GB')),
      );
      const link = await page.evaluate(() => window.location.href);
      expect(link).toContain(`aggregate=${racks[0]}`);
      expect(link).toContain('class=MEMORY_MB');

      // The link restores the view.
      await page.goto('about:blank');
      await page.goto(link);
      await page.waitForSelector('[data-testid=series] h3:has-text("rack-1")');
      expect(await page.isChecked('.history-controls input[value=DISK_GB]')).toBe(false);
      expect(await page.textContent('.history-controls button[aria-pressed=true]')).toBe('6 h');
      expect(await tables()).toEqual(
        asRows(want.series.filter((s) => s.resourceClass !== 'DISK_GB')),
      );

      // The whole cloud, all classes, 6 hours: the picture in the docs.
      await page.goto(`${base}/ui/#/history/?hours=6`);
      await page.waitForFunction(
        () => document.querySelectorAll('[data-testid=series]').length === 3,
      );
      const chart = (await page.$('[data-testid=series][data-class=VCPU] [role=slider]'))!;
      const box = (await chart.boundingBox())!;
      await page.mouse.move(box.x + box.width * 0.8, box.y + box.height / 2);
      await page.waitForFunction(() =>
        /used of/.test(
          document.querySelector('[data-testid=series][data-class=VCPU] [data-testid=readout]')!
            .textContent!,
        ),
      );
      await page.screenshot({ path: shotPath('history.png'), fullPage: true });
    },
  );

  browserIt('explains the sampling interval when an aggregate has no samples yet', async () => {
    const empty = randomUUID();
    await gql(
      t.app,
      'mutation($i: SetAggregateMetadataInput) { setAggregateMetadata(input: $i) { uuid } }',
      { i: { uuid: empty, name: 'rack-new', metadata: [] } },
    );
    await page.goto(`${base}/ui/#/history/?hours=24&aggregate=${empty}`);
    await page.waitForSelector('[data-testid=history-empty]');
    const text = await page.textContent('[data-testid=history-empty]');
    expect(text).toContain('No samples yet');
    expect(text).toContain('once every 5 min');
    expect(text).toContain('BERTH_CAPACITY_HISTORY_INTERVAL');
    expect(text).toMatch(/in about \d+ min/);
    expect(await page.$('[data-testid=series]')).toBeNull();
  });
});
