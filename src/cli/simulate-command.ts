// `berth simulate --trace requests.jsonl | --from-audit N [--profile X] [--compare Y] [--seed N]
// [--plugin-dir D]... [--filters a,b] [--weighers a,b] [--json]`: a what-if simulation run in this
// process on the database berth uses (src/planning/simulation.ts): the app is built without
// listening, the trace placed on a private view of the cloud under the profile (or under the
// profile with the given filters, weighers and plugin directories), and again under --compare,
// then printed as a table per run, the end state and the diff. Nothing is written.
import { readFileSync } from 'node:fs';
import { type Command, InvalidArgumentError } from 'commander';
import type { App } from '../app/app';
import { alignedRows, jsonForTerminal } from '../lib/text-table';
import type { CapacityIndex } from '../placement/allocation-candidates/capacity-index';
import { type SimulationConfiguration, simulationPipeline } from '../planning/pipeline-config';
import { PlanningView } from '../planning/planning-view';
import { type SimulationResult, type SimulationRun, simulate } from '../planning/simulation';
import type { SimulatedClassFill } from '../planning/simulation-end-state';
import { parseTrace } from '../planning/trace';
import { traceFromAudit } from '../planning/trace-audit';
import { nonNegativeInt, positiveInt } from './int-options';
import { withPlanningApp } from './planning-app';

/** Options of `berth simulate`, as commander parses them. */
export interface SimulateOptions {
  readonly trace?: string;
  readonly fromAudit?: number;
  readonly profile: string;
  readonly compare?: string;
  readonly seed: number;
  readonly pluginDir: string[];
  readonly filters?: string[];
  readonly weighers?: string[];
  readonly json?: boolean;
}

/** Hosts of the end state printed per run (JSON carries all). */
const SHOWN_HOSTS = 10;

const list = (v: string) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');

function configurationOf(o: SimulateOptions): SimulationConfiguration {
  if (o.pluginDir.length === 0 && !o.filters && !o.weighers) {
    return { profile: o.profile };
  }
  return {
    pipeline: {
      profile: o.profile,
      ...(o.filters ? { filters: o.filters } : {}),
      ...(o.weighers ? { weighers: o.weighers } : {}),
      ...(o.pluginDir.length > 0 ? { pluginDirs: o.pluginDir } : {}),
    },
  };
}

/** The result with every lazy figure counted, as JSON text. */
async function asJson(result: SimulationResult): Promise<string> {
  const run = async (r: SimulationRun) => ({
    ...r,
    end: { ...r.end, largestFlavorFits: await r.end.largestFlavorFits() },
  });
  return jsonForTerminal({
    run: await run(result.run),
    compare: result.compare ? await run(result.compare) : null,
    diff: result.diff,
  });
}

const pct = (f: number) => `${(f * 100).toFixed(1)}%`;

function fillRows(classes: readonly SimulatedClassFill[]): string[] {
  return alignedRows(
    [
      ['CLASS', 'CAPACITY', 'USED', 'FREE', 'FILL'],
      ...classes.map((c) => [
        c.resourceClass,
        String(c.capacity),
        String(c.used),
        String(c.free),
        pct(c.fraction),
      ]),
    ],
    [1, 2, 3, 4],
  );
}

async function renderRun(
  run: SimulationRun,
  hostName: (uuid: string) => string,
): Promise<string[]> {
  const lines = [
    `run ${run.label}: ${run.requests} request(s), ${run.consumers} consumer(s), ${run.placed} placed, ${run.failed} failed (${run.durationMs.toFixed(0)} ms)`,
    ...alignedRows(
      [
        ['#', 'REQ', 'CONSUMER', 'HOST', 'WEIGHT', 'REASON'],
        ...run.placements.map((p) => [
          String(p.index),
          String(p.request),
          p.consumerUuid,
          p.host ? hostName(p.host) : '-',
          p.weight === null ? '-' : p.weight.toFixed(3),
          p.reason ?? '',
        ]),
      ],
      [0, 1, 4],
    ),
    '',
    'end state (cloud-wide):',
    ...fillRows(run.end.classes),
  ];
  const hosts = run.end.hosts.slice(0, SHOWN_HOSTS);
  if (hosts.length > 0) {
    lines.push(
      '',
      `hosts placed on (fullest first${run.end.hosts.length > SHOWN_HOSTS ? `, ${SHOWN_HOSTS} of ${run.end.hosts.length}` : ''}):`,
    );
    lines.push(
      ...alignedRows(
        [
          ['HOST', 'PLACED', 'FILL'],
          ...hosts.map((h) => [
            hostName(h.host),
            String(h.placed),
            h.classes.map((c) => `${c.resourceClass} ${pct(c.fraction)}`).join(', '),
          ]),
        ],
        [1],
      ),
    );
  }
  if (run.end.largestFlavor) {
    lines.push(
      '',
      `largest request ${run.end.largestFlavor}: ${await run.end.largestFlavorFits()} more fit`,
    );
  }
  const stranded = run.end.stranded.filter((c) => c.free > 0);
  lines.push(
    stranded.length > 0
      ? `stranded (free where not one more of the smallest request fits): ${stranded.map((c) => `${c.resourceClass} ${c.free}`).join(', ')}`
      : 'stranded: none',
  );
  return lines;
}

