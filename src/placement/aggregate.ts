// Aggregates: provider membership (replaced as a set with the generation) and Nova host-aggregate
// name/metadata for scheduler filters (upstream: resource_provider.py set_aggregates,
// handlers/aggregate.py; Nova objects/aggregate.py for metadata).
import type { DataSource, EntityManager } from 'typeorm';
import { type ChangeBus, writeTransaction } from './change-bus';
import { BadRequestError, ErrorCode } from './errors';
import { bumpProviderGeneration } from './generation';
import type { ResourceProviderService } from './resource-provider';
import type { AggregateRecord, ResourceProviderRecord } from './types';
import { normalizeUuidOrThrow } from './uuid';

/** A provider with its aggregate uuids. */
export interface ProviderAggregates {
  readonly provider: ResourceProviderRecord;
  readonly aggregates: string[];
}

/** Aggregate uuids per provider id (every id present), sorted. */
export async function aggregatesOf(
  em: EntityManager,
  ids: readonly number[],
): Promise<Map<number, string[]>> {
  const rows: { resource_provider_id: number; uuid: string }[] = await em.query(
    `SELECT rpa.resource_provider_id, a.uuid FROM resource_provider_aggregates rpa
     JOIN placement_aggregates a ON a.id = rpa.aggregate_id
     WHERE rpa.resource_provider_id = ANY($1::int[]) ORDER BY a.uuid`,
    [ids],
  );
  const out = new Map<number, string[]>(ids.map((id) => [id, []]));
  for (const r of rows) {
    out.get(r.resource_provider_id)?.push(r.uuid);
  }
  return out;
}

const AGG_SELECT = `
  SELECT a.id, a.uuid, a.name,
         COALESCE((SELECT json_agg(json_build_object('key', m.key, 'value', m.value) ORDER BY m.key)
                   FROM aggregate_metadata m WHERE m.aggregate_id = a.id), '[]'::json) AS metadata
  FROM placement_aggregates a`;

interface AggRow {
  id: number;
  uuid: string;
  name: string | null;
  metadata: { key: string; value: string }[];
}

const toRecord = (r: AggRow): AggregateRecord => ({
  id: r.id,
  uuid: r.uuid,
  name: r.name,
  metadata: r.metadata,
});

/** Aggregate operations. */
export class AggregateService {
  constructor(
    private readonly ds: DataSource,
    private readonly bus: ChangeBus,
    private readonly providers: ResourceProviderService,
  ) {}

  /** The provider's aggregates. @throws NotFoundError. */
  async forProvider(uuid: string): Promise<ProviderAggregates> {
    const provider = await this.providers.get(uuid);
    return {
      provider,
      aggregates: (await aggregatesOf(this.ds.manager, [provider.id])).get(provider.id)!,
    };
  }

  /** Aggregate uuids for many providers (DataLoader batch). */
  uuidsByProviderIds(ids: readonly number[]): Promise<Map<number, string[]>> {
    return aggregatesOf(this.ds.manager, ids);
  }

  /**
   * Replaces the provider's aggregates; `generation` null skips the check (before 1.19).
   * @throws NotFoundError; ConcurrentUpdateError; BadRequestError for malformed uuids.
   */
  async setForProvider(
    uuid: string,
    generation: number | null,
    aggregates: readonly string[],
  ): Promise<ProviderAggregates> {
    const uuids = [...new Set(aggregates.map((a) => normalizeUuidOrThrow(a, 'aggregate uuid')))];
    return writeTransaction(this.ds, this.bus, async (em, changes) => {
      const rp = await bumpProviderGeneration(em, uuid, generation);
      const ids = await this.ensureAggregates(em, uuids);
      await em.query('DELETE FROM resource_provider_aggregates WHERE resource_provider_id = $1', [
        rp.id,
      ]);
      await em.query(
        'INSERT INTO resource_provider_aggregates (resource_provider_id, aggregate_id) SELECT $1::int, unnest($2::int[])',
        [rp.id, ids],
      );
      changes.providers([rp.id]);
      const provider = await this.providers.get(rp.uuid, em);
      return { provider, aggregates: (await aggregatesOf(em, [rp.id])).get(rp.id)! };
    });
  }

