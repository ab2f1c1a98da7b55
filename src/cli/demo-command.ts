// `berth demo [--url URL] [--token T] [--seed N]`: seeds a running berth with a small, realistic
// cloud (src/demo/) through its GraphQL API, so the console and GraphiQL have something to show.
// Refuses (one line, exit 1) when the server is unreachable, needs a token it was not given, or
// already holds a demo cloud (or other providers, unless --force).
import { type Command, InvalidArgumentError } from 'commander';
import { buildDemoCloud, DEFAULT_SEED, instanceCount } from '../demo/cloud';
import { ZONES } from '../demo/hosts';
import type { DemoCloud } from '../demo/types';
import { CONSOLE_PREFIX } from '../http/console-assets';
import { escapeForTerminal } from '../lib/text-table';
import { DemoApiError, DemoClient, DemoRefusal } from './demo-client';
import { createInfrastructure, type Placement, placeInstances, probe } from './demo-seed';

/** Options of `berth demo`. */
export interface DemoOptions {
  readonly url: string;
  readonly token?: string;
  readonly seed: number;
  readonly force?: boolean;
}

/** The server `npm start` runs: this machine, PORT (default 8080). */
export function defaultUrl(env: NodeJS.ProcessEnv = process.env): string {
  return env.BERTH_URL || `http://127.0.0.1:${env.PORT || '8080'}`;
}

function seedOption(v: string): number {
  if (!/^\d{1,9}$/.test(v)) {
    throw new InvalidArgumentError('must be a whole number (0 to 999999999)');
  }
  return Number(v);
}

interface CapacityLine {
  resourceClass: string;
  capacity: number;
  used: number;
  utilisation: number;
}

const SUMMARY = `query DemoSummary {
  capacity { lines { resourceClass capacity used utilisation } }
  consumers(first: 1) { totalCount }
  projects(first: 1) { totalCount }
}`;

function summary(
  opts: DemoOptions,
  cloud: DemoCloud,
  placement: Placement,
  lines: readonly CapacityLine[],
  consumers: number,
  seconds: number,
  requests: number,
): string[] {
  const children = cloud.providers.filter((p) => p.parentUuid).length;
  const pools = cloud.providers.length - cloud.hostCount - children;
  const refused = [...placement.refused.values()].reduce((a, b) => a + b, 0);
  const use = lines
    .filter(
      (l) =>
        ['VCPU', 'MEMORY_MB', 'DISK_GB', 'VGPU'].includes(l.resourceClass) ||
        l.resourceClass.startsWith('CUSTOM_'),
    )
    .map((l) => `${l.resourceClass} ${l.used}/${l.capacity} (${Math.round(l.utilisation * 100)}%)`);
  const out = [
    `demo cloud ready in ${seconds.toFixed(1)} s (seed ${cloud.seed}, ${requests} GraphQL requests):`,
    `  ${ZONES.length} availability zones (${ZONES.join(', ')}), ${cloud.aggregates.length} aggregates`,
    `  ${cloud.hostCount} compute hosts (${cloud.disabledHosts.length} disabled: ${cloud.disabledHosts.join(', ')}), ${children} NUMA cells and GPUs, ${pools} shared storage pool`,
    `  ${cloud.projects.length} projects with quota limits, ${cloud.serverGroups.length} server groups`,
    `  ${placement.placed} instances placed on ${placement.hosts.size} hosts${refused ? `, ${refused} not placed:` : ''}`,
    ...[...placement.refused].map(([why, n]) => `    ${n} × ${escapeForTerminal(why)}`),
    `  ${consumers} consumers hold allocations; usage: ${use.join(', ')}`,
    '',
    `console:  ${opts.url}${CONSOLE_PREFIX}/`,
    `GraphiQL: ${opts.url}/graphql`,
  ];
  return out;
}

/** Seeds the cloud for `opts.seed` into the server at `opts.url`. */
export async function runDemo(
  opts: DemoOptions,
  say: (line: string) => void,
): Promise<{ placed: number }> {
  const started = Date.now();
  const cloud = buildDemoCloud(opts.seed);
  const client = new DemoClient(opts.url, opts.token);
  const vacancy = await probe(client, cloud);
  if (vacancy.hasDemo) {
    throw new DemoRefusal(
      `${opts.url} already holds a demo cloud (provider ${cloud.marker} exists); open ${opts.url}${CONSOLE_PREFIX}/, or empty the database first (berth db reset --yes)`,
    );
  }
  if (vacancy.providers > 0 && !opts.force) {
    throw new DemoRefusal(
      `${opts.url} already holds resource providers; the demo is meant for an empty server (pass --force to add it anyway)`,
    );
  }
  say(
    `seeding a demo cloud into ${opts.url} (seed ${cloud.seed}): ${cloud.providers.length} resource providers, ${instanceCount(cloud)} instances`,
  );
  await createInfrastructure(client, cloud, say);
  const placement = await placeInstances(client, cloud, say);
  const d = await client.gql<{
    capacity: { lines: CapacityLine[] }[];
    consumers: { totalCount: number };
  }>(SUMMARY);
  const lines = d.capacity[0]?.lines ?? [];
  for (const line of summary(
    opts,
    cloud,
    placement,
    lines,
    d.consumers.totalCount,
    (Date.now() - started) / 1000,
    client.requests,
  )) {
    say(line);
  }
  return { placed: placement.placed };
}

/** Adds `demo` to `program`. */
export function registerDemoCommand(program: Command): void {
  program
    .command('demo')
    .description(
      'seed a running berth with a demo cloud (zones, hosts, projects, instances) through its API',
    )
    .option(
      '--url <url>',
      'the berth server (default: BERTH_URL, else http://127.0.0.1:$PORT, PORT 8080)',
    )
    .option(
      '--token <token>',
      'an admin API token when the server has auth on (default: BERTH_TOKEN)',
    )
    .option(
      '--seed <n>',
      `the demo cloud's seed: same seed, same cloud (default ${DEFAULT_SEED})`,
      seedOption,
    )
    .option('--force', 'seed even when the server already holds other resource providers')
    .addHelpText(
      'after',
      "\nAuth: the embedded default (no DATABASE_URL) runs with auth off. With auth on, create a token\nin the server's database first (same DATABASE_URL): `berth token create --role admin --name demo`,\nthen `BERTH_TOKEN=berth_… berth demo` (or --token).",
    )
    .action(async (o: { url?: string; token?: string; seed?: number; force?: boolean }) => {
      // The server's address; its GraphQL endpoint, as GraphiQL shows it, is accepted too.
      const url = (o.url ?? defaultUrl()).replace(/\/+$/, '').replace(/\/graphql$/, '');
      if (!/^https?:\/\/[^/\s]+(\/\S*)?$/.test(url)) {
        fail(`--url must be an http(s):// URL (got ${url})`);
      }
      try {
        await runDemo(
          {
            url,
            token: o.token ?? process.env.BERTH_TOKEN,
            seed: o.seed ?? DEFAULT_SEED,
            force: o.force,
          },
          (line) => process.stdout.write(`${line}\n`),
        );
      } catch (err) {
        if (err instanceof DemoRefusal) {
          fail(err.message);
        }
        if (err instanceof DemoApiError) {
          fail(`the demo stopped: ${err.code ?? 'error'}: ${err.message}`);
        }
        throw err;
      }
    });
}

function fail(message: string): never {
  process.stderr.write(`berth: ${escapeForTerminal(message)}\n`);
  process.exit(1);
}
