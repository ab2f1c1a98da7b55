// The JSON Schema subset Placement's request schemas use, validated the way Python's jsonschema
// 4.x does it (keyword order, best_match relevance, message wording), so that 400 details read
// as Placement's (upstream: placement/util.py extract_json, validate_query_params).
import { type Json, pyRepr } from './py-repr';
import type { Validated } from './schema-types';

/** The JSON types a schema can name. */
export type SchemaTypeName =
  | 'object'
  | 'array'
  | 'string'
  | 'integer'
  | 'number'
  | 'boolean'
  | 'null';

/**
 * A schema node (only the keywords placement/schemas/*.py use). Schemas are declared
 * `as const satisfies Schema`, so that `Validated` (schema-types.ts) can read their literal type.
 */
export interface Schema {
  readonly type?: SchemaTypeName | readonly SchemaTypeName[];
  readonly properties?: Readonly<Record<string, Schema>>;
  readonly patternProperties?: Readonly<Record<string, Schema>>;
  readonly additionalProperties?: boolean;
  readonly required?: readonly string[];
  readonly minProperties?: number;
  readonly items?: Schema;
  readonly minItems?: number;
  readonly uniqueItems?: boolean;
  readonly pattern?: string;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly enum?: readonly Json[];
  readonly anyOf?: readonly Schema[];
  readonly format?: 'uuid';
}

/** One validation error, shaped like jsonschema.ValidationError. */
export interface SchemaError {
  readonly message: string;
  readonly validator: string;
  readonly path: readonly (string | number)[];
  readonly schemaPath: readonly (string | number)[];
  readonly instance: unknown;
  readonly schema: Schema;
  readonly context: readonly SchemaError[];
}

type Raw = { message: string; context?: SchemaError[] };

