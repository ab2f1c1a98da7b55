// Microversion negotiation: the OpenStack-API-Version header, 'latest', min 1.0 / max 1.39
// (upstream: placement/microversion.py and microversion_parse's extract_version / middleware).
import { MAX_MICROVERSION } from '../lib/version';
import { HttpError } from './http-error';

/** The header name (lower case, as Node presents it). */
export const VERSION_HEADER = 'openstack-api-version';
/** The service type in the header value. */
export const SERVICE_TYPE = 'placement';

/** A requested microversion, X.Y. */
export class Microversion {
  constructor(
    readonly major: number,
    readonly minor: number,
  ) {}

  /** Compares to `other`: negative, zero or positive. */
  compare(other: Microversion): number {
    return this.major - other.major || this.minor - other.minor;
  }

  /** Placement's want_version.matches(min, max): min <= this <= max (max defaults to the newest). */
  matches(min: string, max: string = MAX_VERSION): boolean {
    return this.compare(bound(min)) >= 0 && this.compare(bound(max)) <= 0;
  }

  /** 'X.Y'. */
  toString(): string {
    return `${this.major}.${this.minor}`;
  }
}

/** Lowest supported version. */
export const MIN_VERSION = '1.0';
/** Highest supported version ('latest'). */
export const MAX_VERSION = MAX_MICROVERSION;

const MAX_MINOR = Number(MAX_VERSION.split('.')[1]);

/** Parsed version bounds: handlers compare against a few literals, many times per request. */
const bounds = new Map<string, Microversion>();

function bound(v: string): Microversion {
  let out = bounds.get(v);
  if (!out) {
    out = parseVersionOrThrow(v);
    if (bounds.size < 256) {
      bounds.set(v, out);
    }
  }
  return out;
}

function pyInt(s: string): number | undefined {
  const t = s.trim();
  return /^[+-]?\d+$/.test(t) ? Number(t) : undefined;
}

/**
 * microversion_parse.parse_version_string: 'X.Y' with Python int() parsing of each part.
 * @throws HttpError 400 ('invalid version string: ...') when malformed.
 */
export function parseVersionOrThrow(s: string): Microversion {
  const dot = s.indexOf('.');
  const parts = dot < 0 ? [s] : [s.slice(0, dot), s.slice(dot + 1)];
  const nums = parts.map(pyInt);
  if (nums.length !== 2 || nums.some((n) => n === undefined)) {
    const bad = nums.indexOf(undefined);
    const why =
      bad >= 0
        ? `invalid literal for int() with base 10: '${parts[bad]}'`
        : "__new__() missing 1 required positional argument: 'minor'";
    throw new HttpError(400, `Invalid microversion: invalid version string: ${s}; ${why}`);
  }
  return new Microversion(nums[0]!, nums[1]!);
}

/** The version asked for `placement` in the header value (first occurrence wins), if any. */
export function requestedVersion(header: string | undefined): string | undefined {
  if (!header) {
    return undefined;
  }
  let found: string | undefined;
  for (const part of header.split(',').reverse()) {
    const m = /^(\S+)\s+(.+)$/.exec(part.trim());
    if (m && m[1]!.toLowerCase() === SERVICE_TYPE) {
      found = m[2]!.trim();
    }
  }
  return found;
}

/**
 * microversion_parse.extract_version: the header's version (default 1.0, 'latest' = 1.39),
 * which must be one Placement knows.
 * @throws HttpError 400 for malformed versions, 406 for unknown ones.
 */
export function negotiateVersionOrThrow(header: string | undefined): Microversion {
  let s = requestedVersion(header) ?? MIN_VERSION;
  if (s === 'latest') {
    s = MAX_VERSION;
  }
  const v = parseVersionOrThrow(s);
  if (v.major !== 1 || v.minor < 0 || v.minor > MAX_MINOR) {
    throw new HttpError(406, `Invalid microversion: Unacceptable version header: ${s}`);
  }
  return v;
}
