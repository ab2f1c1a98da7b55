// The console's capacity planning views in chromium against a real berth (BERTH_AUTH=on): the
// overview's headroom table says what `headroom` says, cloud-wide and per aggregate; a flavor's
// link opens the simulation page, whose run and comparison (profile `pack`, RAM packed instead
// of spread) show what `simulate` answers, the differing consumers highlighted side by side; a
// host's Plan drain shows `drainPlan`'s moves, a reader gets no Reserve button, and an admin's
// Reserve claims the destinations as moves (read back from the consumers).
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { createTestApp, type TestApp } from '../support/app';
import { browserIt, browserTitle, shotPath } from '../support/browser';
import { CHROMIUM, type ConsoleHarness, openConsole } from '../support/console-build';
import { buildResourceProvider, nameAggregate } from '../support/factories';
import { type GqlResponse, gql } from '../support/graphql';

const RACKS = 2;
const PER_RACK = 6;
/** host-1-00's memory: room for the consumer no other host can take. */
const BIG_MEMORY = 131_072;
const BIG_CONSUMER_MEMORY = 100_000;

const HEADROOM = `query($i: HeadroomInput!) { headroom(input: $i) {
  hosts flavors { name count independentCount hosts hostsWithRoom runsOutFirst
    groups { key count independentCount hosts hostsWithRoom runsOutFirst } }
} }`;

const SIMULATE = `query($i: SimulateInput!) { simulate(input: $i) {
  run { label placed failed placements { index host { uuid } } }
  compare { label placed failed placements { index host { uuid } } }
  diff { same differentHost onlyInRun onlyInCompare entries { index runHost { uuid } compareHost { uuid } } }
} }`;

const DRAIN = `query($i: DrainPlanInput!) { drainPlan(input: $i) {
  movable unmovable moves { consumerUuid from { uuid } to { uuid } reason }
} }`;

interface Counts {
  count: number;
  independentCount: number;
  hosts: number;
  hostsWithRoom: number;
  runsOutFirst: string | null;
}

describe(browserTitle('the capacity planning views in chromium'), () => {
  let t: TestApp;
  let harness: ConsoleHarness | undefined;
  let base: string;
  let page: Page;
  const tokens: Record<'admin' | 'reader', string> = { admin: '', reader: '' };
  const racks = Array.from({ length: RACKS }, () => randomUUID());
  const hosts: string[] = [];
  const drained: string[] = []; // consumers on host-1-00

  const ask = async <T>(query: string, i: unknown, role: 'admin' | 'reader' = 'reader') => {
    const r: GqlResponse<T> = await gql<T>(
      t.app,
      query,
      { i },
      {
        authorization: `Bearer ${tokens[role]}`,
      },
    );
    expect(r.errors).toBeUndefined();
    return r.data!;
  };

  const claim = async (host: string, resources: Record<string, number>) => {
    const consumerUuid = randomUUID();
    await ask(
      'mutation($i: [ConsumerAllocationsInput!]!) { setAllocations(input: $i) { uuid } }',
      [
        {
          consumerUuid,
          projectId: 'proj-p',
          userId: 'u',
          consumerType: 'INSTANCE',
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
      'admin',
    );
    return consumerUuid;
  };

  /** Signs in with `role`'s token (signing out first when signed in). */
  const signIn = async (role: 'admin' | 'reader') => {
    await page.goto(`${base}/ui/#/overview`);
    await page.waitForSelector('form.signin, header button:text("Sign out")');
    if (await page.$('header button:text("Sign out")')) {
      await page.click('header button:text("Sign out")');
      await page.waitForSelector('form.signin');
    }
    await page.fill('form.signin input', tokens[role]);
    await page.click('form.signin button[type=submit]');
    await page.waitForSelector('header nav');
  };

  beforeAll(async () => {
    if (!CHROMIUM) {
      return;
    }
    t = await createTestApp({
      BERTH_AUTH: 'on',
      BERTH_SCHEDULER_PROFILES: JSON.stringify({
        pack: { plugins: { RAMWeigher: { multiplier: -1 } } },
      }),
    });
    for (const role of ['admin', 'reader'] as const) {
      tokens[role] = (await t.app.tokens.create({ role, name: `planning-${role}` })).token;
    }
    for (const [r, agg] of racks.entries()) {
      await nameAggregate(t.app.services, agg, `rack-${r + 1}`, {
        availability_zone: `az-${r + 1}`,
      });
      for (let h = 0; h < PER_RACK; h++) {
        const rp = await buildResourceProvider(t.app.services, {
          name: `host-${r + 1}-${String(h).padStart(2, '0')}`,
          aggregates: [agg],
          inventories: [
            { resourceClass: 'VCPU', total: 16, allocationRatio: 4 },
            {
              resourceClass: 'MEMORY_MB',
              total: r === 0 && h === 0 ? BIG_MEMORY : 32_768,
              reserved: 512,
              allocationRatio: 1.5,
            },
            { resourceClass: 'DISK_GB', total: 500 },
          ],
        });
        hosts.push(rp.uuid);
      }
    }
    // Uneven fill: RAM spread and RAM packed choose differently.
    for (const [i, host] of hosts.entries()) {
      if (i > 0) {
        await claim(host, { VCPU: 2 * i, MEMORY_MB: 2048 * i, DISK_GB: 10 * i });
      }
    }
    for (let c = 0; c < 3; c++) {
      drained.push(await claim(hosts[0]!, { VCPU: 4, MEMORY_MB: 4096, DISK_GB: 40 }));
    }
    drained.push(await claim(hosts[0]!, { VCPU: 8, MEMORY_MB: BIG_CONSUMER_MEMORY }));
    harness = await openConsole(t.app);
    ({ base, page } = harness);
    // A wait that cannot end fails on its own selector, before the test's timeout.
    page.setDefaultTimeout(10_000);
  }, 120_000);

  afterAll(async () => {
    await harness?.close();
    await t?.close();
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
      requests: [
        {
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
        },
      ],
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
          {
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
          },
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