/** oslo uuidutils.is_uuid_like: 32 hex digits once urn:/uuid:, braces and dashes are removed. */
export function isUuidLike(v: unknown): boolean {
  if (typeof v !== 'string') {
    return false;
  }
  const hex = v
    .replace(/urn:/g, '')
    .replace(/uuid:/g, '')
    .replace(/^[{}]+|[{}]+$/g, '')
    .replace(/-/g, '')
    .toLowerCase();
  return /^[0-9a-f]{32}$/.test(hex);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isType(v: unknown, type: string): boolean {
  switch (type) {
    case 'object':
      return isObject(v);
    case 'array':
      return Array.isArray(v);
    case 'string':
      return typeof v === 'string';
    case 'integer':
      return typeof v === 'number' && Number.isInteger(v);
    case 'number':
      return typeof v === 'number';
    case 'boolean':
      return typeof v === 'boolean';
    case 'null':
      return v === null;
    default:
      return false;
  }
}

const pyLen = (s: string): number => [...s].length;

/** The schemas' patterns, compiled once (a bounded set, without g or y flags). */
const compiled = new Map<string, RegExp>();

function search(pattern: string, s: string): boolean {
  let re = compiled.get(pattern);
  if (!re) {
    re = new RegExp(pattern);
    compiled.set(pattern, re);
  }
  return re.test(s);
}

function typeErrors(types: string | readonly string[], v: unknown): Raw[] {
  const list = typeof types === 'string' ? [types] : types;
  if (list.some((t) => isType(v, t))) {
    return [];
  }
  return [{ message: `${pyRepr(v)} is not of type ${list.map((t) => pyRepr(t)).join(', ')}` }];
}

function additionalErrors(schema: Schema, v: Record<string, unknown>): Raw[] {
  const props = schema.properties ?? {};
  const patterns = Object.keys(schema.patternProperties ?? {});
  const extras = Object.keys(v).filter(
    (k) => !(k in props) && !(patterns.length > 0 && search(patterns.join('|'), k)),
  );
  if (schema.additionalProperties !== false || extras.length === 0) {
    return [];
  }
  extras.sort();
  const joined = extras.map((e) => pyRepr(e)).join(', ');
  if (schema.patternProperties) {
    const verb = extras.length === 1 ? 'does' : 'do';
    const regexes = [...patterns]
      .sort()
      .map((p) => pyRepr(p))
      .join(', ');
    return [{ message: `${joined} ${verb} not match any of the regexes: ${regexes}` }];
  }
  const verb = extras.length === 1 ? 'was' : 'were';
  return [{ message: `Additional properties are not allowed (${joined} ${verb} unexpected)` }];
}

function unique(v: readonly unknown[]): boolean {
  const seen = new Set(v.map((x) => JSON.stringify(x)));
  return seen.size === v.length;
}

/** Errors of one keyword (no descent) for keywords that do not descend. */
function keywordErrors(key: string, schema: Schema, v: unknown): Raw[] {
  switch (key) {
    case 'type':
      return typeErrors(schema.type!, v);
    case 'required':
      return isObject(v)
        ? schema
            .required!.filter((p) => !(p in v))
            .map((p) => ({
              message: `${pyRepr(p)} is a required property`,
            }))
        : [];
    case 'additionalProperties':
      return isObject(v) ? additionalErrors(schema, v) : [];
    case 'minProperties':
      return isObject(v) && Object.keys(v).length < schema.minProperties!
        ? [{ message: `${pyRepr(v)} does not have enough properties` }]
        : [];
    case 'minItems':
      return Array.isArray(v) && v.length < schema.minItems!
        ? [{ message: `${pyRepr(v)} is too short` }]
        : [];
    case 'uniqueItems':
      return schema.uniqueItems && Array.isArray(v) && !unique(v)
        ? [{ message: `${pyRepr(v)} has non-unique elements` }]
        : [];
    case 'pattern':
      return typeof v === 'string' && !search(schema.pattern!, v)
        ? [{ message: `${pyRepr(v)} does not match ${pyRepr(schema.pattern)}` }]
        : [];
    case 'minLength':
      return typeof v === 'string' && pyLen(v) < schema.minLength!
        ? [{ message: `${pyRepr(v)} is too short` }]
        : [];
    case 'maxLength':
      return typeof v === 'string' && pyLen(v) > schema.maxLength!
        ? [{ message: `${pyRepr(v)} is too long` }]
        : [];
    case 'minimum':
      return typeof v === 'number' && v < schema.minimum!
        ? [{ message: `${pyRepr(v)} is less than the minimum of ${pyRepr(schema.minimum)}` }]
        : [];
    case 'maximum':
      return typeof v === 'number' && v > schema.maximum!
        ? [{ message: `${pyRepr(v)} is greater than the maximum of ${pyRepr(schema.maximum)}` }]
        : [];
    case 'enum':
      return schema.enum!.some((e) => JSON.stringify(e) === JSON.stringify(v))
        ? []
        : [{ message: `${pyRepr(v)} is not one of ${pyRepr(schema.enum)}` }];
    case 'format':
      return isUuidLike(v) ? [] : [{ message: `${pyRepr(v)} is not a ${pyRepr(schema.format)}` }];
    default:
      return [];
  }
}

function* descend(
  v: unknown,
  schema: Schema,
  path: string | number | undefined,
  schemaPath: string | number,
): Generator<SchemaError> {
  for (const e of iterErrors(v, schema)) {
    yield {
      ...e,
      path: path === undefined ? e.path : [path, ...e.path],
      schemaPath: [schemaPath, ...e.schemaPath],
    };
  }
}

/** Every error of `v` against `schema`, in jsonschema's order (schema keyword order). */
export function* iterErrors(v: unknown, schema: Schema): Generator<SchemaError> {
  for (const key of Object.keys(schema)) {
    const children = childErrors(key, schema, v);
    if (children) {
      for (const e of children) {
        yield { ...e, schemaPath: [key, ...e.schemaPath] };
      }
      continue;
    }
    for (const raw of keywordErrors(key, schema, v)) {
      yield {
        message: raw.message,
        validator: key,
        path: [],
        schemaPath: [key],
        instance: v,
        schema,
        context: raw.context ?? [],
      };
    }
  }
}

/** Errors of descending keywords (properties, items, anyOf), or undefined for others. */
function childErrors(key: string, schema: Schema, v: unknown): SchemaError[] | undefined {
  const out: SchemaError[] = [];
  switch (key) {
    case 'properties':
      if (isObject(v)) {
        for (const [p, sub] of Object.entries(schema.properties!)) {
          if (p in v) {
            out.push(...descend(v[p], sub, p, p));
          }
        }
      }
      return out;
    case 'patternProperties':
      if (isObject(v)) {
        for (const [pattern, sub] of Object.entries(schema.patternProperties!)) {
          for (const [k, val] of Object.entries(v)) {
            if (search(pattern, k)) {
              out.push(...descend(val, sub, k, pattern));
            }
          }
        }
      }
      return out;
    case 'items':
      if (Array.isArray(v)) {
        v.forEach((item, i) => {
          out.push(...descend(item, schema.items!, i, i));
        });
      }
      return out;
    case 'anyOf': {
      const all: SchemaError[] = [];
      for (const [i, sub] of schema.anyOf!.entries()) {
        const errs = [...descend(v, sub, undefined, i)];
        if (errs.length === 0) {
          return [];
        }
        all.push(...errs);
      }
      return [
        {
          message: `${pyRepr(v)} is not valid under any of the given schemas`,
          validator: 'anyOf',
          path: [],
          schemaPath: [],
          instance: v,
          schema,
          context: all,
        },
      ];
    }
    default:
      return undefined;
  }
}

function matchesType(e: SchemaError): boolean {
  const t = e.schema.type;
  if (t === undefined) {
    return false;
  }
  return (typeof t === 'string' ? [t] : t).some((x) => isType(e.instance, x));
}

function relevance(e: SchemaError): number[] {
  const weak = e.validator === 'anyOf' || e.validator === 'oneOf';
  return [-e.path.length, weak ? 0 : 1, 0, matchesType(e) ? 0 : 1];
}

function compare(a: number[], b: number[]): number {
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) {
      return a[i]! - b[i]!;
    }
  }
  return 0;
}

