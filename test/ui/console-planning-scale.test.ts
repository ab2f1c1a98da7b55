// The capacity planning views over 10,000 hosts, in chromium (the production bundle): how long
// the overview's headroom table takes to appear and a host's drain plan of 40 consumers to show.
// Printed, never asserted (speed is measured, not gated, in tests).
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { seedDataset } from '../../bench/seed';
import { createTestApp, type TestApp } from '../support/app';
import { browserIt, browserTitle } from '../support/browser';
import { CHROMIUM, type ConsoleHarness, openConsole } from '../support/console-build';

const HOSTS = 10_000;
const CONSUMERS = 40;

describe(browserTitle(`the planning views over ${HOSTS} hosts`), () => {
  let t: TestApp;
  let harness: ConsoleHarness | undefined;
  let base: string;
  let page: Page;
  let drained: string;

  beforeAll(async () => {
    if (!CHROMIUM) {
      return;
    }
    t = await createTestApp();
    await seedDataset(t.app.dataSource, { hosts: HOSTS, shape: 'flat', sharing: 0 });
    const [host] = await t.app.dataSource.query(
      "SELECT uuid FROM resource_providers WHERE name = 'bench-7'",
    );
    drained = host.uuid as string;
    await t.app.services.allocations.set(
      Array.from({ length: CONSUMERS }, (_, i) => ({
        consumerUuid: randomUUID(),
        projectId: 'bench',
        userId: 'bench',
        consumerType: 'INSTANCE',
        consumerGeneration: null,
        allocations: [
          {
            providerUuid: drained,
            resources: { VCPU: [1, 2, 4, 8][i % 4]!, MEMORY_MB: [2048, 4096, 8192][i % 3]! },
          },
        ],
      })),
    );
    await t.app.services.candidates.current(); // load the capacity index before measuring
    harness = await openConsole(t.app);
    ({ base, page } = harness);
    page.setDefaultTimeout(60_000);
  }, 180_000);

  afterAll(async () => {
    await harness?.close();
    await t?.close();
  });

  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

  /** Milliseconds from opening `url` until `done` holds in the page, three times. */
  const timed = async (url: string, done: () => boolean) => {
    const ms: number[] = [];
    for (let i = 0; i < 3; i++) {
      await page.goto('about:blank');
      const started = Date.now();
      await page.goto(url);
      await page.waitForFunction(done);
      ms.push(Date.now() - started);
    }
    return ms;
  };

  browserIt(
    'draws the headroom table and a drain plan (timings printed)',
    async () => {
      const headroom = await timed(
        `${base}/ui/#/overview`,
        () => document.querySelectorAll('[data-testid=headroom] tbody tr').length === 5,
      );
      const drain: number[] = [];
      for (let i = 0; i < 3; i++) {
        await page.goto('about:blank');
        await page.goto(`${base}/ui/#/providers/${drained}`);
        await page.waitForSelector('button:text("Plan drain")');
        const started = Date.now();
        await page.click('button:text("Plan drain")');
        await page.waitForFunction(
          (n) => document.querySelectorAll('[data-testid=drain-moves] > tbody > tr').length === n,
          CONSUMERS,
        );
        drain.push(Date.now() - started);
      }
      console.log(
        `[console @ ${HOSTS} hosts] headroom table on the overview: ${headroom.join(' / ')} ms (median ${median(headroom)}); drain plan of ${CONSUMERS} consumers shown: ${drain.join(' / ')} ms (median ${median(drain)})`,
      );
    },
    300_000,
  );
});
