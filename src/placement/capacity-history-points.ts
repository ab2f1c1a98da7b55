// Capacity history down-sampling (berth extension): the pure part of the capacityHistory query.
// Samples are taken every `interval` seconds; a range longer than `points` samples is read in
// coarser steps, each step keeping its busiest sample (the one with the most used), so a peak is
// never averaged away.

/** One stored sample of one scope and resource class. */
export interface CapacitySample {
  /** Bucket start, in seconds since the epoch (aligned to the sampling interval). */
  readonly at: number;
  readonly capacity: number;
  readonly used: number;
}

/**
 * The spacing of the points of a range of `rangeSeconds` sampled every `intervalSeconds`, so that
 * it holds at most `points` points: the interval itself when it fits, else the smallest whole
 * multiple of it that does.
 */
export function stepSeconds(rangeSeconds: number, intervalSeconds: number, points: number): number {
  const raw = Math.ceil(rangeSeconds / intervalSeconds);
  return raw <= points ? intervalSeconds : intervalSeconds * Math.ceil(raw / points);
}

/**
 * `samples` (oldest first) down-sampled to steps of `step` seconds aligned to the epoch: per step
 * the sample with the most used (the latest of equals), reported at the step's start; at most the
 * newest `points` steps.
 */
export function downsample(
  samples: readonly CapacitySample[],
  step: number,
  points: number,
): CapacitySample[] {
  const out: CapacitySample[] = [];
  for (const s of samples) {
    const at = Math.floor(s.at / step) * step;
    const last = out[out.length - 1];
    if (last && last.at === at) {
      if (s.used >= last.used) {
        out[out.length - 1] = { at, capacity: s.capacity, used: s.used };
      }
    } else {
      out.push({ at, capacity: s.capacity, used: s.used });
    }
  }
  return out.length > points ? out.slice(out.length - points) : out;
}

/** The bucket `atMs` falls in: its start, in seconds since the epoch. */
export function bucketStart(atMs: number, intervalSeconds: number): number {
  const s = Math.floor(atMs / 1000);
  return s - (s % intervalSeconds);
}
