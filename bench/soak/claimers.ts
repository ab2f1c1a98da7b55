// The claimer loop: each of N concurrent clients claims, resizes and releases consumers on its
// home replica until the shared claim budget or the deadline runs out.
import type { ConsumerEntry } from './ledger';
import { claim, type OpContext, release, resize } from './operations';

/** Bounds of one run. */
export interface ClaimerPlan {
  readonly clients: number;
  /** Stop after this many claim attempts (all clients together). */
  readonly claims: number;
  /** Stop at this Date.now() whatever the count. */
  readonly deadline: number;
  /** Most consumers one client holds at once. */
  readonly maxHold: number;
  /** Claimers keep going past `claims` until this says the fault plan has finished. */
  readonly done?: () => boolean;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs the claimers to completion; returns what they still (may) hold. */
export async function runClaimers(ctx: OpContext, plan: ClaimerPlan): Promise<ConsumerEntry[]> {
  const stop = () =>
    (ctx.stats.claimAttempts >= plan.claims && (plan.done?.() ?? true)) ||
    Date.now() >= plan.deadline;
  const leftovers: ConsumerEntry[] = [];
  await Promise.all(
    Array.from({ length: plan.clients }, async (_, i) => {
      const held: ConsumerEntry[] = [];
      while (!stop()) {
        const t = ctx.router.pick(i);
        const before = ctx.stats.outcomes.retryable + ctx.stats.outcomes.network;
        if (held.length < plan.maxHold && (held.length === 0 || Math.random() < 0.55)) {
          const r = Math.random();
          const via = r < 0.5 ? 'schedule' : r < 0.85 ? 'setAllocations' : 'rest';
          const e = await claim(ctx, t, via);
          if (e) {
            held.push(e);
          }
        } else {
          const k = Math.floor(Math.random() * held.length);
          const e = held[k]!;
          if (e.generation !== undefined && Math.random() < 0.25) {
            await resize(ctx, t, e);
          } else if (await release(ctx, t, e)) {
            held.splice(k, 1);
          }
        }
        if (ctx.stats.outcomes.retryable + ctx.stats.outcomes.network > before) {
          // A retryable failure: back off a little, as a well-behaved client does.
          await sleep(100 + Math.random() * 200);
        }
      }
      leftovers.push(...held);
    }),
  );
  return leftovers;
}
