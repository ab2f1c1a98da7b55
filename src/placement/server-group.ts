// Server groups (Nova: objects/instance_group.py, api/openstack/compute/server_groups.py): a named
// set of consumers of one project with a placement policy. `affinity` puts every member on one
// host; `anti-affinity` puts at most `maxServerPerHost` (default 1) members on a host; the soft
// variants only weigh. `schedule` makes a consumer a member when it claims for it and enforces
// the hard policies inside the claim's transaction (src/placement/server-group-guard.ts); the
// scheduler's filters and weighers read the members' hosts (RequestSpec.serverGroup).
import type { DataSource, EntityManager } from 'typeorm';
import { rowsOf } from '../db/rows';
import { auditedTransaction, noteAudit } from './audit';
import { BadRequestError, ConflictError, ErrorCode, NotFoundError } from './errors';
import { normalizeUuidOrThrow } from './uuid';

/** The four policies Nova knows (API microversion 2.64 names). */
export const SERVER_GROUP_POLICIES = [
  'affinity',
  'anti-affinity',
  'soft-affinity',
  'soft-anti-affinity',
] as const;
/** A server group policy. */
export type ServerGroupPolicy = (typeof SERVER_GROUP_POLICIES)[number];

/** A server group as the domain returns it. */
export interface ServerGroupRecord {
  readonly uuid: string;
  readonly name: string;
  readonly projectId: string;
  readonly userId: string;
  readonly policy: ServerGroupPolicy;
  /** Most members per host (anti-affinity; Nova's `max_server_per_host` rule); null = 1. */
  readonly maxServerPerHost: number | null;
  /** Member consumer uuids, oldest membership first. */
  readonly members: readonly string[];
  readonly createdAt: Date;
}

/** What creating a group takes. */
export interface ServerGroupInput {
  readonly name: string;
  readonly projectId: string;
  readonly userId: string;
  readonly policy: string;
  readonly maxServerPerHost?: number | null;
  /** Defaults to a new random uuid. */
  readonly uuid?: string;
}

interface GroupRow {
  id: number;
  uuid: string;
  name: string;
  project_id: string;
  user_id: string;
  policy: ServerGroupPolicy;
  max_server_per_host: number | null;
  created_at: Date;
  members: string[] | null;
}

const SELECT_GROUPS = `SELECT g.id, g.uuid, g.name, g.project_id, g.user_id, g.policy,
    g.max_server_per_host, g.created_at,
    (SELECT array_agg(m.consumer_uuid ORDER BY m.created_at, m.consumer_uuid)
       FROM server_group_members m WHERE m.group_id = g.id) AS members
  FROM server_groups g`;

const toRecord = (r: GroupRow): ServerGroupRecord => ({
  uuid: r.uuid,
  name: r.name,
  projectId: r.project_id,
  userId: r.user_id,
  policy: r.policy,
  maxServerPerHost: r.max_server_per_host,
  members: r.members ?? [],
  createdAt: r.created_at,
});

/** Most members a group may have (Nova's server_group_members quota default is 10; this is a bound on work). */
export const MAX_GROUP_MEMBERS = 1000;

function policyOrThrow(policy: string): ServerGroupPolicy {
  if (!(SERVER_GROUP_POLICIES as readonly string[]).includes(policy)) {
    throw new BadRequestError(
      `Invalid server group policy '${policy}'; one of ${SERVER_GROUP_POLICIES.join(', ')}.`,
      ErrorCode.INVALID_INPUT,
    );
  }
  return policy as ServerGroupPolicy;
}

function textOrThrow(value: string, what: string): string {
  if (value.length === 0 || value.length > 255) {
    throw new BadRequestError(
      `A server group ${what} must be 1 to 255 characters.`,
      ErrorCode.INVALID_INPUT,
    );
  }
  return value;
}

/**
 * The hosts of `group`'s members with allocations (members without allocations run nowhere),
 * excluding `except` (the consumers being placed: a moving member does not count against itself).
 */
