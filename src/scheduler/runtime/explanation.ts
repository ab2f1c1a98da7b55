// What a scheduling run reports: amendments, per-filter counts and reasons, weights, plugin failures
// (upstream: the "Filter X returned N hosts" / "Filtering removed all hosts" logging in nova/filters.py).
import type { FailurePolicy, HostView, RequestAmendment } from '../plugin-api';

/** The hook that failed. */
export type PluginPhase = 'amendRequest' | 'prepare' | 'filter' | 'weigh';

/** A plugin that threw, overran its time budget or returned something malformed, isolated by the pipeline. */
export interface PluginFailure {
  readonly plugin: string;
  readonly phase: PluginPhase;
  readonly cause: 'error' | 'timeout' | 'invalid-result';
  readonly message: string;
  /** The host being looked at when it failed, if any. */
  readonly host?: string;
  /** `open`/`closed` for filters; weighers are always `dropped` (their weight is left out). */
  readonly policy: FailurePolicy | 'dropped';
}

/** One pre-candidate hook's contribution. */
export interface AmendStep {
  readonly plugin: string;
  readonly amendment: RequestAmendment | null;
  readonly failure?: PluginFailure;
}

/** One host rejected by one filter. */
export interface Rejection {
  /** Root provider uuid. */
  readonly host: string;
  readonly hostName: string;
  /** The filter's message (may carry this host's numbers). */
  readonly reason: string;
  /**
   * The stable cause (`ram.insufficient`): the filter's code, its default code when it gave none,
   * or `plugin.failed_closed`. Rejections are grouped by it (reason-groups.ts).
   */
  readonly code: string;
}

/** One filter's run: `after + rejections.length === before` always holds. */
export interface FilterStep {
  readonly plugin: string;
  readonly before: number;
  readonly after: number;
  readonly rejections: readonly Rejection[];
  /** Wall time spent in the plugin, in milliseconds. */
  readonly durationMs: number;
  readonly failure?: PluginFailure;
}

/** One weigher's run. */
export interface WeighStep {
  readonly plugin: string;
  readonly durationMs: number;
  readonly failure?: PluginFailure;
}

/** One weigher's contribution to one host's weight: `multiplier * normalised`. */
export interface WeightComponent {
  readonly weigher: string;
  readonly raw: number;
  readonly normalised: number;
  readonly multiplier: number;
}

/** A host that passed every filter, with its total weight. */
export interface RankedHost {
  readonly host: HostView;
  readonly weight: number;
  readonly components: readonly WeightComponent[];
}

/** Everything needed to answer "why this host" and "why no valid host". */
export interface Explanation {
  readonly amendments: readonly AmendStep[];
  /** Set when a pre-candidate hook declared the request unsatisfiable (or failed closed). */
  readonly unsatisfiable?: { readonly plugin: string; readonly reason: string };
  /** Hosts handed to the first filter. */
  readonly hostsIn: number;
  readonly filters: readonly FilterStep[];
  /** The filter after which no host was left, if any. */
  readonly stoppedAfter?: string;
  /** Filters not run because no host was left. */
  readonly skippedFilters: readonly string[];
  readonly weighers: readonly WeighStep[];
  /** Every isolated plugin failure, in order. */
  readonly failures: readonly PluginFailure[];
  /** The scheduler profile that ran (SchedulingService sets it; a bare pipeline run has none). */
  readonly profile?: string;
}

/** The pipeline's answer: hosts best first (`hosts[0]` is the one to try first). */
export interface PipelineResult {
  readonly hosts: readonly RankedHost[];
  readonly explanation: Explanation;
}

/** One line per step, Nova log style: `RamFilter: 10 -> 3`, for logs and "no valid host" messages. */
export function summariseExplanation(explanation: Explanation): string[] {
  const lines: string[] = [];
  for (const step of explanation.amendments) {
    const what = step.failure
      ? `failed (${step.failure.cause}, ${step.failure.policy}): ${step.failure.message}`
      : (step.amendment?.note ?? (step.amendment ? 'amended the request' : 'no change'));
    lines.push(`${step.plugin}: ${what}`);
  }
  if (explanation.unsatisfiable) {
    lines.push(
      `${explanation.unsatisfiable.plugin}: unsatisfiable: ${explanation.unsatisfiable.reason}`,
    );
  }
  for (const step of explanation.filters) {
    const failed = step.failure ? ` (failed ${step.failure.policy}: ${step.failure.message})` : '';
    lines.push(`${step.plugin}: ${step.before} -> ${step.after}${failed}`);
  }
  if (explanation.stoppedAfter !== undefined) {
    lines.push(`no host left after ${explanation.stoppedAfter}`);
  }
  for (const step of explanation.weighers) {
    if (step.failure) {
      lines.push(`${step.plugin}: dropped (${step.failure.cause}): ${step.failure.message}`);
    }
  }
  return lines;
}