  private async ensureAggregates(em: EntityManager, uuids: readonly string[]): Promise<number[]> {
    if (uuids.length === 0) {
      return [];
    }
    await em.query(
      'INSERT INTO placement_aggregates (uuid) SELECT unnest($1::uuid[]) ORDER BY 1 ON CONFLICT (uuid) DO NOTHING',
      [uuids],
    );
    const rows: { id: number }[] = await em.query(
      'SELECT id FROM placement_aggregates WHERE uuid = ANY($1::uuid[]) FOR KEY SHARE',
      [uuids],
    );
    return rows.map((r) => r.id);
  }

  /** Every aggregate (with members or metadata), by uuid. */
  async list(): Promise<AggregateRecord[]> {
    const rows: AggRow[] = await this.ds.query(`${AGG_SELECT} ORDER BY a.uuid`);
    return rows.map(toRecord);
  }

  /** The aggregate with `uuid`, or null. */
  async find(uuid: string): Promise<AggregateRecord | null> {
    const rows = await this.byUuids([uuid]);
    return rows[0] ?? null;
  }

  /** Aggregates by uuid (unknown and malformed uuids are skipped). */
  async byUuids(uuids: readonly string[]): Promise<AggregateRecord[]> {
    const valid = uuids.flatMap((u) => {
      try {
        return [normalizeUuidOrThrow(u)];
      } catch {
        return [];
      }
    });
    const rows: AggRow[] = await this.ds.query(
      `${AGG_SELECT} WHERE a.uuid = ANY($1::uuid[]) ORDER BY a.uuid`,
      [valid],
    );
    return rows.map(toRecord);
  }

  /** Provider ids per aggregate uuid (DataLoader batch). */
  async providerIdsByAggregateUuids(uuids: readonly string[]): Promise<Map<string, number[]>> {
    const rows: { uuid: string; resource_provider_id: number }[] = await this.ds.query(
      `SELECT a.uuid, rpa.resource_provider_id FROM placement_aggregates a
       JOIN resource_provider_aggregates rpa ON rpa.aggregate_id = a.id
       WHERE a.uuid = ANY($1::uuid[]) ORDER BY rpa.resource_provider_id`,
      [uuids],
    );
    const out = new Map<string, number[]>(uuids.map((u) => [u, []]));
    for (const r of rows) {
      out.get(r.uuid)?.push(r.resource_provider_id);
    }
    return out;
  }

  /**
   * Creates the aggregate if needed, sets its name (when not undefined) and replaces its metadata.
   * @throws BadRequestError for malformed uuids, empty or duplicate keys.
   */
  async setMetadata(
    uuid: string,
    name: string | null | undefined,
    metadata: readonly { key: string; value: string }[],
  ): Promise<AggregateRecord> {
    const id = normalizeUuidOrThrow(uuid, 'aggregate uuid');
    const keys = new Set<string>();
    for (const { key } of metadata) {
      if (key.length === 0 || key.length > 255) {
        throw new BadRequestError(
          `Invalid aggregate metadata key '${key}': 1 to 255 characters.`,
          ErrorCode.INVALID_NAME,
        );
      }
      if (keys.has(key)) {
        throw new BadRequestError(
          `Duplicate aggregate metadata key '${key}'.`,
          ErrorCode.INVALID_INPUT,
        );
      }
      keys.add(key);
    }
    if (name !== undefined && name !== null && name.length > 255) {
      throw new BadRequestError(
        'Aggregate name must be at most 255 characters.',
        ErrorCode.INVALID_NAME,
      );
    }
    return writeTransaction(this.ds, this.bus, async (em, changes) => {
      const [aggId] = await this.ensureAggregates(em, [id]);
      if (name !== undefined) {
        await em.query(
          'UPDATE placement_aggregates SET name = $2, updated_at = now() WHERE id = $1',
          [aggId, name],
        );
      }
      await em.query('DELETE FROM aggregate_metadata WHERE aggregate_id = $1', [aggId]);
      await em.query(
        'INSERT INTO aggregate_metadata (aggregate_id, key, value) SELECT $1::int, * FROM unnest($2::text[], $3::text[])',
        [aggId, metadata.map((m) => m.key), metadata.map((m) => m.value)],
      );
      changes.aggregateMetadata();
      const rows: AggRow[] = await em.query(`${AGG_SELECT} WHERE a.id = $1`, [aggId]);
      return toRecord(rows[0]!);
    });
  }
}
