// Identical scheduling requests share one pipeline evaluation (request amendment, candidates, host
// views, filters, weighers) while nothing it read has changed: a burst of boots of one flavor is
// filtered and weighed once per state of the capacity index, not once per boot. Each
// request still ranks the shared evaluation itself (its own random tie-breaks and host-subset
// pick), and each claim is checked in PostgreSQL as always.
//
// An entry is keyed by the canonical request and stamped with the StateVersion it was computed
// from; a new version means a new evaluation.
// Plugins may also read the clock (maintenance windows and the like), so an entry is shared for
// at most `maxAgeMs`; 0 turns sharing off. Requests that arrive while an evaluation is running
// join it instead of starting their own. A failed evaluation is not kept.

import type { RequestSpec } from '../plugin-api';
import { canonicalRequest } from './request-key';
import { type StateVersion, sameState } from './state-version';

/** Counters (metrics, bench). */
export interface EvaluationMemoStats {
  /** Evaluations run. */
  computed: number;
  /** Requests answered with an evaluation another request ran (or was running). */
  shared: number;
}

interface Entry<V> {
  readonly version: StateVersion;
  readonly at: number;
  readonly value: Promise<V>;
}

const sortedEntries = <T>(o: Readonly<Record<string, T>>) =>
  Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

/**
 * A stable key for requests that must evaluate alike (consumers and ordering aside). `pipeline`
 * names the pipeline that evaluates (ChosenPipeline.key: generation, profile, filter override),
 * so no evaluation of another profile, or of pipelines a reload replaced, is ever shared.
 */
export function evaluationKey(spec: RequestSpec, pipeline: string): string {
  const {
    candidateRequest,
    extraSpecs,
    projectId,
    userId,
    hints,
    instanceHosts,
    availabilityZone,
    serverGroup,
    ...rest
  } = spec;
  // A field added to RequestSpec must be added to the key (plugins may read it): this fails to
  // compile until it is.
  const unkeyed: Record<string, never> = rest;
  return JSON.stringify([
    canonicalRequest(candidateRequest),
    sortedEntries(extraSpecs),
    projectId,
    userId ?? null,
    sortedEntries(hints),
    sortedEntries(instanceHosts),
    availabilityZone ?? null,
    serverGroup
      ? [
          serverGroup.uuid,
          serverGroup.policy,
          serverGroup.maxServerPerHost,
          sortedEntries(serverGroup.hosts),
          sortedEntries(serverGroup.placingHosts ?? {}),
        ]
      : null,
    pipeline,
    unkeyed,
  ]);
}

/** Most distinct requests remembered; the least recently computed goes first. */
const MAX_ENTRIES = 128;

/** Shares evaluations between identical requests computed from the same state. */
export class EvaluationMemo<V> {
  readonly stats: EvaluationMemoStats = { computed: 0, shared: 0 };
  private readonly entries = new Map<string, Entry<V>>();

  constructor(
    private readonly maxAgeMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** The evaluation for `key` at `version`: shared when fresh, else `compute()`'s. */
  get(key: string, version: StateVersion, compute: () => Promise<V>): Promise<V> {
    if (this.maxAgeMs <= 0) {
      this.stats.computed++;
      return compute();
    }
    const now = this.now();
    const hit = this.entries.get(key);
    if (hit && sameState(hit.version, version) && now - hit.at <= this.maxAgeMs) {
      this.stats.shared++;
      return hit.value;
    }
    this.stats.computed++;
    const value = compute();
    const entry: Entry<V> = { version, at: now, value };
    this.entries.delete(key);
    this.entries.set(key, entry);
    if (this.entries.size > MAX_ENTRIES) {
      this.entries.delete(this.entries.keys().next().value as string);
    }
    value.catch(() => {
      if (this.entries.get(key) === entry) {
        this.entries.delete(key);
      }
    });
    return value;
  }
}
