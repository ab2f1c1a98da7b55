// Enforces the layout rules of docs/architecture.md ("Folders and what they may import") by
// reading import statements: FOLDERS is the one table of who may import whom.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');

/**
 * Every folder with code, what it may import from the repository besides itself (a folder or a
 * file, without extension), and the packages it must not import. A file obeys the row of the
 * longest folder containing it; test/ may import anything and is not listed.
 */
const FOLDERS: readonly {
  folder: string;
  may: readonly string[];
  packages?: RegExp;
  why: string;
}[] = [
  { folder: 'src/lib', may: ['package.json'], why: 'helpers import nothing of berth' },
  { folder: 'src/demo', may: ['src/lib'], why: 'the demo cloud is data (and seeded numbers)' },
  {
    folder: 'src/db',
    may: ['src/config', 'src/observability/logger', 'migrations'],
    why: 'the database layer imports only the configuration, the logger and the migrations',
  },
  {
    folder: 'src/placement',
    may: ['src/db'],
    packages: /^(graphql|graphql-yoga|@pothos\/.*|node:http)$/,
    why: 'the domain imports only the database layer, and no GraphQL or HTTP',
  },
  { folder: 'src/cache', may: ['src/observability'], why: 'caches are below the domain' },
  {
    folder: 'src/auth',
    may: ['src/cache', 'src/db', 'src/observability', 'src/placement'],
    why: 'authentication sits on the domain, below the adapters',
  },
  {
    folder: 'src/config',
    may: [
      'src/auth',
      'src/cache/redis-url',
      'src/http',
      'src/observability',
      'src/placement',
      'src/scheduler',
    ],
    why: 'configuration reads the settings types of the parts it configures (and parses REDIS_URL with the cache’s parser)',
  },
  {
    folder: 'src/scheduler',
    may: ['src/cache', 'src/config', 'src/lib', 'src/observability', 'src/placement'],
    why: 'the plugin runtime sits on the domain and never imports plugins (filters/)',
  },
  {
    folder: 'filters',
    may: ['src/scheduler/plugin-api', 'src/scheduler/helpers'],
    packages: /^(typeorm|pg|ioredis|graphql|@pothos\/.*)$/,
    why: 'plugins import only the plugin API and its helpers',
  },
  {
    folder: 'src/planning',
    may: ['src/config', 'src/lib', 'src/observability', 'src/placement', 'src/scheduler'],
    packages: /^(graphql|graphql-yoga|@pothos\/.*|node:http)$/,
    why: 'planning runs the engine and the scheduler on private overlays, under every adapter',
  },
  {
    folder: 'src/import',
    may: ['src/app', 'src/db', 'src/lib', 'src/placement'],
    why: 'import and export use the domain services',
  },
  {
    folder: 'src/observability',
    may: ['src/app', 'src/cache', 'src/http', 'src/rest', 'src/scheduler'],
    why: 'metrics read the statistics and route names of what they watch',
  },
  {
    folder: 'schema',
    may: [
      'src/app',
      'src/auth',
      'src/db',
      'src/graphql',
      'src/import',
      'src/lib',
      'src/observability',
      'src/planning',
      'src/placement',
      'src/scheduler',
    ],
    why: 'GraphQL types resolve through the services, never through REST or HTTP',
  },
  {
    folder: 'src/graphql',
    may: [
      'schema',
      'src/app',
      'src/auth',
      'src/config',
      'src/http',
      'src/lib',
      'src/observability',
      'src/placement',
    ],
    why: 'the GraphQL server wraps schema/ and never imports REST',
  },
  {
    folder: 'src/rest',
    may: [
      'src/app',
      'src/auth',
      'src/config',
      'src/db',
      'src/http',
      'src/lib',
      'src/observability',
      'src/placement',
    ],
    packages: /^(graphql|graphql-yoga|@pothos\/.*)$/,
    why: 'the REST facade never imports GraphQL',
  },
  {
    folder: 'src/http',
    may: [
      'src/auth',
      'src/cache',
      'src/config',
      'src/db',
      'src/graphql',
      'src/observability',
      'src/rest',
    ],
    why: 'the HTTP edge hands requests to GraphQL and REST (and asks the database for /readyz)',
  },
  {
    folder: 'src/app',
    may: [
      'filters',
      'src/auth',
      'src/cache',
      'src/config',
      'src/db',
      'src/graphql',
      'src/http',
      'src/observability',
      'src/planning',
      'src/placement',
      'src/rest',
      'src/scheduler',
    ],
    why: 'the composition root wires the layers',
  },
  {
    folder: 'src/server',
    may: ['src/app', 'src/config', 'src/lib', 'src/observability', 'src/placement'],
    why: 'the serving process runs one app',
  },
  {
    folder: 'src/cli',
    may: [
      'src/app',
      'src/auth',
      'src/config',
      'src/db',
      'src/demo',
      'src/http',
      'src/import',
      'src/lib',
      'src/observability',
      'src/planning',
      'src/placement',
      'src/server',
    ],
    why: 'commands start the server or use the services, never GraphQL or REST',
  },
  { folder: 'migrations', may: [], why: 'migrations are frozen history' },
  { folder: 'console', may: [], why: 'the console talks to berth only over GraphQL' },
  {
    folder: 'bench',
    may: ['src', 'schema', 'filters', 'migrations'],
    why: 'benchmarks drive berth in process, never through test/',
  },
  { folder: 'bin', may: [], why: 'bin/ starts the built berth (dist/) by path' },
];

