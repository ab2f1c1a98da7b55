// BERTH_SCHEDULER_EXTENDERS: the operator's HTTP scheduler extenders (shape of the Kubernetes
// KubeSchedulerConfiguration `extenders` list, in camelCase), validated once at start-up.

import { z } from 'zod';
import { readJsonSetting } from '../../config/json-setting';

/** One HTTP extender as configured. */
export interface ExtenderConfig {
  /**
   * Registered plugin name: the filter (when `filterVerb` is set) is `name`; the weigher (when
   * `prioritizeVerb` is set) is `name` too when there is no filter, else `<name>Weigher`.
   */
  readonly name: string;
  /** Base URL, e.g. `http://127.0.0.1:8888/scheduler`; verbs are appended after a `/`. */
  readonly urlPrefix: string;
  readonly filterVerb?: string;
  readonly prioritizeVerb?: string;
  /** Multiplier of the extender's 0..10 scores (Kubernetes `weight`). Default 1. */
  readonly weight: number;
  /** Deadline of one call; also the plugin's time budget. */
  readonly timeoutMs: number;
  /** True: a failing call skips the extender for that request (hosts pass, no weight). */
  readonly ignorable: boolean;
  /** Extra request headers (e.g. an authorization token for the extender). */
  readonly headers: Readonly<Record<string, string>>;
  /** Most bytes read from one answer; past it the call is aborted and fails. Default 8 MiB. */
  readonly maxResponseBytes: number;
}

/** Default {@link ExtenderConfig.maxResponseBytes}: 8 MiB. */
export const DEFAULT_EXTENDER_MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

const VARIABLE = 'BERTH_SCHEDULER_EXTENDERS';

const extenderSchema = z
  .object({
    name: z.string().regex(/^[A-Za-z][A-Za-z0-9_.-]*$/, 'must be a plugin name like GpuFilter'),
    urlPrefix: z
      .string()
      .url()
      .refine((u) => /^https?:/.test(u), 'must be an http:// or https:// URL'),
    filterVerb: z
      .string()
      .regex(/^[A-Za-z0-9_.-]+$/)
      .optional(),
    prioritizeVerb: z
      .string()
      .regex(/^[A-Za-z0-9_.-]+$/)
      .optional(),
    weight: z.number().finite().positive().default(1),
    timeoutMs: z.number().int().min(1).max(60_000),
    ignorable: z.boolean(),
    headers: z.record(z.string(), z.string()).default({}),
    maxResponseBytes: z
      .number()
      .int()
      .min(1024)
      .max(256 * 1024 * 1024)
      .default(DEFAULT_EXTENDER_MAX_RESPONSE_BYTES),
  })
  .strict()
  .refine((e) => e.filterVerb !== undefined || e.prioritizeVerb !== undefined, {
    message: 'needs filterVerb or prioritizeVerb (or both)',
  });

/** The plugin names an extender registers. */
export function extenderPluginNames(e: ExtenderConfig): { filter?: string; weigher?: string } {
  return {
    ...(e.filterVerb === undefined ? {} : { filter: e.name }),
    ...(e.prioritizeVerb === undefined
      ? {}
      : { weigher: e.filterVerb === undefined ? e.name : `${e.name}Weigher` }),
  };
}

/**
 * Parses BERTH_SCHEDULER_EXTENDERS: a JSON list, or `@path` of a file holding one.
 * @param fail builds the error to throw (config.ts passes its ConfigError)
 * @throws what `fail` builds, with a message naming the variable and the bad entry
 */
export function parseExtenders(
  raw: string | undefined,
  fail: (message: string) => Error = (m) => new Error(m),
): ExtenderConfig[] {
  if (raw === undefined || raw.trim() === '') {
    return [];
  }
  let value: unknown;
  try {
    ({ value } = readJsonSetting(raw));
  } catch (err) {
    throw fail(`invalid ${VARIABLE}: ${(err as Error).message}`);
  }
  if (!Array.isArray(value)) {
    throw fail(`invalid ${VARIABLE}: must be a JSON list of extenders [{ name, urlPrefix, ... }]`);
  }
  const seen = new Set<string>();
  return value.map((entry, i) => {
    const parsed = extenderSchema.safeParse(entry);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const at = issue.path.length > 0 ? `.${issue.path.join('.')}` : '';
      throw fail(`invalid ${VARIABLE}[${i}]${at}: ${issue.message}`);
    }
    const e = { ...parsed.data, urlPrefix: parsed.data.urlPrefix.replace(/\/+$/, '') };
    for (const name of Object.values(extenderPluginNames(e))) {
      if (seen.has(name)) {
        throw fail(`invalid ${VARIABLE}[${i}]: plugin name ${name} is used twice`);
      }
      seen.add(name);
    }
    return e;
  });
}
