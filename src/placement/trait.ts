// Traits: list with filters, create and delete custom ones (upstream: objects/trait.py).
import type { DataSource, EntityManager } from 'typeorm';
import { auditedTransaction, noteAuditDetails } from './audit';
import { announceCatalogChange, type ChangeBus } from './change-bus';
import { BadRequestError, ConflictError, ErrorCode, NotFoundError } from './errors';
import { assertCustomNameOrThrow, insertName, isCustomName, type NameRow } from './names';
import type { TraitRecord } from './types';

type Row = NameRow;

function toRecord(r: Row): TraitRecord {
  return {
    id: r.id,
    name: r.name,
    custom: isCustomName(r.name),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** Filters for {@link TraitService.list} (GET /traits?name=in:..|startswith:..&associated=). */
export interface TraitFilter {
  readonly nameIn?: readonly string[];
  readonly startsWith?: string;
  /** true: only traits on some provider; false: only traits on none. */
  readonly associated?: boolean;
}

/** Trait operations. */
export class TraitService {
  constructor(
    private readonly ds: DataSource,
    private readonly bus?: ChangeBus,
  ) {}

  /** Tells candidate indexes (here and on other replicas) that the catalogue changed. */
  private catalogChanged(): Promise<void> {
    return announceCatalogChange(this.ds, this.bus);
  }

  /** Traits matching every given filter, by name. */
  async list(
    filter: TraitFilter = {},
    em: EntityManager = this.ds.manager,
  ): Promise<TraitRecord[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (filter.nameIn) {
      params.push(filter.nameIn);
      where.push(`t.name = ANY($${params.length}::text[])`);
    }
    if (filter.startsWith !== undefined) {
      params.push(`${filter.startsWith.replace(/[\\%_]/g, '\\$&')}%`);
      where.push(`t.name LIKE $${params.length}`);
    }
    if (filter.associated !== undefined) {
      where.push(
        `${filter.associated ? '' : 'NOT '}EXISTS (SELECT 1 FROM resource_provider_traits rpt WHERE rpt.trait_id = t.id)`,
      );
    }
    const rows: Row[] = await em.query(
      `SELECT t.id, t.name, t.created_at, t.updated_at FROM traits t
       ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY t.name`,
      params,
    );
    return rows.map(toRecord);
  }

  /** The trait called `name`, or null. */
  async find(name: string, em: EntityManager = this.ds.manager): Promise<TraitRecord | null> {
    const rows: Row[] = await em.query(
      'SELECT id, name, created_at, updated_at FROM traits WHERE name = $1',
      [name],
    );
    return rows[0] ? toRecord(rows[0]) : null;
  }

  /**
   * Creates the custom trait if it does not exist (PUT /traits/{name}).
   * @returns the trait and whether it was created.
   * @throws BadRequestError for a non-CUSTOM_ name.
   */
  async ensure(name: string): Promise<{ record: TraitRecord; created: boolean }> {
    assertCustomNameOrThrow('trait', name);
    // Only an insert is a write (and has an event); an existing name is a no-op.
    const inserted = await auditedTransaction(
      this.ds,
      (em) => {
        noteAuditDetails({ trait: name });
        return insertName(em, 'traits', name);
      },
      (row) => row !== undefined,
    );
    if (inserted) {
      await this.catalogChanged();
      return { record: toRecord(inserted), created: true };
    }
    const existing = await this.find(name);
    if (!existing) {
      throw new ConflictError(
        `Trait ${name} was deleted concurrently; retry.`,
        ErrorCode.CONCURRENT_DELETE,
      );
    }
    return { record: existing, created: false };
  }

  /**
   * Creates a custom trait.
   * @throws BadRequestError for a bad name; ConflictError if it exists.
   */
  async create(name: string): Promise<TraitRecord> {
    const { record, created } = await this.ensure(name);
    if (!created) {
      throw new ConflictError(`Trait ${name} already exists.`, ErrorCode.TRAIT_EXISTS);
    }
    return record;
  }

  /**
   * Deletes a custom trait that no provider has.
   * @throws BadRequestError for standard traits; NotFoundError; ConflictError when in use.
   */
  async delete(name: string): Promise<void> {
    if (!isCustomName(name)) {
      throw new BadRequestError(`Cannot delete standard trait ${name}.`, ErrorCode.TRAIT_STANDARD);
    }
    await auditedTransaction(this.ds, async (em) => {
      const rows: { id: number }[] = await em.query(
        'SELECT id FROM traits WHERE name = $1 FOR UPDATE',
        [name],
      );
      if (!rows[0]) {
        throw new NotFoundError(`No such trait(s): ${name}.`, ErrorCode.TRAIT_NOT_FOUND);
      }
      const inUse: unknown[] = await em.query(
        'SELECT 1 FROM resource_provider_traits WHERE trait_id = $1 LIMIT 1',
        [rows[0].id],
      );
      if (inUse.length > 0) {
        throw new ConflictError(
          `The trait ${name} is in use by a resource provider.`,
          ErrorCode.TRAIT_INUSE,
        );
      }
      await em.query('DELETE FROM traits WHERE id = $1', [rows[0].id]);
      noteAuditDetails({ trait: name });
    });
    await this.catalogChanged();
  }
}
