// One provider row as read from the database and its conversion to the record handed to callers
// (upstream: the _RP_TBL column list of objects/resource_provider.py).
import type { ResourceProviderRecord } from './types';

/** Row shape of {@link PROVIDER_SELECT}. */
export interface ProviderRow {
  id: number;
  uuid: string;
  name: string;
  generation: number;
  root_provider_id: number;
  parent_provider_id: number | null;
  root_provider_uuid: string;
  parent_provider_uuid: string | null;
  created_at: Date;
  updated_at: Date;
}

/** SELECT list + FROM for provider records (alias rp). */
export const PROVIDER_SELECT = `
  SELECT rp.id, rp.uuid, rp.name, rp.generation, rp.root_provider_id, rp.parent_provider_id,
         root.uuid AS root_provider_uuid, parent.uuid AS parent_provider_uuid,
         rp.created_at, rp.updated_at
  FROM resource_providers rp
  JOIN resource_providers root ON root.id = rp.root_provider_id
  LEFT JOIN resource_providers parent ON parent.id = rp.parent_provider_id`;

/** Converts a row of {@link PROVIDER_SELECT}. */
export function toProviderRecord(r: ProviderRow): ResourceProviderRecord {
  return {
    id: r.id,
    uuid: r.uuid,
    name: r.name,
    generation: r.generation,
    rootProviderId: r.root_provider_id,
    parentProviderId: r.parent_provider_id,
    rootProviderUuid: r.root_provider_uuid,
    parentProviderUuid: r.parent_provider_uuid,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}
