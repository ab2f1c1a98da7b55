// Python repr() of JSON values, so REST error messages read as Placement's do (upstream messages
// interpolate Python objects: jsonschema's "'x' is not of type 'integer'", set/list reprs).

/** A JSON value as parsed from a request body. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function reprString(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const code = ch.codePointAt(0)!;
    if (ch === '\\') {
      out += '\\\\';
    } else if (ch === quote) {
      out += `\\${quote}`;
    } else if (ch === '\n') {
      out += '\\n';
    } else if (ch === '\r') {
      out += '\\r';
    } else if (ch === '\t') {
      out += '\\t';
    } else if (code < 0x20 || code === 0x7f) {
      out += `\\x${code.toString(16).padStart(2, '0')}`;
    } else {
      out += ch;
    }
  }
  return out + quote;
}

function reprNumber(n: number): string {
  if (Number.isNaN(n)) {
    return 'nan';
  }
  if (!Number.isFinite(n)) {
    return n > 0 ? 'inf' : '-inf';
  }
  return String(n);
}

/**
 * Python's repr() of a JSON value: 'str', True/False/None, [a, b], {'k': v}.
 * With `sortKeys` dict keys are sorted (pprint.pformat's order).
 */
export function pyRepr(v: unknown, sortKeys = false): string {
  if (v === null || v === undefined) {
    return 'None';
  }
  if (typeof v === 'boolean') {
    return v ? 'True' : 'False';
  }
  if (typeof v === 'number') {
    return reprNumber(v);
  }
  if (typeof v === 'string') {
    return reprString(v);
  }
  if (Array.isArray(v)) {
    return `[${v.map((x) => pyRepr(x, sortKeys)).join(', ')}]`;
  }
  if (typeof v === 'object') {
    const keys = Object.keys(v as object);
    if (sortKeys) {
      keys.sort();
    }
    const rec = v as Record<string, unknown>;
    return `{${keys.map((k) => `${reprString(k)}: ${pyRepr(rec[k], sortKeys)}`).join(', ')}}`;
  }
  return String(v);
}
