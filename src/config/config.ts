// src/config/ is berth's configuration: every BERTH_* variable, parsed and validated once at start
// (zod) into one Config (this file), the scheduler's part (scheduler.ts), settings given as JSON or
// @file (json-setting.ts) and the one error all of them throw. It loads no GraphQL package, so
// tracing can start before one is loaded (test/unit/architecture.test.ts).

import type { BlockList } from 'node:net';
import { z } from 'zod';
import { type KeystoneConfig, keystoneConfig } from '../auth/keystone-config';
import type { RateLimits } from '../auth/rate-limiter';
import { parseRedisUrl } from '../cache/redis-url';
import { parseTrustedProxies } from '../http/client-address';
import { parseOperationNames } from '../observability/operation-names';
import type { CandidateBounds } from '../placement/allocation-candidates/find-allocation-candidates';
import { type ExtenderConfig, parseExtenders } from '../scheduler/runtime/extender-config';
import { type CapacityConfig, capacityConfigOrThrow } from './capacity-history';
import { ConfigError } from './config-error';
import { type PlanningSettings, planningConfigOrThrow } from './planning';
import { roleRateLimits } from './role-rate-limits';
import { DEFAULT_FILTERS, DEFAULT_WEIGHERS, list, pluginConfigOrThrow } from './scheduler';

const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const onOff = z
  .enum(['on', 'off', 'true', 'false', '1', '0'])
  .transform((v) => v === 'on' || v === 'true' || v === '1');