export async function memberHosts(
  q: Pick<EntityManager, 'query'>,
  groupId: number,
  except: readonly string[] = [],
): Promise<Map<string, string[]>> {
  const rows: { host: string; consumer: string }[] = await q.query(
    `SELECT DISTINCT r.uuid AS host, c.uuid AS consumer
     FROM server_group_members m
     JOIN consumers c ON c.uuid = m.consumer_uuid
     JOIN allocations a ON a.consumer_id = c.id
     JOIN resource_providers p ON p.id = a.resource_provider_id
     JOIN resource_providers r ON r.id = p.root_provider_id
     WHERE m.group_id = $1 AND NOT (m.consumer_uuid = ANY($2::uuid[]))
     ORDER BY 1, 2`,
    [groupId, except],
  );
  const out = new Map<string, string[]>();
  for (const { host, consumer } of rows) {
    const list = out.get(host);
    if (list) {
      list.push(consumer);
    } else {
      out.set(host, [consumer]);
    }
  }
  return out;
}

/** What the scheduler reads about a group for one request. */
export interface GroupPlacement {
  readonly group: ServerGroupRecord;
  /** Host uuid -> members running there (the request's own consumers excluded). */
  readonly hosts: Map<string, string[]>;
}

/** Server groups: create, read, delete, membership. */
export class ServerGroupService {
  constructor(private readonly ds: DataSource) {}

  /**
   * Creates a group.
   * @throws BadRequestError for an unknown policy, a bad name, a `maxServerPerHost` on a policy
   *   other than anti-affinity or below 1, a bad uuid; ConflictError when the uuid exists.
   */
  async create(input: ServerGroupInput): Promise<ServerGroupRecord> {
    const policy = policyOrThrow(input.policy);
    const max = input.maxServerPerHost ?? null;
    if (max !== null && (policy !== 'anti-affinity' || !Number.isInteger(max) || max < 1)) {
      throw new BadRequestError(
        policy === 'anti-affinity'
          ? `maxServerPerHost must be a whole number of at least 1 (got ${max}).`
          : `maxServerPerHost applies to the anti-affinity policy only (Nova's max_server_per_host rule), not ${policy}.`,
        ErrorCode.INVALID_INPUT,
      );
    }
    const uuid = input.uuid ? normalizeUuidOrThrow(input.uuid, 'server group uuid') : null;
    const name = textOrThrow(input.name, 'name');
    const projectId = textOrThrow(input.projectId, 'project id');
    const userId = textOrThrow(input.userId, 'user id');
    const rows = await auditedTransaction(
      this.ds,
      (em): Promise<{ uuid: string }[]> => {
        noteAudit({ projects: [projectId] });
        return em.query(
          `INSERT INTO server_groups (uuid, name, project_id, user_id, policy, max_server_per_host)
       VALUES (COALESCE($1::uuid, gen_random_uuid()), $2, $3, $4, $5, $6)
       ON CONFLICT (uuid) DO NOTHING RETURNING uuid`,
          [uuid, name, projectId, userId, policy, max],
        );
      },
      (inserted) => inserted.length > 0,
    );
    if (rows.length === 0) {
      throw new ConflictError(`Server group ${uuid} already exists.`, ErrorCode.DUPLICATE_NAME);
    }
    return (await this.get(rows[0]!.uuid))!;
  }

  /** The group, or null. */
  async get(uuid: string): Promise<ServerGroupRecord | null> {
    const id = normalizeUuidOrThrow(uuid, 'server group uuid');
    const rows: GroupRow[] = await this.ds.query(`${SELECT_GROUPS} WHERE g.uuid = $1`, [id]);
    return rows[0] ? toRecord(rows[0]) : null;
  }

  /** The group, or NotFoundError. */
  async getOrThrow(uuid: string): Promise<ServerGroupRecord> {
    const group = await this.get(uuid);
    if (!group) {
      throw new NotFoundError(`No server group ${uuid}.`, ErrorCode.SERVER_GROUP_NOT_FOUND);
    }
    return group;
  }

  /** Groups of one project (every project when null), oldest first. */
  async list(projectId: string | null): Promise<ServerGroupRecord[]> {
    const rows: GroupRow[] =
      projectId === null
        ? await this.ds.query(`${SELECT_GROUPS} ORDER BY g.id`)
        : await this.ds.query(`${SELECT_GROUPS} WHERE g.project_id = $1 ORDER BY g.id`, [
            projectId,
          ]);
    return rows.map(toRecord);
  }

