// The query language of Nova's JsonFilter, evaluated with Python's semantics (upstream:
// nova/scheduler/filters/json_filter.py): a query is a list `[operator, arg, ...]`; an argument that
// is a list is a sub-query, a string `$name.key` is a host variable, other strings and JSON values
// are literals; arguments that come out None (an unknown variable, an empty string, null) are
// dropped before the operator runs. `=` `<` `>` `<=` `>=` compare the first argument with every
// other one, `in` asks whether the first is among the others (each false with fewer than two
// arguments), `not` negates each argument (a list), `or` / `and` are any / all. Python's truthiness
// ([] and {} are false), equality (1 == 1.0 == true) and ordering (str against number is an error)
// are kept. What raises in Nova (a type error, a lookup into a non-mapping, an unknown operator) is
// a QueryError here.
import type { PyValue } from '../host-state';

/** A parsed JSON value. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** What Nova would raise while evaluating the query. */
export class QueryError extends Error {}

/** The operators of the language. */
export const OPERATORS: readonly string[] = ['=', '<', '>', 'in', '<=', '>=', 'not', 'or', 'and'];

/** Deepest nesting and most list nodes a query may have (Nova has Python's recursion limit). */
export const MAX_DEPTH = 100;
export const MAX_NODES = 10_000;

/** A value during evaluation: a host attribute or a JSON literal. */
export type Value = PyValue | Json;
type Dict = { readonly [key: string]: Value };

