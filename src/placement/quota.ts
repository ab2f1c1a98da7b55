// Quota: per-project (and per-user) limits on resource classes and instance count, counted from
// allocations and enforced inside every allocation write (seed 004 "count quota usage from
// placement", without its "recheck": the check runs in the claim's own transaction, under a
// per-project lock, so concurrent claims cannot overshoot). Limits mirror Nova's hard_limit rows.
import type { DataSource, EntityManager } from 'typeorm';
import type { AllocationGuard } from './allocation';
import type { ConsumerAllocationsInput } from './allocation-write';
import { noteAudit, noteAuditDetails } from './audit';
import { type ChangeBus, writeTransaction } from './change-bus';
import { INCOMPLETE_CONSUMER_ID } from './consumer';
import { assertExternalIdOrThrow } from './consumer-rules';
import { BadRequestError, ConcurrentUpdateError, ErrorCode, QuotaExceededError } from './errors';
import { MAX_INT } from './inventory-rules';
import {
  INSTANCES,
  type LimitRow,
  limitsOf,
  lockProjects,
  usageOf,
  usedBy,
  userKey,
} from './quota-usage';

/** A limit of -1 removes the limit (unlimited, as in Nova). */
export const UNLIMITED = -1;
/**
 * Advisory-lock class ids ('bqta', 'blim'), so they never collide with other users' keys. Two
 * locks per project: the limits lock (claims share it; setLimits takes it exclusively, so limits
 * never change under a claim that read them) and the quota lock (taken exclusively only by claims
 * of a project that has limits, serialising exactly the claims that must see each other's usage;
 * claims of unlimited projects run in parallel).
 */
const QUOTA_LOCK_CLASS = 0x62717461;
const LIMITS_LOCK_CLASS = 0x626c696d;

/** One limit to set: `resource` is a resource class name or INSTANCES. */
export interface QuotaLimitInput {
  readonly resource: string;
  /** Units of the class (or instances), >= 0; {@link UNLIMITED} removes the limit. */
  readonly limit: number;
}

/** Input of {@link QuotaService.setLimits}. */
export interface SetQuotaLimitsInput {
  readonly projectId: string;
  /** When given, the limits apply to this user within the project. */
  readonly userId?: string | null;
  readonly limits: readonly QuotaLimitInput[];
}

/** One resource of a quota report. */
export interface QuotaLine {
  readonly resource: string;
  /** The scope's own limit (the user's when a user is asked for); null when unlimited. */
  readonly limit: number | null;
  readonly used: number;
  /** What can still be claimed, never negative (for a user, also bounded by the project limit). */
  readonly remaining: number | null;
}

/** Limits and usage of a project, or of one user in it. */
export interface QuotaReport {
  readonly projectId: string;
  readonly userId: string | null;
  /** INSTANCES first, then resource classes by name. */
  readonly lines: QuotaLine[];
}

function violationOf(l: LimitRow, before: number, after: number): string {
  const scope =
    l.user_id === null
      ? `project '${l.project_id}'`
      : `user '${l.user_id}' in project '${l.project_id}'`;
  return `${l.resource} of ${scope}: limit ${l.hard_limit}, used ${before}, requested ${after - before}`;
}

/** Checks a limit line of input. @throws BadRequestError. */
function checkLimitInput(l: QuotaLimitInput): void {
  if (!Number.isInteger(l.limit) || l.limit < UNLIMITED || l.limit > MAX_INT) {
    throw new BadRequestError(
      `Invalid quota limit ${l.limit} for ${l.resource}: it must be an integer from 0 to ${MAX_INT}, or -1 for unlimited.`,
      ErrorCode.QUOTA_INVALID_LIMIT,
    );
  }
}

/** Audit details of a limits write: resource -> { from, to } (null = no limit), under the lock. */
async function limitChanges(
  em: EntityManager,
  projectId: string,
  userId: string | null,
  limits: SetQuotaLimitsInput['limits'],
): Promise<Record<string, unknown>> {
  const before: { resource: string; hard_limit: number }[] = await em.query(
    `SELECT resource, hard_limit FROM quota_limits WHERE project_external_id = $1
       AND user_external_id IS NOT DISTINCT FROM $2 AND resource = ANY($3::text[])`,
    [projectId, userId, limits.map((l) => l.resource)],
  );
  const old = new Map(before.map((r) => [r.resource, r.hard_limit]));
  const to = (limit: number) => (limit === UNLIMITED ? null : limit);
  return {
    project: projectId,
    ...(userId === null ? {} : { user: userId }),
    limits: Object.fromEntries(
      limits.map((l) => [l.resource, { from: old.get(l.resource) ?? null, to: to(l.limit) }]),
    ),
  };
}

