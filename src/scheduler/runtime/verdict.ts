// Reading a filter's verdict and its reason code (no Nova counterpart: Nova filters answer a bare
// boolean and log their reason; the code is berth's, in the spirit of Kubernetes' Status reasons).
import { errorMessage } from './isolation';

/** What a reason code must look like: lowercase dotted words, e.g. `availability_zone.mismatch`. */
export const REASON_CODE_PATTERN = /^[a-z][a-z0-9_]*(\.[a-z0-9_]+)*$/;

/** Longest reason code accepted (codes group rejections; they are short names, not messages). */
export const MAX_REASON_CODE_LENGTH = 100;

/** The code of the rejections a filter that failed closed produces (every host it was handed). */
export const FAILED_CLOSED_CODE = 'plugin.failed_closed';

/** True when `code` is a well-formed reason code. */
export function isReasonCode(code: unknown): code is string {
  return (
    typeof code === 'string' &&
    code.length <= MAX_REASON_CODE_LENGTH &&
    REASON_CODE_PATTERN.test(code)
  );
}

/**
 * The code given to a plugin's rejections that carry none: its NAME in snake case
 * (`RamFilter` -> `ram_filter`, `NUMATopologyFilter` -> `numa_topology_filter`,
 * `my-filter` -> `my_filter`). A name that yields no letter first is prefixed with `plugin_`.
 */
export function defaultReasonCode(pluginName: string): string {
  const snake = pluginName
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, MAX_REASON_CODE_LENGTH - 'plugin_'.length);
  if (snake === '') {
    return 'plugin';
  }
  return /^[a-z]/.test(snake) ? snake : `plugin_${snake}`;
}

/** A verdict as the pipeline keeps it: a rejection always has its code. */
export type ReadVerdict =
  | { readonly fits: true }
  | { readonly fits: false; readonly reason: string; readonly code: string };

const FITS: ReadVerdict = Object.freeze({ fits: true });

/**
 * The verdict a filter returned, read once into a fresh object with the code filled in
 * (`defaultCode` when the filter gave none), or the problem when it is not a verdict or its code
 * is malformed. Never throws (a getter or Proxy that throws reads as "not a verdict").
 */
export function readVerdict(
  value: unknown,
  defaultCode: string,
): { readonly verdict: ReadVerdict } | { readonly problem: string } {
  const shape = () => ({
    problem: `verdict must be { fits: true } or { fits: false, reason, code? }, got ${errorMessage(value)}`,
  });
  try {
    if (typeof value !== 'object' || value === null) {
      return shape();
    }
    const v = value as { fits?: unknown; reason?: unknown; code?: unknown };
    const fits = v.fits;
    if (fits === true) {
      return { verdict: FITS };
    }
    const reason = fits === false ? v.reason : undefined;
    if (typeof reason !== 'string') {
      return shape();
    }
    const code = v.code;
    if (code === undefined) {
      return { verdict: { fits: false, reason, code: defaultCode } };
    }
    if (!isReasonCode(code)) {
      return {
        problem: `reason code must be lowercase dotted words (${REASON_CODE_PATTERN.source}, at most ${MAX_REASON_CODE_LENGTH} characters), got ${errorMessage(code)}`,
      };
    }
    return { verdict: { fits: false, reason, code } };
  } catch {
    return shape();
  }
}
