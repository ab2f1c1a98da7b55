// Checks the built-in plugin list: one folder per plugin named after its NAME, every plugin starts with
// an empty configuration, every filter that can reject exports its rejection reasons as constants,
// and every host filter that can reject exports well-formed reason codes, listed in
// docs/scheduler-plugins.md.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { PluginHandle } from '../src/scheduler/plugin-api';
import { createRegistry } from '../src/scheduler/runtime/registry';
import { isReasonCode } from '../src/scheduler/runtime/verdict';
import { builtinPlugins } from './registry';

/**
 * 'RAMWeigher' -> 'ram-weigher', 'AggregateInstanceTypeFilter' -> 'aggregate-instance-type-filter',
 * and Nova's request filter functions 'isolate_aggregates' -> 'isolate-aggregates'.
 */
function kebab(name: string): string {
  return name
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1-$2')
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replaceAll('_', '-')
    .toLowerCase();
}

// Plugin folders have an index.ts exporting NAME (most end in -filter or -weigher; Nova's
// AggregateMultiTenancyIsolation does not); other folders hold code a plugin family shares
// (capacity/, server-group/).
const folders = readdirSync(__dirname).filter((f) => {
  const index = join(__dirname, f, 'index.ts');
  return (
    statSync(join(__dirname, f)).isDirectory() &&
    existsSync(index) &&
    /^export const NAME = /m.test(readFileSync(index, 'utf8'))
  );
});

describe('filters/registry', () => {
  it('registers every plugin folder exactly once, under the kebab-case of its NAME', () => {
    expect(builtinPlugins.map((m) => kebab(m.NAME)).sort()).toEqual([...folders].sort());
  });

  it('builds a registry without duplicate names', () => {
    expect(createRegistry(builtinPlugins).size).toBe(builtinPlugins.length);
  });

  it.each(builtinPlugins.map((m) => [m.NAME, m] as const))(
    '%s starts with an empty configuration',
    (name, module) => {
      const handle: PluginHandle = { name, config: {}, log: () => {} };
      const plugin = module.create({}, handle);
      expect(plugin.name).toBe(name);
      expect(plugin.kind).toBe(module.kind);
    },
  );

  // Filters that never reject a host have no reason to export (Nova's no-op AllHostsFilter), nor
  // do pre-candidate hooks that only narrow the query and never make a request unplaceable.
  const neverRejects = new Set([
    'AllHostsFilter',
    'require_image_type_support',
    'isolate_aggregates',
    'accelerators_filter',
  ]);
  it.each(
    builtinPlugins
      .filter((m) => m.kind === 'filter' && !neverRejects.has(m.NAME))
      .map((m) => [m.NAME, m] as const),
  )('%s exports its rejection reasons as REASON_* constants', (_name, module) => {
    const reasons = Object.entries(module).filter(
      ([key, value]) => key.startsWith('REASON_') && typeof value === 'string',
    );
    expect(reasons.length).toBeGreaterThan(0);
  });

  it.each(
    builtinPlugins
      .filter((m) => !neverRejects.has(m.NAME))
      .filter((m) => {
        const plugin = m.create({}, { name: m.NAME, config: {}, log: () => {} });
        return typeof (plugin as { filter?: unknown }).filter === 'function';
      })
      .map((m) => [m.NAME, m] as const),
  )('%s exports its reason codes as well-formed CODE_* constants', (_name, module) => {
    const codes = Object.entries(module).filter(([key]) => key.startsWith('CODE_'));
    expect(codes.length).toBeGreaterThan(0);
    const doc = readFileSync(join(__dirname, '../docs/scheduler-plugins.md'), 'utf8');
    for (const [key, code] of codes) {
      expect([key, isReasonCode(code)]).toEqual([key, true]);
      // docs/scheduler-plugins.md lists every built-in code (its "Reason codes" table).
      expect([key, doc.includes(`| \`${code as string}\` |`)]).toEqual([key, true]);
    }
  });
});
