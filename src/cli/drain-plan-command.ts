// `berth drain-plan <host name or uuid>... [--profile P] [--reserve] [--json]`: the drain plan of
// the given hosts (src/planning/drain.ts), computed in this process on the database berth uses
// (the app is built without listening), printed as one row per consumer — where it goes, or why
// it cannot move — or as JSON. With --reserve the destinations are claimed as moves (Nova
// migrates; confirmMove / revertMove end them). Exit 0 when every consumer can move, 2 when some
// cannot, 1 on bad input.
import type { Command } from 'commander';
import type { App } from '../app/app';
import { alignedRows, jsonForTerminal } from '../lib/text-table';
import { BadRequestError, ErrorCode } from '../placement/errors';
import { isUuid } from '../placement/uuid';
import { type DrainDeps, type DrainPlan, planDrain, reserveDrain } from '../planning/drain';
import { withPlanningApp } from './planning-app';

/** Options of `berth drain-plan`, as commander parses them. */
interface DrainPlanOptions {
  readonly profile: string;
  readonly reserve?: boolean;
  readonly json?: boolean;
}

/** Exit status when some consumer cannot move. */
const DRAIN_EXIT_UNMOVABLE = 2;

/** Root provider uuids of `hosts` (uuids as given, names looked up). @throws BadRequestError */
async function hostUuids(app: App, hosts: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const h of hosts) {
    if (isUuid(h)) {
      out.push(h);
      continue;
    }
    const [rp] = await app.services.providers.list({ name: h }, { limit: 1 });
    if (!rp) {
      throw new BadRequestError(`No host named '${h}'.`, ErrorCode.DRAIN_UNKNOWN_HOST);
    }
    out.push(rp.uuid);
  }
  return out;
}

/** The plan as a table: one row per consumer, then a summary line. No trailing newline. */
function renderDrainPlan(plan: DrainPlan, names: ReadonlyMap<string, string>): string {
  const name = (uuid: string) => names.get(uuid) ?? uuid;
  const rows = plan.moves.map((m) => [
    m.consumerUuid,
    m.projectId,
    name(m.from),
    m.to ? name(m.to) : '-',
    m.to
      ? m.allocations
          .flatMap((a) => Object.entries(a.resources).map(([rc, n]) => `${rc}:${n}`))
          .join(',')
      : (m.reason ?? ''),
  ]);
  const lines = alignedRows([['CONSUMER', 'PROJECT', 'FROM', 'TO', 'RESOURCES / REASON'], ...rows]);
  lines.push(
    `${plan.movable} movable, ${plan.unmovable} unmovable${plan.reserved ? ', destinations reserved as moves' : ''} (${plan.durationMs.toFixed(1)} ms)`,
  );
  return lines.join('\n');
}

/**
 * Plans (or with `reserve`, plans and reserves) the drain of `hosts` on `app` and writes it.
 * @returns the exit status: 0 every consumer can move, {@link DRAIN_EXIT_UNMOVABLE} otherwise.
 * @throws BadRequestError for unknown hosts or profile.
 */
async function runDrainPlan(
  app: App,
  hosts: readonly string[],
  opts: DrainPlanOptions,
  out: { write(chunk: string): unknown },
): Promise<number> {
  const deps: DrainDeps = {
    ds: app.services.dataSource,
    providers: app.services.providers,
    planning: app.scheduling.planning,
    pipelineFor: (profile) => app.scheduling.pipelines.pipelineFor(profile),
    claims: app.scheduling.moves,
  };
  const input = { hosts: await hostUuids(app, hosts), profile: opts.profile };
  const plan = await (opts.reserve ? reserveDrain(deps, input) : planDrain(deps, input));
  if (opts.json) {
    out.write(`${jsonForTerminal(plan)}\n`);
  } else {
    const uuids = [...new Set(plan.moves.flatMap((m) => (m.to ? [m.from, m.to] : [m.from])))];
    const records = await app.services.providers.byUuids(uuids);
    const rows = records.flatMap((r) => (r ? [r] : []));
    out.write(`${renderDrainPlan(plan, new Map(rows.map((r) => [r.uuid, r.name])))}\n`);
  }
  return plan.unmovable > 0 ? DRAIN_EXIT_UNMOVABLE : 0;
}

/** Registers `berth drain-plan`. */
export function registerDrainPlanCommand(program: Command): void {
  program
    .command('drain-plan')
    .description(
      'where every consumer of these hosts would go (or why it cannot move); --reserve claims the destinations as moves. Exit 0 all movable, 2 some not, 1 bad input',
    )
    .argument('<hosts...>', 'host names or root provider uuids')
    .option('--profile <name>', 'scheduler profile whose pipeline places the consumers', 'default')
    .option('--reserve', 'claim each destination as a move (confirmMove / revertMove end it)')
    .option('--json', 'print the plan as JSON')
    .action(async (hosts: string[], opts: DrainPlanOptions) => {
      await withPlanningApp((app) => runDrainPlan(app, hosts, opts, process.stdout));
    });
}
