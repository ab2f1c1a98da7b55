// How long a provider write through one replica takes to show in another replica's next
// candidates answer (both `berth serve` on one PostgreSQL; changes travel by LISTEN/NOTIFY).
import { createDataSource } from '../../src/db/data-source';
import { type BenchClient, fmt, pct } from '../http/client';
import { type Log, REST, REST_HEADERS } from '../http/scenarios';

/** What replica B is asked until the written provider shows. */
const POLL = `${REST}/allocation_candidates?resources=DISK_GB:1&required=CUSTOM_VISIBLE`;

/** Delays (ms) of `writes` trait writes, each from A's answer to B's first answer that shows it. */
export interface Visibility {
  readonly delays: readonly number[];
  readonly p50: number;
  readonly p95: number;
  /** p50 of B's answer alone (the same query evaluated afresh, nothing changed). */
  readonly answerP50: number;
}

/**
 * `writes` times: tag one more root provider with CUSTOM_VISIBLE through replica A, then ask
 * replica B for candidates (`DISK_GB:1`, on every root of the bench shapes) requiring that trait
 * until the provider is in the answer. Throws when one is not visible after `limitMs`. Then times
 * B's answer to that query alone, evaluated afresh with nothing changed: a delay is at least this
 * (the poll that shows the write) plus the change's way to B.
 */
export async function measureVisibility(
  ca: BenchClient,
  cb: BenchClient,
  url: string,
  log: Log,
  writes = 50,
  limitMs = 10_000,
): Promise<Visibility> {
  await ca.send('PUT', `${REST}/traits/CUSTOM_VISIBLE`, undefined, REST_HEADERS);
  const ds = createDataSource({ url, poolSize: 1 });
  await ds.initialize();
  const rows: { uuid: string }[] = await ds.query(
    'SELECT uuid FROM resource_providers WHERE parent_provider_id IS NULL ORDER BY id LIMIT $1',
    [writes],
  );
  await ds.destroy();
  const delays: number[] = [];
  for (const { uuid } of rows) {
    const path = `${REST}/resource_providers/${uuid}/traits`;
    const cur = JSON.parse((await ca.send('GET', path, undefined, REST_HEADERS)).body) as {
      traits: string[];
      resource_provider_generation: number;
    };
    const put = await ca.send(
      'PUT',
      path,
      {
        traits: [...cur.traits, 'CUSTOM_VISIBLE'],
        resource_provider_generation: cur.resource_provider_generation,
      },
      REST_HEADERS,
    );
    if (put.status !== 200) {
      throw new Error(`trait PUT ${put.status}: ${put.body}`);
    }
    const written = performance.now();
    for (;;) {
      const r = await cb.send('GET', POLL, undefined, REST_HEADERS);
      if (r.body.includes(uuid)) {
        delays.push(performance.now() - written);
        break;
      }
      if (performance.now() - written > limitMs) {
        throw new Error(`provider ${uuid} not visible on replica B after ${limitMs / 1000} s`);
      }
    }
  }
  // Each a different disk size: a replica keeps the answer of a repeated request until the next
  // change, and every poll above followed a change.
  const answers: number[] = [];
  for (let i = 0; i < 10; i++) {
    const fresh = POLL.replace('DISK_GB:1', `DISK_GB:${2 + i}`);
    answers.push((await cb.send('GET', fresh, undefined, REST_HEADERS)).ms);
  }
  const v = { delays, p50: pct(delays, 50), p95: pct(delays, 95), answerP50: pct(answers, 50) };
  log(
    `  write on A visible to B's next candidates answer: p50 ${fmt(v.p50)} ms  p95 ${fmt(v.p95)}  max ${fmt(Math.max(...delays))}  (${delays.length} writes); B's answer alone p50 ${fmt(v.answerP50)} ms`,
  );
  return v;
}
