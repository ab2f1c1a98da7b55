// Keeps docs/writing-a-filter.md honest: its code blocks are the example files, the example's own table
// test passes, and the compiled example loads from a plugin directory and filters through the pipeline.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { builtinPlugins } from '../../../filters/registry';
import { buildHostView, buildRequestSpec } from '../../../src/scheduler/plugin-testing';
import { loadPluginDirs } from '../../../src/scheduler/runtime/plugin-dirs';
import {
  buildPipeline,
  createRegistry,
  listPlugins,
} from '../../../src/scheduler/runtime/registry';
import { runPipeline } from '../../support/plugin';
// Runs the example's table test as part of this suite (docs/ is not a jest root).
import '../../../docs/examples/host-maintenance-filter/host-maintenance.test';

const repo = resolve(__dirname, '../../..');
const doc = readFileSync(join(repo, 'docs/writing-a-filter.md'), 'utf8');
const example = 'docs/examples/host-maintenance-filter';

const { compilePlugin } = require('../../../docs/examples/compile-plugin.cjs') as {
  compilePlugin: (source: string, pluginDir: string) => string;
};

describe('docs/writing-a-filter.md', () => {
  const includes = [...doc.matchAll(/<!-- include: (\S+) -->\n```ts\n([\s\S]*?)```/g)];

  it('includes the example plugin and its test', () => {
    expect(includes.map((m) => m[1])).toEqual([
      `${example}/index.ts`,
      `${example}/host-maintenance.test.ts`,
    ]);
  });

  it.each(includes.map((m) => [m[1]!, m[2]!]))(
    'shows %s exactly as it is on disk',
    (path, shown) => {
      expect(shown).toBe(readFileSync(join(repo, path), 'utf8'));
    },
  );

  it('keeps the example plugin about 20 lines long', () => {
    expect(
      readFileSync(join(repo, example, 'index.ts'), 'utf8').split('\n').length,
    ).toBeLessThanOrEqual(30);
  });
});

describe('the compiled example as an operator plugin', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'berth-example-'));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('compiles, loads from BERTH_PLUGIN_DIRS, is listed, and filters hosts', async () => {
    const out = compilePlugin(join(repo, example, 'index.ts'), dir);
    expect(out).toBe(join(dir, 'host-maintenance-filter', 'index.js'));
    expect(readFileSync(out, 'utf8')).not.toContain('src/scheduler');

    const registry = createRegistry(builtinPlugins, loadPluginDirs([dir]));
    const config = {
      enabledFilters: ['HostMaintenanceFilter', 'RamFilter'],
      enabledWeighers: [],
      plugins: { HostMaintenanceFilter: { exemptProjects: ['ops'] } },
    };
    expect(listPlugins(registry, config).find((p) => p.name === 'HostMaintenanceFilter')).toEqual({
      name: 'HostMaintenanceFilter',
      kind: 'filter',
      source: out,
      position: 0,
    });

    const hosts = [
      buildHostView({ providers: [{ uuid: 'shared', inventories: { MEMORY_MB: 4096 } }] }),
      buildHostView({
        providers: [{ uuid: 'drained', inventories: { MEMORY_MB: 4096 } }],
        aggregates: [{ uuid: 'a', metadata: { maintenance: 'CHG-1234' } }],
      }),
    ];
    const pipeline = buildPipeline(registry, config);
    const other = await runPipeline(
      pipeline,
      hosts,
      buildRequestSpec({ projectId: 'acme', resources: { MEMORY_MB: 512 } }),
    );
    expect(other.hosts.map((r) => r.host.uuid)).toEqual(['shared']);
    expect(other.explanation.filters[0]!.rejections[0]).toMatchObject({
      reason: 'host is in maintenance (CHG-1234)',
      code: 'maintenance.in_progress',
    });
    const ops = await runPipeline(
      pipeline,
      hosts,
      buildRequestSpec({ projectId: 'ops', resources: { MEMORY_MB: 512 } }),
    );
    expect(ops.hosts.map((r) => r.host.uuid).sort()).toEqual(['drained', 'shared']);
  });

  it('reports a compile error as file:line:column, without a stack trace', () => {
    const bad = join(dir, 'bad-filter.ts');
    writeFileSync(bad, 'export const NAME = "Bad";\nexport const create = () => ({ a: );\n');
    expect(() => compilePlugin(bad, dir)).toThrow(`${bad}:2:35: Expression expected.`);
    const cli = spawnSync(
      process.execPath,
      [join(repo, 'docs/examples/compile-plugin.cjs'), bad, dir],
      {
        encoding: 'utf8',
      },
    );
    expect(cli.status).toBe(1);
    expect(cli.stderr.trim().split('\n')[0]).toBe(`${bad}:2:35: Expression expected.`);
    expect(cli.stderr).not.toMatch(/\n\s+at /);
  });
});
