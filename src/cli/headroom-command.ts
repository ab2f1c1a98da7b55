// `berth headroom [--flavor name=VCPU:2,MEMORY_MB:4096[,required=TRAIT]]... [--profile P]
// [--group-by aggregate|zone|root|none] [--json]`: how many more instances of each flavor fit
// (src/planning/headroom-run.ts), counted in this process on the database berth uses: the app is
// built without listening, the cloud read into its capacity index, and the count printed as a
// table per flavor (and per group). Without --flavor, the planning flavors
// (BERTH_PLANNING_FLAVORS, or Nova's m1.* set). Nothing is written.
import { type Command, InvalidArgumentError } from 'commander';
import type { App } from '../app/app';
import { alignedRows, jsonForTerminal } from '../lib/text-table';
import type { HeadroomCount, HeadroomGroupBy, PlanningFlavor } from '../planning/headroom';
import { type HeadroomAnswer, headroom } from '../planning/headroom-run';
import { withPlanningApp } from './planning-app';

/** Options of `berth headroom`, as commander parses them. */
interface HeadroomOptions {
  readonly flavor: PlanningFlavor[];
  readonly profile: string;
  readonly groupBy: HeadroomGroupBy;
  readonly json?: boolean;
}

const GROUPS: readonly HeadroomGroupBy[] = ['none', 'aggregate', 'zone', 'root'];

/**
 * Parses `name=CLASS:n,CLASS:n[,required=TRAIT]...` into a flavor (one unsuffixed group).
 * @throws InvalidArgumentError naming what is wrong.
 */
export function parseFlavorOption(v: string): PlanningFlavor {
  const at = v.indexOf('=');
  const name = at > 0 ? v.slice(0, at).trim() : '';
  if (name === '') {
    throw new InvalidArgumentError('expected name=CLASS:n,CLASS:n[,required=TRAIT]');
  }
  const resources: Record<string, number> = {};
  const required: string[][] = [];
  for (const part of v
    .slice(at + 1)
    .split(',')
    .map((s) => s.trim())) {
    const trait = /^required=(.+)$/.exec(part);
    if (trait) {
      required.push([trait[1]!]);
      continue;
    }
    const m = /^([A-Z0-9_]+):(\d+)$/.exec(part);
    if (!m || Object.hasOwn(resources, m[1]!) || Number(m[2]) < 1) {
      throw new InvalidArgumentError(
        `flavor ${name}: '${part}' is not CLASS:n (n at least 1, each class once) or required=TRAIT`,
      );
    }
    resources[m[1]!] = Number(m[2]);
  }
  if (Object.keys(resources).length === 0) {
    throw new InvalidArgumentError(`flavor ${name} asks for no resource`);
  }
  return {
    name,
    request: {
      groups: [
        {
          suffix: '',
          resources,
          requiredTraits: required,
          forbiddenTraits: [],
          memberOf: [],
          forbiddenAggregates: [],
        },
      ],
    },
    extraSpecs: {},
  };
}

function groupByOption(v: string): HeadroomGroupBy {
  const g = v.trim().toLowerCase() as HeadroomGroupBy;
  if (!GROUPS.includes(g)) {
    throw new InvalidArgumentError(`expected one of ${GROUPS.join(', ')}`);
  }
  return g;
}

/** The count columns of a flavor or group. */
const counts = (c: HeadroomCount) => [
  String(c.count),
  String(c.independentCount),
  String(c.hostsWithRoom),
  String(c.hosts),
  c.runsOutFirst ?? '',
];
const COUNT_HEAD = ['COUNT', 'INDEPENDENT', 'WITH ROOM', 'HOSTS', 'RUNS OUT FIRST'];

/** The answer as tables: one row per flavor, then one table per flavor's groups. */
function renderHeadroom(answer: HeadroomAnswer): string {
  const lines = [
    `profile ${answer.profile}, ${answer.hosts} hosts, ${answer.durationMs.toFixed(0)} ms`,
    `packing: ${answer.packing}`,
    '',
    ...alignedRows(
      [['FLAVOR', ...COUNT_HEAD], ...answer.flavors.map((f) => [f.name, ...counts(f)])],
      [1, 2, 3, 4],
    ),
  ];
  for (const f of answer.flavors) {
    if (f.groups.length > 0) {
      lines.push('', `${f.name} per group:`);
      lines.push(
        ...alignedRows(
          [
            ['GROUP', 'NAME', ...COUNT_HEAD],
            ...f.groups.map((g) => [g.key, g.name ?? '', ...counts(g)]),
          ],
          [2, 3, 4, 5],
        ),
      );
    }
  }
  return lines.join('\n');
}

/** Counts and writes the table (or JSON) to `out`. @throws PlacementError for bad input. */
async function runHeadroom(
  app: App,
  opts: HeadroomOptions,
  out: { write(chunk: string): unknown },
): Promise<void> {
  const answer = await headroom(
    { planning: app.scheduling.planning, pipelines: app.scheduling.pipelines },
    {
      ...(opts.flavor.length > 0 ? { flavors: opts.flavor } : {}),
      profile: opts.profile,
      groupBy: opts.groupBy,
    },
  );
  out.write(`${opts.json ? jsonForTerminal(answer) : renderHeadroom(answer)}\n`);
}

/** Registers `berth headroom`. */
export function registerHeadroomCommand(program: Command): void {
  program
    .command('headroom')
    .description('how many more instances of each flavor fit (nothing is written)')
    .option(
      '--flavor <spec>',
      'a flavor, name=VCPU:2,MEMORY_MB:4096[,required=TRAIT] (repeatable; default: the planning flavors)',
      (v: string, prev: PlanningFlavor[]) => [...prev, parseFlavorOption(v)],
      [] as PlanningFlavor[],
    )
    .option('--profile <name>', 'the scheduler profile whose filters decide', 'default')
    .option(
      '--group-by <g>',
      'also count per aggregate, zone or root (host)',
      groupByOption,
      'none',
    )
    .option('--json', 'print JSON instead of tables')
    .action(async (opts: HeadroomOptions) => {
      await withPlanningApp((app) => runHeadroom(app, opts, process.stdout));
    });
}
