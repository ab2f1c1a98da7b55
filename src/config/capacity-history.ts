// Settings of the capacity history and the capacity gauges on /metrics: the sampling interval and
// retention (BERTH_CAPACITY_HISTORY_INTERVAL / _RETENTION, docs/configuration.md "Capacity
// history") and how many aggregates get /metrics series of their own (BERTH_METRICS_AGGREGATES).
import { z } from 'zod';
import { ConfigError } from './config-error';

const UNIT_SECONDS: Readonly<Record<string, number>> = { s: 1, m: 60, h: 3600, d: 86_400 };

/** Parses a duration (`300`, `300s`, `5m`, `36h`, `14d`) into seconds, or says why not. */
export function parseDurationSeconds(v: string): number | string {
  const m = /^(\d+)\s*([smhd]?)$/.exec(v.trim());
  if (!m) {
    return `'${v}' is not a duration; write seconds (300) or a number with s, m, h or d (5m, 14d)`;
  }
  const seconds = Number(m[1]) * UNIT_SECONDS[m[2] || 's']!;
  return Number.isSafeInteger(seconds) ? seconds : `'${v}' is too long`;
}

/** A duration setting in seconds, 0 (off) or within min..max. */
function duration(fallback: string, min: number, max: number) {
  return z
    .string()
    .default(fallback)
    .transform((v, ctx) => {
      const s = parseDurationSeconds(v);
      if (typeof s === 'string') {
        ctx.addIssue({ code: 'custom', message: s, input: v });
        return z.NEVER;
      }
      if (s !== 0 && (s < min || s > max)) {
        ctx.addIssue({
          code: 'custom',
          message: `must be 0 (off) or from ${min} to ${max} seconds; got ${s}`,
          input: v,
        });
        return z.NEVER;
      }
      return s;
    });
}

const SETTINGS = z.object({
  BERTH_CAPACITY_HISTORY_INTERVAL: duration('300', 10, 86_400),
  BERTH_CAPACITY_HISTORY_RETENTION: duration('14d', 3600, 366 * 86_400),
  BERTH_METRICS_AGGREGATES: z.coerce.number().int().min(0).max(1000).default(50),
});

/** Capacity history and gauge settings. */
export interface CapacityConfig {
  /** Seconds between capacity samples; 0 = no history. */
  readonly historyIntervalSeconds: number;
  /** Seconds samples are kept; 0 = no history. */
  readonly historyRetentionSeconds: number;
  /** Aggregates with /metrics capacity series of their own (the largest); the rest are `other`. */
  readonly metricsAggregates: number;
}

/**
 * The capacity settings of `env` (unset and empty variables already dropped).
 * @throws ConfigError naming the bad variable, or when the retention is shorter than the interval.
 */
export function capacityConfigOrThrow(
  env: Readonly<Record<string, string | undefined>>,
): CapacityConfig {
  const parsed = SETTINGS.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`invalid ${issue.path.join('.')}: ${issue.message}`);
  }
  const interval = parsed.data.BERTH_CAPACITY_HISTORY_INTERVAL;
  const retention = parsed.data.BERTH_CAPACITY_HISTORY_RETENTION;
  if (interval > 0 && retention > 0 && retention < interval) {
    throw new ConfigError(
      `invalid BERTH_CAPACITY_HISTORY_RETENTION: ${retention} s is shorter than BERTH_CAPACITY_HISTORY_INTERVAL (${interval} s)`,
    );
  }
  return {
    historyIntervalSeconds: interval,
    historyRetentionSeconds: retention,
    metricsAggregates: parsed.data.BERTH_METRICS_AGGREGATES,
  };
}
