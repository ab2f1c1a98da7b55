// Usages: per provider, and per project/user grouped by consumer type for quota counting
// (upstream: objects/usage.py, handlers/usage.py; seed 004).
import type { DataSource } from 'typeorm';
import { UNKNOWN_CONSUMER_TYPE } from './consumer';
import type { UsageRecord } from './types';

/** Usage of one consumer type within a project (1.38 grouping). */
export interface ConsumerTypeUsage {
  readonly consumerType: string;
  readonly consumerCount: number;
  readonly usages: UsageRecord[];
}

/** A project's (or user's) usage. */
export interface UsageReport {
  readonly total: UsageRecord[];
  readonly byConsumerType: ConsumerTypeUsage[];
}

/** Usage queries. */
export class UsageService {
  constructor(private readonly ds: DataSource) {}

  /**
   * Used amount per class for each provider: every class with inventory (0 when unused), plus
   * any class with allocations.
   */
  async byProviderIds(ids: readonly number[]): Promise<Map<number, UsageRecord[]>> {
    const rows: { resource_provider_id: number; resource_class: string; used: number }[] =
      await this.ds.query(
        `SELECT x.resource_provider_id, rc.name AS resource_class, COALESCE(sum(a.used), 0) AS used
       FROM (SELECT resource_provider_id, resource_class_id FROM inventories WHERE resource_provider_id = ANY($1::int[])
             UNION SELECT resource_provider_id, resource_class_id FROM allocations WHERE resource_provider_id = ANY($1::int[])) x
       JOIN resource_classes rc ON rc.id = x.resource_class_id
       LEFT JOIN allocations a ON a.resource_provider_id = x.resource_provider_id AND a.resource_class_id = x.resource_class_id
       GROUP BY x.resource_provider_id, x.resource_class_id, rc.name
       ORDER BY x.resource_provider_id, x.resource_class_id`,
        [ids],
      );
    const out = new Map<number, UsageRecord[]>(ids.map((id) => [id, []]));
    for (const r of rows) {
      out.get(r.resource_provider_id)?.push({ resourceClass: r.resource_class, used: r.used });
    }
    return out;
  }

  /**
   * Usage of a project (optionally one user), in total and per consumer type.
   * `consumerType`: a type name, 'all' (default) or 'unknown' (consumers without a type).
   */
  async forProject(q: {
    projectId: string;
    userId?: string | null;
    consumerType?: string | null;
  }): Promise<UsageReport> {
    const params: unknown[] = [q.projectId];
    let where = 'p.external_id = $1';
    if (q.userId) {
      params.push(q.userId);
      where += ` AND u.external_id = $${params.length}`;
    }
    if (q.consumerType && q.consumerType !== 'all') {
      if (q.consumerType === UNKNOWN_CONSUMER_TYPE) {
        where += ' AND c.consumer_type_id IS NULL';
      } else {
        params.push(q.consumerType);
        where += ` AND ct.name = $${params.length}`;
      }
    }
    const rows: {
      consumer_type: string;
      resource_class: string | null;
      used: number;
      consumers: number;
    }[] = await this.ds.query(
      `SELECT COALESCE(ct.name, '${UNKNOWN_CONSUMER_TYPE}') AS consumer_type, rc.name AS resource_class,
                COALESCE(sum(a.used), 0) AS used, count(DISTINCT c.id) AS consumers
         FROM consumers c
         JOIN projects p ON p.id = c.project_id
         JOIN users u ON u.id = c.user_id
         LEFT JOIN consumer_types ct ON ct.id = c.consumer_type_id
         JOIN allocations a ON a.consumer_id = c.id
         JOIN resource_classes rc ON rc.id = a.resource_class_id
         WHERE ${where}
         GROUP BY GROUPING SETS ((COALESCE(ct.name, '${UNKNOWN_CONSUMER_TYPE}'), rc.name), (COALESCE(ct.name, '${UNKNOWN_CONSUMER_TYPE}')))
         ORDER BY 1, 2`,
      params,
    );
    const byType = new Map<string, { consumerCount: number; usages: UsageRecord[] }>();
    const total = new Map<string, number>();
    for (const r of rows) {
      const entry = byType.get(r.consumer_type) ?? { consumerCount: 0, usages: [] };
      byType.set(r.consumer_type, entry);
      if (r.resource_class === null) {
        entry.consumerCount = r.consumers;
      } else {
        entry.usages.push({ resourceClass: r.resource_class, used: r.used });
        total.set(r.resource_class, (total.get(r.resource_class) ?? 0) + r.used);
      }
    }
    return {
      total: [...total]
        .map(([resourceClass, used]) => ({ resourceClass, used }))
        .sort((a, b) => a.resourceClass.localeCompare(b.resourceClass)),
      byConsumerType: [...byType].map(([consumerType, v]) => ({ consumerType, ...v })),
    };
  }
}
