// GraphQL operation timing for /metrics: a yoga plugin observing each execution by operation name
// and type. Names are bounded: the first `maxNames` distinct names seen keep their own label,
// later ones read `other`, unnamed operations `anonymous`; the query text is never a label.
import { getOperationAST } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Histogram } from 'prom-client';

/** Distinct operation names that get their own label (per app). */
export const MAX_OPERATION_NAMES = 100;

/** The label of an operation name, from a registry of the first names seen. */
export class OperationNames {
  private readonly seen = new Set<string>();

  constructor(private readonly maxNames = MAX_OPERATION_NAMES) {}

  /** `name` itself while fewer than maxNames names were seen; `anonymous` or `other` else. */
  label(name: string | undefined | null): string {
    if (!name) {
      return 'anonymous';
    }
    if (this.seen.has(name)) {
      return name;
    }
    // GraphQL names are [_A-Za-z][_0-9A-Za-z]*; very long ones are not worth a series.
    if (this.seen.size >= this.maxNames || name.length > 64) {
      return 'other';
    }
    this.seen.add(name);
    return name;
  }
}

/** A yoga plugin that times every execution into `histogram`. */
export function useOperationMetrics(
  histogram: Histogram<'operation_name' | 'operation_type'>,
  names = new OperationNames(),
): Plugin {
  return {
    onExecute({ args }) {
      const op = getOperationAST(args.document, args.operationName);
      const started = performance.now();
      return {
        onExecuteDone() {
          histogram.observe(
            {
              operation_name: names.label(op?.name?.value),
              operation_type: op?.operation ?? 'unknown',
            },
            (performance.now() - started) / 1000,
          );
        },
      };
    },
  };
}
