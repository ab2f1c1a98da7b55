// A cheap fingerprint of everything a write can change: row counts plus generation/amount sums.
// Equal before and after a rejected write = no partial write.
import type { DataSource } from 'typeorm';

const FINGERPRINT_SQL = `SELECT
  (SELECT count(*) || ':' || coalesce(sum(generation), 0) || ':' || coalesce(sum(parent_provider_id), 0)
     || ':' || coalesce(sum(length(name)), 0) FROM resource_providers) AS providers,
  (SELECT count(*) || ':' || coalesce(sum(total), 0) || ':' || coalesce(sum(reserved), 0) || ':'
     || coalesce(sum(max_unit), 0) || ':' || coalesce(sum(allocation_ratio), 0) FROM inventories) AS inventories,
  (SELECT count(*) || ':' || coalesce(sum(used), 0) FROM allocations) AS allocations,
  (SELECT count(*) || ':' || coalesce(sum(generation), 0) || ':' || coalesce(sum(project_id), 0)
     || ':' || coalesce(sum(coalesce(consumer_type_id, 0)), 0) FROM consumers) AS consumers,
  (SELECT count(*) FROM traits) AS traits,
  (SELECT count(*) FROM resource_classes) AS classes,
  (SELECT count(*) FROM placement_aggregates) AS aggregates,
  (SELECT count(*) FROM resource_provider_aggregates) AS rp_aggregates,
  (SELECT count(*) FROM resource_provider_traits) AS rp_traits,
  (SELECT count(*) || ':' || coalesce(sum(length(value)), 0) FROM aggregate_metadata) AS metadata,
  (SELECT count(*) || ':' || coalesce(sum(hard_limit), 0) FROM quota_limits) AS quota,
  (SELECT count(*) FROM projects) AS projects,
  (SELECT count(*) FROM users) AS users,
  (SELECT count(*) FROM consumer_types) AS consumer_types`;

/** The current fingerprint as one comparable string. */
export async function fingerprint(ds: DataSource): Promise<string> {
  const rows: Record<string, unknown>[] = await ds.query(FINGERPRINT_SQL);
  return JSON.stringify(rows[0]);
}
