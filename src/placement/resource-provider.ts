// Resource providers: create, read, list with filters, update (re-parent), delete
// (upstream: objects/resource_provider.py).

import type { DataSource, EntityManager } from 'typeorm';
import { rowsOf } from '../db/rows';
import { noteAudit } from './audit';
import { type ChangeBus, writeTransaction } from './change-bus';
import { BadRequestError, ConflictError, ErrorCode, NotFoundError } from './errors';
import { type ProviderFilterSql, providerFilterSql } from './provider-filter';
import { PROVIDER_SELECT, type ProviderRow, toProviderRecord } from './provider-record';
import { assertProviderNameOrThrow } from './provider-rules';
import { insertProvider } from './provider-writes';
import type { ResourceProviderRecord } from './types';
import { isUuid, normalizeUuidOrThrow } from './uuid';

/** Input of {@link ResourceProviderService.create}. */
export interface CreateProviderInput {
  readonly name: string;
  readonly uuid?: string;
  readonly parentUuid?: string | null;
}

/** Input of {@link ResourceProviderService.update}. */
export interface UpdateProviderInput {
  readonly uuid: string;
  /** undefined: keep the name. */
  readonly name?: string;
  /** undefined: leave the parent alone; null: make it a root (1.37). */
  readonly parentUuid?: string | null;
  /** When given, the update is refused unless it equals the current generation. */
  readonly generation?: number;
  /** Placement < 1.37 refuses re-parenting and un-parenting. */
  readonly allowReparenting?: boolean;
}

function isUniqueViolation(err: unknown): err is { constraint?: string } {
  return (err as { code?: string }).code === '23505';
}

/** Resource provider operations. */
export class ResourceProviderService {
  constructor(
    private readonly ds: DataSource,
    private readonly bus: ChangeBus,
  ) {}

  /** The provider with `uuid`, or null (malformed uuids are simply not found). */
  async find(
    uuid: string,
    em: EntityManager = this.ds.manager,
  ): Promise<ResourceProviderRecord | null> {
    let id: string;
    try {
      id = normalizeUuidOrThrow(uuid);
    } catch {
      return null;
    }
    const rows: ProviderRow[] = await em.query(`${PROVIDER_SELECT} WHERE rp.uuid = $1`, [id]);
    return rows[0] ? toProviderRecord(rows[0]) : null;
  }

  /**
   * The provider with `uuid`.
   * @throws NotFoundError (placement.resource_provider.not_found).
   */
  async get(uuid: string, em: EntityManager = this.ds.manager): Promise<ResourceProviderRecord> {
    const rp = await this.find(uuid, em);
    if (!rp) {
      throw new NotFoundError(
        `No resource provider with uuid ${uuid} found`,
        ErrorCode.RESOURCE_PROVIDER_NOT_FOUND,
      );
    }
    return rp;
  }

  /** Providers by uuid, in the order asked (null where missing or malformed). */
  async byUuids(uuids: readonly string[], em: EntityManager = this.ds.manager) {
    const valid = uuids.map((u) => (isUuid(u) ? normalizeUuidOrThrow(u) : null));
    const rows: ProviderRow[] = await em.query(
      `${PROVIDER_SELECT} WHERE rp.uuid = ANY($1::uuid[])`,
      [valid.filter((v): v is string => v !== null)],
    );
    const map = new Map(rows.map((r) => [r.uuid, toProviderRecord(r)]));
    return valid.map((u) => (u ? (map.get(u) ?? null) : null));
  }

  /** Direct children of each parent id, ordered by id (DataLoader batch). */
  async byParentIds(ids: readonly number[], em: EntityManager = this.ds.manager) {
    const rows: ProviderRow[] = await em.query(
      `${PROVIDER_SELECT} WHERE rp.parent_provider_id = ANY($1::int[]) ORDER BY rp.id`,
      [ids],
    );
    const out = new Map<number, ResourceProviderRecord[]>(ids.map((id) => [id, []]));
    for (const r of rows) {
      out.get(r.parent_provider_id!)?.push(toProviderRecord(r));
    }
    return out;
  }

  /** Providers by internal id, in the order asked (null where missing). */
  async byIds(ids: readonly number[], em: EntityManager = this.ds.manager) {
    const rows: ProviderRow[] = await em.query(`${PROVIDER_SELECT} WHERE rp.id = ANY($1::int[])`, [
      ids,
    ]);
    const map = new Map(rows.map((r) => [r.id, toProviderRecord(r)]));
    return ids.map((id) => map.get(id) ?? null);
  }

  /**
   * Providers matching `filter`, by id, after `page.afterId`, at most `page.limit`.
   * @throws BadRequestError for unknown resource classes or traits in the filter.
   */
  async list(
    filter: ProviderFilterSql = {},
    page: { afterId?: number; limit?: number } = {},
    em: EntityManager = this.ds.manager,
  ): Promise<ResourceProviderRecord[]> {
    return (await this.page(filter, page, em)).rows;
  }