const schema = z.object({
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  REDIS_URL: z
    .string()
    .superRefine((v, ctx) => {
      try {
        parseRedisUrl(v);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message });
      }
    })
    .optional(),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  BERTH_HOST: z.string().min(1).optional(),
  BERTH_DATA_DIR: z.string().min(1).default('./.berth'),
  BERTH_DB_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  LOG_LEVEL: z.enum(logLevels).optional(),
  BERTH_SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10000),
  BERTH_REDIS_TIMEOUT_MS: z.coerce.number().int().min(10).max(10_000).default(250),
  BERTH_SUBSCRIPTION_BUFFER: z.coerce.number().int().min(1).max(100_000).default(256),
  BERTH_MAX_SUBSCRIPTIONS: z.coerce.number().int().min(1).max(100_000).default(100),
  BERTH_WATCHDOG_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
  BERTH_WORKERS: z.coerce.number().int().min(1).max(256).optional(),
  BERTH_AUTH: z
    .enum(['on', 'off', 'true', 'false', '1', '0', 'keystone'], {
      message: 'must be on, off or keystone',
    })
    .optional(),
  BERTH_KEYSTONE_URL: z
    .string()
    .regex(/^https?:\/\/\S+$/, 'must be an http(s):// URL')
    .optional(),
  BERTH_KEYSTONE_USERNAME: z.string().min(1).optional(),
  BERTH_KEYSTONE_PASSWORD: z.string().min(1).optional(),
  BERTH_KEYSTONE_PROJECT: z.string().min(1).optional(),
  BERTH_KEYSTONE_USER_DOMAIN: z.string().min(1).default('Default'),
  BERTH_KEYSTONE_PROJECT_DOMAIN: z.string().min(1).default('Default'),
  BERTH_KEYSTONE_CACHE_S: z.coerce.number().int().min(0).max(86_400).default(300),
  BERTH_KEYSTONE_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
  BERTH_REST_PREFIX: z
    .string()
    .regex(/^\/?$|^(\/[A-Za-z0-9._-]+)+$/, "must be '', '/' or like /placement")
    .default('/placement'),
  BERTH_REST_AUTH: z.enum(['noauth2', 'token']).optional(),
  BERTH_CORS_ORIGINS: z
    .string()
    .optional()
    .transform((v) =>
      (v ?? '')
        .split(',')
        .map((o) => o.trim())
        .filter((o) => o !== ''),
    )
    .refine((os) => os.every((o) => /^https?:\/\/[^/\s]+$/.test(o)), {
      message: 'must be a comma-separated list of origins like https://console.example.com',
    }),
  BERTH_PLUGIN_DIRS: z.string().optional(),
  BERTH_PLUGIN_ISOLATION: z.enum(['inline', 'worker']).default('inline'),
  BERTH_PLUGIN_WORKERS: z.coerce.number().int().min(1).max(64).default(2),
  BERTH_PLUGIN_WORKER_HEAP_MB: z.coerce.number().int().min(16).max(16_384).default(256),
  BERTH_SCHEDULER_EXTENDERS: z.string().optional(),
  BERTH_INTROSPECTION: onOff.optional(),
  BERTH_AUTH_CACHE_TTL_MS: z.coerce.number().int().min(0).max(3600000).default(10000),
  BERTH_MAX_BODY_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(64 * 1024 * 1024)
    .default(4 * 1024 * 1024),
  BERTH_GRAPHQL_MAX_DEPTH: z.coerce.number().int().min(1).default(15),
  BERTH_GRAPHQL_MAX_ALIASES: z.coerce.number().int().min(0).default(50),
  BERTH_GRAPHQL_MAX_DIRECTIVES: z.coerce.number().int().min(0).default(50),
  BERTH_GRAPHQL_MAX_TOKENS: z.coerce.number().int().min(100).default(10000),
  BERTH_GRAPHQL_MAX_COST: z.coerce.number().int().min(1).default(250000),
  BERTH_CANDIDATE_MAX_RESULTS: z.coerce.number().int().min(1).max(1_000_000).default(10_000),
  BERTH_CANDIDATE_MAX_EXAMINED: z.coerce.number().int().min(1).max(100_000_000).default(200_000),
  BERTH_GRAPHQL_MAX_RESULT_ITEMS: z.coerce.number().int().min(100).max(10_000_000).default(50_000),
  BERTH_RATE_LIMIT: z.coerce.number().int().min(0).default(3000),
  BERTH_RATE_LIMIT_WINDOW_MS: z.coerce.number().int().min(100).default(10000),
  BERTH_RATE_LIMIT_ANONYMOUS: z.coerce.number().int().min(0).default(0),
  BERTH_RATE_LIMIT_ROLES: roleRateLimits,
  BERTH_TRUSTED_PROXIES: z
    .string()
    .optional()
    .transform((v, ctx) => {
      const list = v?.trim() ? parseTrustedProxies(v) : undefined;
      if (typeof list === 'string') {
        ctx.addIssue({ code: 'custom', message: list, input: v });
        return z.NEVER;
      }
      return list;
    }),
  BERTH_SCHEDULER_FILTERS: z.string().optional(),
  BERTH_SCHEDULER_WEIGHERS: z.string().optional(),
  BERTH_SCHEDULER_CONFIG: z.string().optional(),
  BERTH_SCHEDULER_PROFILES: z.string().optional(),
  BERTH_HOST_SUBSET_SIZE: z.coerce.number().int().min(1).max(1000).default(1),
  BERTH_CANDIDATE_CACHE_TTL_MS: z.coerce.number().int().min(0).default(60000),
  BERTH_CANDIDATE_SHARED_CACHE: z.enum(['gated', 'always', 'off']).default('off'),
  BERTH_MAX_CLAIM_ATTEMPTS: z.coerce.number().int().min(1).max(1000).default(10),
  BERTH_CLAIM_BATCH: z.coerce.number().int().min(1).max(256).default(32),
  BERTH_EVALUATION_REUSE_MS: z.coerce.number().int().min(0).max(60000).default(1000),
  BERTH_AUDIT_RETENTION_DAYS: z.coerce.number().int().min(0).max(36500).default(90),
  BERTH_METRICS_OPERATION_NAMES: z
    .string()
    .optional()
    .transform((v, ctx) => {
      const names = parseOperationNames(v);
      if (typeof names === 'string') {
        ctx.addIssue({ code: 'custom', message: names, input: v });
        return z.NEVER;
      }
      return names;
    }),
  NODE_ENV: z.string().optional(),
});

