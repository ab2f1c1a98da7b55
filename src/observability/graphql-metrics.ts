// GraphQL operation timing for /metrics: a yoga plugin observing each execution by operation name
// and type. Names are bounded by what a low-privilege caller cannot fill: a name gets its own
// label when the operator listed it (BERTH_METRICS_OPERATION_NAMES), or when a trusted caller
// (`scheduler`, `service`, `admin`, or anyone with auth off) used it first, up to `maxNames` such
// names. `member` and `reader` tokens reuse those labels and never create one: their other names
// read `other`, so sending random names cannot push Nova's or the console's operations out of
// their labels. Unnamed operations are `anonymous`; the query text is never a label.
import { getOperationAST } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Histogram } from 'prom-client';

/** Distinct operation names trusted callers may add as labels (per app). */
export const MAX_OPERATION_NAMES = 100;

/** Roles whose new operation names become labels: the services that run the cloud. */
export const LABELLING_ROLES: ReadonlySet<string> = new Set(['scheduler', 'service', 'admin']);

/** Who ran an operation, as far as labels care. */
export type LabelCaller = { readonly role: string } | null;

/** True when `caller` may add a label: a labelling role, or `null` (auth off: no caller). */
export function mayAddLabel(caller: LabelCaller | undefined): boolean {
  return caller === null || (caller !== undefined && LABELLING_ROLES.has(caller.role));
}

/** The label of an operation name, from the configured names and those trusted callers used. */
export class OperationNames {
  private readonly seen = new Set<string>();
  private readonly allowed: ReadonlySet<string>;

  /**
   * @param maxNames most names trusted callers may add
   * @param allowed names that always have their own label (not counted in maxNames)
   */
  constructor(
    private readonly maxNames = MAX_OPERATION_NAMES,
    allowed: readonly string[] = [],
  ) {
    this.allowed = new Set(allowed);
  }

  /**
   * `name` itself when configured or already labelled, or when `mayAdd` and fewer than maxNames
   * names were added; `anonymous` for no name; `other` else.
   */
  label(name: string | undefined | null, mayAdd: boolean): string {
    if (!name) {
      return 'anonymous';
    }
    if (this.allowed.has(name) || this.seen.has(name)) {
      return name;
    }
    // GraphQL names are [_A-Za-z][_0-9A-Za-z]*; very long ones are not worth a series.
    if (!mayAdd || this.seen.size >= this.maxNames || name.length > 64) {
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
      const caller = (args.contextValue as { caller?: LabelCaller } | undefined)?.caller;
      const started = performance.now();
      return {
        onExecuteDone() {
          histogram.observe(
            {
              operation_name: names.label(op?.name?.value, mayAddLabel(caller)),
              operation_type: op?.operation ?? 'unknown',
            },
            (performance.now() - started) / 1000,
          );
        },
      };
    },
  };
}