  /**
   * A page of {@link list}, and how to count every provider the filter matches: the filter (and
   * its name lookups) is built once, so counting is one more statement.
   */
  async page(
    filter: ProviderFilterSql = {},
    page: { afterId?: number; limit?: number } = {},
    em: EntityManager = this.ds.manager,
  ): Promise<{ rows: ResourceProviderRecord[]; count: () => Promise<number> }> {
    const built = await providerFilterSql(em, filter);
    if (!built) {
      return { rows: [], count: async () => 0 };
    }
    const params = [...built.params];
    const where = [...built.where];
    if (page.afterId !== undefined) {
      params.push(page.afterId);
      where.push(`rp.id > $${params.length}`);
    }
    let sql = `${PROVIDER_SELECT} ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY rp.id`;
    if (page.limit !== undefined) {
      params.push(page.limit);
      sql += ` LIMIT $${params.length}`;
    }
    const rows: ProviderRow[] = await em.query(sql, params);
    const matching = built.where.length ? `WHERE ${built.where.join(' AND ')}` : '';
    return {
      rows: rows.map(toProviderRecord),
      count: async () => {
        const n: { n: number }[] = await em.query(
          `SELECT count(*)::int AS n FROM (${PROVIDER_SELECT} ${matching}) q`,
          built.params,
        );
        return n[0]!.n;
      },
    };
  }

  /**
   * Creates a provider (root, or child of `parentUuid`).
   * @throws BadRequestError (bad name/uuid, missing parent, parent uuid equal to its own uuid);
   *   ConflictError (placement.duplicate_name).
   */
  async create(input: CreateProviderInput): Promise<ResourceProviderRecord> {
    assertProviderNameOrThrow(input.name);
    const uuid = input.uuid
      ? normalizeUuidOrThrow(input.uuid, 'resource provider uuid')
      : undefined;
    const parentUuid = input.parentUuid
      ? normalizeUuidOrThrow(input.parentUuid, 'parent provider uuid')
      : null;
    if (parentUuid !== null && parentUuid === uuid) {
      throw new BadRequestError(
        `Unable to create resource provider "${input.name}", ${uuid}: parent provider UUID cannot be same as UUID. Please choose a different parent provider UUID.`,
        ErrorCode.INVALID_PARENT,
      );
    }
    try {
      return await writeTransaction(this.ds, this.bus, async (em, changes) => {
        let parent: { id: number; root_provider_id: number } | undefined;
        if (parentUuid) {
          // FOR KEY SHARE: the parent cannot be deleted until we commit.
          const rows = await em.query(
            'SELECT id, root_provider_id FROM resource_providers WHERE uuid = $1 FOR KEY SHARE',
            [parentUuid],
          );
          parent = rows[0];
          if (!parent) {
            throw new BadRequestError(
              `Unable to create resource provider "${input.name}", ${parentUuid}: parent provider UUID does not exist.`,
              ErrorCode.INVALID_PARENT,
            );
          }
        }
        const id = await insertProvider(em, {
          uuid: uuid ?? null,
          name: input.name,
          parent: parent && { id: parent.id, rootId: parent.root_provider_id },
        });
        changes.providers([id]);
        const created = await this.byIds([id], em);
        return created[0]!;
      });
    } catch (err) {
      if (isUniqueViolation(err)) {
        const what =
          err.constraint === 'UQ_resource_providers_uuid' ? `uuid: ${uuid}` : `name: ${input.name}`;
        throw new ConflictError(
          `Conflicting resource provider ${what} already exists.`,
          ErrorCode.DUPLICATE_NAME,
        );
      }
      throw err;
    }
  }

  /**
   * Renames and/or re-parents a provider (PUT /resource_providers/{uuid}).
   * @throws NotFoundError; BadRequestError (loops, missing parent, re-parenting before 1.37);
   *   ConflictError (duplicate name, stale generation).
   */
  async update(input: UpdateProviderInput): Promise<ResourceProviderRecord> {
    if (input.name !== undefined) {
      assertProviderNameOrThrow(input.name);
    }
    const uuid = normalizeUuidOrThrow(input.uuid, 'resource provider uuid');
    try {
      return await writeTransaction(this.ds, this.bus, async (em, changes) => {
        const rows = await em.query(
          'SELECT id, generation, parent_provider_id, root_provider_id FROM resource_providers WHERE uuid = $1 FOR UPDATE',
          [uuid],
        );
        const me = rows[0] as
          | {
              id: number;
              generation: number;
              parent_provider_id: number | null;
              root_provider_id: number;
            }
          | undefined;
        if (!me) {
          throw new NotFoundError(
            `No resource provider with uuid ${uuid} found`,
            ErrorCode.RESOURCE_PROVIDER_NOT_FOUND,
          );
        }
        if (input.generation !== undefined && input.generation !== me.generation) {
          throw new ConflictError(
            `resource provider ${uuid} generation conflict: expected ${input.generation}, found ${me.generation}`,
            ErrorCode.CONCURRENT_UPDATE,
          );
        }
        let parentId = me.parent_provider_id;
        let rootId = me.root_provider_id;
        if (input.parentUuid !== undefined) {
          ({ parentId, rootId } = await this.resolveNewParent(em, me, input));
        }
        await em.query(
          `UPDATE resource_providers SET name = COALESCE($2, name), parent_provider_id = $3,
             root_provider_id = $4, updated_at = now() WHERE id = $1`,
          [me.id, input.name ?? null, parentId, rootId],
        );
        if (rootId !== me.root_provider_id) {
          const moved = rowsOf<{ id: number }>(
            await em.query(
              `WITH RECURSIVE sub(id) AS (
               SELECT id FROM resource_providers WHERE parent_provider_id = $1
               UNION ALL SELECT c.id FROM resource_providers c JOIN sub ON c.parent_provider_id = sub.id)
             UPDATE resource_providers SET root_provider_id = $2 WHERE id IN (SELECT id FROM sub)
             RETURNING id`,
              [me.id, rootId],
            ),
          );
          changes.providers(moved.map((m) => m.id));
        }
        changes.providers([me.id]);
        return (await this.byIds([me.id], em))[0]!;
      });
    } catch (err) {
      if (isUniqueViolation(err)) {
        throw new ConflictError(
          `Conflicting resource provider name: ${input.name} already exists.`,
          ErrorCode.DUPLICATE_NAME,
        );
      }
      throw err;
    }
  }

