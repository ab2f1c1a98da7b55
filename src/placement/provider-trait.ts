// Traits of a provider: read, replace as a set with the generation, delete all
// (upstream: resource_provider.py set_traits / _set_traits, handlers/trait.py).
import type { DataSource, EntityManager } from 'typeorm';
import { type ChangeBus, writeTransaction } from './change-bus';
import { BadRequestError, ErrorCode } from './errors';
import { bumpProviderGeneration } from './generation';
import type { ResourceProviderService } from './resource-provider';
import type { ResourceProviderRecord } from './types';

/** A provider with its trait names. */
export interface ProviderTraits {
  readonly provider: ResourceProviderRecord;
  readonly traits: string[];
}

/** Trait names per provider id (every id present, possibly empty), sorted by name. */
export async function traitsOf(
  em: EntityManager,
  ids: readonly number[],
): Promise<Map<number, string[]>> {
  const rows: { resource_provider_id: number; name: string }[] = await em.query(
    `SELECT rpt.resource_provider_id, t.name FROM resource_provider_traits rpt
     JOIN traits t ON t.id = rpt.trait_id WHERE rpt.resource_provider_id = ANY($1::int[]) ORDER BY t.name`,
    [ids],
  );
  const out = new Map<number, string[]>(ids.map((id) => [id, []]));
  for (const r of rows) {
    out.get(r.resource_provider_id)?.push(r.name);
  }
  return out;
}

/** Provider trait operations. */
export class ProviderTraitService {
  constructor(
    private readonly ds: DataSource,
    private readonly bus: ChangeBus,
    private readonly providers: ResourceProviderService,
  ) {}

  /** The provider's traits. @throws NotFoundError. */
  async get(uuid: string): Promise<ProviderTraits> {
    const provider = await this.providers.get(uuid);
    return { provider, traits: (await traitsOf(this.ds.manager, [provider.id])).get(provider.id)! };
  }

  /** Trait names for many providers (DataLoader batch). */
  byProviderIds(ids: readonly number[]): Promise<Map<number, string[]>> {
    return traitsOf(this.ds.manager, ids);
  }

  /**
   * Replaces the provider's traits.
   * @throws NotFoundError; ConcurrentUpdateError; BadRequestError for unknown traits.
   */
  async set(uuid: string, generation: number, traits: readonly string[]): Promise<ProviderTraits> {
    const names = [...new Set(traits)];
    return writeTransaction(this.ds, this.bus, async (em, changes) => {
      const rp = await bumpProviderGeneration(em, uuid, generation);
      const rows: { id: number; name: string }[] = await em.query(
        'SELECT id, name FROM traits WHERE name = ANY($1::text[]) FOR KEY SHARE',
        [names],
      );
      const missing = names.filter((n) => !rows.some((r) => r.name === n));
      if (missing.length > 0) {
        throw new BadRequestError(
          `No such trait(s): ${missing.sort().join(', ')}`,
          ErrorCode.TRAIT_NOT_FOUND,
        );
      }
      await em.query('DELETE FROM resource_provider_traits WHERE resource_provider_id = $1', [
        rp.id,
      ]);
      await em.query(
        `INSERT INTO resource_provider_traits (resource_provider_id, trait_id)
         SELECT $1::int, unnest($2::int[])`,
        [rp.id, rows.map((r) => r.id)],
      );
      changes.providers([rp.id]);
      const provider = await this.providers.get(rp.uuid, em);
      return { provider, traits: (await traitsOf(em, [rp.id])).get(rp.id)! };
    });
  }

  /** Removes every trait (DELETE .../traits; bumps the generation). @throws NotFoundError. */
  async deleteAll(uuid: string): Promise<void> {
    await writeTransaction(this.ds, this.bus, async (em, changes) => {
      const rp = await bumpProviderGeneration(em, uuid, null);
      await em.query('DELETE FROM resource_provider_traits WHERE resource_provider_id = $1', [
        rp.id,
      ]);
      changes.providers([rp.id]);
    });
  }
}