/** Quota limits, usage reports and the claim-time guard. */
export class QuotaService {
  constructor(
    private readonly ds: DataSource,
    private readonly bus: ChangeBus,
  ) {}

  /**
   * Sets (or, with limit -1, removes) limits of a project or of one user in it; other resources
   * keep their limits. Serialised with claims of the project. Limits below current usage are
   * allowed: they refuse further growth, not what is already held.
   * @throws BadRequestError (ids, unknown resource class, bad limit, duplicate resource).
   */
  async setLimits(input: SetQuotaLimitsInput): Promise<QuotaReport> {
    assertExternalIdOrThrow('projectId', input.projectId);
    const userId = input.userId ?? null;
    if (userId !== null) {
      assertExternalIdOrThrow('userId', userId);
    }
    const seen = new Set<string>();
    for (const l of input.limits) {
      checkLimitInput(l);
      if (seen.has(l.resource)) {
        throw new BadRequestError(
          `Quota resource ${l.resource} appears more than once.`,
          ErrorCode.INVALID_INPUT,
        );
      }
      seen.add(l.resource);
    }
    await writeTransaction(this.ds, this.bus, async (em) => {
      const classes = [...seen].filter((r) => r !== INSTANCES);
      const known: { name: string }[] = await em.query(
        'SELECT name FROM resource_classes WHERE name = ANY($1::text[])',
        [classes],
      );
      const unknown = classes.filter((c) => !known.some((k) => k.name === c));
      if (unknown.length > 0) {
        throw new BadRequestError(
          `Unknown quota resource: ${unknown.sort().join(', ')} (use a resource class or ${INSTANCES}).`,
          ErrorCode.QUOTA_UNKNOWN_RESOURCE,
        );
      }
      await lockProjects(em, [input.projectId], LIMITS_LOCK_CLASS, 'exclusive');
      noteAudit({ projects: [input.projectId] });
      noteAuditDetails({ quota: await limitChanges(em, input.projectId, userId, input.limits) });
      const set = input.limits.filter((l) => l.limit !== UNLIMITED);
      const removed = input.limits.filter((l) => l.limit === UNLIMITED).map((l) => l.resource);
      if (removed.length > 0) {
        await em.query(
          `DELETE FROM quota_limits WHERE project_external_id = $1
             AND user_external_id IS NOT DISTINCT FROM $2 AND resource = ANY($3::text[])`,
          [input.projectId, userId, removed],
        );
      }
      if (set.length > 0) {
        await em.query(
          `INSERT INTO quota_limits (project_external_id, user_external_id, resource, hard_limit)
           SELECT $1, $2, s.resource, s.hard_limit
           FROM unnest($3::text[], $4::int[]) AS s(resource, hard_limit)
           ON CONFLICT ON CONSTRAINT "UQ_quota_limits_scope"
           DO UPDATE SET hard_limit = EXCLUDED.hard_limit, updated_at = now()`,
          [input.projectId, userId, set.map((l) => l.resource), set.map((l) => l.limit)],
        );
      }
    });
    return this.get(input.projectId, userId);
  }

