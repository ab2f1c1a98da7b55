// The cloud and the signed-in console the planning browser tests share (test/ui/console-planning*.ts):
// two racks of six hosts (aggregates with zones), unevenly filled so that RAM spread and RAM packed
// choose differently, and four consumers on host-1-00 (one that no other host can take), with an
// admin and a reader token, a profile `pack` (RAM packed) and chromium on the built console.
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { createTestApp, type TestApp } from './app';
import { type ConsoleHarness, openConsole } from './console-build';
import { buildResourceProvider, nameAggregate } from './factories';
import { type GqlResponse, gql } from './graphql';

const RACKS = 2;
const PER_RACK = 6;
/** host-1-00's memory: room for the consumer no other host can take. */
const BIG_MEMORY = 131_072;
const BIG_CONSUMER_MEMORY = 100_000;

export const HEADROOM = `query($i: HeadroomInput!) { headroom(input: $i) {
  hosts flavors { name count independentCount hosts hostsWithRoom runsOutFirst
    groups { key count independentCount hosts hostsWithRoom runsOutFirst } }
} }`;

export const SIMULATE = `query($i: SimulateInput!) { simulate(input: $i) {
  run { label placed failed placements { index host { uuid } } }
  compare { label placed failed placements { index host { uuid } } }
  diff { same differentHost onlyInRun onlyInCompare entries { index runHost { uuid } compareHost { uuid } } }
} }`;

export const DRAIN = `query($i: DrainPlanInput!) { drainPlan(input: $i) {
  movable unmovable moves { consumerUuid from { uuid } to { uuid } reason }
} }`;

/** Headroom counts as GraphQL answers them. */
export interface Counts {
  count: number;
  independentCount: number;
  hosts: number;
  hostsWithRoom: number;
  runsOutFirst: string | null;
}

type Role = 'admin' | 'reader';

/** The running cloud and console, and how the tests talk to them. */
export interface PlanningConsole {
  readonly t: TestApp;
  readonly page: Page;
  readonly base: string;
  readonly racks: readonly string[];
  readonly hosts: readonly string[];
  /** The consumers on host-1-00. */
  readonly drained: readonly string[];
  /** Runs a GraphQL operation as `role` and returns its data (no errors expected). */
  ask<T>(query: string, i: unknown, role?: Role): Promise<T>;
  /** Signs in with `role`'s token (signing out first when signed in). */
  signIn(role: Role): Promise<void>;
  close(): Promise<void>;
}

/** Builds the cloud and opens the console (call from beforeAll when CHROMIUM is set). */
export async function openPlanningConsole(): Promise<PlanningConsole> {
  const t = await createTestApp({
    BERTH_AUTH: 'on',
    BERTH_SCHEDULER_PROFILES: JSON.stringify({
      pack: { plugins: { RAMWeigher: { multiplier: -1 } } },
    }),
  });
  const tokens: Record<Role, string> = { admin: '', reader: '' };
  for (const role of ['admin', 'reader'] as const) {
    tokens[role] = (await t.app.tokens.create({ role, name: `planning-${role}` })).token;
  }
  const ask = async <T>(query: string, i: unknown, role: Role = 'reader') => {
    const r: GqlResponse<T> = await gql<T>(
      t.app,
      query,
      { i },
      { authorization: `Bearer ${tokens[role]}` },
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
  const racks = Array.from({ length: RACKS }, () => randomUUID());
  const hosts: string[] = [];
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
  const drained: string[] = [];
  for (let c = 0; c < 3; c++) {
    drained.push(await claim(hosts[0]!, { VCPU: 4, MEMORY_MB: 4096, DISK_GB: 40 }));
  }
  drained.push(await claim(hosts[0]!, { VCPU: 8, MEMORY_MB: BIG_CONSUMER_MEMORY }));
  let harness: ConsoleHarness;
  try {
    harness = await openConsole(t.app);
  } catch (err) {
    await t.close();
    throw err;
  }
  const { base, page } = harness;
  // A wait that cannot end fails on its own selector, before the test's timeout.
  page.setDefaultTimeout(10_000);
  return {
    t,
    page,
    base,
    racks,
    hosts,
    drained,
    ask,
    async signIn(role) {
      await page.goto(`${base}/ui/#/overview`);
      await page.waitForSelector('form.signin, header button:text("Sign out")');
      if (await page.$('header button:text("Sign out")')) {
        await page.click('header button:text("Sign out")');
        await page.waitForSelector('form.signin');
      }
      await page.fill('form.signin input', tokens[role]);
      await page.click('form.signin button[type=submit]');
      await page.waitForSelector('header nav');
    },
    async close() {
      await harness.close();
      await t.close();
    },
  };
}
