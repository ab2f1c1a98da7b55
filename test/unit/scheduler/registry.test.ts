// Unit tests for src/scheduler/registry.ts: registration, start-up errors, operator plugin directories.

import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtinPlugins } from '../../../filters/registry';
import type { PluginModule } from '../../../src/scheduler/plugin-api';
import { buildHostView, buildRequestSpec } from '../../../src/scheduler/plugin-testing';
import { loadPluginDirs, parsePluginDirs } from '../../../src/scheduler/runtime/plugin-dirs';
import {
  buildPipeline,
  createRegistry,
  instantiatePlugins,
  listPlugins,
  type SchedulerConfig,
  SchedulerConfigError,
} from '../../../src/scheduler/runtime/registry';
import { runPipeline } from '../../support/plugin';

const passAll: PluginModule = {
  NAME: 'PassAll',
  kind: 'filter',
  create: (_config, handle) => ({
    name: 'PassAll',
    kind: 'filter',
    onError: 'open',
    filter: () => {
      handle.log('looked', { extra: 1 });
      return { fits: true };
    },
  }),
};

const registry = createRegistry(builtinPlugins, [
  { module: passAll, source: '/plugins/pass-all.js' },
]);

/** The message `fn` throws (fails the test when it does not throw). */
function thrown(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('expected an error');
}

describe('createRegistry', () => {
  it('rejects two modules with the same NAME, naming both sources', () => {
    expect(() =>
      createRegistry(builtinPlugins, [
        { module: { ...passAll, NAME: 'RamFilter' }, source: '/p/ram.js' },
      ]),
    ).toThrow('scheduler plugin RamFilter is registered twice (builtin and /p/ram.js)');
    expect(() => createRegistry([passAll, passAll])).toThrow(SchedulerConfigError);
  });

  it('rejects a module without the plugin shape', () => {
    expect(() =>
      createRegistry([
        { NAME: 'X', kind: 'scorer', create: () => null } as unknown as PluginModule,
      ]),
    ).toThrow("builtin: plugin X must export kind 'filter' or 'weigher'");
  });
});

