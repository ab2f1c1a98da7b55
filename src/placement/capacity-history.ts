// Capacity history (berth extension): how full the cloud and each aggregate were over the last
// hours or days. Every `intervalSeconds` a sample of the capacity index's rollups
// (src/placement/capacity-rollup.ts) is written per bucket, scope (`cloud` or an aggregate uuid)
// and resource class to `capacity_samples`; replicas sampling the same bucket write it once
// (ON CONFLICT DO NOTHING). Rows older than `retentionSeconds` are pruned as samples are taken.
// The query reads one scope back, down-sampled (src/placement/capacity-history-points.ts).
import type { DataSource } from 'typeorm';
import type { CandidateService } from './allocation-candidates/candidate-service';
import {
  bucketStart,
  type CapacitySample,
  downsample,
  stepSeconds,
} from './capacity-history-points';
import { type CapacityScopes, capacityScopes } from './capacity-history-scopes';
import { BadRequestError, ErrorCode } from './errors';
import { normalizeUuidOrThrow } from './uuid';

/** The `scope` of cloud-wide rows (other rows hold an aggregate uuid). */
export const CLOUD_SCOPE = 'cloud';

/** Sampling settings (BERTH_CAPACITY_HISTORY_INTERVAL / _RETENTION); 0 in either = off. */
export interface CapacityHistorySettings {
  readonly intervalSeconds: number;
  readonly retentionSeconds: number;
}

/** What the query asks for. */
export interface CapacityHistoryQuery {
  /** How far back, in hours (1 up to the retention). */
  readonly hours: number;
  /** Only these classes (all sampled classes when absent). */
  readonly resourceClasses?: readonly string[] | null;
  /** One aggregate's history; the whole cloud when absent. */
  readonly aggregate?: string | null;
  /** Most points per series (1 to MAX_POINTS). */
  readonly points: number;
}

/** One resource class of one scope over time. */
export interface CapacitySeries {
  readonly resourceClass: string;
  /** The aggregate uuid, or null for the whole cloud. */
  readonly aggregateUuid: string | null;
  /** Oldest first. */
  readonly points: readonly CapacitySample[];
}

/** The answer: the settings it was read under, the spacing of its points and the series. */
export interface CapacityHistory {
  readonly intervalSeconds: number;
  readonly retentionSeconds: number;
  /** Seconds between points (the interval, or a multiple of it when down-sampled; 0 when off). */
  readonly stepSeconds: number;
  /** By resource class name. */
  readonly series: readonly CapacitySeries[];
}

/** The most points per series one query may ask for. */
export const MAX_POINTS = 2000;

/** Samples and reads back the capacity history. */
export class CapacityHistoryService {
  constructor(
    private readonly ds: DataSource,
    private readonly candidates: CandidateService,
    readonly settings: CapacityHistorySettings,
    private readonly now: () => number = Date.now,
  ) {}

  /** True when sampling is on (both settings above 0). */
  get enabled(): boolean {
    return this.settings.intervalSeconds > 0 && this.settings.retentionSeconds > 0;
  }

  /**
   * Samples the current bucket now (cloud-wide and per aggregate, every class with inventory)
   * and prunes rows past the retention. A bucket another replica (or an earlier call) already
   * wrote is left as it is. Returns the rows written (0 when off or already sampled).
   */
  async sampleNow(): Promise<number> {
    if (!this.enabled) {
      return 0;
    }
    const { intervalSeconds, retentionSeconds } = this.settings;
    const bucket = bucketStart(this.now(), intervalSeconds);
    const now = await this.scopes(Number.POSITIVE_INFINITY);
    const groups = [
      { scope: CLOUD_SCOPE, lines: now.cloud },
      ...now.aggregates.map((a) => ({ scope: a.aggregate, lines: a.lines })),
    ];
    const rows = groups.flatMap((g) => g.lines.map((l) => ({ scope: g.scope, ...l })));
    await this.prune(bucket - retentionSeconds);
    if (rows.length === 0) {
      return 0;
    }
    // INSERT … SELECT $1, * FROM unnest(scopes, classes, capacities, used, totals, reserved)
    // ON CONFLICT DO NOTHING: a bucket is written by whichever replica gets there first.
    const written: unknown[] = await this.ds.query(
      `INSERT INTO capacity_samples (bucket, scope, resource_class, capacity, used, total, reserved)
       SELECT to_timestamp($1), * FROM unnest($2::text[], $3::text[], $4::bigint[], $5::bigint[],
         $6::bigint[], $7::bigint[])
       ON CONFLICT DO NOTHING
       RETURNING 1`,
      [
        bucket,
        rows.map((r) => r.scope),
        rows.map((r) => r.resourceClass),
        rows.map((r) => r.capacity),
        rows.map((r) => r.used),
        rows.map((r) => r.total),
        rows.map((r) => r.reserved),
      ],
    );
    return written.length;
  }

