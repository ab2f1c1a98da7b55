// RedisCache on a Redis Sentinel set of real redis-server processes (bench/ha/redis-sentinel.ts):
// it finds the master through the Sentinels, keeps answering while the master is killed (misses,
// never an exception, never a long wait), and serves hits and writes from the promoted replica
// after the failover; a master that hangs (SIGSTOP) instead of dying is left as soon as the
// Sentinels announce the new master.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  type SentinelSet,
  sentinelUnavailable,
  startSentinelSet,
} from '../../bench/ha/redis-sentinel';
import { RedisCache } from '../../src/cache/redis-cache';

const problem = sentinelUnavailable();
if (problem) {
  process.stdout.write(`[berth tests] ${problem}: Redis Sentinel failover tests skipped\n`);
}
const describeWithSentinel = problem ? describe.skip : describe;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `check` until it is true; returns the milliseconds it took, or throws after `ms`. */
async function within(ms: number, check: () => Promise<boolean>): Promise<number> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > ms) {
      throw new Error(`not within ${ms} ms`);
    }
    await sleep(50);
  }
  return Date.now() - start;
}

/**
 * Uses the cache the way berth does (get, set, incr, ttl, delete, healthy) until `done` settles;
 * every call must resolve, none may take longer than `slowMs`. Returns how many calls were made
 * and how many of the gets missed.
 */
async function useUntil(
  cache: RedisCache,
  done: Promise<unknown>,
  slowMs: number,
): Promise<{ calls: number; misses: number; slowest: number }> {
  let settled = false;
  void done.then(
    () => (settled = true),
    () => (settled = true),
  );
  let calls = 0;
  let misses = 0;
  let slowest = 0;
  for (let i = 0; !settled; i++) {
    const t = Date.now();
    const got = await cache.get(`during:${i % 5}`);
    await cache.set(`during:${i % 5}`, i, 60_000);
    await cache.incr('during:count', 60_000);
    await cache.ttl('during:0');
    await cache.delete('during:gone');
    await cache.healthy();
    slowest = Math.max(slowest, Date.now() - t);
    calls += 6;
    misses += got === undefined ? 1 : 0;
    await sleep(20);
  }
  expect(slowest).toBeLessThan(slowMs);
  return { calls, misses, slowest };
}

describeWithSentinel('RedisCache through Redis Sentinel', () => {
  let set: SentinelSet;
  let cache: RedisCache;
  const log: string[] = [];

  beforeAll(async () => {
    set = await startSentinelSet({
      baseDir: mkdtempSync(path.join(tmpdir(), 'berth-sentinel-')),
      basePort: 26400,
      log: (m) => log.push(m),
    });
    cache = new RedisCache(set.url(), undefined, 'sentinel:', {
      commandTimeoutMs: 250,
      cooldownMs: 500,
    });
    await within(10_000, () => cache.healthy());
  }, 60_000);
  afterAll(async () => {
    await cache?.close();
    await set?.close();
    process.stdout.write(`[berth tests] ${log.join('\n[berth tests] ')}\n`);
  });

  /** What the plain Redis at `port` holds under the cache's key (bypassing the Sentinels). */
  async function direct(port: number, key: string): Promise<unknown> {
    const plain = new RedisCache(`redis://127.0.0.1:${port}`, undefined, 'sentinel:');
    try {
      await within(5000, () => plain.healthy());
      return await plain.get(key);
    } finally {
      await plain.close();
    }
  }

  it('writes to and reads from the master the Sentinels name', async () => {
    await cache.set('a', { x: 1 }, 60_000);
    expect(await cache.get('a')).toEqual({ x: 1 });
    expect(await cache.incr('n', 60_000)).toBe(1);
    expect(await direct(await set.master(), 'a')).toEqual({ x: 1 });
  });

  it('misses (never throws) while the master is killed, then hits and writes on the new master', async () => {
    await cache.set('before', 'kept', 600_000);
    // Acknowledged by the replica: survives the failover.
    expect(await cache.client.wait(1, 2000)).toBe(1);

    const { oldPort } = await set.killMaster();
    const killedAt = Date.now();
    const failover = set.waitFailover(oldPort, 30_000);
    const during = await useUntil(cache, failover, 3000);
    const { newPort, ms } = await failover;
    expect(newPort).not.toBe(oldPort);
    expect(during.misses).toBeGreaterThan(0);

    // Back on the new master: a write, then hits for it and for what was written before.
    await within(15_000, async () => {
      await cache.set('after', 'new', 60_000);
      return (await cache.get('after')) === 'new';
    });
    const recoveredMs = Date.now() - killedAt;
    expect(await cache.get('before')).toBe('kept');
    expect(await direct(newPort, 'after')).toBe('new');
    log.push(
      `sentinel failover: promoted ${newPort} ${ms} ms after the kill; cache hits again ${recoveredMs} ms after it; ${during.calls} calls meanwhile (${during.misses} gets missed, slowest round ${during.slowest} ms)`,
    );
  }, 60_000);

  it('leaves a hung master (SIGSTOP) once the Sentinels promote the replica', async () => {
    // The node killed above comes back as a replica, so there is one to promote.
    const master = await set.master();
    const other = set.nodes.find((p) => p !== master)!;
    await set.restart(other);
    const pid = Number(/process_id:(\d+)/.exec(String(await cache.client.info('server')))?.[1]);
    expect(pid).toBeGreaterThan(0);
    const stoppedAt = Date.now();
    process.kill(pid, 'SIGSTOP');
    try {
      const failover = set.waitFailover(master, 30_000);
      const during = await useUntil(cache, failover, 3000);
      const { newPort, ms } = await failover;
      expect(newPort).toBe(other);
      await within(15_000, async () => {
        await cache.set('after-hang', 1, 60_000);
        return (await cache.get('after-hang')) === 1;
      });
      log.push(
        `hung master: promoted ${newPort} ${ms} ms after SIGSTOP; cache hits again ${Date.now() - stoppedAt} ms after it; ${during.calls} calls meanwhile, slowest round ${during.slowest} ms`,
      );
    } finally {
      process.kill(pid, 'SIGCONT');
    }
  }, 90_000);
});
