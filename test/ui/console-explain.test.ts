// The explain page ("Why no valid host?") in a real browser against a real berth on its own
// cloud: 50 hosts in 3 racks (aggregates), every fifth host with CUSTOM_GOLD and 512,000 MiB of
// memory, the others 256,000 MiB. A request no host can take names its blocking constraint and
// the closest misses; a request the filters turn down shows the rejections grouped by reason
// code; the request round-trips through its GraphQL text and through the URL hash.
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { createTestApp, type TestApp } from '../support/app';
import { browserIt, browserTitle, shotPath } from '../support/browser';
import { CHROMIUM, type ConsoleHarness, openConsole } from '../support/console-build';
import { buildResourceProvider, nameAggregate } from '../support/factories';
import { gql } from '../support/graphql';

const HOSTS = 50;
const RACKS = 3;
const GOLD_MEMORY = 512_000;
const PLAIN_MEMORY = 256_000;

/** What the page is compared with: explainPlacement asked directly. */
const TRUTH = `query($i: ScheduleInput!) { explainPlacement(input: $i) {
  selections { host { uuid } reason }
  candidateStage {
    hostsTotal hostsWithCandidates
    constraints { code label hostsAlone hostsAfter }
    blocking { code label }
    closestMisses { host { uuid name } misses { code message } }
  }
  filterSteps { filter before after reasonGroups { code count message } }
} }`;

interface Truth {
  selections: { host: { uuid: string } | null; reason: string | null }[];
  candidateStage: {
    hostsTotal: number;
    hostsWithCandidates: number;
    constraints: { code: string; label: string; hostsAlone: number; hostsAfter: number }[];
    blocking: { code: string; label: string }[];
    closestMisses: { host: { uuid: string; name: string }; misses: { message: string }[] }[];
  };
  filterSteps: {
    filter: string;
    before: number;
    after: number;
    reasonGroups: { code: string; count: number; message: string }[];
  }[];
}

