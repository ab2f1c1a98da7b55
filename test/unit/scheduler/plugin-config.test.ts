// Plugin configuration schemas (src/scheduler/plugin-config.ts): the registry takes a module's
// keys from its configSchema, checks the configuration against it and hands create() the result
// with defaults, inline and in worker threads; a module without one is passed its configuration
// as given. The field builders keep the messages plugins always had.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PluginModule } from '../../../src/scheduler/plugin-api';
import {
  booleanField,
  choiceField,
  nameListField,
  numberField,
  parsePluginConfig,
  pluginConfig,
} from '../../../src/scheduler/plugin-config';
import { outOfProcessPlugins } from '../../../src/scheduler/runtime/out-of-process';
import {
  createRegistry,
  instantiatePlugins,
  SchedulerConfigError,
} from '../../../src/scheduler/runtime/registry';

// An operator plugin as compiled (docs/examples/compile-plugin.cjs): no zod of its own.
const PREFIX_FILTER = `'use strict';
exports.NAME = 'PrefixFilter'; exports.kind = 'filter';
exports.configSchema = (z) => z.object({
  prefix: z.string({ error: 'must be a string' }).default('n-'),
  strict: z.boolean().default(false),
});
exports.create = (config) => ({
  name: 'PrefixFilter', kind: 'filter', onError: 'open',
  filter: (host) => (host.name.startsWith(config.prefix) ? { fits: true } : { fits: false, reason: config.prefix }),
  seen: config,
});`;

describe('plugin configuration schemas', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'berth-plugin-config-'));
    writeFileSync(join(dir, 'prefix-filter.js'), PREFIX_FILTER);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const inline = () => {
    const module: PluginModule = { ...require(join(dir, 'prefix-filter.js')) };
    return createRegistry([], [{ module, source: 'prefix-filter.js' }]);
  };
  const build = (plugins: Record<string, Record<string, unknown>>) =>
    instantiatePlugins(inline(), {
      enabledFilters: ['PrefixFilter'],
      enabledWeighers: [],
      plugins,
    });

  it('takes the keys from the schema', () => {
    expect(inline().get('PrefixFilter')!.module.CONFIG_KEYS).toEqual(['prefix', 'strict']);
    expect(() => build({ PrefixFilter: { prefx: 'a' } })).toThrow(
      'plugins.PrefixFilter: unknown configuration key "prefx"; known keys: prefix, strict',
    );
  });

  it('checks values before create, naming the plugin and the key', () => {
    expect(() => build({ PrefixFilter: { prefix: 3 } })).toThrow(
      new SchedulerConfigError(
        'scheduler plugin PrefixFilter (prefix-filter.js) failed to start: PrefixFilter: config "prefix" must be a string',
      ),
    );
  });

  it('hands create the configuration with defaults filled in', () => {
    const [plugin] = build({ PrefixFilter: { strict: true } }).filters;
    expect((plugin as unknown as { seen: object }).seen).toEqual({ prefix: 'n-', strict: true });
  });

  it('does the same in worker threads', async () => {
    const operator = outOfProcessPlugins(
      {
        pluginDirs: [dir],
        scheduler: { pluginIsolation: 'worker', pluginWorkers: 1, extenders: [] },
      },
      { info: () => {}, warn: () => {} },
    );
    try {
      const registry = createRegistry([], operator.plugins);
      expect(registry.get('PrefixFilter')!.module.CONFIG_KEYS).toEqual(['prefix', 'strict']);
      const config = (plugins: Record<string, Record<string, unknown>>) => ({
        enabledFilters: ['PrefixFilter'],
        enabledWeighers: [],
        plugins,
      });
      expect(() => instantiatePlugins(registry, config({ PrefixFilter: { prefix: 3 } }))).toThrow(
        'PrefixFilter: config "prefix" must be a string',
      );
      expect(() => instantiatePlugins(registry, config({}))).not.toThrow();
    } finally {
      await operator.close();
    }
  });

  it.each([
    [{ m: 'x' }, 'P: config "m" must be a finite number, got "x"'],
    [{ b: 1 }, 'P: config "b" must be true or false, got 1'],
    [{ c: 'all' }, 'P: config "c" must be "both" or "source", got "all"'],
    [{ l: [''] }, 'P: config "l" must be a non-empty string or a list of them, got [""]'],
  ])('%j: %s', (raw, message) => {
    const schema = pluginConfig({
      m: numberField(1, ''),
      b: booleanField(false, ''),
      c: choiceField(['both', 'source'], 'both', ''),
      l: nameListField(''),
    });
    expect(() => parsePluginConfig(schema, 'P', raw)).toThrow(message);
    const parsed = parsePluginConfig(schema, 'P', {});
    expect(parsed).toEqual({ m: 1, b: false, c: 'both' });
    expect(parsePluginConfig(schema, 'P', parsed)).toEqual(parsed);
  });
});