  /**
   * Limits and usage of a project, or of one user in it (the user's own limits and usage, with
   * `remaining` also bounded by what the project has left). Lists INSTANCES and every resource
   * that is limited or in use.
   */
  async get(projectId: string, userId?: string | null): Promise<QuotaReport> {
    const em = this.ds.manager;
    const limits = await limitsOf(em, [projectId]);
    const usage = await usageOf(em, [projectId], null);
    const projectLimits = new Map(
      limits.filter((l) => l.user_id === null).map((l) => [l.resource, l.hard_limit]),
    );
    const projectUsed = usage.project.get(projectId) ?? new Map<string, number>();
    const user = userId ?? null;
    const ownLimits =
      user === null
        ? projectLimits
        : new Map(limits.filter((l) => l.user_id === user).map((l) => [l.resource, l.hard_limit]));
    const ownUsed =
      user === null ? projectUsed : (usage.user.get(userKey(projectId, user)) ?? new Map());
    const resources = new Set([...ownLimits.keys(), ...ownUsed.keys(), ...projectLimits.keys()]);
    resources.delete(INSTANCES);
    const lines = [INSTANCES, ...[...resources].sort()].map((resource): QuotaLine => {
      const used = ownUsed.get(resource) ?? 0;
      const limit = ownLimits.get(resource) ?? null;
      const left: number[] = [];
      if (limit !== null) {
        left.push(limit - used);
      }
      const projectLimit = projectLimits.get(resource);
      if (user !== null && projectLimit !== undefined) {
        left.push(projectLimit - (projectUsed.get(resource) ?? 0));
      }
      return {
        resource,
        limit,
        used,
        remaining: left.length === 0 ? null : Math.max(0, Math.min(...left)),
      };
    });
    return { projectId, userId: user, lines };
  }

  /**
   * The claim-time check, registered with `allocations.addPreGuard`. Runs first in the write
   * transaction: takes the shared limits lock of every project the write can add usage to and
   * reads their limits; for the projects that have limits it then takes the exclusive quota lock
   * and (in a later statement, so its READ COMMITTED snapshot includes every writer that held the
   * lock before) reads the usage before the write. Claims of projects without limits therefore
   * never wait for each other here. The returned guard runs after the
   * allocations are written and refuses when any limited resource ends above its limit and
   * above where it was (shrinking or keeping usage in an over-limit project stays allowed).
   * @throws QuotaExceededError naming resource, scope, limit, usage and request;
   *   ConcurrentUpdateError when a consumer moved to an unlocked project meanwhile (retry).
   */
  readonly preGuard = async (
    em: EntityManager,
    inputs: readonly ConsumerAllocationsInput[],
  ): Promise<AllocationGuard | undefined> => {
    const implicit = inputs.filter((c) => !c.projectId).map((c) => c.consumerUuid);
    const projects = new Set(inputs.flatMap((c) => (c.projectId ? [c.projectId] : [])));
    if (implicit.length > 0) {
      // Before 1.8 the project may be omitted: an existing consumer keeps its own.
      projects.add(INCOMPLETE_CONSUMER_ID);
      for (const o of await ownersOf(em, implicit)) {
        projects.add(o.project_id);
      }
    }
    // Limits cannot change until commit once the shared limits lock is held; reading them in a
    // later statement sees every setLimits that held the exclusive one before.
    await lockProjects(em, projects, LIMITS_LOCK_CLASS, 'shared');
    const limits = await limitsOf(em, [...projects]);
    if (limits.length === 0 && implicit.length === 0) {
      return undefined;
    }
    const locked = [...new Set(limits.map((l) => l.project_id))];
    await lockProjects(em, locked, QUOTA_LOCK_CLASS, 'exclusive');
    const resources = [...new Set(limits.map((l) => l.resource))];
    const before = limits.length > 0 ? await usageOf(em, locked, resources) : null;
    return async (tx) => {
      if (implicit.length > 0) {
        const moved = (await ownersOf(tx, implicit)).filter((o) => !projects.has(o.project_id));
        if (moved.length > 0) {
          throw new ConcurrentUpdateError(
            `consumer ${moved[0]!.uuid} changed project concurrently; retry the allocation write.`,
          );
        }
      }
      if (before === null) {
        return;
      }
      const after = await usageOf(tx, locked, resources);
      const over = limits.flatMap((l) => {
        const was = usedBy(before, l);
        const now = usedBy(after, l);
        return now > l.hard_limit && now > was ? [violationOf(l, was, now)] : [];
      });
      if (over.length > 0) {
        throw new QuotaExceededError(`Quota exceeded for ${over.join('; ')}.`);
      }
    };
  };
}

async function ownersOf(
  em: EntityManager,
  consumerUuids: readonly string[],
): Promise<{ uuid: string; project_id: string }[]> {
  return em.query(
    `SELECT c.uuid, p.external_id AS project_id FROM consumers c
     JOIN projects p ON p.id = c.project_id WHERE c.uuid = ANY($1::uuid[])`,
    [consumerUuids],
  );
}