describe(browserTitle('the explain page in chromium'), () => {
  let t: TestApp;
  let harness: ConsoleHarness | undefined;
  let base: string;
  let page: Page;
  const racks = Array.from({ length: RACKS }, () => randomUUID());
  const gold = new Set<string>();

  /** explainPlacement's own answer for one request group and extra specs. */
  const truth = async (group: Record<string, unknown>, extraSpecs: unknown[] = []) => {
    const r = await gql<{ explainPlacement: Truth }>(t.app, TRUTH, {
      i: {
        consumerUuids: [randomUUID()],
        projectId: 'demo',
        userId: 'u',
        request: { groups: [{ suffix: '', ...group }] },
        extraSpecs,
      },
    });
    expect(r.errors).toBeUndefined();
    return r.data!.explainPlacement;
  };

  /** Fills the form's named field. */
  const fill = (name: string, value: string) => page.fill(`.explain-form [name=${name}]`, value);

  const explain = async () => {
    await page.click('.explain-form button[type=submit]');
    await page.waitForSelector('[data-testid=explanation]');
  };

  beforeAll(async () => {
    if (!CHROMIUM) {
      return;
    }
    t = await createTestApp();
    await t.app.services.traits.create('CUSTOM_GOLD');
    for (const [i, agg] of racks.entries()) {
      await nameAggregate(t.app.services, agg, `rack-${i + 1}`, { rack: String(i + 1) });
    }
    for (let h = 0; h < HOSTS; h++) {
      const isGold = h % 5 === 0;
      const rp = await buildResourceProvider(t.app.services, {
        name: `host-${String(h).padStart(2, '0')}`,
        aggregates: [racks[h % RACKS]!],
        traits: isGold ? ['CUSTOM_GOLD'] : [],
        inventories: [
          { resourceClass: 'VCPU', total: 32, allocationRatio: 4 },
          { resourceClass: 'MEMORY_MB', total: isGold ? GOLD_MEMORY : PLAIN_MEMORY },
          { resourceClass: 'DISK_GB', total: 2000 },
        ],
      });
      if (isGold) {
        gold.add(rp.uuid);
      }
    }
    harness = await openConsole(t.app);
    ({ base, page } = harness);
  }, 120_000);

  afterAll(async () => {
    await harness?.close();
    await t?.close();
  });

  browserIt(
    'names the blocking constraint and the closest misses when no host has candidates',
    async () => {
      const want = await truth({
        resources: [
          { resourceClass: 'VCPU', amount: 16 },
          { resourceClass: 'MEMORY_MB', amount: 600_000 },
        ],
        required: ['CUSTOM_GOLD'],
      });
      expect(want.candidateStage.hostsWithCandidates).toBe(0);
      expect(want.candidateStage.blocking.map((b) => b.label)).toEqual(['MEMORY_MB: 600000']);

      await page.goto(`${base}/ui/#/explain`);
      await fill('resources', 'VCPU:16, MEMORY_MB:600000');
      await fill('traits', 'CUSTOM_GOLD');
      await explain();

      // The verdict says "No valid host" once, as its heading.
      const verdict = await page.$eval(
        '[data-testid=verdict]',
        (e) => (e as HTMLElement).innerText,
      );
      expect(verdict.match(/no valid host/gi)).toHaveLength(1);
      expect(await page.$eval('[data-testid=verdict] h3', (e) => e.textContent)).toBe(
        'No valid host',
      );
      // berth's reason, its "No valid host: " prefix said by the heading instead.
      const reason = want.selections[0]!.reason!;
      expect(reason).toMatch(/^No valid host: /);
      const shownReason = await page.textContent('[data-testid=reason]');
      expect(shownReason!.replace(/\.$/, '').toLowerCase()).toBe(
        reason
          .replace(/^No valid host: /, '')
          .replace(/\.$/, '')
          .toLowerCase(),
      );

      // The funnel: every constraint with the counts berth computed, the blocking one marked.
      const rows = await page.$$eval(
        '[data-testid=candidate-funnel] > li[data-step=constraint]',
        (lis) =>
          lis.map((li) => ({
            code: li.getAttribute('data-code'),
            after: Number(li.querySelector('[data-field=after]')!.textContent!.replace(/,/g, '')),
            alone: Number(li.querySelector('[data-field=alone]')!.textContent!.replace(/,/g, '')),
            blocking: li.classList.contains('blocking'),
            text: (li as HTMLElement).innerText,
          })),
      );
      expect(
        rows.map(({ code, after, alone, blocking }) => ({ code, after, alone, blocking })),
      ).toEqual(
        want.candidateStage.constraints.map((c) => ({
          code: c.code,
          after: c.hostsAfter,
          alone: c.hostsAlone,
          blocking: c.label === 'MEMORY_MB: 600000',
        })),
      );
      expect(rows.find((r) => r.blocking)!.text).toContain('MEMORY_MB: 600000');
      expect(await page.textContent('[data-testid=candidate-funnel] > li[data-step=all] b')).toBe(
        String(HOSTS),
      );
      expect(await page.textContent('[data-testid=blocking]')).toContain('MEMORY_MB: 600000');

      // Closest misses: the gold hosts, each missing only memory, each a link to its page.
      const misses = await page.$$eval('[data-testid=closest-misses] tbody tr', (trs) =>
        trs.map((tr) => ({
          uuid: tr.getAttribute('data-host'),
          href: tr.querySelector('a')!.getAttribute('href'),
          text: (tr as HTMLElement).innerText,
        })),
      );
      expect(misses.map((m) => m.uuid)).toEqual(
        want.candidateStage.closestMisses.map((m) => m.host.uuid),
      );
      expect(new Set(misses.map((m) => m.uuid))).toEqual(gold);
      for (const m of misses) {
        expect(m.href).toBe(`#/providers/${m.uuid}`);
        expect(m.text).toContain(`MEMORY_MB 600000 requested, ${GOLD_MEMORY} free`);
      }
      await page.screenshot({ path: shotPath('explain.png'), fullPage: true });

      await page.click('[data-testid=closest-misses] tbody tr:first-child a');
      await page.waitForFunction(() => window.location.hash.startsWith('#/providers/'));
      expect(await page.evaluate(() => window.location.hash)).toBe(
        `#/providers/${misses[0]!.uuid}`,
      );
    },
  );

  browserIt('groups the filters’ rejections by reason code, with counts', async () => {
    // Hosts in rack 2 only carry rack=2: the extra-specs filter turns down racks 1 and 3.
    const spec = { key: 'aggregate_instance_extra_specs:rack', value: '2' };
    const want = await truth({ resources: [{ resourceClass: 'VCPU', amount: 1 }] }, [spec]);
    const rejecting = want.filterSteps.find((s) => s.after < s.before)!;
    expect(rejecting.before - rejecting.after).toBe(HOSTS - Math.ceil((HOSTS - 1) / RACKS));
    expect(rejecting.reasonGroups.length).toBeGreaterThan(0);

    await page.goto(`${base}/ui/#/explain`);
    await fill('resources', 'VCPU:1');
    await fill('traits', '');
    await fill('extraSpecs', `${spec.key}=${spec.value}`);
    await explain();
    expect(await page.$eval('[data-testid=verdict] h3', (e) => e.textContent)).toMatch(
      /^Would place on host-/,
    );
    const shown = await page.$$eval('[data-testid=funnel] > li', (lis) =>
      lis.map((li) => [li.getAttribute('data-step'), Number(li.querySelector('b')!.textContent)]),
    );
    expect(shown).toEqual([
      ['candidates', want.filterSteps[0]!.before],
      ...want.filterSteps.map((s) => [s.filter, s.after]),
    ]);
    const groups = await page.$$eval(
      `[data-testid=funnel] > li[data-step=${rejecting.filter}] .reason-groups > li`,
      (lis) =>
        lis.map((li) => ({
          code: li.getAttribute('data-code'),
          count: Number(li.textContent!.split(' × ')[0]!.replace(/,/g, '')),
          examples: li.querySelectorAll('.examples a').length,
        })),
    );
    expect(groups.map(({ code, count }) => ({ code, count }))).toEqual(
      rejecting.reasonGroups.map(({ code, count }) => ({ code, count })),
    );
    expect(groups.reduce((n, g) => n + g.count, 0)).toBe(rejecting.before - rejecting.after);
    for (const g of groups) {
      expect(g.examples).toBeGreaterThan(0);
    }
    await page.screenshot({ path: shotPath('explain-filters.png'), fullPage: true });
  });

  browserIt(
    'keeps the form and its GraphQL text in step, both ways, and runs the text',
    async () => {
      await page.goto(`${base}/ui/#/explain`);
      await fill('resources', 'VCPU:4, DISK_GB:10');
      await fill('availabilityZone', 'az-1');
      await page.click('.hints button:text("Add hint")');
      await page.fill('[aria-label="Hint 1 key"]', 'same_host');
      await page.fill('[aria-label="Hint 1 values"]', 'a, b');
      const sent = JSON.parse(await page.inputValue('.graphql-panel [name=variables]'));
      expect(sent.input.request.groups).toEqual([
        {
          suffix: '',
          resources: [
            { resourceClass: 'VCPU', amount: 4 },
            { resourceClass: 'DISK_GB', amount: 10 },
          ],
        },
      ]);
      expect(sent.input.availabilityZone).toBe('az-1');
      expect(sent.input.hints).toEqual([{ key: 'same_host', values: ['a', 'b'] }]);

      // Text -> form.
      sent.input.request.groups[0].resources = [{ resourceClass: 'MEMORY_MB', amount: 600000 }];
      sent.input.request.groups[0].required = ['CUSTOM_GOLD', '!CUSTOM_SLOW'];
      sent.input.hints = [];
      delete sent.input.availabilityZone;
      sent.input.extraSpecs = [{ key: 'hw:cpu_policy', value: 'dedicated' }];
      await page.fill('.graphql-panel [name=variables]', JSON.stringify(sent, null, 2));
      expect(await page.inputValue('.explain-form [name=resources]')).toBe('MEMORY_MB:600000');
      expect(await page.inputValue('.explain-form [name=traits]')).toBe(
        'CUSTOM_GOLD, !CUSTOM_SLOW',
      );
      expect(await page.inputValue('.explain-form [name=availabilityZone]')).toBe('');
      expect(await page.inputValue('.explain-form [name=extraSpecs]')).toBe(
        'hw:cpu_policy=dedicated',
      );
      expect(await page.$$('.hint-row')).toHaveLength(0);
      expect(await page.$('[data-testid=panel-note]')).toBeNull();

      // Text the form cannot show leaves the form alone and says why.
      await page.fill('.graphql-panel [name=variables]', '{"input": ');
      expect(await page.textContent('[data-testid=panel-note]')).toContain('does not parse');
      await page.fill(
        '.graphql-panel [name=variables]',
        JSON.stringify({ input: { ...sent.input, filters: ['RamFilter'] } }),
      );
      expect(await page.textContent('[data-testid=panel-note]')).toContain('no field for filters');
      expect(await page.inputValue('.explain-form [name=resources]')).toBe('MEMORY_MB:600000');
      // The form's Explain sends what the form shows, and the text follows it again.
      await page.click('.explain-form button[type=submit]');
      await page.waitForSelector('[data-testid=panel-note]', { state: 'detached' });
      const resent = JSON.parse(await page.inputValue('.graphql-panel [name=variables]'));
      expect(resent.input.filters).toBeUndefined();
      expect(resent.input.request.groups[0].required).toEqual(['CUSTOM_GOLD', '!CUSTOM_SLOW']);

      // Run sends the text as written: an edited query selecting less is still drawn when it can be.
      sent.input.request.groups[0].required = ['CUSTOM_GOLD'];
      sent.input.extraSpecs = [];
      await page.fill('.graphql-panel [name=variables]', JSON.stringify(sent));
      await page.click('.graphql-panel button:text("Run")');
      await page.waitForSelector('[data-testid=blocking]');
      expect(await page.textContent('[data-testid=blocking]')).toContain('MEMORY_MB: 600000');
      const query = await page.inputValue('.graphql-panel [name=query]');
      await page.fill(
        '.graphql-panel [name=query]',
        query.replace(/\n\s+ranking \{[^\n]*\n/, '\n'),
      );
      await page.click('.graphql-panel button:text("Run")');
      await page.waitForSelector('text=does not select what this page draws (ranking)');
      await page.click('.graphql-panel button:text("Reset query")');
      expect(await page.inputValue('.graphql-panel [name=query]')).toBe(query);
    },
  );

  browserIt('restores the form from the URL hash and explains on arrival', async () => {
    await page.goto(`${base}/ui/#/explain`);
    await fill('resources', 'VCPU:16, MEMORY_MB:600000');
    await fill('traits', 'CUSTOM_GOLD');
    await fill('projectId', 'proj-x');
    await page.click('.hints button:text("Add hint")');
    await page.fill('[aria-label="Hint 1 key"]', 'build_near_host_ip');
    await page.fill('[aria-label="Hint 1 values"]', '10.0.0.1');
    await explain();
    const link = await page.evaluate(() => window.location.href);
    expect(link).toContain('#/explain/?resources=');

    await page.goto('about:blank');
    await page.goto(link);
    await page.waitForSelector('[data-testid=blocking]');
    expect(await page.inputValue('.explain-form [name=resources]')).toBe(
      'VCPU:16, MEMORY_MB:600000',
    );
    expect(await page.inputValue('.explain-form [name=traits]')).toBe('CUSTOM_GOLD');
    expect(await page.inputValue('.explain-form [name=projectId]')).toBe('proj-x');
    expect(await page.inputValue('[aria-label="Hint 1 key"]')).toBe('build_near_host_ip');
    expect(await page.inputValue('[aria-label="Hint 1 values"]')).toBe('10.0.0.1');
    const sent = JSON.parse(await page.inputValue('.graphql-panel [name=variables]'));
    expect(sent.input.projectId).toBe('proj-x');
    expect(sent.input.hints).toEqual([{ key: 'build_near_host_ip', values: ['10.0.0.1'] }]);
  });
});
