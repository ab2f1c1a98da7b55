// docs/scheduler-plugins.md's configuration table is the built-in plugins' configuration schemas
// (src/scheduler/plugin-config.ts configTable). BERTH_WRITE_DOCS=1 rewrites the table in place.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { builtinPlugins } from '../../../filters/registry';
import { configTable } from '../../../src/scheduler/plugin-config';

const PAGE = join(__dirname, '../../../docs/scheduler-plugins.md');
const START = "<!-- config-table: generated from the plugins' configSchema -->\n";
const END = '\n<!-- end config-table -->';

describe('docs/scheduler-plugins.md configuration table', () => {
  it("is generated from every built-in plugin's configuration schema", () => {
    const page = readFileSync(PAGE, 'utf8');
    const from = page.indexOf(START);
    const to = page.indexOf(END, from);
    expect(from).toBeGreaterThan(0);
    const shown = page.slice(from + START.length, to);
    const wanted = configTable(builtinPlugins);
    if (shown !== wanted && process.env.BERTH_WRITE_DOCS === '1') {
      writeFileSync(PAGE, page.slice(0, from + START.length) + wanted + page.slice(to));
      return;
    }
    // On a difference: BERTH_WRITE_DOCS=1 npx jest test/unit/scheduler/plugin-config-table.test.ts
    expect(shown).toBe(wanted);
  });

  it("takes every built-in plugin's keys from its schema", () => {
    for (const module of builtinPlugins) {
      expect(module.configSchema).toBeDefined();
    }
  });
});
