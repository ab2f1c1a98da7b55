// Generates hostile REST requests: query strings for the parsers (resources, required,
// member_of, in_tree, limit, group_policy, same_subtree, root_required, suffixed groups,
// malformed percent-encoding, amounts past 32 bits, random microversions), and path segments
// (NUL and other bad names, every method) with bodies nested far too deep.
import fc from 'fast-check';
import { badNumber, badString, badUuid, type FuzzPool, fromPool } from './fuzz-values';

/** One generated GET request. */
export interface RestCase {
  readonly method: string;
  readonly path: string;
  readonly version: string;
  readonly body?: string;
}

const amount = () =>
  fc.oneof(
    fc.integer({ min: 1, max: 4096 }).map(String),
    badNumber().map(String),
    fc.constantFrom('', ' 1', '1 ', '99999999999999999999', '+1', '1.0'),
    fc.constantFrom('2147483647', '2147483648', '4294967296', '9223372036854775808'),
  );

function resources(pool: FuzzPool): fc.Arbitrary<string> {
  const one = fc.oneof(
    fc
      .tuple(
        fromPool(() => pool.classes, badString()),
        amount(),
      )
      .map(([c, a]) => `${c}:${a}`),
    badString(),
    fc.constantFrom(':', ':1', 'VCPU:', 'VCPU', 'VCPU:1:2', 'vcpu:1'),
  );
  return fc.array(one, { minLength: 0, maxLength: 5 }).map((xs) => xs.join(','));
}

function traitsExpr(pool: FuzzPool): fc.Arbitrary<string> {
  const name = fromPool(() => pool.traits, badString()).map(String);
  const term = fc.oneof(
    name,
    name.map((n) => `!${n}`),
    fc.array(name, { maxLength: 3 }).map((ns) => `in:${ns.join(',')}`),
    fc.constantFrom('!', 'in:', 'in:,', '!in:X', ',,'),
  );
  return fc.array(term, { maxLength: 4 }).map((xs) => xs.join(','));
}

function memberOf(pool: FuzzPool): fc.Arbitrary<string> {
  const id = fromPool(() => pool.aggregates, badUuid()).map(String);
  return fc.oneof(
    id,
    id.map((u) => `!${u}`),
    fc.array(id, { maxLength: 4 }).map((us) => `in:${us.join(',')}`),
    fc.array(id, { maxLength: 3 }).map((us) => `!in:${us.join(',')}`),
    fc.constantFrom('in:', '!', 'in:,', ''),
  );
}

const suffix = () =>
  fc.oneof(
    fc.constantFrom('', '1', '2', '_NET', '_a', '0'),
    fc.string({ maxLength: 70 }),
    fc.constant('X'.repeat(65)),
  );

function param(pool: FuzzPool): fc.Arbitrary<[string, string]> {
  return fc.oneof(
    fc.tuple(suffix(), resources(pool)).map(([s, v]): [string, string] => [`resources${s}`, v]),
    fc.tuple(suffix(), traitsExpr(pool)).map(([s, v]): [string, string] => [`required${s}`, v]),
    fc.tuple(suffix(), memberOf(pool)).map(([s, v]): [string, string] => [`member_of${s}`, v]),
    fc.tuple(fc.constantFrom('limit'), amount()),
    fc.tuple(
      fc.constantFrom('group_policy'),
      fc.oneof(fc.constantFrom('none', 'isolate'), badString()),
    ),
    fc.tuple(
      fc.constantFrom('in_tree', 'uuid'),
      fromPool(() => pool.providers, badUuid()).map(String),
    ),
    fc
      .tuple(suffix(), fromPool(() => pool.providers, badUuid()).map(String))
      .map(([s, v]): [string, string] => [`in_tree${s}`, v]),
    fc.tuple(
      fc.constantFrom('same_subtree'),
      fc.array(suffix(), { maxLength: 3 }).map((xs) => xs.join(',')),
    ),
    fc.tuple(fc.constantFrom('root_required', 'name'), traitsExpr(pool)),
    fc.tuple(badString(), badString()),
  );
}

/** Values are cut to 1500 characters: longer URLs meet Node's own 16 KiB header limit (431). */
function encode(v: string, raw: boolean): string {
  const cut = v.slice(0, 1500);
  return raw ? cut.replace(/[#&\s]/g, '') : encodeURIComponent(cut);
}

/** Arbitrary GETs of /allocation_candidates and /resource_providers under `prefix`. */
export function restCases(pool: FuzzPool, prefix: string): fc.Arbitrary<RestCase> {
  const query = fc
    .tuple(fc.array(param(pool), { maxLength: 6 }), fc.boolean(), fc.boolean())
    .map(([ps, raw, junk]) => {
      const q = ps.map(([k, v]) => `${encode(k, raw)}=${encode(v, raw)}`).join('&');
      return junk ? `${q}&%zz=%E0%A4%A&=&&resources=%` : q;
    });
  const version = fc.oneof(
    fc.integer({ min: 0, max: 39 }).map((m) => `placement 1.${m}`),
    fc.constantFrom('placement latest', 'placement 1.99', 'placement 2.0', 'placement x', ''),
  );
  return fc
    .tuple(fc.constantFrom('/allocation_candidates', '/resource_providers'), query, version)
    .map(([p, q, v]) => ({ method: 'GET', path: `${prefix}${p}?${q}`, version: v }));
}

/** A JSON text nested `depth` levels deep (arrays or objects). */
const deepJson = () =>
  fc
    .tuple(fc.integer({ min: 60, max: 5000 }), fc.boolean())
    .map(([depth, arrays]) =>
      arrays
        ? `{"name": ${'['.repeat(depth)}${']'.repeat(depth)}}`
        : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`,
    );

/** Requests whose path segment is hostile (NUL, huge, unicode…), with odd or deep bodies. */
export function restPathCases(pool: FuzzPool, prefix: string): fc.Arbitrary<RestCase> {
  const segment = fc.oneof(
    badString(),
    badUuid(),
    fromPool(() => pool.providers, badUuid()).map(String),
    fc.constantFrom('CUSTOM_A\u0000B', '\u0000', 'VC\u0000PU'),
  );
  const path = fc.oneof(
    segment.map((s) => `/traits/${encodeURIComponent(s)}`),
    segment.map((s) => `/resource_classes/${encodeURIComponent(s)}`),
    segment.map((s) => `/resource_providers/${encodeURIComponent(s)}`),
    segment.map((s) => `/allocations/${encodeURIComponent(s)}`),
    fc
      .tuple(
        fromPool(() => pool.providers, badUuid()),
        segment,
      )
      .map(([u, s]) => `/resource_providers/${u}/inventories/${encodeURIComponent(s)}`),
  );
  const write = fc.tuple(
    fc.constantFrom('POST', 'PUT'),
    fc.constantFrom('/resource_providers', '/resource_classes', '/allocations', '/reshaper'),
    deepJson(),
  );
  return fc.oneof(
    fc
      .tuple(fc.constantFrom('GET', 'PUT', 'DELETE'), path)
      .map(([method, p]) => ({ method, path: `${prefix}${p}`, version: 'placement latest' })),
    write.map(([method, p, body]) => ({
      method,
      path: `${prefix}${p}`,
      version: 'placement latest',
      body,
    })),
  );
}
