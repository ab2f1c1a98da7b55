// Settings given as JSON in an environment variable, or as `@path` to a JSON file read when the
// setting is loaded (again on a scheduler reload): BERTH_SCHEDULER_CONFIG, _PROFILES, _EXTENDERS.

import { readFileSync } from 'node:fs';

/** A parsed JSON setting. */
export interface JsonSetting {
  readonly value: unknown;
  /** True when some object in it has a `__proto__` key (dropped or a prototype: never a setting). */
  readonly protoKey: boolean;
}

/**
 * Reads and parses `raw` (JSON, or `@path`).
 * @throws Error whose message says what is wrong without the variable's name (the caller adds it)
 *   and never quotes the text: from a file it could be anything.
 */
export function readJsonSetting(raw: string): JsonSetting {
  const file = raw.startsWith('@') ? raw.slice(1) : undefined;
  let text = raw;
  if (file !== undefined) {
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      throw new Error(`cannot read ${file}: ${(err as Error).message}`);
    }
  }
  let protoKey = false;
  try {
    const value: unknown = JSON.parse(text, (key, v: unknown) => {
      protoKey ||= key === '__proto__';
      return v;
    });
    return { value, protoKey };
  } catch (err) {
    const at = /position (\d+)/.exec((err as Error).message)?.[1];
    throw new Error(
      `${file === undefined ? 'it is' : `${file} is`} not JSON${at === undefined ? '' : ` (error at character ${at})`}`,
    );
  }
}
