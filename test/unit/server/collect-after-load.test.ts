// berth serve collects once after the capacity index load, through V8's gc exposed for a moment
// when node was not started with --expose-gc. It must collect (garbage is gone after it) and must
// leave `gc` as it found it.
import { collectAfterLoad } from '../../../src/server/collect-after-load';

/** A weak reference to an object nothing else holds (made in its own function). */
function unreferenced(): WeakRef<object> {
  return new WeakRef({ big: new Array(100_000).fill(1) });
}

describe('collectAfterLoad', () => {
  it('runs a full collection and leaves no global gc behind', async () => {
    const before = typeof (globalThis as { gc?: unknown }).gc;
    const ref = unreferenced();
    // A WeakRef keeps its target alive until the current job ends.
    await new Promise((resolve) => setImmediate(resolve));
    expect(collectAfterLoad()).toBe(true);
    expect(ref.deref()).toBeUndefined();
    expect(typeof (globalThis as { gc?: unknown }).gc).toBe(before);
  });
});
