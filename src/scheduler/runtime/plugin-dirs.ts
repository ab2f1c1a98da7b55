// Operator plugin directories (BERTH_PLUGIN_DIRS): which files are plugins, refusing what anyone
// on the machine could write, and loading them into registry entries (src/scheduler/runtime/registry.ts).
import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { errorMessage } from './isolation';
import { loadErrorLocation, loadErrorSource } from './load-error';
import { type RegisteredPlugin, SchedulerConfigError, toPluginModuleOrThrow } from './registry';

/** Splits a `BERTH_PLUGIN_DIRS` value: paths separated by `:` (or `,`), blanks ignored. */
export function parsePluginDirs(value: string | undefined): string[] {
  return (value ?? '')
    .split(/[:,]/)
    .map((dir) => dir.trim())
    .filter((dir) => dir !== '');
}

/** A plugin module: `<name>-filter` or `<name>-weigher`, as `.js`/`.cjs`/`.mjs` or a folder. */
const PLUGIN_NAME = /^[^.].*-(?:filter|weigher)$/;
const MODULE_FILE = /^([^.].*-(?:filter|weigher))\.(?:c?js|mjs)$/;
const INDEX_FILES = ['index.js', 'index.cjs', 'index.mjs'];

/** Refuses a path anyone on the machine may write: its code would run inside berth. */
function refuseWorldWritable(path: string): void {
  const mode = statSync(path).mode;
  if ((mode & 0o002) !== 0) {
    throw new SchedulerConfigError(
      `BERTH_PLUGIN_DIRS: refusing to load ${path}: it is world-writable, so anyone on this machine could run code inside berth (chmod o-w ${path})`,
    );
  }
}

function pluginFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
    a.name.localeCompare(b.name),
  )) {
    const path = join(dir, entry.name);
    if (entry.isFile() && MODULE_FILE.test(entry.name)) {
      files.push(path);
    } else if (entry.isDirectory() && PLUGIN_NAME.test(entry.name)) {
      refuseWorldWritable(path);
      const index = INDEX_FILES.map((f) => join(path, f)).find((f) =>
        statSync(f, { throwIfNoEntry: false })?.isFile(),
      );
      if (index !== undefined) {
        files.push(index);
      }
    }
  }
  return files;
}

/**
 * The operator plugin files `loadPluginDirs` loads, in load order (see there), without loading them.
 * @throws SchedulerConfigError for a missing or world-writable directory or plugin file.
 */
export function pluginFilesOf(dirs: readonly string[]): string[] {
  const files: string[] = [];
  for (const dir of dirs.map((d) => resolve(d))) {
    if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) {
      throw new SchedulerConfigError(`BERTH_PLUGIN_DIRS: ${dir} is not a directory`);
    }
    refuseWorldWritable(dir);
    for (const file of pluginFiles(dir)) {
      refuseWorldWritable(file);
      files.push(file);
    }
  }
  return files;
}

/**
 * Loads operator plugins: every `<name>-filter.js` / `<name>-weigher.js` (or `.cjs`, `.mjs`) file
 * directly in each directory and every `<name>-filter` / `<name>-weigher` sub-directory's
 * `index.js` (the built-in folder layout). Nothing else in the directory is ever executed. Each
 * must export NAME, kind and create.
 * @throws SchedulerConfigError for a missing or world-writable directory or plugin file, or a
 *   module that fails to load or has the wrong shape.
 */
export function loadPluginDirs(dirs: readonly string[]): RegisteredPlugin[] {
  return pluginFilesOf(dirs).map((file) => {
    let exported: unknown;
    try {
      exported = require(file);
    } catch (err) {
      const source = loadErrorSource(err, file);
      throw new SchedulerConfigError(
        `${loadErrorLocation(err, file)}: cannot load scheduler plugin: ${errorMessage(err)}${source ? ` (at: ${source})` : ''}`,
      );
    }
    return { module: toPluginModuleOrThrow(exported, file), source: file };
  });
}