  /**
   * Deletes a group and its memberships (the consumers and their allocations stay).
   * @throws NotFoundError when there is no such group.
   */
  async delete(uuid: string): Promise<void> {
    const id = normalizeUuidOrThrow(uuid, 'server group uuid');
    const rows = await auditedTransaction(
      this.ds,
      async (em): Promise<{ project_id: string }[]> => {
        const deleted = rowsOf<{ project_id: string }>(
          await em.query('DELETE FROM server_groups WHERE uuid = $1 RETURNING project_id', [id]),
        );
        noteAudit({ projects: deleted.map((d) => d.project_id) });
        return deleted;
      },
      (deleted) => deleted.length > 0,
    );
    if (rows.length === 0) {
      throw new NotFoundError(`No server group ${uuid}.`, ErrorCode.SERVER_GROUP_NOT_FOUND);
    }
  }

  /**
   * Adds consumers to a group (Nova adds an instance when it is created with the `group` hint;
   * `schedule` does it in the claim). Idempotent for existing members. Only consumers that exist
   * and belong to the group's project may join: nobody reserves a uuid another project will use.
   * @throws NotFoundError for an unknown group; BadRequestError for a consumer that is not one of
   *   the group's project (unknown or another project's: the message does not say which), or past
   *   {@link MAX_GROUP_MEMBERS}; ConflictError SERVER_GROUP_MEMBER when a consumer is in another
   *   group.
   */
  async addMembers(uuid: string, consumers: readonly string[]): Promise<ServerGroupRecord> {
    const ids = consumers.map((c) => normalizeUuidOrThrow(c, 'consumer uuid'));
    await auditedTransaction(this.ds, async (em) => {
      noteAudit({ consumers: ids });
      const group = await lockGroup(em, uuid);
      await consumersOfProjectOrThrow(em, ids, group);
      await insertMembers(em, group.id, uuid, ids);
    });
    return this.getOrThrow(uuid);
  }

  /** Removes consumers from a group (unknown ones are ignored). @throws NotFoundError */
  async removeMembers(uuid: string, consumers: readonly string[]): Promise<ServerGroupRecord> {
    const group = await this.getOrThrow(uuid);
    const ids = consumers.map((c) => normalizeUuidOrThrow(c, 'consumer uuid'));
    await auditedTransaction(this.ds, async (em) => {
      noteAudit({ consumers: ids, projects: [group.projectId] });
      await em.query(
        `DELETE FROM server_group_members m USING server_groups g
         WHERE g.id = m.group_id AND g.uuid = $1 AND m.consumer_uuid = ANY($2::uuid[])`,
        [group.uuid, ids],
      );
    });
    return this.getOrThrow(uuid);
  }

  /** Where the group's members run: host uuid -> member consumer uuids. @throws NotFoundError */
  async hosts(uuid: string): Promise<Map<string, string[]>> {
    return (await this.placement(uuid, [])).hosts;
  }

  /**
   * What the scheduler needs for one request: the group and where its members run, without the
   * consumers being placed.
   * @throws NotFoundError for an unknown group.
   */
  async placement(uuid: string, placing: readonly string[]): Promise<GroupPlacement> {
    const id = normalizeUuidOrThrow(uuid, 'server group uuid');
    const rows: GroupRow[] = await this.ds.query(`${SELECT_GROUPS} WHERE g.uuid = $1`, [id]);
    if (!rows[0]) {
      throw new NotFoundError(`No server group ${uuid}.`, ErrorCode.SERVER_GROUP_NOT_FOUND);
    }
    return { group: toRecord(rows[0]), hosts: await memberHosts(this.ds, rows[0].id, placing) };
  }
}

/** A group row locked for the rest of the transaction. */
export interface LockedGroup {
  readonly id: number;
  readonly uuid: string;
  readonly projectId: string;
  readonly policy: ServerGroupPolicy;
  readonly maxServerPerHost: number | null;
}

/**
 * Locks a group's row (FOR UPDATE): claims into one group are serialised, so each sees the
 * members the previous one placed.
 * @throws NotFoundError when the group does not exist (or was just deleted).
 */
