// The change feed of one subscriber: delivers in order, never buffers more than its bound for a
// subscriber that stops reading (it resyncs instead), and unsubscribes when closed.
import { ChangeBus } from '../../../src/placement/change-bus';
import { changeFeed } from '../../../src/placement/change-feed';

const change = (id: number) => ({ kind: 'providers' as const, ids: [id] });

describe('changeFeed', () => {
  it('delivers changes in order to a reader that keeps up', async () => {
    const bus = new ChangeBus();
    const feed = changeFeed(bus, { maxBuffered: 4 });
    const first = feed.next();
    bus.publish(change(1), 'local');
    bus.publish(change(2), 'remote');
    expect(await first).toEqual({ value: { kind: 'change', change: change(1) }, done: false });
    expect(await feed.next()).toEqual({
      value: { kind: 'change', change: change(2) },
      done: false,
    });
    await feed.return!();
  });

  it('holds at most maxBuffered events for a reader that stops, then says resync', async () => {
    const bus = new ChangeBus();
    const feed = changeFeed(bus, { maxBuffered: 3 });
    for (let i = 0; i < 10_000; i++) {
      bus.publish(change(i), 'remote');
      expect(feed.buffered).toBeLessThanOrEqual(3);
    }
    const seen: unknown[] = [];
    while (feed.buffered > 0) {
      seen.push((await feed.next()).value);
    }
    // A resync first, then (if any) the newest changes in order, up to the last one published.
    expect(seen[0]).toEqual({ kind: 'resync' });
    const ids = seen.slice(1).map((e) => (e as { change: { ids: number[] } }).change.ids[0]!);
    expect(ids).toEqual(ids.length ? Array.from(ids, (_, i) => 10_000 - ids.length + i) : []);
    bus.publish(change(42), 'local');
    expect((await feed.next()).value).toEqual({ kind: 'change', change: change(42) });
    await feed.return!();
  });

  it('unsubscribes when closed, ending a pending read', async () => {
    const bus = new ChangeBus();
    const feed = changeFeed(bus, { maxBuffered: 3 });
    const pending = feed.next();
    await feed.return!();
    expect(await pending).toEqual({ value: undefined, done: true });
    bus.publish(change(1), 'local');
    expect(feed.buffered).toBe(0);
    expect(await feed.next()).toEqual({ value: undefined, done: true });
  });
});
