// Every stable error code berth can send is documented in docs/error-codes.md, and every code the
// document lists exists in the source: the table can drift from neither side.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ErrorCode, restCode } from '../../../src/placement/errors';

const root = join(__dirname, '../../..');
const doc = readFileSync(join(root, 'docs/error-codes.md'), 'utf8');

/** The codes in the first column of the document's tables. */
const documented = new Set(
  [...doc.matchAll(/^\| `([A-Za-z_.]+)`(?:, `([A-Za-z_.]+)`)? \|/gm)].flatMap((m) =>
    m.slice(1).filter((c): c is string => c !== undefined),
  ),
);

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** Every 'berth.x' string literal in src/ and schema/ that is an error code (not a file name). */
const literals = new Set(
  ['src', 'schema']
    .flatMap((d) => sources(join(root, d)))
    // Span attribute names (berth.request_id, …) are not error codes.
    .filter((f) => !f.endsWith(join('observability', 'attributes.ts')))
    .flatMap((f) => [...readFileSync(f, 'utf8').matchAll(/'(berth\.[a-z_.]+)'/g)].map((m) => m[1]!))
    .filter((c) => c !== 'berth.lock'),
);

describe('docs/error-codes.md', () => {
  it.each(Object.values(ErrorCode))('documents %s', (code) => {
    expect(documented).toContain(code);
  });

  it('documents every berth.* code literal in the source', () => {
    expect([...literals].filter((c) => !documented.has(c))).toEqual([]);
  });

  it('lists no code that does not exist', () => {
    const known = new Set<string>([
      ...Object.values(ErrorCode),
      ...literals,
      'GRAPHQL_PARSE_FAILED',
      'GRAPHQL_VALIDATION_FAILED',
      'BAD_USER_INPUT',
      'INTERNAL_SERVER_ERROR',
    ]);
    expect([...documented].filter((c) => !known.has(c))).toEqual([]);
  });

  it('gives each precise code the REST code its row names', () => {
    let rows = 0;
    for (const m of doc.matchAll(
      /^\| `(berth\.[a-z_.]+)` \|[^|]+\|[^|]+\| `(placement\.[a-z_.]+)`/gm,
    )) {
      expect([m[1], restCode(m[1]!)]).toEqual([m[1], m[2]]);
      rows += 1;
    }
    expect(rows).toBe(24);
  });
});