function isDict(v: Value): v is Dict {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isNumeric(v: Value): v is number | boolean {
  return typeof v === 'number' || typeof v === 'boolean';
}

function pyType(v: Value): string {
  if (v === null) return 'NoneType';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float';
  if (typeof v === 'string') return 'str';
  return Array.isArray(v) ? 'list' : 'dict';
}

/** Python truthiness. */
export function pyTruthy(v: Value): boolean {
  if (v === null) return false;
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v !== 0;
  if (typeof v === 'string') return v.length > 0;
  if (Array.isArray(v)) return v.length > 0;
  return Object.keys(v).length > 0;
}

/** Python `==`. */
export function pyEq(a: Value, b: Value): boolean {
  if (isNumeric(a) && isNumeric(b)) {
    return Number(a) === Number(b);
  }
  if (typeof a === 'string' || typeof b === 'string' || a === null || b === null) {
    return a === b;
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    const [x, y] = [a as readonly Value[], b as readonly Value[]];
    return (
      Array.isArray(a) &&
      Array.isArray(b) &&
      x.length === y.length &&
      x.every((v, i) => pyEq(v, y[i]!))
    );
  }
  if (isDict(a) && isDict(b)) {
    const keys = Object.keys(a);
    return (
      keys.length === Object.keys(b).length &&
      keys.every((k) => Object.hasOwn(b, k) && pyEq(a[k]!, b[k]!))
    );
  }
  return false;
}

function compareStrings(a: string, b: string): number {
  const x = Array.from(a);
  const y = Array.from(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

/** Python ordering: negative, zero or positive. @throws QueryError for unorderable types. */
export function pyCompare(a: Value, b: Value, op: string): number {
  if (isNumeric(a) && isNumeric(b)) {
    return Number(a) - Number(b);
  }
  if (typeof a === 'string' && typeof b === 'string') {
    return compareStrings(a, b);
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    const [x, y] = [a as readonly Value[], b as readonly Value[]];
    for (let i = 0; i < Math.min(x.length, y.length); i++) {
      if (!pyEq(x[i]!, y[i]!)) return pyCompare(x[i]!, y[i]!, op);
    }
    return x.length - y.length;
  }
  throw new QueryError(`'${op}' not supported between ${pyType(a)} and ${pyType(b)}`);
}

const COMPARISONS: Readonly<Record<string, (c: number) => boolean>> = {
  '<': (c) => c < 0,
  '>': (c) => c > 0,
  '<=': (c) => c <= 0,
  '>=': (c) => c >= 0,
};

function apply(op: string, args: readonly Value[]): Value {
  switch (op) {
    case 'not':
      return args.map((a) => !pyTruthy(a));
    case 'or':
      return args.some(pyTruthy);
    case 'and':
      return args.every(pyTruthy);
  }
  if (args.length < 2) {
    return false;
  }
  const [first, ...rest] = args;
  if (op === 'in') {
    return rest.some((r) => pyEq(first!, r));
  }
  if (op === '=') {
    return rest.every((r) => pyEq(first!, r));
  }
  // Every comparison runs, as in Nova's list comprehension: a type error anywhere raises.
  const results = rest.map((r) => COMPARISONS[op]!(pyCompare(first!, r, op)));
  return results.every(Boolean);
}

/** How a query refers to host variables: `lookup(name)` is the attribute, null when unknown. */
export type Lookup = (name: string) => PyValue;

/** The value of variable `text` (`$name.key...`). @throws QueryError on a key into a non-mapping. */
export function readVariable(text: string, lookup: Lookup): Value {
  const [name = '', ...keys] = text.slice(1).split('.');
  let value: Value = lookup(name);
  for (const key of keys) {
    if (value === null) {
      return null;
    }
    if (!isDict(value)) {
      throw new QueryError(`${text}: ${pyType(value)} has no key ${JSON.stringify(key)}`);
    }
    value = Object.hasOwn(value, key) ? value[key]! : null;
  }
  return value;
}

function run(query: readonly Json[], lookup: Lookup): Value {
  if (query.length === 0) {
    return true;
  }
  const args: Value[] = [];
  for (const arg of query.slice(1)) {
    let cooked: Value = arg;
    if (Array.isArray(arg)) {
      cooked = run(arg, lookup);
    } else if (typeof arg === 'string') {
      cooked = arg === '' ? null : arg.startsWith('$') ? readVariable(arg, lookup) : arg;
    }
    if (cooked !== null) {
      args.push(cooked);
    }
  }
  return apply(query[0] as string, args);
}

/** The `$variables` a query names, in order of first appearance. */
export function variablesOf(query: Json): string[] {
  const found = new Set<string>();
  const walk = (q: Json) => {
    if (Array.isArray(q)) {
      for (const arg of q.slice(1)) {
        if (typeof arg === 'string' && arg.startsWith('$')) {
          found.add(arg);
        } else {
          walk(arg);
        }
      }
    }
  };
  walk(query);
  return [...found];
}

/**
 * Why `query` cannot run on any host (Nova raises on every host for it), or null. A falsy query
 * (null, false, 0, "", [], {}) passes every host; otherwise it must be a list whose lists, at every
 * depth, start with an operator. Nova would iterate a top-level string; berth refuses it.
 */
export function problemOf(query: Json): string | null {
  if (!pyTruthy(query)) {
    return null;
  }
  if (!Array.isArray(query)) {
    return `a query is a JSON list [operator, ...], got ${pyType(query)}`;
  }
  let nodes = 0;
  const check = (q: readonly Json[], depth: number): string | null => {
    nodes += 1;
    if (depth > MAX_DEPTH || nodes > MAX_NODES) {
      return `a query may nest ${MAX_DEPTH} deep and hold ${MAX_NODES} lists`;
    }
    if (q.length === 0) {
      return null;
    }
    const op = q[0];
    if (typeof op !== 'string' || !OPERATORS.includes(op)) {
      return `unknown operator ${JSON.stringify(op)} (known: ${OPERATORS.join(' ')})`;
    }
    for (const arg of q.slice(1)) {
      const problem = Array.isArray(arg) ? check(arg, depth + 1) : null;
      if (problem !== null) {
        return problem;
      }
    }
    return null;
  };
  return check(query, 1);
}

/**
 * Whether a host passes `query` (checked by `problemOf` first): the result's truthiness, or for a
 * list result (a top-level `not`) whether any element is true. @throws QueryError as Nova raises.
 */
export function passes(query: Json, lookup: Lookup): boolean {
  if (!Array.isArray(query)) {
    return true;
  }
  const result = run(query, lookup);
  return Array.isArray(result) ? result.some(pyTruthy) : pyTruthy(result);
}
