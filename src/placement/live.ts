// Live views for UIs (GraphQL subscriptions): provider changes, coalesced capacity rollups and a
// project's allocation changes, all derived from the change bus (this replica's writes at once,
// other replicas' through LISTEN/NOTIFY; no other broker). Each subscription holds one bounded
// feed (src/placement/change-feed.ts); closing it unsubscribes at once, even while it waits.

import type { CandidateService } from './allocation-candidates/candidate-service';
import type { CapacityService } from './capacity';
import type { CapacityGroup, CapacityGrouping } from './capacity-rollup';
import { compileProviderFilter } from './capacity-rollup';
import type { ChangeBus } from './change-bus';
import { changeFeed, type FeedEvent } from './change-feed';
import { BadRequestError, ErrorCode, PlacementError } from './errors';
import type { ProviderFilterSql } from './provider-filter';

/** Providers that changed (uuids), or `resync`: re-read everything shown. */
export interface ProviderChangeEvent {
  readonly resync: boolean;
  readonly providerUuids: readonly string[];
}

/** A project's consumers gained or lost allocations on these providers. */
export interface AllocationChangeEvent extends ProviderChangeEvent {
  readonly projectId: string;
}

/** The subscription limit of one caller is reached (429-like, not retryable at once). */
export class TooManySubscriptionsError extends PlacementError {
  constructor(limit: number) {
    super(
      `At most ${limit} live subscriptions per caller (BERTH_MAX_SUBSCRIPTIONS): close one first.`,
      429,
      ErrorCode.TOO_MANY_SUBSCRIPTIONS,
    );
  }
}

/** Options of {@link LiveService}. */
export interface LiveOptions {
  /** Changes one subscriber may have pending before it is told to resync. */
  readonly maxBuffered: number;
  /** Open subscriptions per caller key (token id or client address). */
  readonly maxPerCaller: number;
}

type Iter<T> = AsyncIterableIterator<T>;
type Feed = ReturnType<typeof changeFeed>;

/** Subscriptions over the change bus. */
export class LiveService {
  private readonly open = new Map<string, number>();

  constructor(
    private readonly bus: ChangeBus,
    private readonly candidates: CandidateService,
    private readonly capacity: CapacityService,
    private readonly opts: LiveOptions,
  ) {}

  /** Open subscriptions of `caller`. */
  openFor(caller: string): number {
    return this.open.get(caller) ?? 0;
  }

  /**
   * Changes of providers `filter` selects (checked when each change arrives).
   * @throws BadRequestError for unknown traits or classes; TooManySubscriptionsError.
   */
  async providerChanges(
    caller: string,
    filter: ProviderFilterSql,
  ): Promise<Iter<ProviderChangeEvent>> {
    compileProviderFilter(await this.candidates.current(), filter); // refuse a bad filter now
    return this.track(caller, (feed) => this.changedProviders(feed, filter, () => true));
  }

  /**
   * Changes of allocations of consumers of `projectId`.
   * @throws TooManySubscriptionsError.
   */
  async allocationChanges(caller: string, projectId: string): Promise<Iter<AllocationChangeEvent>> {
    const events = await this.track(caller, (feed) =>
      this.changedProviders(
        feed,
        {},
        (e) =>
          e.kind !== 'change' ||
          e.change.kind !== 'providers' ||
          (e.change.projects ?? []).includes(projectId),
      ),
    );
    return mapIter(events, (e) => ({ ...e, projectId }));
  }

  /**
   * The rollup now, then again after changes, at most once per `minIntervalMs`.
   * @throws BadRequestError for a bad filter or interval; TooManySubscriptionsError.
   */
  async capacityChanges(
    caller: string,
    filter: ProviderFilterSql,
    grouping: CapacityGrouping,
    minIntervalMs: number,
  ): Promise<Iter<CapacityGroup[]>> {
    if (!Number.isInteger(minIntervalMs) || minIntervalMs < 100 || minIntervalMs > 3_600_000) {
      throw new BadRequestError(
        `minIntervalMs must be from 100 to 3600000 (got ${minIntervalMs}).`,
        ErrorCode.QUERYPARAM_BAD_VALUE,
      );
    }
    const first = await this.capacity.rollup(filter, grouping);
    const capacity = this.capacity;
    return this.track(caller, async function* (feed) {
      yield first;
      let last = Date.now();
      for (;;) {
        if ((await feed.next()).done) {
          return;
        }
        const wait = last + minIntervalMs - Date.now();
        if (wait > 0) {
          await new Promise((r) => setTimeout(r, wait));
        }
        while (feed.buffered > 0) {
          await feed.next(); // coalesced into this rollup
        }
        last = Date.now();
        yield await capacity.rollup(filter, grouping);
      }
    });
  }

  private async *changedProviders(
    feed: Feed,
    filter: ProviderFilterSql,
    wanted: (e: FeedEvent) => boolean,
  ): AsyncGenerator<ProviderChangeEvent> {
    for await (const e of feed) {
      if (!wanted(e)) {
        continue;
      }
      if (e.kind === 'resync' || e.change.kind !== 'providers') {
        yield { resync: true, providerUuids: [] };
        continue;
      }
      const index = await this.candidates.current(); // applies the change to the index
      const matches = compileProviderFilter(index, filter);
      const slots = e.change.ids.map((id) => index.slotOfId(id));
      const uuids = slots.filter((s) => s >= 0 && matches(s)).map((s) => index.uuid[s]!);
      if (slots.some((s) => s < 0)) {
        yield { resync: true, providerUuids: uuids }; // a provider was deleted
      } else if (uuids.length > 0) {
        yield { resync: false, providerUuids: uuids };
      }
    }
  }

  /** Opens a feed for `caller` under the limit; closing the result closes the feed at once. */
  private async track<T>(
    caller: string,
    body: (feed: Feed) => AsyncGenerator<T>,
  ): Promise<Iter<T>> {
    const n = this.openFor(caller);
    if (n >= this.opts.maxPerCaller) {
      throw new TooManySubscriptionsError(this.opts.maxPerCaller);
    }
    this.open.set(caller, n + 1);
    const feed = changeFeed(this.bus, { maxBuffered: this.opts.maxBuffered });
    const gen = body(feed);
    let closed = false;
    const close = () => {
      if (!closed) {
        closed = true;
        const left = this.openFor(caller) - 1;
        if (left > 0) {
          this.open.set(caller, left);
        } else {
          this.open.delete(caller);
        }
        void feed.return!();
      }
    };
    const it: Iter<T> = {
      async next() {
        const r = await gen.next();
        if (r.done) {
          close();
        }
        return r;
      },
      async return() {
        close(); // ends a pending feed.next(), so the generator can finish
        return gen.return(undefined);
      },
      async throw(err?: unknown) {
        close();
        return gen.throw(err);
      },
      [Symbol.asyncIterator]: () => it,
    };
    return it;
  }
}

function mapIter<A, B>(it: Iter<A>, f: (a: A) => B): Iter<B> {
  const out: Iter<B> = {
    async next() {
      const r = await it.next();
      return r.done ? r : { value: f(r.value), done: false };
    },
    return: () => it.return!() as Promise<IteratorResult<B>>,
    throw: (e?: unknown) => it.throw!(e) as Promise<IteratorResult<B>>,
    [Symbol.asyncIterator]: () => out,
  };
  return out;
}
