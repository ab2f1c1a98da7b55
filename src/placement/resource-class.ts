// Resource classes: list, create, rename and delete custom ones (upstream: objects/resource_class.py).

import type { DataSource, EntityManager } from 'typeorm';
import { rowsOf } from '../db/rows';
import { auditedTransaction, noteAuditDetails } from './audit';
import { announceCatalogChange, type ChangeBus } from './change-bus';
import { BadRequestError, ConflictError, ErrorCode, NotFoundError } from './errors';
import { assertCustomNameOrThrow, insertName, isCustomName, type NameRow } from './names';
import type { ResourceClassRecord } from './types';

type Row = NameRow;

function toRecord(r: Row): ResourceClassRecord {
  return {
    id: r.id,
    name: r.name,
    custom: isCustomName(r.name),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** Resource class operations. */
export class ResourceClassService {
  constructor(
    private readonly ds: DataSource,
    private readonly bus?: ChangeBus,
  ) {}

  /** Tells candidate indexes (here and on other replicas) that the catalogue changed. */
  private catalogChanged(): Promise<void> {
    return announceCatalogChange(this.ds, this.bus);
  }

  /** Every class, standard first (by id), then custom. */
  async list(em: EntityManager = this.ds.manager): Promise<ResourceClassRecord[]> {
    const rows: Row[] = await em.query(
      'SELECT id, name, created_at, updated_at FROM resource_classes ORDER BY id',
    );
    return rows.map(toRecord);
  }

  /** The class called `name`, or null. */
  async find(
    name: string,
    em: EntityManager = this.ds.manager,
  ): Promise<ResourceClassRecord | null> {
    const rows: Row[] = await em.query(
      'SELECT id, name, created_at, updated_at FROM resource_classes WHERE name = $1',
      [name],
    );
    return rows[0] ? toRecord(rows[0]) : null;
  }

  /**
   * Creates a custom class.
   * @throws BadRequestError for a non-CUSTOM_ name; ConflictError (placement.duplicate_name) if it exists.
   */
  async create(name: string): Promise<ResourceClassRecord> {
    assertCustomNameOrThrow('resource class', name);
    const rows = await auditedTransaction(
      this.ds,
      (em): Promise<Row[]> => {
        noteAuditDetails({ resource_class: name });
        return em.query(
          `INSERT INTO resource_classes (name) VALUES ($1) ON CONFLICT (name) DO NOTHING
           RETURNING id, name, created_at, updated_at`,
          [name],
        );
      },
      (inserted) => inserted.length > 0,
    );
    if (!rows[0]) {
      throw new ConflictError(
        `Conflicting resource class already exists: ${name}`,
        ErrorCode.RESOURCE_CLASS_EXISTS,
      );
    }
    await this.catalogChanged();
    return toRecord(rows[0]);
  }

  /**
   * Creates the custom class if it does not exist (PUT /resource_classes/{name}, 1.7).
   * @returns the class and whether it was created.
   * @throws BadRequestError for a non-CUSTOM_ name.
   */
  async ensure(name: string): Promise<{ record: ResourceClassRecord; created: boolean }> {
    assertCustomNameOrThrow('resource class', name);
    // Only an insert is a write (and has an event); an existing name is a no-op.
    const inserted = await auditedTransaction(
      this.ds,
      (em) => {
        noteAuditDetails({ resource_class: name });
        return insertName(em, 'resource_classes', name);
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
        `Resource class ${name} was deleted concurrently; retry.`,
        ErrorCode.CONCURRENT_DELETE,
      );
    }
    return { record: existing, created: false };
  }

  /**
   * Renames a custom class (PUT /resource_classes/{name} before 1.7).
   * @throws BadRequestError for standard classes or bad names; NotFoundError; ConflictError on duplicates.
   */
  async rename(name: string, newName: string): Promise<ResourceClassRecord> {
    if (!isCustomName(name)) {
      throw new BadRequestError(
        `Cannot update standard resource class ${name}`,
        ErrorCode.RESOURCE_CLASS_STANDARD,
      );
    }
    assertCustomNameOrThrow('resource class', newName);
    const rows = await auditedTransaction(
      this.ds,
      async (em) => {
        noteAuditDetails({ resource_class: name, renamed_to: newName });
        return rowsOf<Row>(
          await em.query(
            `UPDATE resource_classes SET name = $2, updated_at = now()
             WHERE name = $1 AND NOT EXISTS (SELECT 1 FROM resource_classes WHERE name = $2)
             RETURNING id, name, created_at, updated_at`,
            [name, newName],
          ),
        );
      },
      (updated) => updated.length > 0,
    );
    if (rows[0]) {
      await this.catalogChanged();
      return toRecord(rows[0]);
    }
    if (!(await this.find(name))) {
      throw new NotFoundError(
        `No such resource class ${name}.`,
        ErrorCode.RESOURCE_CLASS_NOT_FOUND,
      );
    }
    throw new ConflictError(
      `Resource class already exists: ${newName}`,
      ErrorCode.RESOURCE_CLASS_EXISTS,
    );
  }

  /**
   * Deletes a custom class that no inventory uses.
   * @throws BadRequestError for standard classes; NotFoundError; ConflictError when in use.
   */
  async delete(name: string): Promise<void> {
    if (!isCustomName(name)) {
      throw new BadRequestError(
        `Cannot delete standard resource class ${name}`,
        ErrorCode.RESOURCE_CLASS_STANDARD,
      );
    }
    await auditedTransaction(this.ds, async (em) => {
      const rows: { id: number }[] = await em.query(
        'SELECT id FROM resource_classes WHERE name = $1 FOR UPDATE',
        [name],
      );
      if (!rows[0]) {
        throw new NotFoundError(
          `No such resource class ${name}.`,
          ErrorCode.RESOURCE_CLASS_NOT_FOUND,
        );
      }
      const inUse: unknown[] = await em.query(
        `SELECT 1 FROM inventories WHERE resource_class_id = $1
         UNION ALL SELECT 1 FROM allocations WHERE resource_class_id = $1 LIMIT 1`,
        [rows[0].id],
      );
      if (inUse.length > 0) {
        throw new ConflictError(
          `Unable to delete resource class ${name}. Class is in use in inventory.`,
          ErrorCode.RESOURCE_CLASS_INUSE,
        );
      }
      await em.query('DELETE FROM resource_classes WHERE id = $1', [rows[0].id]);
      noteAuditDetails({ resource_class: name });
    });
    await this.catalogChanged();
  }
}