  /**
   * The cloud's and the aggregates' capacity now, at most `maxAggregates` aggregates listed
   * (the rest summed as `other`; src/placement/capacity-history-scopes.ts): what is sampled, and
   * what the /metrics gauges show.
   */
  async scopes(maxAggregates: number): Promise<CapacityScopes> {
    return capacityScopes(await this.candidates.current(), maxAggregates);
  }

  /** Deletes the samples of buckets before `beforeSeconds` (epoch seconds); returns how many. */
  async prune(beforeSeconds: number): Promise<number> {
    const gone: unknown[] = await this.ds.query(
      'DELETE FROM capacity_samples WHERE bucket < to_timestamp($1) RETURNING 1',
      [beforeSeconds],
    );
    return gone.length;
  }

  /**
   * The history `q` asks for: one series per sampled resource class of the scope, by class name.
   * With the history off, the answer has no series and 0 for its interval, retention and step.
   * @throws BadRequestError (berth.invalid_input) for hours outside 1..retention or points
   *   outside 1..MAX_POINTS; (berth.invalid_uuid) for a malformed aggregate uuid.
   */
  async history(q: CapacityHistoryQuery): Promise<CapacityHistory> {
    const { intervalSeconds, retentionSeconds } = this.settings;
    // With the history off any positive range is accepted: the answer is empty whatever it is.
    const maxHours = this.enabled ? Math.ceil(retentionSeconds / 3600) : Number.MAX_SAFE_INTEGER;
    if (!Number.isInteger(q.hours) || q.hours < 1 || q.hours > maxHours) {
      throw new BadRequestError(
        `hours must be a whole number from 1 to ${maxHours} (the retention, BERTH_CAPACITY_HISTORY_RETENTION); got ${q.hours}.`,
        ErrorCode.INVALID_INPUT,
      );
    }
    if (!Number.isInteger(q.points) || q.points < 1 || q.points > MAX_POINTS) {
      throw new BadRequestError(
        `points must be a whole number from 1 to ${MAX_POINTS}; got ${q.points}.`,
        ErrorCode.INVALID_INPUT,
      );
    }
    const aggregate =
      q.aggregate === undefined || q.aggregate === null
        ? null
        : normalizeUuidOrThrow(q.aggregate, 'aggregate uuid');
    if (!this.enabled) {
      return { intervalSeconds: 0, retentionSeconds: 0, stepSeconds: 0, series: [] };
    }
    const range = q.hours * 3600;
    const step = stepSeconds(range, intervalSeconds, q.points);
    const since = Math.floor(this.now() / 1000) - range;
    // Epoch seconds as float8: exact for whole seconds, and a number on every driver.
    const rows: { resource_class: string; at: number; capacity: number; used: number }[] =
      await this.ds.query(
        `SELECT resource_class, extract(epoch FROM bucket)::float8 AS at,
                capacity::float8 AS capacity, used::float8 AS used
           FROM capacity_samples
          WHERE scope = $1 AND bucket > to_timestamp($2)
            AND ($3::text[] IS NULL OR resource_class = ANY($3::text[]))
          ORDER BY resource_class, bucket`,
        [aggregate ?? CLOUD_SCOPE, since, q.resourceClasses ? [...q.resourceClasses] : null],
      );
    const byClass = new Map<string, CapacitySample[]>();
    for (const r of rows) {
      const list = byClass.get(r.resource_class) ?? [];
      list.push({ at: Number(r.at), capacity: Number(r.capacity), used: Number(r.used) });
      byClass.set(r.resource_class, list);
    }
    const series = [...byClass].map(([resourceClass, samples]) => ({
      resourceClass,
      aggregateUuid: aggregate,
      points: downsample(samples, step, q.points),
    }));
    return { intervalSeconds, retentionSeconds, stepSeconds: step, series };
  }
}