/** Validated configuration. */
export interface Config extends PlanningSettings {
  /** Postgres URL; undefined = start embedded PGlite under dataDir. */
  readonly databaseUrl: string | undefined;
  /** Redis URL; undefined = in-process LRU cache. */
  readonly redisUrl: string | undefined;
  /** Deadline of one Redis command (ms): past it the cache misses and skips Redis briefly. */
  readonly redisTimeoutMs: number;
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  readonly dbPoolSize: number;
  readonly logLevel: (typeof logLevels)[number];
  /** How long SIGTERM waits for in-flight requests, in milliseconds. */
  readonly shutdownTimeoutMs: number;
  /** Event-loop stall (ms) after which `berth serve` names the running plugin and exits; 0 = off. */
  readonly watchdogMs: number;
  /** Audit events older than this many days are pruned by `berth serve`; 0 = kept forever. */
  readonly auditRetentionDays: number;
  /** GraphQL operation names that always get their own /metrics label (docs/operations.md "Metrics and tracing"). */
  readonly metricsOperationNames: readonly string[];
  /** Capacity history and /metrics capacity gauges (src/config/capacity-history.ts). */
  readonly capacity: CapacityConfig;
  /**
   * `berth serve` processes (BERTH_WORKERS; `--workers` overrides); undefined = one per core
   * with DATABASE_URL, 1 on the embedded database (src/server/cluster.ts).
   */
  readonly workers: number | undefined;
  /** Token auth on? Defaults to on with DATABASE_URL, off on the embedded default. */
  readonly auth: boolean;
  /**
   * Which tokens authenticate (BERTH_AUTH): `token` = berth API tokens, `keystone` = Keystone
   * tokens (and berth API tokens), `off` = none needed.
   */
  readonly authMode: 'off' | 'token' | 'keystone';
  /** Keystone settings when authMode is `keystone` (docs/configuration.md "Keystone"). */
  readonly keystone: KeystoneConfig | undefined;
  /** Whether auth was chosen explicitly (for the start banner / readiness detail). */
  readonly authExplicit: boolean;
  readonly restPrefix: string;
  readonly restAuth: 'noauth2' | 'token';
  readonly pluginDirs: readonly string[];
  /** GraphQL introspection allowed? Defaults to on embedded, off with DATABASE_URL. */
  readonly introspection: boolean;
  readonly embedded: boolean;
  /** Origins allowed to call /graphql from a browser (CORS); empty = none. */
  readonly corsOrigins: readonly string[];
  /** Input armour and rate limits (docs/security.md "The edge, rate limits and armour"). */
  readonly limits: {
    /** Verified-token cache period in ms: a revoked token stops working within this bound. */
    readonly authCacheTtlMs: number;
    /** Largest request body (GraphQL and REST), in bytes; larger gets 413. */
    readonly maxBodyBytes: number;
    /** Deepest field nesting of one GraphQL operation (fragments expanded). */
    readonly maxDepth: number;
    /** Most aliased fields in one GraphQL operation. */
    readonly maxAliases: number;
    /** Most directives (`@include`, `@skip`, …) in one GraphQL operation, fragments expanded. */
    readonly maxDirectives: number;
    /** Most lexical tokens in one GraphQL document (graphql-js parser `maxTokens`). */
    readonly maxTokens: number;
    /** Largest static cost of one GraphQL operation (see src/graphql/armour-rules.ts). */
    readonly maxCost: number;
    /** Most list items one GraphQL response may hold, counted as it executes (nested lists too). */
    readonly maxResultItems: number;
    /** Bounds on one allocation-candidates request's work (REST, GraphQL and the scheduler). */
    readonly candidates: CandidateBounds;
    /** Live subscriptions: changes pending per subscriber before a resync; open ones per caller. */
    readonly live: { readonly maxBuffered: number; readonly maxPerCaller: number };
    /**
     * Rate limits per window (0 = unlimited): per token by role (default none), failed
     * authentications per address, requests per address with auth off (default none).
     */
    readonly rateLimits: RateLimits;
    /** Proxies whose X-Forwarded-For names the client rate limits count (src/http/client-address.ts). */
    readonly trustedProxies: BlockList | undefined;
  };
  /** Scheduler pipeline settings. */
  readonly scheduler: {
    readonly filters: readonly string[];
    /** Where operator plugins run: the main thread, or a pool of worker threads (docs/out-of-process-plugins.md). */
    readonly pluginIsolation: 'inline' | 'worker';
    /** Worker threads in the plugin pool when `pluginIsolation` is `worker`. */
    readonly pluginWorkers: number;
    /** Heap limit of each plugin worker thread (V8 old generation), in MiB. */
    readonly pluginWorkerHeapMb: number;
    /** HTTP scheduler extenders, each registered as a plugin (BERTH_SCHEDULER_EXTENDERS). */
    readonly extenders: readonly ExtenderConfig[];
    readonly weighers: readonly string[];
    /** Per-plugin configuration by NAME. */
    readonly plugins: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
    /**
     * The raw BERTH_SCHEDULER_CONFIG and BERTH_SCHEDULER_PROFILES (JSON or `@file`): a reload
     * re-reads them (src/scheduler/runtime/profiles.ts parses the profiles).
     */
    readonly sources: {
      readonly config: string | undefined;
      readonly profiles: string | undefined;
    };
    readonly hostSubsetSize: number;
    readonly cacheTtlMs: number;
    /**
     * The shared (Redis) layer of the candidate cache: `gated` consults it only while it pays
     * (UsefulnessGate), `always` on every lookup, `off` never (the local layer stays).
     */
    readonly sharedCandidateCache: 'gated' | 'always' | 'off';
    readonly maxClaimAttempts: number;
    /** Most new-consumer claims written in one transaction (group commit); 1 = no batching. */
    readonly claimBatch: number;
    /** How long identical requests may share one evaluation of an unchanged state; 0 = never. */
    readonly evaluationReuseMs: number;
  };
}
export { ConfigError } from './config-error';
export { DEFAULT_FILTERS, pluginConfigOrThrow } from './scheduler';
/**
 * Parses and validates the environment.
 * @throws ConfigError naming the first bad variable.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const cleaned = Object.fromEntries(
    Object.entries(env).filter(([, v]) => v !== undefined && v !== ''),
  );
  const parsed = schema.safeParse(cleaned);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = issue.path.join('.') || 'environment';
    throw new ConfigError(`invalid ${name}: ${issue.message}`);
  }
  const e = parsed.data;
  const embedded = e.DATABASE_URL === undefined;
  const authMode =
    e.BERTH_AUTH === undefined
      ? embedded
        ? 'off'
        : 'token'
      : e.BERTH_AUTH === 'keystone'
        ? 'keystone'
        : onOff.parse(e.BERTH_AUTH)
          ? 'token'
          : 'off';
  const keystone = keystoneConfig(e, authMode);
  if (typeof keystone === 'string') {
    throw new ConfigError(keystone);
  }
  const isTest = e.NODE_ENV === 'test';
  return {
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    redisTimeoutMs: e.BERTH_REDIS_TIMEOUT_MS,
    port: e.PORT,
    // Loopback unless told otherwise: serving the network is a decision (BERTH_HOST=0.0.0.0).
    host: e.BERTH_HOST ?? '127.0.0.1',
    dataDir: e.BERTH_DATA_DIR,
    dbPoolSize: e.BERTH_DB_POOL_SIZE,
    logLevel: e.LOG_LEVEL ?? (isTest ? 'silent' : 'info'),
    shutdownTimeoutMs: e.BERTH_SHUTDOWN_TIMEOUT_MS,
    watchdogMs: e.BERTH_WATCHDOG_MS,
    auditRetentionDays: e.BERTH_AUDIT_RETENTION_DAYS,
    metricsOperationNames: e.BERTH_METRICS_OPERATION_NAMES,
    capacity: capacityConfigOrThrow(cleaned),
    ...planningConfigOrThrow(cleaned),
    workers: e.BERTH_WORKERS,
    auth: authMode !== 'off',
    authMode,
    keystone,
    authExplicit: e.BERTH_AUTH !== undefined,
    // An explicitly empty BERTH_REST_PREFIX (or '/') serves the REST facade at '/'.
    restPrefix:
      env.BERTH_REST_PREFIX === '' || env.BERTH_REST_PREFIX === '/' ? '' : e.BERTH_REST_PREFIX,
    restAuth: e.BERTH_REST_AUTH ?? 'token',
    pluginDirs: (e.BERTH_PLUGIN_DIRS ?? '')
      .split(/[,:]/)
      .map((s) => s.trim())
      .filter((s) => s.length > 0),
    introspection: e.BERTH_INTROSPECTION ?? embedded,
    embedded,
    corsOrigins: e.BERTH_CORS_ORIGINS,
    limits: {
      authCacheTtlMs: e.BERTH_AUTH_CACHE_TTL_MS,
      maxBodyBytes: e.BERTH_MAX_BODY_BYTES,
      maxDepth: e.BERTH_GRAPHQL_MAX_DEPTH,
      maxAliases: e.BERTH_GRAPHQL_MAX_ALIASES,
      maxDirectives: e.BERTH_GRAPHQL_MAX_DIRECTIVES,
      maxTokens: e.BERTH_GRAPHQL_MAX_TOKENS,
      maxCost: e.BERTH_GRAPHQL_MAX_COST,
      maxResultItems: e.BERTH_GRAPHQL_MAX_RESULT_ITEMS,
      live: {
        maxBuffered: e.BERTH_SUBSCRIPTION_BUFFER,
        maxPerCaller: e.BERTH_MAX_SUBSCRIPTIONS,
      },
      candidates: {
        maxResults: e.BERTH_CANDIDATE_MAX_RESULTS,
        maxExamined: Math.max(e.BERTH_CANDIDATE_MAX_EXAMINED, e.BERTH_CANDIDATE_MAX_RESULTS),
      },
      rateLimits: {
        windowMs: e.BERTH_RATE_LIMIT_WINDOW_MS,
        failedAuth: e.BERTH_RATE_LIMIT,
        anonymous: e.BERTH_RATE_LIMIT_ANONYMOUS,
        roles: e.BERTH_RATE_LIMIT_ROLES,
      },
      trustedProxies: e.BERTH_TRUSTED_PROXIES,
    },
    scheduler: {
      filters: list('BERTH_SCHEDULER_FILTERS', e.BERTH_SCHEDULER_FILTERS, DEFAULT_FILTERS),
      pluginIsolation: e.BERTH_PLUGIN_ISOLATION,
      pluginWorkers: e.BERTH_PLUGIN_WORKERS,
      pluginWorkerHeapMb: e.BERTH_PLUGIN_WORKER_HEAP_MB,
      extenders: parseExtenders(e.BERTH_SCHEDULER_EXTENDERS, (m) => new ConfigError(m)),
      weighers: list('BERTH_SCHEDULER_WEIGHERS', e.BERTH_SCHEDULER_WEIGHERS, DEFAULT_WEIGHERS),
      plugins: pluginConfigOrThrow(e.BERTH_SCHEDULER_CONFIG),
      sources: { config: e.BERTH_SCHEDULER_CONFIG, profiles: e.BERTH_SCHEDULER_PROFILES },
      hostSubsetSize: e.BERTH_HOST_SUBSET_SIZE,
      cacheTtlMs: e.BERTH_CANDIDATE_CACHE_TTL_MS,
      sharedCandidateCache: e.BERTH_CANDIDATE_SHARED_CACHE,
      maxClaimAttempts: e.BERTH_MAX_CLAIM_ATTEMPTS,
      claimBatch: e.BERTH_CLAIM_BATCH,
      evaluationReuseMs: e.BERTH_EVALUATION_REUSE_MS,
    },
  };
}
