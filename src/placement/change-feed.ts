// A pull-based feed of the change bus for one live subscriber (GraphQL subscriptions). Changes
// arrive from this replica's writes and, through LISTEN/NOTIFY, from every other replica. A
// subscriber that reads slower than changes arrive never holds more than `maxBuffered` of them:
// when the buffer is full it is emptied and a single `resync` event takes its place, telling
// the subscriber to re-read what it shows instead of applying each change.
import type { Change, ChangeBus } from './change-bus';

/** One event of a feed. */
export type FeedEvent =
  | { readonly kind: 'change'; readonly change: Change }
  | { readonly kind: 'resync' };

/** An async iterator over the bus; `return()` (or `for await` ending) unsubscribes. */
export function changeFeed(
  bus: ChangeBus,
  opts: { maxBuffered: number },
): AsyncIterableIterator<FeedEvent> & { readonly buffered: number } {
  const queue: FeedEvent[] = [];
  let waiting: ((r: IteratorResult<FeedEvent>) => void) | undefined;
  let done = false;
  const push = (event: FeedEvent) => {
    if (waiting) {
      const w = waiting;
      waiting = undefined;
      w({ value: event, done: false });
      return;
    }
    if (queue.length >= opts.maxBuffered) {
      queue.length = 0;
      queue.push({ kind: 'resync' });
      return;
    }
    if (queue.at(-1)?.kind !== 'resync' || event.kind !== 'resync') {
      queue.push(event);
    }
  };
  const unsubscribe = bus.subscribe((change) => push({ kind: 'change', change }));
  const finish = (): Promise<IteratorResult<FeedEvent>> => {
    done = true;
    unsubscribe();
    queue.length = 0;
    waiting?.({ value: undefined, done: true });
    waiting = undefined;
    return Promise.resolve({ value: undefined, done: true });
  };
  return {
    get buffered() {
      return queue.length;
    },
    next() {
      if (queue.length > 0) {
        return Promise.resolve({ value: queue.shift()!, done: false });
      }
      if (done) {
        return Promise.resolve({ value: undefined, done: true });
      }
      return new Promise((resolve) => {
        waiting = resolve;
      });
    },
    return: finish,
    throw: (err?: unknown) => finish().then(() => Promise.reject(err)),
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
