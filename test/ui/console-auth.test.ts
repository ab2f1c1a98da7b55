// The console with BERTH_AUTH=on, in chromium: it asks for a token (under the same header as
// every page, in a card), says plainly when none was entered or one is refused (401), keeps it
// for the tab only, and shows a 403 instead of another project's data.
import type { Page } from 'playwright-core';
import { allocationInput } from '../support/allocation-input';
import { createTestApp, type TestApp } from '../support/app';
import { browserIt, browserTitle, shotPath } from '../support/browser';
import { CHROMIUM, type ConsoleHarness, openConsole } from '../support/console-build';
import { buildResourceProvider } from '../support/factories';
import { gql } from '../support/graphql';

describe(browserTitle('the console with auth on'), () => {
  let t: TestApp;
  let harness: ConsoleHarness | undefined;
  let base: string;
  let page: Page;
  let readerA: string;
  let host: string;

  beforeAll(async () => {
    if (!CHROMIUM) {
      return;
    }
    t = await createTestApp({ BERTH_AUTH: 'on' });
    readerA = (await t.app.tokens.create({ role: 'reader', project: 'proj-a' })).token;
    const rp = await buildResourceProvider(t.app.services, {
      name: 'shared-host',
      inventories: [{ resourceClass: 'VCPU', total: 64 }],
    });
    host = rp.uuid;
    const admin = (await t.app.tokens.create({ role: 'admin' })).token;
    const res = await gql(
      t.app,
      'mutation($i: [ConsumerAllocationsInput!]!) { setAllocations(input: $i) { uuid } }',
      {
        i: [
          allocationInput(rp.uuid, { VCPU: 2 }, { projectId: 'proj-a' }),
          allocationInput(rp.uuid, { VCPU: 3 }, { projectId: 'proj-b' }),
        ],
      },
      { authorization: `Bearer ${admin}` },
    );
    expect(res.errors).toBeUndefined();
    harness = await openConsole(t.app, { width: 1280, height: 800 });
    ({ base, page } = harness);
  }, 120_000);

  afterAll(async () => {
    await harness?.close();
    await t?.close();
  });

  browserIt(
    'asks for a token, refuses a bad one, and shows a 403 for another project',
    async () => {
      await page.goto(`${base}/ui/#/overview`);
      await page.waitForSelector('form.signin');
      // The same header as every page, the form in a card, no navigation before signing in.
      expect(await page.textContent('header h1')).toBe('berth');
      expect(await page.$$('header nav a')).toHaveLength(0);
      expect(await page.$eval('form.signin', (f) => f.classList.contains('card'))).toBe(true);
      await page.click('form.signin button');
      await page.waitForSelector('form.signin [role=alert]');
      expect(await page.textContent('form.signin [role=alert]')).toBe('Enter a token first.');
      expect(await page.getAttribute('form.signin input', 'aria-invalid')).toBe('true');
      await page.fill('form.signin input', 'berth_not_a_token');
      await page.click('form.signin button');
      await page.waitForSelector('form.signin .signin-refused');
      expect(await page.textContent('form.signin [role=alert]')).toContain('refused (401)');
      await page.screenshot({ path: shotPath('sign-in.png') });

      await page.fill('form.signin input', readerA);
      await page.click('form.signin button');
      await page.waitForSelector('[data-testid=cloud-capacity]');
      expect(await page.$$eval('header nav a', (as) => as.map((a) => a.textContent))).toEqual([
        'Overview',
        'Providers',
        'Projects',
        'History',
        'Why no valid host?',
        'Simulate',
      ]);
      // Kept for this tab: a reload stays signed in.
      await page.reload();
      await page.waitForSelector('[data-testid=cloud-capacity]');

      await page.goto(`${base}/ui/#/projects/proj-a`);
      await page.waitForSelector('section[aria-label=Consumers] tbody tr');
      expect(await page.textContent('section[aria-label=Consumers] h3')).toBe('Consumers (1)');

      await page.goto(`${base}/ui/#/projects/proj-b`);
      await page.waitForSelector('[role=alert]');
      expect(await page.textContent('[role=alert]')).toContain('Not allowed (403)');
      expect(await page.content()).not.toContain('VCPU 3');
      await page.goto(`${base}/ui/#/projects`);
      await page.waitForSelector('[role=alert]');
      expect(await page.textContent('[role=alert]')).toContain('Not allowed (403)');

      // A shared host: the provider shows; its consumers (of every project) do not.
      await page.goto(`${base}/ui/#/providers/${host}`);
      await page.waitForSelector('h2');
      expect(await page.textContent('h2')).toBe('shared-host');
      await page.waitForSelector('[role=alert]');
      expect(await page.textContent('[role=alert]')).toContain('Not allowed (403)');
      expect(await page.$$('section[aria-label=Consumers] tbody tr')).toHaveLength(0);
    },
  );
});