function renderDiff(result: SimulationResult, hostName: (uuid: string) => string): string[] {
  const d = result.diff;
  if (!d || !result.compare) {
    return [];
  }
  const name = (h: string | null) => (h ? hostName(h) : '-');
  return [
    `diff ${result.run.label} vs ${result.compare.label}: ${d.same} same, ${d.differentHost} on another host, ${d.onlyInRun} placed only by ${result.run.label}, ${d.onlyInCompare} placed only by ${result.compare.label}`,
    ...(d.entries.length === 0
      ? []
      : alignedRows(
          [
            ['#', 'CONSUMER', result.run.label.toUpperCase(), result.compare.label.toUpperCase()],
            ...d.entries.map((e) => [
              String(e.index),
              e.consumerUuid,
              name(e.runHost),
              name(e.compareHost),
            ]),
          ],
          [0],
        )),
  ];
}

/** Runs the simulation on `app` and writes it to `out` as tables (or JSON). */
export async function runSimulate(
  app: App,
  o: SimulateOptions,
  out: { write(chunk: string): unknown },
): Promise<void> {
  if ((o.trace === undefined) === (o.fromAudit === undefined)) {
    throw new InvalidArgumentError('give --trace FILE or --from-audit N (one of them)');
  }
  const trace =
    o.trace !== undefined
      ? parseTrace(readFileSync(o.trace, 'utf8'), o.seed)
      : (await traceFromAudit(app.dataSource, app.services.allocations, o.fromAudit!)).requests;
  const gen = app.scheduling.pipelines.current;
  const run = simulationPipeline(gen, configurationOf(o), o.seed);
  const compare = o.compare ? simulationPipeline(gen, { profile: o.compare }, o.seed) : undefined;
  try {
    const planning = app.scheduling.planning;
    const result = await simulate(
      () => PlanningView.open(planning),
      trace,
      run,
      compare,
      () => planning.candidates.revision,
    );
    if (o.json) {
      out.write(`${await asJson(result)}\n`);
      return;
    }
    const index: CapacityIndex = await app.services.candidates.current();
    const hostName = (uuid: string) => {
      const slot = index.slotOfUuid(uuid);
      return slot >= 0 ? index.name[slot]! : uuid;
    };
    const lines = await renderRun(result.run, hostName);
    if (result.compare) {
      lines.push(
        '',
        ...(await renderRun(result.compare, hostName)),
        '',
        ...renderDiff(result, hostName),
      );
    }
    out.write(`${lines.join('\n')}\n`);
  } finally {
    run.dispose();
    compare?.dispose();
  }
}

/** Registers `berth simulate`. */
export function registerSimulateCommand(program: Command): void {
  program
    .command('simulate')
    .description('what-if: place a trace of scheduling requests under a profile, without writing')
    .option('--trace <file>', 'JSONL trace: one ScheduleInput JSON per line (docs/planning.md)')
    .option('--from-audit <n>', 'or: the last N schedule calls of the audit trail', positiveInt)
    .option('--profile <name>', 'the profile that places the trace', 'default')
    .option('--compare <name>', 'place the trace again under this profile and diff')
    .option(
      '--seed <n>',
      'tie-breaks and host-subset picks: same seed, same answer',
      nonNegativeInt,
      1,
    )
    .option(
      '--plugin-dir <dir>',
      'plugins not yet deployed (repeatable; enable them with --filters / --weighers)',
      (v: string, prev: string[]) => [...prev, v],
      [] as string[],
    )
    .option('--filters <names>', "filters in run order, instead of the profile's", list)
    .option('--weighers <names>', "weighers, instead of the profile's", list)
    .option('--json', 'print JSON instead of tables')
    .action(async (opts: SimulateOptions) => {
      await withPlanningApp(
        (app) => runSimulate(app, opts, process.stdout),
        (err) => err instanceof InvalidArgumentError || isFileError(err),
      );
    });
}

function isFileError(err: unknown): boolean {
  return (
    err instanceof Error && typeof (err as { code?: unknown }).code === 'string' && 'path' in err
  );
}
