// The operation names an operator lists in BERTH_METRICS_OPERATION_NAMES (labels of
// src/observability/graphql-metrics.ts). Kept free of the graphql package: src/config/config.ts
// reads it before `berth serve` starts OpenTelemetry, whose instrumentation must load before
// graphql does.

/** A GraphQL name ([_A-Za-z][_0-9A-Za-z]*) short enough to be a label. */
export const OPERATION_NAME = /^[_A-Za-z][_0-9A-Za-z]{0,63}$/;

/**
 * Parses BERTH_METRICS_OPERATION_NAMES: comma-separated GraphQL operation names.
 * @returns the names, or why not (a message naming the bad entry).
 */
export function parseOperationNames(v: string | undefined): string[] | string {
  const names = (v ?? '')
    .split(',')
    .map((n) => n.trim())
    .filter((n) => n !== '');
  const bad = names.find((n) => !OPERATION_NAME.test(n));
  if (bad !== undefined) {
    return `'${bad.slice(0, 80)}' is not a GraphQL operation name of at most 64 characters`;
  }
  return names;
}
