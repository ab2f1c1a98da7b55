// A simulation trace recorded from the audit trail: the last N `schedule` calls. The audit trail
// keeps, per committed claim, the caller, the request id, the consumer, its project, the
// providers and — for GraphQL `schedule` — the call's input (schema/audit-plugin.ts), which is
// replayed as it was made (groups, traits, aggregates, extra specs, hints, zone). A call recorded
// without its input (a REST claim, or an event older than that) is rebuilt from what its
// consumers hold now: their allocations summed per class make the request's unsuffixed group;
// calls whose consumers hold nothing any more are skipped and counted. A call that placed nobody
// wrote nothing, so it has no event to replay.
import type { DataSource } from 'typeorm';
import type { AllocationService } from '../placement/allocation';
import { emptyRequestGroup } from '../placement/allocation-candidates/request';
import { type AuditEventRecord, listAuditEvents } from '../placement/audit-log';
import { BadRequestError, ErrorCode } from '../placement/errors';
import type { ScheduleRequest } from '../scheduler/schedule-types';
import { MAX_SIMULATED_CONSUMERS } from './simulation';
import { traceRequestOf } from './trace';

/** The operation the audit trail records a GraphQL `schedule` under. */
const SCHEDULE_OPERATION = 'mutation schedule';
/** Events read per page, and most pages read looking for schedule calls. */
const PAGE = 1000;
const MAX_PAGES = 100;

/** A trace from the audit trail, and how many recorded calls could not be rebuilt. */
export interface AuditTrace {
  readonly requests: ScheduleRequest[];
  readonly skipped: number;
}

/** The last `n` schedule calls' events, grouped per call, oldest call first. */
async function scheduleCalls(ds: DataSource, n: number): Promise<AuditEventRecord[][]> {
  const calls = new Map<string, AuditEventRecord[]>();
  let beforeId: number | null = null;
  for (let page = 0; page < MAX_PAGES && calls.size < n; page++) {
    const events = await listAuditEvents(ds, { limit: PAGE, beforeId });
    for (const e of events.slice(0, PAGE)) {
      if (e.operation !== SCHEDULE_OPERATION) {
        continue;
      }
      const key = e.requestId ?? `event-${e.id}`;
      const call = calls.get(key);
      if (call) {
        call.push(e);
      } else if (calls.size < n) {
        calls.set(key, [e]);
      }
    }
    if (events.length <= PAGE) {
      break;
    }
    beforeId = events[PAGE - 1]!.id;
  }
  return [...calls.values()].map((c) => c.reverse()).reverse();
}

/** A call as its recorded input says (its consumers' uuids as the call named them). */
function recorded(line: number, input: unknown): ScheduleRequest {
  const noUuid = () => {
    throw new BadRequestError(
      `Audit trace call ${line}: the recorded input names no consumer.`,
      ErrorCode.SIMULATION_INVALID_TRACE,
    );
  };
  return traceRequestOf(line, input, noUuid);
}

/**
 * The last `n` schedule calls of the audit trail as a trace (see above for what is rebuilt).
 * @throws BadRequestError SIMULATION_TOO_LARGE / SIMULATION_INVALID_TRACE for `n` out of range.
 */
export async function traceFromAudit(
  ds: DataSource,
  allocations: Pick<AllocationService, 'forConsumer'>,
  n: number,
): Promise<AuditTrace> {
  if (!Number.isInteger(n) || n < 1) {
    throw new BadRequestError(
      `fromAudit must be a positive whole number (got ${n}).`,
      ErrorCode.SIMULATION_INVALID_TRACE,
    );
  }
  if (n > MAX_SIMULATED_CONSUMERS) {
    throw new BadRequestError(
      `fromAudit reads at most ${MAX_SIMULATED_CONSUMERS} schedule calls (got ${n}).`,
      ErrorCode.SIMULATION_TOO_LARGE,
    );
  }
  const requests: ScheduleRequest[] = [];
  let skipped = 0;
  let line = 0;
  for (const call of await scheduleCalls(ds, n)) {
    line++;
    const input = call.find((e) => e.details?.input !== undefined)?.details?.input;
    if (input !== undefined) {
      requests.push(recorded(line, input));
      continue;
    }
    const consumers = [...new Set(call.flatMap((e) => e.consumers))];
    const held = await Promise.all(consumers.map((c) => allocations.forConsumer(c)));
    const found = held.filter((h) => h.consumer && h.allocations.length > 0);
    if (found.length === 0) {
      skipped++;
      continue;
    }
    const first = found[0]!;
    const resources: Record<string, number> = {};
    for (const a of first.allocations) {
      resources[a.resourceClass] = (resources[a.resourceClass] ?? 0) + a.used;
    }
    requests.push({
      consumerUuids: found.map((h) => h.consumer!.uuid),
      projectId: first.consumer!.projectId,
      userId: first.consumer!.userId,
      request: {
        groups: [{ ...emptyRequestGroup(''), resources }],
      },
      extraSpecs: {},
    });
  }
  return { requests, skipped };
}
