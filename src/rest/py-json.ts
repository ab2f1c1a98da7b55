// Python's JSON number formatting for the fields Placement stores as floats: json.dumps writes a
// float with float.__repr__ (`4.0`, `1.5`, `1e-05`, `1e+16`), where JSON.stringify writes `4`.
// Only `allocation_ratio` is a float in Placement's responses (inventories); every other number
// is an int. (upstream: oslo_serialization.jsonutils.dumps -> json.dumps, float_repr.)

/**
 * `n` as Python's repr(float) writes it: the shortest round-trip digits (the same digits
 * JavaScript chooses), positional notation for decimal exponents -4..15 with at least one digit
 * after the point, scientific notation ('1e-05', '1.5e+16') otherwise.
 */
export function pyFloat(n: number): string {
  if (!Number.isFinite(n)) {
    return Number.isNaN(n) ? 'NaN' : n > 0 ? 'Infinity' : '-Infinity';
  }
  if (Object.is(n, -0)) {
    return '-0.0';
  }
  if (n === 0) {
    return '0.0';
  }
  const sign = n < 0 ? '-' : '';
  const [mantissa, expText] = Math.abs(n).toExponential().split('e') as [string, string];
  const digits = mantissa.replace('.', '');
  const exp = Number(expText);
  if (exp < -4 || exp >= 16) {
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const e = Math.abs(exp);
    return `${sign}${m}e${exp < 0 ? '-' : '+'}${e < 10 ? `0${e}` : e}`;
  }
  if (exp < 0) {
    return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
  }
  const whole = digits.slice(0, exp + 1).padEnd(exp + 1, '0');
  const frac = digits.slice(exp + 1);
  return `${sign}${whole}.${frac || '0'}`;
}

/**
 * JSON text of `value` as JSON.stringify writes it, except that numbers under the object keys
 * in `floatKeys` are written as Python floats ({@link pyFloat}) and bigints as integers. For the
 * small per-route bodies that carry floats; the large writers (candidates) carry none.
 */
export function jsonWithFloats(value: unknown, floatKeys: ReadonlySet<string>): string {
  const write = (v: unknown, asFloat: boolean): string | undefined => {
    if (typeof v === 'number') {
      return asFloat && Number.isFinite(v) ? pyFloat(v) : JSON.stringify(v);
    }
    if (typeof v === 'bigint') {
      return String(v); // an integer Placement echoes as the client wrote it (see callers)
    }
    if (Array.isArray(v)) {
      return `[${v.map((x) => write(x, false) ?? 'null').join(',')}]`;
    }
    if (
      v !== null &&
      typeof v === 'object' &&
      typeof (v as { toJSON?: unknown }).toJSON !== 'function'
    ) {
      const parts: string[] = [];
      for (const [k, x] of Object.entries(v)) {
        const text = write(x, floatKeys.has(k));
        if (text !== undefined) {
          parts.push(`${JSON.stringify(k)}:${text}`);
        }
      }
      return `{${parts.join(',')}}`;
    }
    return JSON.stringify(v);
  };
  return write(value, false) ?? 'null';
}
