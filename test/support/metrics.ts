// /metrics in tests: scrape an app over a real port, parse the text with
// parse-prometheus-text-format, and read histogram counts by label.
import { randomUUID } from 'node:crypto';
import type { App } from '../../src/app/app';
import { closeServer, listen } from './rest';

/** One sample of a parsed family (counters and gauges have `value`, histograms `count`). */
export interface Sample {
  readonly labels?: Readonly<Record<string, string>>;
  readonly value?: string;
  readonly count?: string;
  readonly sum?: string;
  readonly buckets?: Readonly<Record<string, string>>;
}

/** A metric family as parse-prometheus-text-format returns it. */
export interface Family {
  readonly name: string;
  readonly help: string;
  readonly type: string;
  readonly metrics: readonly Sample[];
}

export const parsePrometheus = require('parse-prometheus-text-format') as (
  text: string,
) => Family[];

/** An app served on 127.0.0.1 for the duration of `fn`. */
export async function served<T>(app: App, fn: (base: string) => Promise<T>): Promise<T> {
  const { server, base } = await listen((req, res) => app.handle(req, res));
  try {
    return await fn(base);
  } finally {
    await closeServer(server);
  }
}

/**
 * One GraphQL `schedule` of a VCPU + MEMORY_MB request over HTTP to the app at `base`, with
 * `query` (its operation name is what the GraphQL histogram labels) and extra `headers`.
 */
export async function scheduleOverHttp(
  base: string,
  o: { query: string; vcpu: number; memoryMb: number; headers?: Record<string, string> },
): Promise<{ status: number; body: any }> {
  const res = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...o.headers },
    body: JSON.stringify({
      query: o.query,
      variables: {
        i: {
          consumerUuids: [randomUUID()],
          projectId: 'p',
          userId: 'u',
          request: {
            groups: [
              {
                resources: [
                  { resourceClass: 'VCPU', amount: o.vcpu },
                  { resourceClass: 'MEMORY_MB', amount: o.memoryMb },
                ],
              },
            ],
          },
        },
      },
    }),
  });
  return { status: res.status, body: await res.json() };
}

/** The /metrics text of the app at `base`. */
export async function scrape(base: string): Promise<string> {
  const res = await fetch(`${base}/metrics`);
  if (res.status !== 200) {
    throw new Error(`/metrics answered ${res.status}`);
  }
  return res.text();
}

/** The family `name`, or throws naming it. */
export function family(families: readonly Family[], name: string): Family {
  const f = families.find((x) => x.name === name);
  if (!f) {
    throw new Error(`no metric family ${name}`);
  }
  return f;
}

/** One sample line: `name{labels} value`. */
export interface Line {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/**
 * The sample lines of a text exposition. (parse-prometheus-text-format merges a histogram's
 * labelled series into one, so counts by label are read here.)
 */
export function sampleLines(text: string): Line[] {
  const out: Line[] = [];
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) {
      continue;
    }
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
      labels[l[1]!] = l[2]!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    }
    out.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return out;
}

/** Sum of the `<name>_count` samples whose labels include `labels`. */
export function histogramCount(
  lines: readonly Line[],
  name: string,
  labels: Readonly<Record<string, string>> = {},
): number {
  return lines
    .filter(
      (l) =>
        l.name === `${name}_count` && Object.entries(labels).every(([k, v]) => l.labels[k] === v),
    )
    .reduce((n, l) => n + l.value, 0);
}

/** The series (distinct label sets) of `name`'s `_count` samples. */
export function seriesOf(lines: readonly Line[], name: string): Readonly<Record<string, string>>[] {
  return lines.filter((l) => l.name === `${name}_count`).map((l) => l.labels);
}
