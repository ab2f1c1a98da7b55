// Plugin configuration as a zod schema: one object per plugin, a field per configuration key. From
// it come the keys the registry accepts (a misspelt key stops start-up), the checks and defaults
// applied before `create` runs (same messages as ever: `RAMWeigher: config "multiplier" must be a
// finite number, got "x"`), and the configuration table of docs/scheduler-plugins.md. Built-in
// plugins build their fields with the helpers below; an operator plugin exports
// `configSchema(z)`, built with the zod berth hands it (plugin-api.ts, docs/writing-a-filter.md).
// Schemas check and fill in defaults; they do not transform: parsing a parsed configuration
// again gives it back unchanged (the registry parses, and a built-in's `create` parses again).
import { z } from 'zod';
import type {
  ConfigSchema,
  PluginFactory,
  PluginHandle,
  PluginModule,
  SchedulerPlugin,
} from './plugin-api';

/** A plugin's configuration schema. */
export type PluginConfigSchema = z.ZodObject<z.ZodRawShape>;

/** What docs/scheduler-plugins.md says about one key. */
export interface ConfigFieldDoc {
  readonly type: string;
  /** The default as it reads in the table (`1.0`, `true`, `none`). */
  readonly default: string;
  readonly description: string;
}

const got = (input: unknown) => JSON.stringify(input);

function documented<T extends z.ZodType>(field: T, doc: ConfigFieldDoc): T {
  return field.meta({ berthDoc: doc }) as T;
}

/** A finite number (`multiplier`), `fallback` when unset. */
export function numberField(fallback: number, description: string) {
  const field = z
    .number({ error: (iss) => `must be a finite number, got ${got(iss.input)}` })
    .default(fallback);
  return documented(field, { type: 'number', default: String(fallback), description });
}

/** A whole number >= 0 (a maximum), `fallback` when unset. */
export function countField(fallback: number, description: string) {
  const field = z
    .number({ error: (iss) => `must be a finite number, got ${got(iss.input)}` })
    .refine((n) => Number.isInteger(n) && n >= 0, {
      error: (iss) => `must be a whole number >= 0, got ${String(iss.input)}`,
    })
    .default(fallback);
  return documented(field, { type: 'whole number ≥ 0', default: String(fallback), description });
}

/** true or false, `fallback` when unset. */
export function booleanField(fallback: boolean, description: string) {
  const field = z
    .boolean({ error: (iss) => `must be true or false, got ${got(iss.input)}` })
    .default(fallback);
  return documented(field, { type: 'boolean', default: String(fallback), description });
}

/** One of `values`, `fallback` when unset. */
export function choiceField<const V extends readonly [string, ...string[]]>(
  values: V,
  fallback: V[number],
  description: string,
) {
  const field = z
    .enum(values, {
      error: (iss) => `must be ${values.map((v) => `"${v}"`).join(' or ')}, got ${got(iss.input)}`,
    })
    .default(fallback as never);
  return documented(field, {
    type: values.map((v) => `\`${v}\``).join(' \\| '),
    default: `\`${fallback}\``,
    description,
  });
}

/** A non-empty string or a list of them; unset = none (a string counts as a list of one). */
export function nameListField(description: string) {
  const isName = (v: unknown) => typeof v === 'string' && v !== '';
  return checkedField<string | readonly string[]>(
    'string or list of strings',
    'none',
    description,
    (v) =>
      isName(v) || (Array.isArray(v) && v.every(isName))
        ? undefined
        : `must be a non-empty string or a list of them, got ${got(v)}`,
  );
}

/**
 * A value checked by `check`, which returns what is wrong with it (the message after
 * `config "<key>"`) or undefined; `undefined` when unset (the plugin's own default applies).
 */
export function checkedField<T = unknown>(
  type: string,
  fallback: string,
  description: string,
  check: (value: unknown) => string | undefined,
) {
  const field = z
    .unknown()
    .superRefine((value, ctx) => {
      const problem = value === undefined ? undefined : check(value);
      if (problem !== undefined) {
        ctx.addIssue({ code: 'custom', message: problem });
      }
    })
    .optional() as unknown as z.ZodOptional<z.ZodType<T>>;
  return documented(field, { type, default: fallback, description });
}

/** The schema of a plugin's configuration. */
export function pluginConfig<S extends z.ZodRawShape>(shape: S): z.ZodObject<S> {
  return z.object(shape);
}

/** The keys a schema declares, in order. */
export function configKeys(schema: PluginConfigSchema): readonly string[] {
  return Object.freeze(Object.keys(schema.shape));
}

/**
 * `raw` checked against `schema`, defaults filled in.
 * @throws Error `<name>: config "<key>" <what is wrong>` for the first problem.
 */
export function parsePluginConfig<S extends PluginConfigSchema>(
  schema: S,
  name: string,
  raw: Readonly<Record<string, unknown>>,
): z.output<S> {
  const result = schema.safeParse(raw);
  if (result.success) {
    return result.data;
  }
  const issue = result.error.issues[0]!;
  const key = issue.path.map(String).join('.');
  throw new Error(
    key === '' ? `${name}: config ${issue.message}` : `${name}: config "${key}" ${issue.message}`,
  );
}

/**
 * A factory whose body gets its configuration checked and with defaults (a built-in plugin's
 * `create`; called directly, as tests do, it checks as the registry does).
 */
export function withConfig<S extends PluginConfigSchema, P extends SchedulerPlugin>(
  schema: S,
  body: (config: z.output<S>, handle: PluginHandle) => P,
): PluginFactory<P> {
  return (raw, handle) => body(parsePluginConfig(schema, handle.name, raw), handle);
}

/** A module's `configSchema` export, built with berth's zod. @throws Error when it is no object schema. */
export function schemaOf(configSchemaExport: ConfigSchema): PluginConfigSchema {
  const schema = configSchemaExport(z) as unknown;
  if (!(schema instanceof z.ZodObject)) {
    throw new Error('configSchema(z) must return z.object({...})');
  }
  return schema as PluginConfigSchema;
}

/** One row per key for the configuration table (type, default, description). */
export function configDocs(schema: PluginConfigSchema): [string, ConfigFieldDoc][] {
  return Object.entries(schema.shape).map(([key, field]) => {
    const meta = (field as z.ZodType).meta() as { berthDoc?: ConfigFieldDoc } | undefined;
    return [key, meta?.berthDoc ?? { type: '', default: '', description: '' }];
  });
}

/**
 * The configuration table of docs/scheduler-plugins.md: one row per key of every module with a
 * schema, by plugin name (test/unit/scheduler/plugin-config-table.test.ts keeps the page equal).
 */
export function configTable(modules: readonly PluginModule[]): string {
  const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');
  const rows = [...modules]
    .sort((a, b) => a.NAME.localeCompare(b.NAME))
    .flatMap((m) =>
      m.configSchema === undefined
        ? []
        : configDocs(schemaOf(m.configSchema)).map(
            ([key, doc]) =>
              `| ${m.NAME} | \`${key}\` | ${doc.type} | ${doc.default} | ${cell(doc.description)} |`,
          ),
    );
  return ['| plugin | key | type | default | what |', '|---|---|---|---|---|', ...rows].join('\n');
}
