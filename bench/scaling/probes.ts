// What one row of the scaling table measures against a running `berth serve`, and the process
// handling that lets a row fail (out of memory, timeout) without ending the table: timeouts,
// the server's own fatal-error reports, and killing by pid only the processes this bench started.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { request } from 'undici';
import { pct } from '../http/client';
import { childPids, type ServeProcess } from '../http/server';

/** A step that ran out of time. */
export class StepTimeout extends Error {}

/** `p`, or a StepTimeout after `ms`. */
export function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StepTimeout(`${what}: timeout after ${ms / 1000} s`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

/** SIGKILL `pid` and its children (a `berth serve` primary and its workers). */
export function killTree(pid: number): void {
  for (const p of [...childPids(pid), pid]) {
    try {
      process.kill(p, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

/** Whether process `pid` still runs (not gone, not a zombie). */
export function alive(pid: number): boolean {
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

/** Stops `s` (SIGTERM), killing it and its workers when it has not exited after `ms`. */
export async function stopWithin(s: ServeProcess, ms = 20_000): Promise<void> {
  try {
    await withTimeout(s.stop(), ms, 'stop');
  } catch {
    killTree(s.pid);
  }
}

/** What a serving process's fatal-error or uncaught-exception report says. */
export interface Crash {
  /** Out of memory (the V8 heap limit), else an uncaught exception or another fatal error. */
  readonly oom: boolean;
  readonly text: string;
  /** The report's file name. */
  readonly file: string;
}

/**
 * The reports (node --report-on-fatalerror --report-uncaught-exception) written to `dir`, one per
 * process that died that way: its event ("Allocation failed - JavaScript heap out of memory", the
 * exception's message…).
 */
export function crashReports(dir: string): Crash[] {
  if (!existsSync(dir)) {
    return [];
  }
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => {
      try {
        const r = JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as {
          header?: { event?: string; trigger?: string; processId?: number };
          javascriptStack?: { message?: string };
        };
        const event = r.header?.event ?? 'fatal error';
        const message = r.javascriptStack?.message;
        return {
          file: f,
          oom: /out of memory/i.test(event),
          text: `pid ${r.header?.processId}: ${event}${message && message !== event ? `: ${message}` : ''}`,
        };
      } catch {
        return { file: f, oom: false, text: `${f}: fatal error (report unreadable)` };
      }
    });
}

/** RSS per serving process: the workers when there are any, else the one process. */
export function workerRss(s: ServeProcess): number[] {
  const all = s.rssMiB();
  return all.length > 1 ? all.slice(1) : all;
}

/**
 * p50 (ms) of `n` sequential calls of `call` after a second of warm-up calls (at least 3);
 * throws on an answer that is not 200.
 */
export async function p50Of(
  n: number,
  call: () => Promise<{ status: number; body: string; ms: number }>,
): Promise<{ p50: number; kb: number }> {
  const warm = performance.now();
  let last = await call();
  for (let i = 1; i < 200 && (i < 3 || performance.now() - warm < 1000); i++) {
    last = await call();
  }
  const times: number[] = [];
  for (let i = 0; i < n && last.status === 200; i++) {
    last = await call();
    times.push(last.ms);
  }
  if (last.status !== 200) {
    throw new Error(`HTTP ${last.status}: ${last.body.slice(0, 200)}`);
  }
  return { p50: pct(times, 50), kb: last.body.length / 1024 };
}

/** An HTTP request of {@link fullAnswer}. */
interface StreamedRequest {
  readonly method: 'GET' | 'POST';
  readonly headers: Record<string, string>;
  readonly body?: string;
}

/** One streamed answer: status, bytes, its first bytes. */
async function streamed(
  url: string,
  opts: StreamedRequest,
): Promise<{ status: number; bytes: number; head: string }> {
  const res = await request(url, {
    ...opts,
    headersTimeout: 0,
    bodyTimeout: 0,
  });
  let bytes = 0;
  let head = '';
  for await (const chunk of res.body as AsyncIterable<Buffer>) {
    if (head.length < 200) {
      head += chunk.subarray(0, 200).toString('utf8');
    }
    bytes += chunk.length;
  }
  return { status: res.statusCode, bytes, head };
}

/** A full (unlimited) candidates answer, its size and the server's CPU per KB. */
export interface FullAnswer {
  readonly kb: number;
  readonly cpuUsPerKb: number;
  readonly calls: number;
  /** Wall time of one answer, p50 (ms). */
  readonly ms: number;
}

/**
 * Server CPU per KB of a full answer: one unmeasured call, then calls until at least 3 and 2 s,
 * at most 20. `call(i)` is the i-th request: each a different one, so no call reuses another's
 * evaluation (identical requests within BERTH_EVALUATION_REUSE_MS share it). The body is counted as it streams (a 1,000,000-host answer is longer than a string
 * can be). Throws on a status other than 200 or a GraphQL error in its first 200 bytes.
 */
export async function fullAnswer(
  server: ServeProcess,
  call: (i: number) => { url: string; opts: StreamedRequest },
): Promise<FullAnswer> {
  const send = (i: number) => {
    const c = call(i);
    return streamed(c.url, c.opts);
  };
  const check = (r: { status: number; head: string }) => {
    if (r.status !== 200 || r.head.includes('"errors"')) {
      throw new Error(`HTTP ${r.status}: ${r.head.slice(0, 200)}`);
    }
  };
  check(await send(0));
  const cpu0 = server.cpuMs();
  const started = performance.now();
  let bytes = 0;
  let calls = 0;
  const times: number[] = [];
  while (calls < 20 && (calls < 3 || performance.now() - started < 2000)) {
    const t = performance.now();
    const r = await send(calls + 1);
    times.push(performance.now() - t);
    check(r);
    bytes += r.bytes;
    calls++;
  }
  const kb = bytes / 1024;
  return {
    kb: kb / calls,
    cpuUsPerKb: ((server.cpuMs() - cpu0) * 1000) / kb,
    calls,
    ms: pct(times, 50),
  };
}

/** The headers of REST and GraphQL calls with `token`. */
export function authHeaders(token: string) {
  return {
    rest: { 'x-auth-token': token, 'openstack-api-version': 'placement 1.39' },
    graphql: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
  };
}
