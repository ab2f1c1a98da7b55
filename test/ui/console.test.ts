// The console in a real browser (Debian's chromium via playwright-core) against a real berth on
// the seeded cloud of test/support/console-cloud.ts: the overview (totals in human units, the
// heatmap with its legend, flagged hosts, links, live updates), a provider's page and the
// projects pages (quota states, consumers). Each test asserts what a person sees and saves a
// screenshot under test-results/console/.
import type { Page } from 'playwright-core';
import { createTestApp, type TestApp } from '../support/app';
import { browserIt, browserTitle, shotPath } from '../support/browser';
import { CHROMIUM, type ConsoleHarness, openConsole } from '../support/console-build';
import {
  type ConsoleCloud,
  HOST,
  NUMA_VCPU,
  RATIO,
  type Rc,
  RESERVED,
  seedConsoleCloud,
} from '../support/console-cloud';

describe(browserTitle('the console in chromium'), () => {
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
    harness = await openConsole(t.app);
    ({ base, page } = harness);
  }, 120_000);

  afterAll(async () => {
    await harness?.close();
    await t?.close();
  });

  /** The exact number behind a cloud-capacity cell (its text is in human units). */
  const cell = (rc: Rc, field: string) =>
    page.$eval(`[data-testid=cloud-capacity] tr[data-class=${rc}] td[data-field=${field}]`, (el) =>
      Number(el.getAttribute('data-value')),
    );
  const text = (selector: string) => page.$eval(selector, (e) => (e as HTMLElement).innerText);

  browserIt('shows the seeded totals in human units, and a new claim without reload', async () => {
    await page.goto(`${base}/ui/#/overview`);
    await page.waitForSelector('[data-testid=cloud-capacity] tr[data-class=VCPU]');
    for (const rc of Object.keys(HOST) as Rc[]) {
      const total = HOST[rc] * 60 + (rc === 'VCPU' ? NUMA_VCPU : 0);
      const capacity = (HOST[rc] - RESERVED[rc]) * RATIO[rc] * 60 + (rc === 'VCPU' ? NUMA_VCPU : 0);
      expect({ rc, total: await cell(rc, 'total') }).toEqual({ rc, total });
      expect({ rc, capacity: await cell(rc, 'capacity') }).toEqual({ rc, capacity });
      expect({ rc, used: await cell(rc, 'used') }).toEqual({ rc, used: cloud.used[rc] });
    }
    // 60 × 32,768 MiB = 1,966,080 MiB = 1.9 TiB; 60 × 500 GiB = 29.3 TiB; VCPU as a count.
    const shown = (rc: Rc, f: string) =>
      text(`[data-testid=cloud-capacity] tr[data-class=${rc}] td[data-field=${f}]`);
    expect(await shown('MEMORY_MB', 'total')).toBe('1.9 TiB');
    expect(await shown('DISK_GB', 'total')).toBe('29.3 TiB');
    expect(await shown('VCPU', 'total')).toBe('976');
    expect(await shown('MEMORY_MB', 'reserved')).toBe('30 GiB');
    await page.waitForFunction(() =>
      document.querySelector('.live')?.textContent?.startsWith('Live'),
    );

    const before = await cell('VCPU', 'used');
    const started = Date.now();
    await cloud.claim(cloud.hosts[45]!, 'proj-b', { VCPU: 6 });
    await page.waitForFunction(
      (want) =>
        document
          .querySelector('[data-testid=cloud-capacity] tr[data-class=VCPU] td[data-field=used]')
          ?.getAttribute('data-value') === String(want),
      before + 6,
      { timeout: 10_000 },
    );
    console.log(`[console] a claim appeared on the open overview after ${Date.now() - started} ms`);
  });

  browserIt('draws the heatmap on a continuous scale with a legend, names linked', async () => {
    await page.goto(`${base}/ui/#/overview`);
    await page.waitForSelector('[data-testid=heatmap] tbody tr');
    const rows = await page.$$eval('[data-testid=heatmap] tbody tr', (trs) =>
      trs.map((tr) => [
        tr.querySelector('th a')!.textContent,
        tr.querySelector('th a')!.getAttribute('href'),
      ]),
    );
    expect(rows.map((r) => r[0])).toEqual(['rack-1', 'rack-2', 'rack-3']);
    expect(rows[1]![1]).toBe(`#/providers?aggregate=${cloud.aggregates[1]}`);
    // rack-1: 36 of 1,280 VCPU; rack-2: 62; rack-3: 8 (+6 after the live test) — three different
    // colours (a bucketed scale would paint all three alike).
    const colours = await page.$$eval('[data-testid=heatmap] td[data-class=VCPU]', (tds) =>
      tds.map((td) => getComputedStyle(td).backgroundColor),
    );
    expect(new Set(colours).size).toBe(3);
    const legend = await text('[data-testid=heat-legend]');
    expect(legend).toContain('0 %');
    expect(legend).toContain('100 %');
    expect(await page.$eval('.legend-bar', (e) => getComputedStyle(e).backgroundImage)).toContain(
      'linear-gradient',
    );
    await page.screenshot({ path: shotPath('overview.png'), fullPage: true });

    await page.click('[data-testid=heatmap] tbody tr:nth-child(2) th a');
    await page.waitForFunction(
      () => document.querySelector('[data-testid=provider-count]')?.textContent === '1–20 of 20',
    );
  });

  browserIt('flags hosts at 90 % and disabled hosts, each a link to its page', async () => {
    await page.goto(`${base}/ui/#/overview`);
    await page.waitForSelector('[data-testid=full-hosts] li');
    expect(await text('[data-testid=full-hosts] h3')).toBe('Hosts at or above 90 % (1)');
    expect(await text('[data-testid=full-hosts] li')).toContain('host-2-00');
    expect(await text('[data-testid=full-hosts] li')).toContain('93.8 %');
    await page.waitForSelector('[data-testid=disabled-hosts] li');
    expect(await text('[data-testid=disabled-hosts] h3')).toBe('Disabled hosts (1)');
    expect(await text('[data-testid=disabled-hosts] li')).toContain('host-3-19');
    // The fullest ranking marks the full host; projects are links too.
    await page.waitForSelector('section[aria-label="Projects"] a[href="#/projects/proj-c"]');
    await page.click('[data-testid=disabled-hosts] li a');
    await page.waitForFunction(() =>
      document.querySelector('h2')?.textContent?.includes('host-3-19'),
    );
    expect(await text('h2')).toContain('disabled');
    expect(page.url()).toContain(`#/providers/${cloud.disabledHost}`);
  });

  browserIt('draws a provider’s tree and usage in human units', async () => {
    await page.goto(`${base}/ui/#/providers/${cloud.numaHost}`);
    await page.waitForSelector('.tree');
    const tree = await text('.tree');
    expect(tree).toContain('numa-host-cell-0');
    expect(tree).toContain('numa-host-cell-1');
    // The root has no inventory of its own: the tree's total is its cells' (2 × 8 VCPU).
    expect(await page.textContent('[data-tree-class=VCPU] .usage-text')).toBe(
      '0 / 16 used (0.0 %)',
    );
    await page.goto(`${base}/ui/#/providers/${cloud.hosts[0]}`);
    await page.waitForSelector('tr[data-class=MEMORY_MB] .usage-text');
    const usage = (rc: Rc) => page.textContent(`tr[data-class=${rc}] .usage-text`);
    expect(await usage('VCPU')).toBe('VCPU: 4 / 64 used (6.3 %)');
    // (32,768 - 512) × 1.5 = 48,384 MiB = 47.3 GiB
    expect(await usage('MEMORY_MB')).toBe('MEMORY_MB: 4 / 47.3 GiB used (8.5 %)');
    expect(await text('section[aria-label=Aggregates]')).toContain(
      'rack-1: availability_zone=az-1',
    );
    expect(await text('.subtitle')).toContain('zone az-1');
    await page.screenshot({ path: shotPath('provider.png'), fullPage: true });
  });

  browserIt('shows quota states: near limit at 80 %, at limit at 100 %', async () => {
    await page.goto(`${base}/ui/#/projects`);
    await page.waitForSelector('[data-testid=projects] tr[data-project=proj-c] .badge');
    const state = (p: string) =>
      text(`[data-testid=projects] tr[data-project=${p}] td[data-field=quota-state]`);
    expect(await state('proj-a')).toBe('near limit');
    expect(await state('proj-c')).toBe('at limit');
    await page.waitForFunction(() =>
      document
        .querySelector('[data-testid=projects] tr[data-project=proj-b] td[data-field=quota-state]')
        ?.textContent?.includes('ok'),
    );

    await page.click('[data-testid=projects] tr[data-project=proj-a] th a');
    await page.waitForSelector('[data-testid=quota] tr[data-resource=VCPU]');
    const cells = (field: string) =>
      text(`[data-testid=quota] tr[data-resource=VCPU] [data-field=${field}]`);
    expect(await cells('limit')).toBe('40');
    expect(await cells('used')).toBe('36');
    expect(await cells('percent')).toBe('90.0 %');
    expect(await cells('state')).toBe('near limit');
    expect(
      await page.$eval('[data-testid=quota] tr[data-resource=VCPU] .badge', (e) => e.className),
    ).toBe('badge badge-near-limit');
    // Consumers: long uuids on one line each, in monospace.
    await page.waitForSelector('section[aria-label=Consumers] tbody tr');
    const uuidCell = await page.$eval('section[aria-label=Consumers] tbody td.mono', (td) => ({
      wrap: getComputedStyle(td).whiteSpace,
      font: getComputedStyle(td).fontFamily,
      oneLine: td.getBoundingClientRect().height < 30,
    }));
    expect(uuidCell.wrap).toBe('nowrap');
    expect(uuidCell.font).toMatch(/mono/i);
    expect(uuidCell.oneLine).toBe(true);
    await page.screenshot({ path: shotPath('project.png'), fullPage: true });

    await page.goto(`${base}/ui/#/projects/proj-c`);
    await page.waitForSelector('[data-testid=quota] tr[data-resource=VCPU] .badge');
    expect(await cells('state')).toBe('at limit');
    expect(
      await page.$eval('[data-testid=quota] tr[data-resource=VCPU] .badge', (e) => e.className),
    ).toBe('badge badge-at-limit');
  });
});