/** jsonschema.exceptions.best_match: the most relevant error, descending into anyOf contexts. */
export function bestMatch(errors: Iterable<SchemaError>): SchemaError | undefined {
  let best: SchemaError | undefined;
  for (const e of errors) {
    if (!best || compare(relevance(e), relevance(best)) > 0) {
      best = e;
    }
  }
  while (best && best.context.length > 0) {
    const sorted = [...best.context].sort((a, b) => compare(relevance(a), relevance(b)));
    if (sorted.length >= 2 && compare(relevance(sorted[0]!), relevance(sorted[1]!)) === 0) {
      return best;
    }
    best = sorted[0];
  }
  return best;
}

function index(container: string, indices: readonly (string | number)[]): string {
  return indices.length === 0
    ? container
    : `${container}[${indices.map((i) => pyRepr(i)).join('][')}]`;
}

/** str(ValidationError): the message plus the failing keyword, schema and instance. */
export function formatSchemaError(e: SchemaError): string {
  return [
    e.message,
    '',
    `Failed validating ${pyRepr(e.validator)} in ${index('schema', e.schemaPath.slice(0, -1))}:`,
    `    ${pyRepr(e.schema, true)}`,
    '',
    `On ${index('instance', e.path)}:`,
    `    ${pyRepr(e.instance, true)}`,
  ].join('\n');
}

/** True when iterErrors(v, schema) yields nothing, without building errors (same checks). */
function valid(v: unknown, schema: Schema): boolean {
  for (const key in schema) {
    const ok =
      key === 'properties'
        ? !isObject(v) ||
          Object.entries(schema.properties!).every(([p, sub]) => !(p in v) || valid(v[p], sub))
        : key === 'patternProperties'
          ? !isObject(v) ||
            Object.entries(schema.patternProperties!).every(([pattern, sub]) =>
              Object.keys(v).every((k) => !search(pattern, k) || valid(v[k], sub)),
            )
          : key === 'items'
            ? !Array.isArray(v) || v.every((item) => valid(item, schema.items!))
            : key === 'anyOf'
              ? schema.anyOf!.some((sub) => valid(v, sub))
              : keywordErrors(key, schema, v).length === 0;
    if (!ok) {
      return false;
    }
  }
  return true;
}

/** Validates `v`; returns the best error formatted as str(ValidationError), or undefined. */
export function validateSchema(v: unknown, schema: Schema): string | undefined {
  if (valid(v, schema)) {
    return undefined;
  }
  const best = bestMatch(iterErrors(v, schema));
  return best ? formatSchemaError(best) : undefined;
}

/** True when `v` validates against `schema` (so has the type the schema describes). */
export function validates<const S extends Schema>(v: unknown, schema: S): v is Validated<S> {
  return valid(v, schema);
}