export async function lockGroup(
  em: Pick<EntityManager, 'query'>,
  uuid: string,
): Promise<LockedGroup> {
  const rows: GroupRow[] = await em.query(
    `SELECT id, uuid, project_id, policy, max_server_per_host FROM server_groups WHERE uuid = $1 FOR UPDATE`,
    [normalizeUuidOrThrow(uuid, 'server group uuid')],
  );
  const r = rows[0];
  if (!r) {
    throw new NotFoundError(`No server group ${uuid}.`, ErrorCode.SERVER_GROUP_NOT_FOUND);
  }
  return {
    id: r.id,
    uuid: r.uuid,
    projectId: r.project_id,
    policy: r.policy,
    maxServerPerHost: r.max_server_per_host,
  };
}

/**
 * Checks that every consumer in `uuids` exists and belongs to the group's project (its row locked
 * for the rest of the transaction, so it cannot change project meanwhile).
 * @throws BadRequestError naming the first that does not (unknown and another project's read the
 *   same).
 */
async function consumersOfProjectOrThrow(
  em: Pick<EntityManager, 'query'>,
  uuids: readonly string[],
  group: LockedGroup,
): Promise<void> {
  const unique = [...new Set(uuids)];
  const rows: { uuid: string }[] = await em.query(
    `SELECT c.uuid FROM consumers c JOIN projects p ON p.id = c.project_id
     WHERE c.uuid = ANY($1::uuid[]) AND p.external_id = $2 FOR SHARE OF c`,
    [unique, group.projectId],
  );
  const found = new Set(rows.map((r) => r.uuid));
  const missing = unique.find((u) => !found.has(u));
  if (missing !== undefined) {
    throw new BadRequestError(
      `Consumer ${missing} is not a consumer of the server group's project: a consumer joins a group once it holds allocations in that project, or when schedule places it with \`group\`.`,
      ErrorCode.INVALID_INPUT,
    );
  }
}

/**
 * Makes `consumers` members of the locked group `groupId`; returns those that were not members.
 * @throws ConflictError SERVER_GROUP_MEMBER when one is a member of another group;
 *   BadRequestError past {@link MAX_GROUP_MEMBERS}.
 */
export async function insertMembers(
  em: Pick<EntityManager, 'query'>,
  groupId: number,
  groupUuid: string,
  consumers: readonly string[],
): Promise<string[]> {
  if (consumers.length === 0) {
    return [];
  }
  const inserted: { n: string; added: string[] | null }[] = await em.query(
    `WITH ins AS (INSERT INTO server_group_members (group_id, consumer_uuid)
       SELECT $1, u FROM unnest($2::uuid[]) AS u ON CONFLICT (consumer_uuid) DO NOTHING
       RETURNING consumer_uuid)
     SELECT (SELECT count(*) FROM server_group_members WHERE group_id = $1)
       + (SELECT count(*) FROM ins) AS n, (SELECT array_agg(consumer_uuid) FROM ins) AS added`,
    [groupId, [...new Set(consumers)]],
  );
  if (Number(inserted[0]!.n) > MAX_GROUP_MEMBERS) {
    throw new BadRequestError(
      `Server group ${groupUuid} would have more than ${MAX_GROUP_MEMBERS} members.`,
      ErrorCode.INVALID_INPUT,
    );
  }
  // After the insert: a concurrent membership of another group has committed by now (the insert
  // waited for it), so it is seen here.
  const elsewhere: { consumer_uuid: string; uuid: string }[] = await em.query(
    `SELECT m.consumer_uuid, g.uuid FROM server_group_members m JOIN server_groups g ON g.id = m.group_id
     WHERE m.consumer_uuid = ANY($1::uuid[]) AND m.group_id <> $2 LIMIT 1`,
    [consumers, groupId],
  );
  if (elsewhere[0]) {
    throw new ConflictError(
      `Consumer ${elsewhere[0].consumer_uuid} is a member of server group ${elsewhere[0].uuid}, not ${groupUuid}; a consumer belongs to one group.`,
      ErrorCode.SERVER_GROUP_MEMBER,
    );
  }
  return inserted[0]!.added ?? [];
}