  private async resolveNewParent(
    em: EntityManager,
    me: { id: number; parent_provider_id: number | null; root_provider_id: number },
    input: UpdateProviderInput,
  ): Promise<{ parentId: number | null; rootId: number }> {
    const allow = input.allowReparenting ?? true;
    if (input.parentUuid === null) {
      if (me.parent_provider_id === null) {
        return { parentId: null, rootId: me.id };
      }
      if (!allow) {
        throw new BadRequestError(
          'Object action update failed because: un-parenting a provider is not currently allowed.',
          ErrorCode.INVALID_PARENT,
        );
      }
      return { parentId: null, rootId: me.id };
    }
    const parentUuid = normalizeUuidOrThrow(input.parentUuid!, 'parent provider uuid');
    const rows = await em.query(
      'SELECT id, root_provider_id FROM resource_providers WHERE uuid = $1 FOR KEY SHARE',
      [parentUuid],
    );
    const parent = rows[0] as { id: number; root_provider_id: number } | undefined;
    if (!parent) {
      throw new BadRequestError(
        'Object action update failed because: parent provider UUID does not exist.',
        ErrorCode.INVALID_PARENT,
      );
    }
    if (me.parent_provider_id === parent.id) {
      return { parentId: parent.id, rootId: parent.root_provider_id };
    }
    if (me.parent_provider_id !== null && !allow) {
      throw new BadRequestError(
        'Object action update failed because: re-parenting a provider is not currently allowed.',
        ErrorCode.INVALID_PARENT,
      );
    }
    const loop: unknown[] = await em.query(
      `WITH RECURSIVE sub(id) AS (
         SELECT $1::int UNION ALL
         SELECT c.id FROM resource_providers c JOIN sub ON c.parent_provider_id = sub.id)
       SELECT 1 FROM sub WHERE id = $2`,
      [me.id, parent.id],
    );
    if (loop.length > 0) {
      throw new BadRequestError(
        'Object action update failed because: creating loop in the provider tree is not allowed.',
        ErrorCode.INVALID_PARENT,
      );
    }
    return { parentId: parent.id, rootId: parent.root_provider_id };
  }

  /**
   * Deletes a provider with its inventories, traits and aggregate links.
   * @throws NotFoundError; ConflictError (placement.resource_provider.inuse,
   *   placement.resource_provider.cannot_delete_parent).
   */
  async delete(uuid: string): Promise<void> {
    const id = normalizeUuidOrThrow(uuid, 'resource provider uuid');
    await writeTransaction(this.ds, this.bus, async (em, changes) => {
      const rows = await em.query('SELECT id FROM resource_providers WHERE uuid = $1 FOR UPDATE', [
        id,
      ]);
      const rp = rows[0] as { id: number } | undefined;
      if (!rp) {
        throw new NotFoundError(
          `No resource provider with uuid ${id} found for delete`,
          ErrorCode.RESOURCE_PROVIDER_NOT_FOUND,
        );
      }
      // Children first, then allocations: Placement's order (ResourceProvider._delete).
      const children: unknown[] = await em.query(
        'SELECT 1 FROM resource_providers WHERE parent_provider_id = $1 LIMIT 1',
        [rp.id],
      );
      if (children.length > 0) {
        throw new ConflictError(
          `Unable to delete parent resource provider ${id}: It has child resource providers.`,
          ErrorCode.PROVIDER_CANNOT_DELETE_PARENT,
        );
      }
      const used: unknown[] = await em.query(
        'SELECT 1 FROM allocations WHERE resource_provider_id = $1 LIMIT 1',
        [rp.id],
      );
      if (used.length > 0) {
        throw new ConflictError(
          `Unable to delete resource provider ${id}: Resource provider has allocations.`,
          ErrorCode.PROVIDER_IN_USE,
        );
      }
      await em.query('DELETE FROM resource_providers WHERE id = $1', [rp.id]);
      noteAudit({ providers: [id] });
      changes.providers([rp.id]);
    });
  }
}
