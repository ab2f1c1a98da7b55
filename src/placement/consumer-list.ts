// Listings for UIs: consumers (who uses what, filtered by project, user, type or provider) and
// projects with their usage totals, both paged forward by internal id (stable cursors).
import type { DataSource } from 'typeorm';
import { CONSUMER_SELECT, toConsumerRecord, UNKNOWN_CONSUMER_TYPE } from './consumer';
import type { ConsumerRecord } from './types';
import { normalizeUuidOrThrow } from './uuid';

/** Which consumers to list; all conditions hold. */
export interface ConsumerFilter {
  readonly projectId?: string;
  readonly userId?: string;
  /** A type name, or 'unknown' for consumers written without one. */
  readonly consumerType?: string;
  /** Only consumers with allocations on this provider. */
  readonly providerUuid?: string;
}

/** A page request: rows after internal id `afterId`, at most `limit`. */
export interface PageRequest {
  readonly afterId?: number;
  readonly limit: number;
}

/** A project and how much its consumers use. */
export interface ProjectRecord {
  readonly id: number;
  readonly externalId: string;
  readonly consumerCount: number;
  /** Units in use per resource class, by class name. */
  readonly usages: readonly { readonly resourceClass: string; readonly used: number }[];
}

/** Consumers and projects, read for UIs. */
export class ConsumerListService {
  constructor(private readonly ds: DataSource) {}

  /** One page of consumers matching `f`, by internal id (one statement). */
  async consumers(f: ConsumerFilter, page: PageRequest): Promise<ConsumerRecord[]> {
    const { where, p, params } = consumerWhere(f);
    if (page.afterId !== undefined) {
      where.push(`c.id > ${p(page.afterId)}`);
    }
    const rows = await this.ds.query(
      `${CONSUMER_SELECT} ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY c.id LIMIT ${p(page.limit)}`,
      params,
    );
    return rows.map(toConsumerRecord);
  }

  /** How many consumers match `f` (one statement). */
  async countConsumers(f: ConsumerFilter): Promise<number> {
    const { where, params } = consumerWhere(f);
    const rows: { n: number }[] = await this.ds.query(
      `SELECT count(*)::int AS n FROM (${CONSUMER_SELECT} ${where.length ? `WHERE ${where.join(' AND ')}` : ''}) q`,
      params,
    );
    return rows[0]!.n;
  }

  /** How many projects have consumers (one statement). */
  async countProjects(): Promise<number> {
    const rows: { n: number }[] = await this.ds.query(
      'SELECT count(DISTINCT project_id)::int AS n FROM consumers',
    );
    return rows[0]!.n;
  }

  /** One page of projects that have consumers, with their usage totals (two statements). */
  async projects(page: PageRequest): Promise<ProjectRecord[]> {
    const projects: { id: number; external_id: string; consumers: string }[] = await this.ds.query(
      `SELECT p.id, p.external_id, count(c.id) AS consumers FROM projects p
       JOIN consumers c ON c.project_id = p.id
       WHERE ($1::int IS NULL OR p.id > $1) GROUP BY p.id ORDER BY p.id LIMIT $2`,
      [page.afterId ?? null, page.limit],
    );
    if (projects.length === 0) {
      return [];
    }
    const usage: { project_id: number; name: string; used: string }[] = await this.ds.query(
      `SELECT c.project_id, rc.name, sum(a.used) AS used FROM consumers c
       JOIN allocations a ON a.consumer_id = c.id
       JOIN resource_classes rc ON rc.id = a.resource_class_id
       WHERE c.project_id = ANY($1::int[]) GROUP BY 1, 2 ORDER BY 2`,
      [projects.map((r) => r.id)],
    );
    return projects.map((r) => ({
      id: r.id,
      externalId: r.external_id,
      consumerCount: Number(r.consumers),
      usages: usage
        .filter((u) => u.project_id === r.id)
        .map((u) => ({ resourceClass: u.name, used: Number(u.used) })),
    }));
  }
}

/** The WHERE conditions of a consumer filter over CONSUMER_SELECT, with their parameters. */
function consumerWhere(f: ConsumerFilter) {
  const where: string[] = [];
  const params: unknown[] = [];
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  if (f.projectId !== undefined) {
    where.push(`p.external_id = ${p(f.projectId)}`);
  }
  if (f.userId !== undefined) {
    where.push(`u.external_id = ${p(f.userId)}`);
  }
  if (f.consumerType !== undefined) {
    where.push(
      f.consumerType === UNKNOWN_CONSUMER_TYPE
        ? 'c.consumer_type_id IS NULL'
        : `ct.name = ${p(f.consumerType)}`,
    );
  }
  if (f.providerUuid !== undefined) {
    where.push(`EXISTS (SELECT 1 FROM allocations a JOIN resource_providers rp
      ON rp.id = a.resource_provider_id
      WHERE a.consumer_id = c.id AND rp.uuid = ${p(normalizeUuidOrThrow(f.providerUuid, 'provider uuid'))}::uuid)`);
  }
  return { where, params, p };
}
