// bin/build.js on a throwaway project tree: what `npm start` rebuilds (only the sources whose content
// changed, the outputs of deleted ones removed) and when the console is rebuilt (its inputs' hash).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

interface BuildScript {
  transpileChanged(
    root: string,
    outDir: string,
    dirs?: string[],
  ): { written: string[]; removed: string[] };
  buildConsoleIfChanged(root: string, outDir: string, build: (root: string) => void): boolean;
}
const build = require('../../bin/build.js') as BuildScript;

describe('bin/build.js', () => {
  let root: string;
  let out: string;
  const write = (rel: string, text: string) => {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), text);
  };

  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'berth-build-'));
    out = path.join(root, 'dist');
    write('package.json', '{"name":"fixture","version":"1.2.3"}');
    write('package-lock.json', '{}');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('transpiles only the sources whose content changed, and drops the outputs of deleted ones', () => {
    write('src/a.ts', `import { b } from './b';\nexport const a: number = b + 1;\n`);
    write('src/b.ts', `export const b: number = 1;\n`);
    write('src/types.d.ts', `declare const x: number;\n`);
    write('src/data/list.json', '["x"]');
    write('src/worker.cjs', 'module.exports = 1;\n');
    write('migrations/m.ts', `export class M1 { name = 'M1'; }\n`);

    const first = build.transpileChanged(root, out, ['src', 'migrations']);
    expect(first.written.sort()).toEqual([
      'migrations/m.ts',
      'package.json',
      'src/a.ts',
      'src/b.ts',
      'src/data/list.json',
      'src/worker.cjs',
    ]);
    expect(existsSync(path.join(out, 'src/types.d.js'))).toBe(false);
    expect(readFileSync(path.join(out, 'src/a.js.map'), 'utf8')).toContain('a.ts');
    expect(require(path.join(out, 'src/a.js')).a).toBe(2);

    expect(build.transpileChanged(root, out, ['src', 'migrations'])).toEqual({
      written: [],
      removed: [],
    });

    // Same content again (a save without a change) is not a change.
    write('src/b.ts', `export const b: number = 1;\n`);
    write('src/b.ts', `export const b: number = 41;\n`);
    expect(build.transpileChanged(root, out, ['src', 'migrations'])).toEqual({
      written: ['src/b.ts'],
      removed: [],
    });
    expect(readFileSync(path.join(out, 'src/b.js'), 'utf8')).toContain('41');

    rmSync(path.join(root, 'src/a.ts'));
    expect(build.transpileChanged(root, out, ['src', 'migrations'])).toEqual({
      written: [],
      removed: ['src/a.js', 'src/a.js.map'],
    });
    expect(existsSync(path.join(out, 'src/a.js'))).toBe(false);

    // An output deleted by hand is written again.
    rmSync(path.join(out, 'src/b.js'));
    expect(build.transpileChanged(root, out, ['src', 'migrations']).written).toEqual(['src/b.ts']);
  });

  it('rebuilds the console only when its inputs or its output changed', () => {
    write('console/index.html', '<html></html>');
    write('console/src/main.tsx', 'export const x = 1;\n');
    write('console/src/graphql-env.d.ts', 'export type introspection = {};\n');
    write('schema/schema.graphql', 'type Query { a: Int }\n');
    let builds = 0;
    const fakeVite = () => {
      builds++;
      mkdirSync(path.join(out, 'console'), { recursive: true });
      writeFileSync(path.join(out, 'console/index.html'), `build ${builds}`);
    };
    const step = () => build.buildConsoleIfChanged(root, out, fakeVite);

    expect(step()).toBe(true);
    expect(step()).toBe(false);
    write('console/src/main.tsx', 'export const x = 2;\n');
    expect(step()).toBe(true);
    expect(step()).toBe(false);
    // Generated for the type checker; vite does not read it.
    write('console/src/graphql-env.d.ts', 'export type introspection = { a: 1 };\n');
    expect(step()).toBe(false);
    write('schema/schema.graphql', 'type Query { a: Int, b: Int }\n');
    expect(step()).toBe(true);
    write('package-lock.json', '{"lockfileVersion":3}');
    expect(step()).toBe(true);
    write('console/src/pages/new.tsx', 'export {};\n');
    expect(step()).toBe(true);
    rmSync(path.join(out, 'console'), { recursive: true });
    expect(step()).toBe(true);
    expect(builds).toBe(6);
  });

  it('does not record a console build that failed', () => {
    write('console/index.html', '<html></html>');
    write('schema/schema.graphql', 'type Query { a: Int }\n');
    expect(() =>
      build.buildConsoleIfChanged(root, out, () => {
        throw new Error('vite failed');
      }),
    ).toThrow('vite failed');
    let built = false;
    build.buildConsoleIfChanged(root, out, () => {
      built = true;
      mkdirSync(path.join(out, 'console'), { recursive: true });
      writeFileSync(path.join(out, 'console/index.html'), 'ok');
    });
    expect(built).toBe(true);
  });
});