describe('instantiatePlugins', () => {
  it('builds the enabled plugins in configured order', () => {
    const { filters, weighers } = instantiatePlugins(registry, {
      enabledFilters: ['RamFilter', 'PassAll', 'ComputeFilter'],
      enabledWeighers: ['CPUWeigher', 'RAMWeigher'],
      plugins: { RAMWeigher: { multiplier: -1 } },
    });
    expect(filters.map((f) => f.name)).toEqual(['RamFilter', 'PassAll', 'ComputeFilter']);
    expect(weighers.map((w) => [w.name, w.multiplier])).toEqual([
      ['CPUWeigher', 1],
      ['RAMWeigher', -1],
    ]);
  });

  it.each<{ name: string; config: SchedulerConfig; message: string }>([
    {
      name: 'an unknown filter',
      config: { enabledFilters: ['RamFilter', 'NoSuchFilter'], enabledWeighers: [] },
      message:
        'enabledFilters: unknown scheduler filter "NoSuchFilter"; known filters: AggregateImagePropertiesIsolation, AggregateInstanceExtraSpecsFilter, AggregateInstanceTypeFilter, AggregateIoOpsFilter, AggregateMultiTenancyIsolation, AggregateNumInstancesFilter, AggregateTypeAffinityFilter, AllHostsFilter, AvailabilityZoneFilter, ComputeCapabilitiesFilter, ComputeFilter, DifferentHostFilter, DiskFilter, ImagePropertiesFilter, IoOpsFilter, IsolatedHostsFilter, JsonFilter, MetricsFilter, NUMATopologyFilter, NumInstancesFilter, PassAll, PciPassthroughFilter, RamFilter, ReservationFilter, SameHostFilter, ServerGroupAffinityFilter, ServerGroupAntiAffinityFilter, SimpleCIDRAffinityFilter, accelerators_filter, ephemeral_encryption_filter, isolate_aggregates, require_image_type_support, transform_image_metadata',
    },
    {
      name: 'an unknown weigher',
      config: { enabledFilters: [], enabledWeighers: ['NoSuchWeigher'] },
      message:
        'enabledWeighers: unknown scheduler weigher "NoSuchWeigher"; known weighers: BuildFailureWeigher, CPUWeigher, CrossCellWeigher, DiskWeigher, HypervisorVersionWeigher, IoOpsWeigher, MetricsWeigher, NumInstancesWeigher, PCIWeigher, RAMWeigher, ServerGroupSoftAffinityWeigher, ServerGroupSoftAntiAffinityWeigher',
    },
    {
      name: 'a weigher enabled as a filter',
      config: { enabledFilters: ['RAMWeigher'], enabledWeighers: [] },
      message: 'enabledFilters: "RAMWeigher" is a weigher, not a filter',
    },
    {
      name: 'a filter enabled twice',
      config: { enabledFilters: ['RamFilter', 'RamFilter'], enabledWeighers: [] },
      message: 'scheduler filter "RamFilter" is enabled twice',
    },
    {
      name: 'configuration for an unknown plugin',
      config: { enabledFilters: [], enabledWeighers: [], plugins: { RamFiltre: {} } },
      message:
        'plugins: configuration given for unknown scheduler plugin "RamFiltre"; known plugins: AggregateImagePropertiesIsolation, AggregateInstanceExtraSpecsFilter, AggregateInstanceTypeFilter, AggregateIoOpsFilter, AggregateMultiTenancyIsolation, AggregateNumInstancesFilter, AggregateTypeAffinityFilter, AllHostsFilter, AvailabilityZoneFilter, BuildFailureWeigher, CPUWeigher, ComputeCapabilitiesFilter, ComputeFilter, CrossCellWeigher, DifferentHostFilter, DiskFilter, DiskWeigher, HypervisorVersionWeigher, ImagePropertiesFilter, IoOpsFilter, IoOpsWeigher, IsolatedHostsFilter, JsonFilter, MetricsFilter, MetricsWeigher, NUMATopologyFilter, NumInstancesFilter, NumInstancesWeigher, PCIWeigher, PassAll, PciPassthroughFilter, RAMWeigher, RamFilter, ReservationFilter, SameHostFilter, ServerGroupAffinityFilter, ServerGroupAntiAffinityFilter, ServerGroupSoftAffinityWeigher, ServerGroupSoftAntiAffinityWeigher, SimpleCIDRAffinityFilter, accelerators_filter, ephemeral_encryption_filter, isolate_aggregates, require_image_type_support, transform_image_metadata',
    },
    {
      name: 'a misspelt configuration key of a plugin that declares its keys',
      config: {
        enabledFilters: [],
        enabledWeighers: ['RAMWeigher'],
        plugins: { RAMWeigher: { multipler: 2 } },
      },
      message: 'plugins.RAMWeigher: unknown configuration key "multipler"; known keys: multiplier',
    },
    {
      name: 'any configuration key for a plugin that takes none',
      config: {
        enabledFilters: ['RamFilter'],
        enabledWeighers: [],
        plugins: { RamFilter: { x: 1 } },
      },
      message: 'plugins.RamFilter: unknown configuration key "x"; it takes none',
    },
    {
      name: 'a factory rejecting its configuration',
      config: {
        enabledFilters: [],
        enabledWeighers: ['RAMWeigher'],
        plugins: { RAMWeigher: { multiplier: 'x' } },
      },
      message:
        'scheduler plugin RAMWeigher (builtin) failed to start: RAMWeigher: config "multiplier" must be a finite number, got "x"',
    },
  ])('fails at start-up for $name', ({ config, message }) => {
    expect(() => instantiatePlugins(registry, config)).toThrow(new SchedulerConfigError(message));
  });

  it('rejects a factory whose plugin does not carry its NAME', () => {
    const liar = createRegistry([{ ...passAll, NAME: 'Liar' }]);
    expect(() =>
      instantiatePlugins(liar, { enabledFilters: ['Liar'], enabledWeighers: [] }),
    ).toThrow('Liar (builtin): create() must return a plugin whose name is its NAME');
  });

  it("routes a plugin's log lines to the logger, tagged with its name", async () => {
    const lines: [object, string][] = [];
    const logger = {
      warn: () => {},
      info: (fields: object, msg: string) => lines.push([fields, msg]),
    };
    const pipeline = buildPipeline(
      registry,
      { enabledFilters: ['PassAll'], enabledWeighers: [] },
      { logger },
    );
    await runPipeline(
      pipeline,
      [buildHostView({ providers: [{ uuid: 'h1' }] })],
      buildRequestSpec(),
    );
    expect(lines).toEqual([[{ plugin: 'PassAll', extra: 1 }, 'looked']]);
  });

  it('reports an invalid hostSubsetSize as a configuration error', () => {
    expect(() =>
      buildPipeline(registry, { enabledFilters: [], enabledWeighers: [], hostSubsetSize: 0 }),
    ).toThrow(SchedulerConfigError);
  });
});

describe('listPlugins', () => {
  it('lists every plugin with kind, source and enabled position', () => {
    const list = listPlugins(registry, {
      enabledFilters: ['PassAll', 'RamFilter'],
      enabledWeighers: ['RAMWeigher'],
    });
    expect(list.filter((p) => p.position !== null)).toEqual([
      { name: 'PassAll', kind: 'filter', source: '/plugins/pass-all.js', position: 0 },
      { name: 'RamFilter', kind: 'filter', source: 'builtin', position: 1 },
      { name: 'RAMWeigher', kind: 'weigher', source: 'builtin', position: 0 },
    ]);
    expect(list).toHaveLength(builtinPlugins.length + 1);
  });
});

