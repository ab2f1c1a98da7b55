// The console's capacity planning views in chromium against a real berth (BERTH_AUTH=on): the
// overview's headroom table says what `headroom` says, cloud-wide and per aggregate; a flavor's
// link opens the simulation page, whose run and comparison (profile `pack`, RAM packed instead
// of spread) show what `simulate` answers, the differing consumers highlighted side by side.
// The cloud: test/support/planning-console.ts.
import type { Page } from 'playwright-core';
import { browserIt, browserTitle, shotPath } from '../support/browser';
import { CHROMIUM } from '../support/console-build';
import {
  type Counts,
  HEADROOM,
  openPlanningConsole,
  type PlanningConsole,
  SIMULATE,
} from '../support/planning-console';

/** The trace row the console sends for m1.medium, as a ScheduleInput. */
const medium = (consumerUuids: readonly string[]) => ({
  consumerUuids,
  projectId: 'simulation',
  userId: 'console',
  request: {
    groups: [
      {
        suffix: '',
        resources: [
          { resourceClass: 'VCPU', amount: 2 },
          { resourceClass: 'MEMORY_MB', amount: 4096 },
          { resourceClass: 'DISK_GB', amount: 40 },
        ],
      },
    ],
  },
});

describe(browserTitle('the headroom and simulation views in chromium'), () => {
  let p: PlanningConsole | undefined;
  let page: Page;
  let hosts: readonly string[];
  let racks: readonly string[];
  let ask: PlanningConsole['ask'];
  let signIn: PlanningConsole['signIn'];

  beforeAll(async () => {
    if (!CHROMIUM) {
      return;
    }
    p = await openPlanningConsole();
    ({ page, hosts, racks, ask, signIn } = p);
  }, 120_000);

  afterAll(async () => {
    await p?.close();
  });

  /** The headroom table's rows: flavor (and group) with its counts. */
  const shownHeadroom = () =>
    page.$$eval('[data-testid=headroom] tbody tr', (trs) =>
      trs.map((tr) => {
        const v = (f: string) =>
          Number(tr.querySelector(`[data-field=${f}]`)!.getAttribute('data-value'));
        const first = tr.querySelector('[data-field=runs-out-first] code');
        return {
          flavor: tr.getAttribute('data-flavor'),
          group: tr.getAttribute('data-group'),
          count: v('count'),
          independentCount: v('independent'),
          hostsWithRoom: v('hosts-with-room'),
          runsOutFirst: first ? first.textContent : null,
          text: (tr as HTMLElement).innerText,
        };
      }),
    );

  const rowOf = (flavor: string, group: string | null, c: Counts) => ({
    flavor,
    group,
    count: c.count,
    independentCount: c.independentCount,
    hostsWithRoom: c.hostsWithRoom,
    runsOutFirst: c.runsOutFirst,
  });

  browserIt('shows the headroom berth computes, cloud-wide and per aggregate', async () => {
    await signIn('reader');
    const want = await ask<{ headroom: { flavors: (Counts & { name: string })[] } }>(HEADROOM, {
      groupBy: 'NONE',
    });
    expect(want.headroom.flavors.length).toBeGreaterThan(0);
    await page.waitForSelector('[data-testid=headroom] tbody tr');
    const shown = await shownHeadroom();
    expect(shown.map(({ text: _, ...r }) => r)).toEqual(
      want.headroom.flavors.map((f) => rowOf(f.name, null, f)),
    );
    // Human figures: the counts as text, "of N hosts".
    expect(shown[0]!.text).toContain(`of ${hosts.length}`);
    await page.screenshot({ path: shotPath('headroom.png'), fullPage: true });

    const grouped = await ask<{
      headroom: { flavors: (Counts & { name: string; groups: (Counts & { key: string })[] })[] };
    }>(HEADROOM, { groupBy: 'AGGREGATE' });
    await page.selectOption('[name=headroom-group-by]', 'AGGREGATE');
    await page.waitForSelector('[data-testid=headroom] tbody tr.group-row');
    const rows = await shownHeadroom();
    expect(rows.map(({ text: _, ...r }) => r)).toEqual(
      grouped.headroom.flavors.flatMap((f) => [
        rowOf(f.name, null, f),
        ...f.groups.map((g) => rowOf(f.name, g.key, g)),
      ]),
    );
    expect(new Set(rows.filter((r) => r.group).map((r) => r.group))).toEqual(new Set(racks));
  });

  browserIt('simulates a flavor from its headroom row and diffs two profiles', async () => {
    await signIn('reader');
    await page.waitForSelector('[data-testid=headroom] tbody tr[data-flavor="m1.medium"] a');
    await page.click('[data-testid=headroom] tbody tr[data-flavor="m1.medium"] a');
    await page.waitForFunction(() => window.location.hash.startsWith('#/simulate?'));
    await page.waitForSelector('[data-testid=sim-run]');
    expect(await page.inputValue('[data-testid=trace-rows] [name=flavor]')).toBe('m1.medium');
    expect(await page.inputValue('[data-testid=trace-rows] [name=resources]')).toBe(
      'VCPU:2, MEMORY_MB:4096, DISK_GB:40',
    );

    await page.fill('[data-testid=trace-rows] [name=count]', '6');
    await page.selectOption('.sim-form [name=compareProfile]', 'pack');
    await page.click('.sim-form button[type=submit]');
    await page.waitForSelector('[data-testid=sim-diff]');

    const consumerUuids = Array.from(
      { length: 6 },
      (_, n) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`,
    );
    const want = await ask<{
      simulate: {
        run: { label: string; placed: number; failed: number };
        compare: { label: string; placed: number; failed: number };
        diff: {
          same: number;
          differentHost: number;
          onlyInRun: number;
          onlyInCompare: number;
          entries: {
            index: number;
            runHost: { uuid: string } | null;
            compareHost: { uuid: string } | null;
          }[];
        };
      };
    }>(SIMULATE, {
      requests: [medium(consumerUuids)],
      profile: 'default',
      compareProfile: 'pack',
      seed: 1,
    });
    const { diff } = want.simulate;
    expect(diff.entries.length).toBeGreaterThan(0);

    const counts = await page.$$eval('.sim-diff-counts li', (lis) =>
      Object.fromEntries(
        lis.map((li) => [li.getAttribute('data-kind'), Number(li.querySelector('b')!.textContent)]),
      ),
    );
    expect(counts).toEqual({
      same: diff.same,
      different: diff.differentHost,
      'only-run': diff.onlyInRun,
      'only-compare': diff.onlyInCompare,
    });
    // The highlighted rows are exactly simulate's differing entries, with both hosts.
    const differing = await page.$$eval('[data-testid=diff-rows] tbody tr.sim-differs', (trs) =>
      trs.map((tr) => {
        const links = [...tr.querySelectorAll('td')].slice(2, 4).map((td) => {
          const a = td.querySelector('a');
          return a ? a.getAttribute('href')!.replace('#/providers/', '') : null;
        });
        return { index: Number(tr.getAttribute('data-index')), run: links[0], compare: links[1] };
      }),
    );
    expect(differing).toEqual(
      diff.entries.map((e) => ({
        index: e.index,
        run: e.runHost?.uuid ?? null,
        compare: e.compareHost?.uuid ?? null,
      })),
    );
    for (const side of ['run', 'compare'] as const) {
      const run = want.simulate[side];
      expect(await page.textContent(`[data-testid=sim-${side}] [data-field=placed] b`)).toBe(
        String(run.placed),
      );
      expect(await page.textContent(`[data-testid=sim-${side}] [data-field=failed] b`)).toBe(
        String(run.failed),
      );
    }
    await page.screenshot({ path: shotPath('simulate.png'), fullPage: true });

    // The URL keeps the trace and the choices: the link runs again on arrival.
    const link = await page.evaluate(() => window.location.href);
    await page.goto('about:blank');
    await page.goto(link);
    await page.waitForSelector('[data-testid=sim-diff]');
    expect(await page.inputValue('[data-testid=trace-rows] [name=count]')).toBe('6');
    expect(await page.inputValue('.sim-form [name=compareProfile]')).toBe('pack');
    expect(await page.$$eval('[data-testid=diff-rows] tbody tr.sim-differs', (t) => t.length)).toBe(
      diff.entries.length,
    );

    // A request nothing can take: its failure, berth's reason and the candidate stage.
    await page.click('.sim-form button:text("Add request")');
    await page.fill(
      '[data-testid=trace-rows] tr[data-row="1"] [name=resources]',
      'MEMORY_MB:999999',
    );
    await page.selectOption('.sim-form [name=compareProfile]', '');
    await page.click('.sim-form button[type=submit]');
    await page.waitForSelector('[data-testid=sim-run] tr.sim-failed');
    const failed = await ask<{
      simulate: { run: { failed: number; placements: { index: number; reason: string | null }[] } };
    }>(
      `query($i: SimulateInput!) { simulate(input: $i) { run { failed placements { index reason } } } }`,
      {
        requests: [
          medium(consumerUuids),
          {
            consumerUuids: ['00000000-0000-4000-8000-000000000006'],
            projectId: 'simulation',
            userId: 'console',
            request: {
              groups: [
                { suffix: '', resources: [{ resourceClass: 'MEMORY_MB', amount: 999_999 }] },
              ],
            },
          },
        ],
      },
    );
    expect(failed.simulate.run.failed).toBe(1);
    const last = failed.simulate.run.placements.at(-1)!;
    expect(await page.$$eval('[data-testid=sim-run] tr.sim-failed', (t) => t.length)).toBe(1);
    expect(
      await page.textContent(
        `[data-testid=sim-run] tr.sim-failed[data-index="${last.index}"] .sim-reason`,
      ),
    ).toBe(last.reason);
    await page.click('[data-testid=sim-run] .sim-stage-row summary');
    await page.waitForSelector('[data-testid=sim-run] .sim-stage-row [data-testid=blocking]');
    expect(
      await page.textContent('[data-testid=sim-run] .sim-stage-row [data-testid=blocking]'),
    ).toContain('MEMORY_MB');
  });
});
