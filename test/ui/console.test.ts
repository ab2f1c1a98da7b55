// The console in a real browser (Debian's chromium via playwright-core) against a real berth on a
// seeded cloud: 3 aggregates × 20 hosts, one host with two NUMA children, two projects with
// quota. Each test asserts what a person sees, and saves a screenshot under test-results/console/.
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { createTestApp, type TestApp } from '../support/app';
import { browserIt, browserTitle, shotPath } from '../support/browser';
import { CHROMIUM, type ConsoleHarness, openConsole } from '../support/console-build';
import { buildResourceProvider } from '../support/factories';
import { gql } from '../support/graphql';

const HOST = { VCPU: 16, MEMORY_MB: 32_768, DISK_GB: 500 };
const RATIO = { VCPU: 4, MEMORY_MB: 1.5, DISK_GB: 1 };
const RESERVED = { VCPU: 0, MEMORY_MB: 512, DISK_GB: 0 };
type Rc = keyof typeof HOST;

describe(browserTitle('the console in chromium'), () => {
  let t: TestApp;
  let harness: ConsoleHarness | undefined;
  let base: string;
  let page: Page;
  const aggregates = [randomUUID(), randomUUID(), randomUUID()];
  const hosts: string[] = [];
  let numaHost: string;
  /** What the seed allocated, per class. */
  const used: Record<Rc, number> = { VCPU: 0, MEMORY_MB: 0, DISK_GB: 0 };

  const claim = async (host: string, projectId: string, resources: Partial<Record<Rc, number>>) => {
    const r = await gql(
      t.app,
      'mutation($i: [ConsumerAllocationsInput!]!) { setAllocations(input: $i) { uuid } }',
      {
        i: [
          {
            consumerUuid: randomUUID(),
            projectId,
            userId: 'u',
            allocations: [
              {
                providerUuid: host,
                resources: Object.entries(resources).map(([resourceClass, amount]) => ({
                  resourceClass,
                  amount,
                })),
              },
            ],
          },
        ],
      },
    );
    expect(r.errors).toBeUndefined();
    for (const [rc, n] of Object.entries(resources)) {
      used[rc as Rc] += n;
    }
  };

  beforeAll(async () => {
    if (!CHROMIUM) {
      return;
    }
    t = await createTestApp();
    for (const [i, agg] of aggregates.entries()) {
      await gql(
        t.app,
        'mutation($i: SetAggregateMetadataInput) { setAggregateMetadata(input: $i) { uuid } }',
        {
          i: {
            uuid: agg,
            name: `rack-${i + 1}`,
            metadata: [{ key: 'rack', value: String(i + 1) }],
          },
        },
      );
      for (let h = 0; h < 20; h++) {
        const rp = await buildResourceProvider(t.app.services, {
          name: `host-${i + 1}-${String(h).padStart(2, '0')}`,
          aggregates: [agg],
          inventories: (Object.keys(HOST) as Rc[]).map((rc) => ({
            resourceClass: rc,
            total: HOST[rc],
            reserved: RESERVED[rc],
            allocationRatio: RATIO[rc],
          })),
        });
        hosts.push(rp.uuid);
      }
    }
    const numa = await buildResourceProvider(t.app.services, { name: 'numa-host' });
    numaHost = numa.uuid;
    for (const cell of [0, 1]) {
      await buildResourceProvider(t.app.services, {
        name: `numa-host-cell-${cell}`,
        parentUuid: numa.uuid,
        inventories: [{ resourceClass: 'VCPU', total: 8 }],
      });
    }
    for (const [projectId, limit] of [
      ['proj-a', 40],
      ['proj-b', 100],
    ] as const) {
      await gql(
        t.app,
        'mutation($i: QuotaLimitsInput!) { setQuotaLimits(input: $i) { projectId } }',
        { i: { projectId, limits: [{ resource: 'VCPU', limit }] } },
      );
    }
    for (let i = 0; i < 9; i++) {
      await claim(hosts[i]!, 'proj-a', { VCPU: 4, MEMORY_MB: 4096 }); // 36 of 40: above 80 %
    }
    await claim(hosts[30]!, 'proj-b', { VCPU: 2, DISK_GB: 100 });

    harness = await openConsole(t.app);
    ({ base, page } = harness);
  }, 120_000);

  afterAll(async () => {
    await harness?.close();
    await t?.close();
  });

  /** The number shown in a cloud-capacity cell. */
  const cell = (rc: Rc, field: string) =>
    page.$eval(`[data-testid=cloud-capacity] tr[data-class=${rc}] td[data-field=${field}]`, (el) =>
      Number(el.textContent!.replace(/,/g, '')),
    );

  browserIt('shows the seeded totals on the overview, and a new claim without reload', async () => {
    await page.goto(`${base}/ui/#/overview`);
    await page.waitForSelector('[data-testid=cloud-capacity] tr[data-class=VCPU]');
    const numaVcpu = 16;
    for (const rc of Object.keys(HOST) as Rc[]) {
      const total = HOST[rc] * 60 + (rc === 'VCPU' ? numaVcpu : 0);
      const capacity = (HOST[rc] - RESERVED[rc]) * RATIO[rc] * 60 + (rc === 'VCPU' ? numaVcpu : 0);
      expect({ rc, total: await cell(rc, 'total') }).toEqual({ rc, total });
      expect({ rc, capacity: await cell(rc, 'capacity') }).toEqual({ rc, capacity });
      expect({ rc, used: await cell(rc, 'used') }).toEqual({ rc, used: used[rc] });
    }
    const heatRows = await page.$$eval('[data-testid=heatmap] tbody tr', (rows) => rows.length);
    expect(heatRows).toBe(3);
    await page.waitForSelector('.live');
    await page.waitForFunction(() =>
      document.querySelector('.live')?.textContent?.startsWith('Live'),
    );
    await page.screenshot({ path: shotPath('overview.png'), fullPage: true });

    const before = await cell('VCPU', 'used');
    const started = Date.now();
    await claim(hosts[45]!, 'proj-b', { VCPU: 6 });
    await page.waitForFunction(
      (want) =>
        Number(
          document
            .querySelector('[data-testid=cloud-capacity] tr[data-class=VCPU] td[data-field=used]')
            ?.textContent?.replace(/,/g, ''),
        ) === want,
      before + 6,
      { timeout: 10_000 },
    );
    console.log(`[console] a claim appeared on the open overview after ${Date.now() - started} ms`);
  });

  browserIt('searches and pages providers, and draws a provider’s tree and usage', async () => {
    await page.goto(`${base}/ui/#/providers`);
    await page.waitForSelector('[data-testid=provider-count]');
    expect(await page.$eval('[data-testid=provider-count]', (e) => e.textContent)).toBe(
      '1–50 of 63',
    );
    await page.fill('input[type=search]', 'host-2-');
    await page.waitForFunction(
      () => document.querySelector('[data-testid=provider-count]')?.textContent === '1–20 of 20',
    );
    await page.goto(`${base}/ui/#/providers/${numaHost}`);
    await page.waitForSelector('.tree');
    const tree = await page.$eval('.tree', (e) => (e as HTMLElement).innerText);
    expect(tree).toContain('numa-host-cell-0');
    expect(tree).toContain('numa-host-cell-1');
    await page.goto(`${base}/ui/#/providers/${hosts[0]}`);
    await page.waitForSelector('[data-class=VCPU] .usage-text');
    expect(await page.$eval('[data-class=VCPU] .usage-text', (e) => e.textContent)).toBe(
      '4 / 64 used (6.3 %)',
    );
    expect(await page.$eval('section[aria-label=Aggregates]', (e) => e.textContent)).toContain(
      'rack-1: rack=1',
    );
    await page.screenshot({ path: shotPath('provider.png'), fullPage: true });
  });

  browserIt('draws the explainPlacement funnel with the counts berth returns', async () => {
    // Only rack 2's hosts carry rack=2: the extra-specs filter rejects the 40 hosts of racks 1
    // and 3, and the NUMA host (in no aggregate).
    const spec = { key: 'aggregate_instance_extra_specs:rack', value: '2' };
    const request = { groups: [{ resources: [{ resourceClass: 'VCPU', amount: 8 }] }] };
    const truth = await gql(
      t.app,
      `query($i: ScheduleInput!) { explainPlacement(input: $i) { filterSteps { filter before after rejections { reason } } } }`,
      {
        i: {
          consumerUuids: [randomUUID()],
          projectId: 'demo',
          userId: 'u',
          request,
          extraSpecs: [spec],
        },
      },
    );
    expect(truth.errors).toBeUndefined();
    await page.goto(`${base}/ui/#/explain`);
    await page.fill('.explain-form input', 'VCPU:8');
    await page.fill('.explain-form textarea', `${spec.key}=${spec.value}`);
    await page.click('.explain-form button[type=submit]');
    await page.waitForSelector('[data-testid=funnel]');
    const shown = await page.$$eval('[data-testid=funnel] > li', (items) =>
      items.map((li) => [li.getAttribute('data-step'), Number(li.querySelector('b')!.textContent)]),
    );
    const steps = truth.data.explainPlacement.filterSteps as {
      filter: string;
      before: number;
      after: number;
      rejections: { reason: string }[];
    }[];
    expect(shown).toEqual([
      ['candidates', steps[0]!.before],
      ...steps.map((s) => [s.filter, s.after]),
    ]);
    const rejecting = steps.find((s) => s.rejections.length > 0)!;
    expect(rejecting.rejections).toHaveLength(41);
    const grouped = await page.$$eval(
      `[data-testid=funnel] > li[data-step=${rejecting.filter}] li`,
      (items) => items.map((li) => Number(li.textContent!.split(' × ')[0])),
    );
    expect(grouped.reduce((a, b) => a + b, 0)).toBe(41);
    await page.screenshot({ path: shotPath('explain.png'), fullPage: true });
  });

  browserIt('shows a project’s quota with a warning above 80 %', async () => {
    await page.goto(`${base}/ui/#/projects/proj-a`);
    await page.waitForSelector('[data-resource=VCPU] .usage-text');
    expect(await page.$eval('[data-resource=VCPU] .usage-text', (e) => e.textContent)).toBe(
      '36 / 40 used (90.0 %) — above 80 %',
    );
    expect(await page.$eval('[data-resource=VCPU] .bar', (e) => e.className)).toBe('bar warn');
    await page.screenshot({ path: shotPath('project.png'), fullPage: true });
  });
});