describe('parsePluginDirs', () => {
  it.each([
    [undefined, []],
    ['', []],
    ['/a', ['/a']],
    ['/a: /b ,/c', ['/a', '/b', '/c']],
  ])('%j -> %j', (value, want) => {
    expect(parsePluginDirs(value)).toEqual(want);
  });
});

describe('loadPluginDirs', () => {
  let dir: string;
  const plugin = (name: string) =>
    `exports.NAME = '${name}'; exports.kind = 'filter';\n` +
    `exports.create = () => ({ name: '${name}', kind: 'filter', onError: 'open', filter: () => ({ fits: true }) });\n`;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'berth-plugins-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('loads <name>-filter/-weigher modules and folders only, never executing other files', () => {
    writeFileSync(join(dir, 'b-filter.js'), plugin('BFilter'));
    writeFileSync(join(dir, 'b-filter.test.js'), 'throw new Error("not a plugin")');
    writeFileSync(join(dir, 'README.md'), '# notes');
    writeFileSync(join(dir, 'helper.js'), 'throw new Error("a helper must never run")');
    mkdirSync(join(dir, 'vendor'));
    writeFileSync(join(dir, 'vendor', 'index.js'), 'throw new Error("not a plugin folder")');
    mkdirSync(join(dir, 'a-filter'));
    writeFileSync(join(dir, 'a-filter', 'index.js'), plugin('AFilter'));
    writeFileSync(join(dir, 'a-filter', 'helper.js'), 'throw new Error("not loaded")');
    mkdirSync(join(dir, 'default-export-filter'));
    writeFileSync(
      join(dir, 'default-export-filter', 'index.js'),
      `exports.default = { NAME: 'DefaultFilter', kind: 'filter', create: () => ({}) };`,
    );
    const loaded = loadPluginDirs([dir]);
    expect(loaded.map((p) => [p.module.NAME, p.source])).toEqual([
      ['AFilter', join(dir, 'a-filter', 'index.js')],
      ['BFilter', join(dir, 'b-filter.js')],
      ['DefaultFilter', join(dir, 'default-export-filter', 'index.js')],
    ]);
    const withOperators = createRegistry(builtinPlugins, loaded);
    const { filters } = instantiatePlugins(withOperators, {
      enabledFilters: ['BFilter', 'AFilter'],
      enabledWeighers: [],
    });
    expect(filters.map((f) => f.name)).toEqual(['BFilter', 'AFilter']);
  });

  it.each(['the directory', 'a plugin file', 'a plugin folder'])(
    'refuses to load anything when %s is world-writable',
    (what) => {
      writeFileSync(join(dir, 'b-filter.js'), plugin('BFilter'));
      mkdirSync(join(dir, 'a-filter'));
      writeFileSync(join(dir, 'a-filter', 'index.js'), plugin('AFilter'));
      const target = {
        'the directory': dir,
        'a plugin file': join(dir, 'b-filter.js'),
        'a plugin folder': join(dir, 'a-filter'),
      }[what]!;
      chmodSync(target, statSync(target).mode | 0o002);
      expect(() => loadPluginDirs([dir])).toThrow(
        `BERTH_PLUGIN_DIRS: refusing to load ${target}: it is world-writable`,
      );
    },
  );

  it('fails for a missing directory', () => {
    expect(() => loadPluginDirs([join(dir, 'nope')])).toThrow(
      `BERTH_PLUGIN_DIRS: ${join(dir, 'nope')} is not a directory`,
    );
  });

  it('fails, naming the file and line, for a module with a syntax error', () => {
    const file = join(dir, 'broken-filter.js');
    writeFileSync(
      file,
      'exports.NAME = "Broken";\nexports.kind = "filter";\nexports.create = () => ({ oops: });\n',
    );
    const message = thrown(() => loadPluginDirs([dir]));
    expect(message.startsWith(`${file}:3: cannot load scheduler plugin: `)).toBe(true);
    expect(message).toContain('Unexpected token');
  });

  it('fails, naming the file, line and column, for a module that throws while loading', () => {
    const file = join(dir, 'throwing-filter.js');
    writeFileSync(file, 'exports.NAME = "Throwing";\n  throw new Error("no config file");\n');
    const message = thrown(() => loadPluginDirs([dir]));
    expect(message.startsWith(file)).toBe(true);
    expect(message.slice(file.length)).toMatch(
      /^:2:\d+: cannot load scheduler plugin: no config file$/,
    );
  });

  it('fails, naming the file, for a module without NAME', () => {
    writeFileSync(
      join(dir, 'anon-filter.js'),
      'exports.kind = "filter"; exports.create = () => ({});',
    );
    expect(() => loadPluginDirs([dir])).toThrow(
      `${join(dir, 'anon-filter.js')}: a scheduler plugin must export a non-empty string NAME`,
    );
  });
});
