// The console over 10,000 hosts, in chromium: how long the overview takes to render and a page
// of the provider list to turn. Printed, never asserted (speed is measured, not gated, in tests).

import type { Page } from 'playwright-core';
import { seedDataset } from '../../bench/seed';
import { createTestApp, type TestApp } from '../support/app';
import { browserIt, browserTitle, shotPath } from '../support/browser';
import { CHROMIUM, type ConsoleHarness, openConsole } from '../support/console-build';

const HOSTS = 10_000;

describe(browserTitle(`the console over ${HOSTS} hosts`), () => {
  let t: TestApp;
  let harness: ConsoleHarness | undefined;
  let base: string;
  let page: Page;

  beforeAll(async () => {
    if (!CHROMIUM) {
      return;
    }
    t = await createTestApp();
    await seedDataset(t.app.dataSource, { hosts: HOSTS, shape: 'flat', sharing: 0 });
    await t.app.services.candidates.current(); // load the capacity index before measuring
    harness = await openConsole(t.app);
    ({ base, page } = harness);
  }, 180_000);

  afterAll(async () => {
    await harness?.close();
    await t?.close();
  });

  browserIt('renders the overview and pages the provider list (timings printed)', async () => {
    const overview: number[] = [];
    for (let i = 0; i < 3; i++) {
      await page.goto('about:blank');
      const started = Date.now();
      await page.goto(`${base}/ui/#/overview`);
      await page.waitForFunction(
        () =>
          document.querySelectorAll('[data-testid=cloud-capacity] tbody tr').length === 3 &&
          document.querySelectorAll('.ranking li').length === 40,
      );
      overview.push(Date.now() - started);
    }
    const providerCount = await page.$eval(
      '[data-testid=cloud-capacity]',
      () => document.querySelector('h3 small')?.textContent,
    );
    expect(providerCount).toContain('10,000');

    await page.goto(`${base}/ui/#/providers`);
    await page.waitForSelector('[data-testid=provider-count]');
    const turns: number[] = [];
    for (let i = 1; i <= 10; i++) {
      const want = `${(i * 50 + 1).toLocaleString('en')}–${((i + 1) * 50).toLocaleString('en')} of 10,000`;
      const started = Date.now();
      await page.click('nav.pager button:has-text("Next")');
      await page.waitForFunction(
        (w) => document.querySelector('[data-testid=provider-count]')?.textContent === w,
        want,
      );
      turns.push(Date.now() - started);
    }
    await page.screenshot({ path: shotPath('providers-10000.png') });
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    console.log(
      `[console @ ${HOSTS} hosts] overview rendered in ${overview.join(' / ')} ms (median ${median(overview)} ms); provider list page turn median ${median(turns)} ms, max ${Math.max(...turns)} ms`,
    );
  });
});
