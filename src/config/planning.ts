// Capacity planning settings: the flavors headroom counts when a caller names none
// (BERTH_PLANNING_FLAVORS, JSON or @file; docs/configuration.md "Capacity planning"). Unset, they
// are Nova's classic m1.* flavors.
import { z } from 'zod';
import { ConfigError } from './config-error';
import { readJsonSetting } from './json-setting';

/** One configured planning flavor: what one instance asks for. */
export interface PlanningFlavorSetting {
  readonly name: string;
  /** Resource class -> amount (each at least 1). */
  readonly resources: Readonly<Record<string, number>>;
  /** Traits the host must have. */
  readonly required: readonly string[];
}

/** The planning settings of a Config. */
export interface PlanningConfig {
  /** The flavors `headroom` counts when a caller names none. */
  readonly flavors: readonly PlanningFlavorSetting[];
}

/** The part of Config this file owns. */
export interface PlanningSettings {
  /** Capacity planning (BERTH_PLANNING_FLAVORS). */
  readonly planning: PlanningConfig;
}

const m1 = (name: string, vcpu: number, ram: number, disk: number): PlanningFlavorSetting => ({
  name,
  resources: { VCPU: vcpu, MEMORY_MB: ram, DISK_GB: disk },
  required: [],
});

/** Nova's classic flavors, the planning flavors when BERTH_PLANNING_FLAVORS is unset. */
export const DEFAULT_PLANNING_FLAVORS: readonly PlanningFlavorSetting[] = [
  m1('m1.tiny', 1, 512, 1),
  m1('m1.small', 1, 2048, 20),
  m1('m1.medium', 2, 4096, 40),
  m1('m1.large', 4, 8192, 80),
  m1('m1.xlarge', 8, 16384, 160),
];

/** Most planning flavors (as many as one headroom query may count). */
export const MAX_PLANNING_FLAVORS = 50;

const NAME = /^[A-Z0-9_]+$/;

const flavorSchema = z
  .object({
    name: z.string().min(1).max(255),
    resources: z
      .record(
        z.string().regex(NAME, 'resource class names are upper case (VCPU, CUSTOM_X)'),
        z.number().int().min(1),
      )
      .refine((r) => Object.keys(r).length > 0, 'a flavor asks for at least one resource'),
    required: z
      .array(z.string().regex(NAME, 'trait names are upper case (HW_CPU_X86_AVX2, CUSTOM_X)'))
      .optional(),
  })
  .strict();

const flavorsSchema = z
  .array(flavorSchema)
  .min(1, 'list at least one flavor')
  .max(MAX_PLANNING_FLAVORS, `list at most ${MAX_PLANNING_FLAVORS} flavors`)
  .refine((l) => new Set(l.map((f) => f.name)).size === l.length, 'flavor names must differ');

/**
 * The planning settings of `env` (unset and empty variables already dropped).
 * @throws ConfigError naming BERTH_PLANNING_FLAVORS when it is not a JSON list of
 *   `{ "name", "resources": { CLASS: n }, "required"?: [traits] }` with distinct names.
 */
export function planningConfigOrThrow(
  env: Readonly<Record<string, string | undefined>>,
): PlanningSettings {
  const raw = env.BERTH_PLANNING_FLAVORS;
  if (raw === undefined || raw === '') {
    return { planning: { flavors: DEFAULT_PLANNING_FLAVORS } };
  }
  let value: unknown;
  try {
    ({ value } = readJsonSetting(raw));
  } catch (err) {
    throw new ConfigError(`invalid BERTH_PLANNING_FLAVORS: ${(err as Error).message}`);
  }
  const parsed = flavorsSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const at = issue.path.length > 0 ? ` (at ${issue.path.join('.')})` : '';
    throw new ConfigError(
      `invalid BERTH_PLANNING_FLAVORS: ${issue.message}${at}; write a JSON list of { "name": "m1.small", "resources": { "VCPU": 1, "MEMORY_MB": 2048 }, "required": ["TRAIT"] }`,
    );
  }
  return {
    planning: {
      flavors: parsed.data.map((f) => ({
        name: f.name,
        resources: f.resources,
        required: f.required ?? [],
      })),
    },
  };
}
