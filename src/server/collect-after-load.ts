// One full garbage collection after the capacity index is loaded, before the port opens. The
// load reads every provider's rows and leaves them as garbage in the old generation, whose limit
// V8 then sets from that peak: without a collection here a worker keeps the headroom (about
// 100 MiB at 100,000 hosts) for the rest of its life. With --expose-gc (or node's `gc` already
// exposed) it calls that; otherwise it exposes V8's gc for a moment through a new context (the
// documented --expose-gc flag, set at run time: V8 reads it when a context is created).

import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Runs a full collection; returns false when V8 offered none (nothing happens then). */
export function collectAfterLoad(): boolean {
  let gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) {
    try {
      setFlagsFromString('--expose-gc');
      gc = runInNewContext('typeof gc === "function" ? gc : undefined') as (() => void) | undefined;
    } catch {
      gc = undefined;
    } finally {
      setFlagsFromString('--no-expose-gc');
    }
  }
  if (!gc) {
    return false;
  }
  gc();
  return true;
}
