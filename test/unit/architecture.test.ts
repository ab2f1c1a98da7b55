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
      } else if (/\.tsx?$/.test(p) && !/\.test\.tsx?$/.test(p) && !p.endsWith('.d.ts')) {
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
    from: 'src/placement',
    forbid: /^src\/(?!placement\/|db\/).*$/,
    why: 'the domain imports nothing above it: only itself and src/db',
  },
  {
    from: 'src/db',
    forbid: /^src\/(?!db\/|observability\/logger$|config\/).*$/,
    why: 'the database layer imports only itself, the logger and configuration',
  },
  {
    from: 'console',
    forbid: /^(src|schema|filters|migrations)(\/.*)?$/,
    why: 'the console talks to berth only over GraphQL',
  },
  {
    from: 'src/scheduler',
    forbid: /^filters(\/.*)?$/,
    why: 'the plugin runtime never imports plugins',
  },
  {
    from: 'filters',
    forbid:
      /^(typeorm|pg|ioredis|graphql|@pothos\/.*|src\/(?!scheduler\/(plugin-api|helpers)$).*)$/,
    why: 'plugins import only src/scheduler/plugin-api and helpers',
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

  it('loads no GraphQL package before tracing starts (src/config/config.ts and what it imports)', () => {
    // `berth serve` reads its configuration, then starts OpenTelemetry, whose graphql
    // instrumentation patches the package only if it loads first (test/cli/serve-tracing.test.ts).
    const seen = new Set<string>();
    const bad: string[] = [];
    const visit = (file: string) => {
      if (seen.has(file)) {
        return;
      }
      seen.add(file);
      for (const spec of imports(file)) {
        if (/^(graphql|graphql-yoga|@pothos\/.*)(\/.*)?$/.test(spec)) {
          bad.push(`${path.relative(root, file)} imports ${spec}`);
        } else if (spec.startsWith('.')) {
          const base = path.resolve(path.dirname(file), spec);
          const next = [`${base}.ts`, path.join(base, 'index.ts')].find((f) => existsSync(f));
          if (next) {
            visit(next);
          }
        }
      }
    };
    visit(path.join(root, 'src/config/config.ts'));
    expect(bad).toEqual([]);
  });

  it('writes SQL only in src/placement and src/db (and the readers of source databases)', () => {
    const bad: string[] = [];
    for (const file of files('src')) {
      const rel = path.relative(root, file);
      if (
        /^src\/(placement|db)\//.test(rel) ||
        /^src\/import\/(source-|placement\/(source|placement-db|read-placement|target|write-placement|apply|berth-state|catalog|berth-model)\.ts$)/.test(
          rel,
        )
      ) {
        continue;
      }
      if (
        /\.query\(\s*[`'"]|\b(SELECT|INSERT INTO|UPDATE \w+ SET|DELETE FROM)\b/.test(
          readFileSync(file, 'utf8'),
        )
      ) {
        bad.push(rel);
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
