// The console's Providers page in chromium on the seeded cloud of test/support/console-cloud.ts
// (61 hosts: 3 racks of 20 and a NUMA host): sorting by any column both ways, each filter, paging
// with the total, the view kept in the URL hash, and a host's child providers shown under it.
import type { Page } from 'playwright-core';
import { createTestApp, type TestApp } from '../support/app';
import { browserIt, browserTitle, shotPath } from '../support/browser';
import { CHROMIUM, type ConsoleHarness, openConsole } from '../support/console-build';
import { type ConsoleCloud, seedConsoleCloud } from '../support/console-cloud';

describe(browserTitle('the console’s providers page'), () => {
  let t: TestApp;
  let harness: ConsoleHarness | undefined;
  let base: string;
  let page: Page;
  let cloud: ConsoleCloud;

  beforeAll(async () => {
    if (!CHROMIUM) {
      return;
    }
    t = await createTestApp();
    cloud = await seedConsoleCloud(t.app);
    harness = await openConsole(t.app, { width: 1440, height: 900 });
    ({ base, page } = harness);
  }, 120_000);

  afterAll(async () => {
    await harness?.close();
    await t?.close();
  });

  const count = () => page.textContent('[data-testid=provider-count]');
  const waitCount = (want: string) =>
    page.waitForFunction(
      (w) => document.querySelector('[data-testid=provider-count]')?.textContent === w,
      want,
    );
  /** The host names shown, in order. */
  const shown = () =>
    page.$$eval('[data-testid=hosts] tbody tr[data-host]', (trs) =>
      trs.map((tr) => tr.getAttribute('data-host')),
    );
  /** Waits until the first row is `name`. */
  const firstIs = (name: string) =>
    page.waitForFunction(
      (n) =>
        document
          .querySelector('[data-testid=hosts] tbody tr[data-host]')
          ?.getAttribute('data-host') === n,
      name,
    );

  browserIt('lists hosts (not their children) a page at a time, with the total', async () => {
    await page.goto(`${base}/ui/#/providers`);
    await waitCount('1–50 of 61');
    expect((await shown()).slice(0, 3)).toEqual(['host-1-00', 'host-1-01', 'host-1-02']);
    expect(await shown()).not.toContain('numa-host-cell-0');
    await page.click('nav.pager button:has-text("Next")');
    await waitCount('51–61 of 61');
    expect(page.url()).toMatch(/#\/providers\?page=2$/);
    expect(await shown()).toContain('numa-host');
    expect(await page.textContent('[data-testid=page-of]')).toBe('Page 2 of 2');
    await page.click('nav.pager button:has-text("Previous")');
    await waitCount('1–50 of 61');
  });

  browserIt('sorts by a usage column, both ways, and by name and instances', async () => {
    await page.goto(`${base}/ui/#/providers`);
    await waitCount('1–50 of 61');
    await page.click('th[data-column=VCPU] button');
    await firstIs('host-2-00'); // 60 of 64 VCPU: the fullest first
    expect(page.url()).toContain('sort=VCPU&dir=desc');
    expect(await page.getAttribute('th[data-column=VCPU]', 'aria-sort')).toBe('descending');
    await page.screenshot({ path: shotPath('providers.png'), fullPage: true });
    await page.click('th[data-column=VCPU] button');
    expect(await page.getAttribute('th[data-column=VCPU]', 'aria-sort')).toBe('ascending');
    await page.waitForFunction(
      () =>
        document
          .querySelector('[data-testid=hosts] tbody tr[data-host]')
          ?.getAttribute('data-host') !== 'host-2-00',
    );
    // Ascending: empty hosts first (by name); host-2-00 last, on page 2.
    expect((await shown())[0]).toBe('host-1-09');
    await page.click('th[data-column=name] button');
    await firstIs('host-1-00');
    await page.click('th[data-column=name] button');
    await firstIs('numa-host');
    await page.click('th[data-column=instances] button'); // numbers sort largest first
    expect(new URL(page.url().replace('#/providers', '')).search).toBe('?dir=desc&sort=instances');
    await firstIs('host-1-00'); // one instance each on host-1-00..08, ties by name
    expect(await page.textContent('tr[data-host=host-1-00] td[data-field=instances]')).toBe('1');
  });

  browserIt('filters by name, trait, aggregate, zone and state', async () => {
    await page.goto(`${base}/ui/#/providers`);
    await waitCount('1–50 of 61');
    await page.fill('input[name=name]', 'host-2-');
    await waitCount('1–20 of 20');
    expect(page.url()).toContain('name=host-2-');
    await page.fill('input[name=name]', '');
    await waitCount('1–50 of 61');

    await page.fill('input[name=trait]', 'COMPUTE_STATUS_DISABLED');
    await waitCount('1–1 of 1');
    expect(await shown()).toEqual(['host-3-19']);
    expect((await page.textContent('tr[data-host=host-3-19] td.state'))?.trim()).toBe('disabled');
    await page.fill('input[name=trait]', '');
    await waitCount('1–50 of 61');

    await page.selectOption('select[name=aggregate]', { label: 'rack-3' });
    await waitCount('1–20 of 20');
    expect(page.url()).toContain(`aggregate=${cloud.aggregates[2]}`);
    await page.selectOption('select[name=aggregate]', '');
    await page.selectOption('select[name=zone]', 'az-1');
    await waitCount('1–40 of 40');
    await page.selectOption('select[name=zone]', '');

    await page.selectOption('select[name=state]', 'disabled');
    await waitCount('1–1 of 1');
    await firstIs('host-3-19');
    await page.selectOption('select[name=state]', 'full');
    await firstIs('host-2-00'); // the count stays "1–1 of 1": wait for the row
    expect(await count()).toBe('1–1 of 1');
    expect(await shown()).toEqual(['host-2-00']);
    expect(await page.textContent('tr[data-host=host-2-00] td.state')).toContain('≥ 90 % full');
    await page.selectOption('select[name=state]', 'enabled');
    await waitCount('1–50 of 60');
  });

  browserIt('opens a linked view as it was, and shows a host’s children under it', async () => {
    await page.goto(`${base}/ui/#/providers?zone=az-2&sort=VCPU&dir=desc`);
    await waitCount('1–20 of 20');
    expect(await page.inputValue('select[name=zone]')).toBe('az-2');
    await firstIs('host-3-01'); // proj-c's 8 VCPU
    await page.goto(`${base}/ui/#/providers?name=numa`);
    await waitCount('1–1 of 1');
    await page.click('tr[data-host=numa-host] td.expand button');
    await page.waitForSelector(`tr[data-child-of="${cloud.numaHost}"]`);
    const children = await page.$$eval(`tr[data-child-of="${cloud.numaHost}"] a`, (as) =>
      as.map((a) => a.textContent),
    );
    expect(children).toEqual(['numa-host-cell-0', 'numa-host-cell-1']);
    await page.click('tr[data-host=numa-host] th a');
    await page.waitForSelector('.tree');
    expect(page.url()).toContain(`#/providers/${cloud.numaHost}`);
  });
});
