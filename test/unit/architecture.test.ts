// Enforces the dependency rules of STYLE.md §2 by reading import statements.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');

function files(dir: string): string[] {
  const abs = path.join(root, dir);
  const out: string[] = [];
  if (!existsSync(abs)) {
    return out;
  }
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = path.join(d, name);
      if (statSync(p).isDirectory()) {
        walk(p);
      } else if (p.endsWith('.ts') && !p.endsWith('.test.ts')) {
        out.push(p);
      }
    }
  };
  walk(abs);
  return out;
}

function imports(file: string): string[] {
  const src = readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const m of src.matchAll(/(?:from\s+|import\s*\(\s*|require\(\s*)['"]([^'"]+)['"]/g)) {
    found.push(m[1]!);
  }
  return found;
}

function resolved(file: string, spec: string): string {
  return spec.startsWith('.') ? path.relative(root, path.resolve(path.dirname(file), spec)) : spec;
}

const rules: { from: string; forbid: RegExp; why: string }[] = [
  {
    from: 'src/placement',
    forbid:
      /^(graphql|graphql-yoga|@pothos\/.*|schema(\/.*)?|filters(\/.*)?|src\/rest(\/.*)?|node:http)$/,
    why: 'domain code never imports GraphQL, HTTP, schema/ or filters/',
  },
  {
    from: 'src/scheduler',
    forbid: /^filters(\/.*)?$/,
    why: 'the plugin runtime never imports plugins',
  },
  {
    from: 'filters',
    forbid:
      /^(typeorm|pg|ioredis|graphql|@pothos\/.*|src\/(?!scheduler\/(plugin-api|helpers|capacity-plugins)$).*)$/,
    why: 'plugins import only src/scheduler/plugin-api, helpers and capacity-plugins',
  },
  {
    from: 'migrations',
    forbid: /^(src|schema|filters)(\/.*)?$/,
    why: 'migrations are frozen history',
  },
];

describe('dependency rules', () => {
  it.each(rules)('$from: $why', ({ from, forbid }) => {
    const bad: string[] = [];
    for (const file of files(from)) {
      for (const spec of imports(file)) {
        const target = resolved(file, spec);
        if (forbid.test(target)) {
          bad.push(`${path.relative(root, file)} imports ${spec}`);
        }
      }
    }
    expect(bad).toEqual([]);
  });

  it('nothing outside test/ imports from test/', () => {
    const bad: string[] = [];
    for (const dir of ['src', 'schema', 'filters', 'migrations']) {
      for (const file of files(dir)) {
        for (const spec of imports(file)) {
          if (resolved(file, spec).startsWith('test/')) {
            bad.push(`${path.relative(root, file)} imports ${spec}`);
          }
        }
      }
    }
    expect(bad).toEqual([]);
  });
});
