// The console over 10,000 hosts, in chromium: how long the overview takes to render and a page
// of the providers list (sorted by a usage column, sorted and paged by the server) to turn.
// Printed, never asserted (speed is measured, not gated, in tests).

import type { Page } from 'playwright-core';
import { seedDataset } from '../../bench/seed';
import { createTestApp, type TestApp } from '../support/app';
import { browserIt, browserTitle, shotPath } from '../support/browser';
import { CHROMIUM, type ConsoleHarness, openConsole } from '../support/console-build';
import { gql } from '../support/graphql';

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

  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

  browserIt(
    'renders the overview and pages the provider list (timings printed)',
    async () => {
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

      // The server's part of the overview, query by query (median of 3, ms).
      const timed = async (query: string) => {
        const ms: number[] = [];
        for (let i = 0; i < 3; i++) {
          const started = performance.now();
          const r = await gql(t.app, query);
          ms.push(Math.round(performance.now() - started));
          expect(r.errors).toBeUndefined();
        }
        return median(ms);
      };
      const parts = {
        capacity: await timed(
          '{ capacity { providerCount lines { resourceClass used } } byAggregate: capacity(groupBy: AGGREGATE) { aggregateUuid lines { resourceClass utilisation } } aggregates { uuid name } }',
        ),
        fullHosts: await timed(
          '{ hostList(filter: { state: FULL }, orderBy: { field: MAX_UTILISATION, direction: DESC }, first: 8) { totalCount hosts { uuid name usage { resourceClass used capacity } } } }',
        ),
        ranking: await timed(
          '{ hostList(orderBy: { field: UTILISATION, resourceClass: "MEMORY_MB", direction: DESC }, first: 20) { totalCount hosts { uuid name usage { resourceClass used capacity } } } }',
        ),
        projects: await timed(
          '{ projects(first: 8) { totalCount edges { node { projectId consumerCount usages { resourceClass used } } } } }',
        ),
      };

      // The server's part of a page turn: hostList sorted by a class's utilisation, 50 hosts.
      const server: number[] = [];
      for (let i = 0; i < 5; i++) {
        const started = performance.now();
        const r = await gql(
          t.app,
          'query { hostList(orderBy: { field: UTILISATION, resourceClass: "MEMORY_MB", direction: DESC }, first: 50, offset: 500) { totalCount hosts { uuid name usage { resourceClass used capacity } } } }',
        );
        server.push(Math.round(performance.now() - started));
        expect(r.data.hostList.totalCount).toBe(HOSTS);
      }

      await page.goto(`${base}/ui/#/providers?sort=MEMORY_MB&dir=desc`);
      await page.waitForFunction(
        () =>
          document.querySelector('[data-testid=provider-count]')?.textContent === '1–50 of 10,000',
      );
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
      expect(await page.getAttribute('th[data-column=MEMORY_MB]', 'aria-sort')).toBe('descending');
      // The same request from the page with fetch(): HTTP and the server, without React.
      const fetched = await page.evaluate(async () => {
        const ms: number[] = [];
        for (let i = 0; i < 5; i++) {
          const started = performance.now();
          const res = await fetch('/graphql', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({
              query:
                'query { hostList(orderBy: { field: UTILISATION, resourceClass: "MEMORY_MB", direction: DESC }, first: 50, offset: 600) { totalCount hosts { uuid name disabled availabilityZone instances maxUtilisation children aggregates { uuid name } usage { resourceClass capacity used } } } }',
            }),
          });
          await res.json();
          ms.push(Math.round(performance.now() - started));
        }
        return ms;
      });
      await page.screenshot({ path: shotPath('providers-10000.png') });
      console.log(
        `[console @ ${HOSTS} hosts] overview rendered in ${overview.join(' / ')} ms (median ${median(overview)} ms); providers page turn sorted by MEMORY_MB utilisation: median ${median(turns)} ms, max ${Math.max(...turns)} ms (hostList alone: median ${median(server)} ms, fetched by the page: median ${median(fetched)} ms); the overview's queries on the server: ${JSON.stringify(parts)} ms`,
      );
    },
    120_000,
  );
});
