// The console's drain plan and audit-trail simulation in chromium against a real berth
// (BERTH_AUTH=on): a host's Plan drain shows `drainPlan`'s moves, a reader gets no Reserve
// button, and an admin's Reserve claims the destinations as moves (read back from the
// consumers); an admin replays the audit trail against a candidate configuration, a reader is
// offered neither. The cloud: test/support/planning-console.ts.
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { browserIt, browserTitle, shotPath } from '../support/browser';
import { CHROMIUM } from '../support/console-build';
import {
  DRAIN,
  openPlanningConsole,
  type PlanningConsole,
  SIMULATE,
} from '../support/planning-console';

describe(browserTitle('the drain plan and audit replay views in chromium'), () => {
  let p: PlanningConsole | undefined;
  let page: Page;
  let base: string;
  let hosts: readonly string[];
  let drained: readonly string[];
  let ask: PlanningConsole['ask'];
  let signIn: PlanningConsole['signIn'];

  beforeAll(async () => {
    if (!CHROMIUM) {
      return;
    }
    p = await openPlanningConsole();
    ({ page, base, hosts, drained, ask, signIn } = p);
  }, 120_000);

  afterAll(async () => {
    await p?.close();
  });

  browserIt('plans a drain on a host page; a reader cannot reserve, an admin can', async () => {
    await signIn('reader');
    const want = await ask<{
      drainPlan: {
        movable: number;
        unmovable: number;
        moves: { consumerUuid: string; to: { uuid: string } | null; reason: string | null }[];
      };
    }>(DRAIN, { hosts: [hosts[0]] });
    expect(want.drainPlan.movable).toBe(3);
    expect(want.drainPlan.unmovable).toBe(1);

    const openPlan = async () => {
      await page.goto(`${base}/ui/#/providers/${hosts[0]}`);
      await page.click('button:text("Plan drain")');
      await page.waitForSelector('[data-testid=drain-moves]');
    };
    const shownMoves = () =>
      page.$$eval('[data-testid=drain-moves] > tbody > tr', (trs) =>
        trs.map((tr) => ({
          consumerUuid: tr.getAttribute('data-consumer'),
          to: tr.getAttribute('data-to') || null,
          text: (tr as HTMLElement).innerText,
        })),
      );
    await openPlan();
    const moves = await shownMoves();
    expect(moves.map(({ consumerUuid, to }) => ({ consumerUuid, to }))).toEqual(
      want.drainPlan.moves.map((m) => ({ consumerUuid: m.consumerUuid, to: m.to?.uuid ?? null })),
    );
    expect(new Set(moves.map((m) => m.consumerUuid))).toEqual(new Set(drained));
    const stuck = moves.find((m) => m.to === null)!;
    expect(stuck.text).toContain('cannot move');
    expect(await page.textContent('[data-testid=drain-counts] [data-field=movable] b')).toBe('3');
    expect(await page.textContent('[data-testid=drain-counts] [data-field=unmovable] b')).toBe('1');
    // Permissions are asked of berth: its answer is in, and it is no.
    await page.waitForSelector('[data-testid=drain-plan][data-may-reserve=false]');
    expect(await page.$('button:text("Reserve…")')).toBeNull();

    await signIn('admin');
    await openPlan();
    await page.click('button:text("Reserve…")');
    await page.screenshot({ path: shotPath('drain.png'), fullPage: true });
    // The confirmation has the keyboard focus: Enter confirms.
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid=drain-reserved]');
    const reserved = await shownMoves();
    for (const m of reserved.filter((x) => x.to !== null)) {
      const c = await ask<{ consumer: { move: { destinationHost: { uuid: string } } | null } }>(
        'query($i: ID!) { consumer(uuid: $i) { move { destinationHost { uuid } } } }',
        m.consumerUuid,
      );
      expect(c.consumer.move?.destinationHost.uuid).toBe(m.to);
    }
    const stay = await ask<{ consumer: { move: unknown } }>(
      'query($i: ID!) { consumer(uuid: $i) { move { startedAt } } }',
      reserved.find((x) => x.to === null)!.consumerUuid,
    );
    expect(stay.consumer.move).toBeNull();
  });

  browserIt('lets an admin replay the audit trail against a candidate configuration', async () => {
    // Three schedule calls in the audit trail, each claiming one m1.small.
    for (let c = 0; c < 3; c++) {
      await ask(
        'mutation($i: ScheduleInput!) { schedule(input: $i) { selections { host { uuid } } } }',
        {
          consumerUuids: [randomUUID()],
          projectId: 'proj-s',
          userId: 'u',
          request: {
            groups: [
              {
                suffix: '',
                resources: [
                  { resourceClass: 'VCPU', amount: 1 },
                  { resourceClass: 'MEMORY_MB', amount: 2048 },
                ],
              },
            ],
          },
        },
        'admin',
      );
    }
    const plugins = '{"RAMWeigher": {"multiplier": -1}}';
    await signIn('admin');
    await page.goto(`${base}/ui/#/simulate`);
    await page.waitForSelector('.simulate[data-admin=true]');
    await page.click('input[name=mode][value=audit]');
    await page.fill('.sim-form [name=fromAudit]', '3');
    await page.selectOption('.sim-form [name=compareProfile]', {
      label: 'a candidate configuration…',
    });
    await page.fill('[data-testid=compare-pipeline] [name=cpPlugins]', plugins);
    await page.click('.sim-form button[type=submit]');
    await page.waitForSelector('[data-testid=sim-diff]');

    const want = await ask<{
      simulate: {
        run: { label: string; placed: number; failed: number };
        compare: { label: string; placed: number; failed: number };
        diff: { same: number; differentHost: number; onlyInRun: number; onlyInCompare: number };
      };
    }>(
      SIMULATE,
      { fromAudit: 3, comparePipeline: { profile: 'default', plugins }, seed: 1 },
      'admin',
    );
    expect(want.simulate.run.placed).toBe(3);
    expect(want.simulate.compare.label).toBe('custom');
    expect(await page.textContent('[data-testid=sim-compare] h3 code')).toBe('custom');
    const counts = await page.$$eval('.sim-diff-counts li b', (bs) =>
      bs.map((b) => Number(b.textContent)),
    );
    const { diff } = want.simulate;
    expect(counts).toEqual([diff.same, diff.differentHost, diff.onlyInRun, diff.onlyInCompare]);
    expect(diff.differentHost).toBeGreaterThan(0);
    expect(await page.textContent('[data-testid=sim-run] [data-field=placed] b')).toBe('3');

    // A plugin directory not yet deployed goes to berth with the candidate configuration: one
    // that does not exist is refused, and the page says so.
    await page.fill('[data-testid=compare-pipeline] [name=cpDirs]', '/nonexistent/berth-plugins');
    await page.click('.sim-form button[type=submit]');
    await page.waitForSelector('.simulate [role=alert]');
    expect(await page.textContent('.simulate [role=alert]')).toContain(
      '/nonexistent/berth-plugins',
    );
    await page.fill('[data-testid=compare-pipeline] [name=cpDirs]', '');

    // A reader has neither the audit trail nor a candidate configuration to choose.
    await signIn('reader');
    await page.goto(`${base}/ui/#/simulate`);
    await page.waitForSelector('.simulate[data-admin=false] .sim-form');
    expect(await page.$('input[name=mode][value=audit]')).toBeNull();
    expect(
      await page.$$eval('.sim-form [name=compareProfile] option', (os) =>
        os.map((o) => o.textContent),
      ),
    ).not.toContain('a candidate configuration…');
  });
});
