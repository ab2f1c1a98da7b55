// GraphiQL in a real browser with no internet: berth's /graphql page loads every script, style
// and editor worker from berth itself, draws the editor, and runs a query typed into it, all
// under its Content-Security-Policy with not one violation; another page cannot frame it.
import { BERTH_VERSION, MAX_MICROVERSION } from '../../src/lib/version';
import { createTestApp, type TestApp } from '../support/app';
import { browserIt, browserTitle, shotPath } from '../support/browser';
import { CHROMIUM, type ConsoleHarness, openConsole } from '../support/console-build';

describe(browserTitle('GraphiQL offline in chromium'), () => {
  let t: TestApp;
  let harness: ConsoleHarness | undefined;

  beforeAll(async () => {
    if (!CHROMIUM) {
      return;
    }
    t = await createTestApp();
    harness = await openConsole(t.app);
  }, 120_000);
  afterAll(async () => {
    await harness?.close();
    await t?.close();
  });

  browserIt(
    'draws the editor from berth’s own assets and runs a query',
    async () => {
      const { base, page } = harness!;
      // Injected through the DevTools protocol, which the page's policy does not govern.
      await page.addInitScript(() => {
        const seen: string[] = [];
        (window as unknown as { cspViolations: string[] }).cspViolations = seen;
        document.addEventListener('securitypolicyviolation', (e) =>
          seen.push(`${e.violatedDirective} ${e.blockedURI}`),
        );
      });
      const consoleErrors: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error' || /Content Security Policy/i.test(m.text())) {
          consoleErrors.push(m.text());
        }
      });
      page.on('pageerror', (e) => consoleErrors.push(e.message));
      const elsewhere: string[] = [];
      page.on('request', (r) => {
        if (
          !r.url().startsWith(base) &&
          !r.url().startsWith('data:') &&
          !r.url().startsWith('blob:')
        ) {
          elsewhere.push(r.url());
        }
      });
      // GraphiQL takes the query only once it has the schema: wait for its introspection answer.
      const introspected = page.waitForResponse(
        (r) =>
          r.url().startsWith(`${base}/graphql`) &&
          (r.request().postData() ?? '').includes('__schema'),
        { timeout: 15_000 },
      );
      await page.goto(`${base}/graphql`);
      await page.waitForSelector('.graphiql-container', { timeout: 15_000 });
      await introspected;
      await page.click('[aria-label="Operation Editor"]');
      await page.keyboard.press('Control+A');
      await page.keyboard.insertText('query { version { berth placementMicroversion } }');
      // GraphiQL learns the operation name of the edited text a moment later (debounced): a
      // click before that answers "Cannot infer operation Providers" (its example's name), so
      // run again until the answer is this query's (15 s at most).
      const deadline = Date.now() + 15_000;
      let answered = false;
      while (!answered && Date.now() < deadline) {
        await page.click('.graphiql-execute-button');
        answered = await page
          .waitForFunction(
            () =>
              document
                .querySelector('.graphiql-response')
                ?.textContent?.includes('placementMicroversion'),
            undefined,
            { timeout: 2_000 },
          )
          .then(
            () => true,
            () => false,
          );
      }
      expect(answered).toBe(true);
      const answer = await page.$eval('.graphiql-response', (el) => el.textContent ?? '');
      await page.screenshot({ path: shotPath('graphiql.png') });
      // The result pane draws spaces as no-break spaces.
      expect(JSON.parse(answer.replace(/\u00a0/g, ' '))).toEqual({
        data: { version: { berth: BERTH_VERSION, placementMicroversion: MAX_MICROVERSION } },
      });
      expect(elsewhere).toEqual([]);
      expect(
        await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations),
      ).toEqual([]);
      expect(consoleErrors).toEqual([]);
    },
    60_000,
  );

  browserIt(
    'cannot be framed, not even by a page of its own origin',
    async () => {
      const { base, page } = harness!;
      // A page framing GraphiQL: at berth's own origin, so only the policy can refuse it
      // ('none' refuses every ancestor; another local origin would also meet Chromium's
      // private-network rules, which would hide what is tested here).
      await page.goto(`${base}/healthz`);
      await page.setContent(`<iframe src="${base}/graphql"></iframe>`);
      const frame = page.frames().find((f) => f !== page.mainFrame())!;
      await frame.waitForLoadState();
      // Chromium replaces a frame refused by frame-ancestors / X-Frame-Options with its error page.
      expect(frame.url()).toMatch(/^chrome-error:/);
      expect(await frame.evaluate(() => document.querySelector('#root'))).toBeNull();
    },
    60_000,
  );
});