/** Where SQL may be written: the domain, the database layer and import/export. */
const SQL_HOMES = [/^src\/(placement|db)\//, /^src\/import\/source-/, /^src\/import\/placement\//];

function files(dir: string): string[] {
  const abs = path.join(root, dir);
  const out: string[] = [];
  if (!existsSync(abs)) {
    return out;
  }
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = path.join(d, name);
      if (name === 'node_modules' || name === 'dist') {
        continue;
      }
      if (statSync(p).isDirectory()) {
        walk(p);
      } else if (
        /\.(tsx?|mts|js|cjs)$/.test(p) &&
        !/\.test\.tsx?$/.test(p) &&
        !p.endsWith('.d.ts')
      ) {
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
  for (const m of src.matchAll(/(?:from\s+|import\s*\(?\s*|require\(\s*)['"]([^'"]+)['"]/g)) {
    found.push(m[1]!);
  }
  return found;
}

function resolved(file: string, spec: string): string {
  return spec.startsWith('.') ? path.relative(root, path.resolve(path.dirname(file), spec)) : spec;
}

const within = (target: string, folder: string) =>
  target === folder || target.startsWith(`${folder}/`);

/** The row a repository file obeys: the longest folder containing it. */
function rowOf(rel: string) {
  return FOLDERS.filter((r) => within(rel, r.folder)).sort(
    (a, b) => b.folder.length - a.folder.length,
  )[0];
}

describe('dependency rules', () => {
  it('every folder with code has a row (src/ folders, and the top-level code folders)', () => {
    const listed = new Set(FOLDERS.map((r) => r.folder));
    const srcFolders = readdirSync(path.join(root, 'src')).filter((n) =>
      statSync(path.join(root, 'src', n)).isDirectory(),
    );
    const missing = [
      ...srcFolders.map((n) => `src/${n}`),
      'schema',
      'filters',
      'migrations',
      'console',
      'bench',
      'bin',
    ].filter((f) => !listed.has(f));
    expect(missing).toEqual([]);
    // Only the CLI's entry point may sit at the top of src/ (none today).
    const loose = readdirSync(path.join(root, 'src')).filter((n) => /\.tsx?$/.test(n));
    expect(loose).toEqual([]);
  });

  it.each(FOLDERS)('$folder: $why', ({ folder }) => {
    const bad: string[] = [];
    for (const file of files(folder)) {
      const rel = path.relative(root, file);
      const row = rowOf(rel)!;
      if (row.folder !== folder) {
        continue; // a deeper row governs it
      }
      for (const spec of imports(file)) {
        const target = resolved(file, spec);
        const local = spec.startsWith('.');
        const ok = local
          ? within(target, folder) || row.may.some((m) => within(target, m))
          : !row.packages?.test(spec);
        if (!ok) {
          bad.push(`${rel} imports ${spec}`);
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

  it('writes SQL only in src/placement, src/db and import/export (SQL_HOMES)', () => {
    const bad: string[] = [];
    for (const file of files('src')) {
      const rel = path.relative(root, file);
      if (SQL_HOMES.some((home) => home.test(rel))) {
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
});
