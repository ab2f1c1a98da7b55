// Configuration from the environment, parsed and validated once at start (zod).
import { z } from 'zod';

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
    .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
    .optional(),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  BERTH_HOST: z.string().min(1).optional(),
  BERTH_DATA_DIR: z.string().min(1).default('./.berth'),
  BERTH_DB_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  LOG_LEVEL: z.enum(logLevels).optional(),
  BERTH_SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10000),
  BERTH_AUTH: onOff.optional(),
  BERTH_REST_PREFIX: z
    .string()
    .regex(/^(\/[A-Za-z0-9._-]+)*$/, 'must be empty or like /placement')
    .default('/placement'),
  BERTH_REST_AUTH: z.enum(['noauth2', 'token']).optional(),
  BERTH_PLUGIN_DIRS: z.string().optional(),
  BERTH_INTROSPECTION: onOff.optional(),
  NODE_ENV: z.string().optional(),
});

/** Validated configuration. */
export interface Config {
  /** Postgres URL; undefined = start embedded PGlite under dataDir. */
  readonly databaseUrl: string | undefined;
  /** Redis URL; undefined = in-process LRU cache. */
  readonly redisUrl: string | undefined;
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  readonly dbPoolSize: number;
  readonly logLevel: (typeof logLevels)[number];
  /** How long SIGTERM waits for in-flight requests, in milliseconds. */
  readonly shutdownTimeoutMs: number;
  /** Token auth on? Defaults to on with DATABASE_URL, off on the embedded default. */
  readonly auth: boolean;
  /** Whether auth was chosen explicitly (for the start banner / readiness detail). */
  readonly authExplicit: boolean;
  readonly restPrefix: string;
  readonly restAuth: 'noauth2' | 'token';
  readonly pluginDirs: readonly string[];
  readonly introspection: boolean;
  readonly embedded: boolean;
}

/** A configuration variable is invalid; the message names it. */
export class ConfigError extends Error {}

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
  const isTest = e.NODE_ENV === 'test';
  return {
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    port: e.PORT,
    host: e.BERTH_HOST ?? (embedded ? '127.0.0.1' : '0.0.0.0'),
    dataDir: e.BERTH_DATA_DIR,
    dbPoolSize: e.BERTH_DB_POOL_SIZE,
    logLevel: e.LOG_LEVEL ?? (isTest ? 'silent' : 'info'),
    shutdownTimeoutMs: e.BERTH_SHUTDOWN_TIMEOUT_MS,
    auth: e.BERTH_AUTH ?? !embedded,
    authExplicit: e.BERTH_AUTH !== undefined,
    restPrefix: e.BERTH_REST_PREFIX,
    restAuth: e.BERTH_REST_AUTH ?? 'token',
    pluginDirs: (e.BERTH_PLUGIN_DIRS ?? '')
      .split(/[,:]/)
      .map((s) => s.trim())
      .filter((s) => s.length > 0),
    introspection: e.BERTH_INTROSPECTION ?? true,
    embedded,
  };
}
