// Nova parity harness: compares berth's answers (berth-side.ts) with Nova's (nova_side.py) per
// host, applies the allow-list and prints the agreement table and every disagreement with the
// inputs behind it. Only hosts that reached berth's filter stage are compared (hidden ones are
// counted); a host where Nova raised is counted apart and not in the percentage.
import { alignedRows } from '../../src/lib/text-table';
import { ALLOWED_DIFFERENCES, type AllowedDifference, type Check } from './allowed-differences';
import type { BerthResult } from './berth-side';
import type { FilterPair, WeigherPair } from './profiles';
import type { Scenario } from './scenario';
import { NOVA_MINVAL_ZERO, tagsFor } from './tags';

type NovaWeights = Record<
  string,
  Record<string, { raw: number; clamped: number; normalized: number; multiplier: number }>
>;

/**
 * Nova's answers for one scenario (nova_side.py); `*BerthModel`: the same code with a moving
 * instance counted on both hosts, as berth documents it.
 */
export interface NovaResult {
  readonly index: number;
  readonly filters: Record<string, Record<string, boolean | string>>;
  readonly filtersBerthModel: Record<string, Record<string, boolean | string>>;
  readonly weights: NovaWeights;
  readonly weightsBerthModel: NovaWeights;
  readonly totals: Record<string, number>;
  readonly best: string[];
}

export interface Disagreement {
  readonly scenario: Scenario;
  readonly plugin: string;
  readonly check: Check | 'best';
  readonly host: string;
  readonly berth: string;
  readonly nova: string;
  readonly tags: string[];
  allowedBy?: string;
}

interface Row {
  scenarios: Set<number>;
  hosts: number;
  agree: [number, number, number];
  /** Weighers: hosts on which raw, normalised and multiplier all agree. */
  agreeAll: number;
  raised: number;
  allowed: number;
  failing: number;
}

export interface Report {
  readonly rows: Map<string, Row>;
  readonly disagreements: Disagreement[];
  readonly hidden: { scenario: number; host: string }[];
  readonly raised: {
    scenario: Scenario;
    plugin: string;
    host: string;
    error: string;
    berthPass: boolean;
  }[];
  best: { scenarios: number; agree: number; allowed: number; failing: number };
  readonly matched: Set<string>;
}

const close = (a: number, b: number) =>
  Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(a), Math.abs(b));
const num = (x: number) => (Number.isInteger(x) ? String(x) : x.toPrecision(6));

/** nova/weights.py normalize(), written again (berth's own is what is under test). */
function novaNormalize(list: readonly number[], minval?: number): number[] {
  const lo = minval ?? Math.min(...list);
  const hi = Math.max(...list);
  return list.map((w) => (lo === hi ? 0 : (w - lo) / (hi - lo)));
}

/**
 * The allow-list after NOVA_PARITY_ALLOW (`none`, or `-id,-id` to drop entries); for the
 * Nova-compatible profile (`novaCompatible`), without the entries a setting turns off.
 */
export function activeAllowList(
  setting = process.env.NOVA_PARITY_ALLOW ?? '',
  novaCompatible = false,
): AllowedDifference[] {
  if (setting.trim() === 'none') {
    return [];
  }
  const drop = new Set(
    setting
      .split(',')
      .map((x) => x.trim())
      .filter((x) => x.startsWith('-'))
      .map((x) => x.slice(1)),
  );
  return ALLOWED_DIFFERENCES.filter(
    (a) => !drop.has(a.id) && !(novaCompatible && a.configurable !== undefined),
  );
}

function row(report: Report, name: string): Row {
  let r = report.rows.get(name);
  if (!r) {
    r = {
      scenarios: new Set(),
      hosts: 0,
      agree: [0, 0, 0],
      agreeAll: 0,
      raised: 0,
      allowed: 0,
      failing: 0,
    };
    report.rows.set(name, r);
  }
  return r;
}

function judge(report: Report, d: Disagreement, allow: readonly AllowedDifference[]): boolean {
  const tags = new Set(d.tags);
  const entry = allow.find(
    (a) =>
      a.plugins.includes(d.plugin) &&
      a.checks.includes(d.check as Check) &&
      a.when.every((t) => tags.has(t)),
  );
  if (entry) {
    d.allowedBy = entry.id;
    report.matched.add(entry.id);
  }
  report.disagreements.push(d);
  return entry !== undefined;
}

/** Compares one scenario's answers into `report`. */
export function compareScenario(
  report: Report,
  s: Scenario,
  berth: BerthResult,
  nova: NovaResult,
  pairs: { filters: readonly FilterPair[]; weighers: readonly WeigherPair[] },
  allow: readonly AllowedDifference[],
): void {
  const baseline = new Set(berth.baseline);
  for (const h of s.hosts) {
    if (!baseline.has(h.uuid)) {
      report.hidden.push({ scenario: s.index, host: h.name });
    }
  }
  for (const { berth: name } of pairs.filters) {
    const r = row(report, name);
    r.scenarios.add(s.index);
    const pass = new Set(berth.filters[name]!.pass);
    for (const host of berth.baseline) {
      const v = nova.filters[name]![host]!;
      r.hosts += 1;
      if (typeof v === 'string') {
        r.raised += 1;
        report.raised.push({
          scenario: s,
          plugin: name,
          host,
          error: v,
          berthPass: pass.has(host),
        });
        continue;
      }
      if (v === pass.has(host)) {
        r.agree[0] += 1;
        continue;
      }
      const b = pass.has(host) ? 'pass' : 'fail';
      const d: Disagreement = {
        scenario: s,
        plugin: name,
        check: 'verdict',
        host,
        berth:
          b +
          (berth.filters[name]!.rejected[host] ? ` (${berth.filters[name]!.rejected[host]})` : ''),
        nova: v ? 'pass' : 'fail',
        tags: [...tagsFor(s, name, host), `berth:${b}`],
      };
      if (nova.filtersBerthModel[name]![host] === pass.has(host)) {
        d.tags.push('move-model');
      }
      if (judge(report, d, allow)) {
        r.allowed += 1;
      } else {
        r.failing += 1;
      }
    }
  }
  let weigherTrouble = 0;
  let weigherFailing = 0;
  for (const { berth: name } of pairs.weighers) {
    const r = row(report, name);
    r.scenarios.add(s.index);
    const hosts = berth.baseline;
    const b = hosts.map((h) => berth.weights[h]![name]!);
    const n = hosts.map((h) => nova.weights[h]![name]!);
    const alt = hosts.map((h) => nova.weightsBerthModel[h]![name]!);
    // Nova's normalisation (clamp at 0, 0-based) of berth's own raw values.
    const clamped = b.map((w) => (NOVA_MINVAL_ZERO.has(name) ? Math.max(w.raw, 0) : w.raw));
    const novaStyle = novaNormalize(clamped, NOVA_MINVAL_ZERO.has(name) ? 0 : undefined);
    const failing = hosts.map(() => false);
    const differs = hosts.map(() => false);
    let rawFailing = 0;
    let rawDiffering = 0;
    for (const [c, check] of (['raw', 'normalized', 'multiplier'] as const).entries()) {
      hosts.forEach((host, i) => {
        const bv = b[i]![check];
        const nv = n[i]![check];
        if (close(bv, nv)) {
          r.agree[c]! += 1;
          return;
        }
        differs[i] = true;
        const tags = tagsFor(s, name, host);
        if (close(bv, alt[i]![check])) {
          tags.push('move-model');
        }
        const extra =
          check === 'normalized' && n[i]!.clamped !== n[i]!.raw
            ? ` (clamped ${num(n[i]!.clamped)})`
            : '';
        const d: Disagreement = {
          scenario: s,
          plugin: name,
          check,
          host,
          berth: num(bv),
          nova: num(nv) + extra,
          tags,
        };
        if (check === 'normalized' && rawDiffering > 0) {
          // Normalised values follow the raw ones: allowed when every raw disagreement is.
          tags.push('follows-raw');
          report.disagreements.push(d);
          if (rawFailing === 0) {
            d.allowedBy = 'follows-raw';
          } else {
            failing[i] = true;
          }
          return;
        }
        if (check === 'normalized' && close(novaStyle[i]!, nv)) {
          tags.push('minval-0');
        }
        const allowed = judge(report, d, allow);
        failing[i] ||= !allowed;
        if (check === 'raw') {
          rawDiffering += 1;
          rawFailing += allowed ? 0 : 1;
        }
      });
    }
    r.hosts += hosts.length;
    hosts.forEach((_, i) => {
      if (!differs[i]) {
        r.agreeAll += 1;
      }
      if (differs[i]) {
        weigherTrouble += 1;
        if (failing[i]) {
          r.failing += 1;
          weigherFailing += 1;
        } else {
          r.allowed += 1;
        }
      }
    });
  }
  if (berth.baseline.length > 0) {
    report.best.scenarios += 1;
    if (berth.best !== null && nova.best.includes(berth.best)) {
      report.best.agree += 1;
    } else if (weigherTrouble > 0 && weigherFailing === 0) {
      report.best.allowed += 1;
    } else {
      report.best.failing += 1;
      report.disagreements.push({
        scenario: s,
        plugin: 'all weighers',
        check: 'best',
        host: berth.best ?? '-',
        berth: `best ${berth.best} (${num(berth.totals[berth.best ?? ''] ?? 0)})`,
        nova: `best ${nova.best.join(', ')} (${num(nova.totals[nova.best[0] ?? ''] ?? 0)})`,
        tags: [],
      });
    }
  }
}

export function newReport(): Report {
  return {
    rows: new Map(),
    disagreements: [],
    hidden: [],
    raised: [],
    best: { scenarios: 0, agree: 0, allowed: 0, failing: 0 },
    matched: new Set(),
  };
}

const pct = (a: number, n: number) => (n === 0 ? '-' : `${((100 * a) / n).toFixed(2)}%`);

/** The best-host agreement a Nova-compatible run must reach. */
export const BEST_HOST_TARGET = 0.99;

/**
 * The agreement table, one line per compared plugin: berth's defaults (`report`), and the
 * Nova-compatible profile (`compat`: every configurable difference set to Nova's).
 */
export function table(
  report: Report,
  compat: Report,
  pairs: { filters: readonly FilterPair[]; weighers: readonly WeigherPair[] },
): string[] {
  const f = [
    [
      'filter',
      'scenarios',
      'hosts',
      'agree',
      'agree %',
      'nova raised',
      'allowed',
      'FAIL',
      'Nova-compat agree %',
      'FAIL',
    ],
  ];
  for (const { berth: name } of pairs.filters) {
    const r = row(report, name);
    const c = row(compat, name);
    const judged = r.hosts - r.raised;
    f.push([
      name,
      `${r.scenarios.size}`,
      `${r.hosts}`,
      `${r.agree[0]}`,
      pct(r.agree[0], judged),
      `${r.raised}`,
      `${r.allowed}`,
      `${r.failing}`,
      pct(c.agree[0], c.hosts - c.raised),
      `${c.failing}`,
    ]);
  }
  const w = [
    [
      'weigher',
      'scenarios',
      'hosts',
      'raw %',
      'normalized %',
      'multiplier %',
      'allowed',
      'FAIL',
      'Nova-compat agree %',
      'FAIL',
    ],
  ];
  for (const { berth: name } of pairs.weighers) {
    const r = row(report, name);
    const c = row(compat, name);
    w.push([
      name,
      `${r.scenarios.size}`,
      `${r.hosts}`,
      ...r.agree.map((a) => pct(a, r.hosts)),
      `${r.allowed}`,
      `${r.failing}`,
      pct(c.agreeAll, c.hosts),
      `${c.failing}`,
    ]);
  }
  const b = report.best;
  const n = compat.best;
  const target = `target ≥ ${100 * BEST_HOST_TARGET}%`;
  return [
    ...alignedRows(f, [1, 2, 3, 4, 5, 6, 7, 8, 9]),
    '',
    ...alignedRows(w, [1, 2, 3, 4, 5, 6, 7, 8, 9]),
    '',
    `best host under all weighers is Nova's, berth's defaults:  ${b.agree}/${b.scenarios} scenarios (${pct(b.agree, b.scenarios)}); allowed ${b.allowed}, FAIL ${b.failing}`,
    `best host under all weighers is Nova's, Nova-compatible: ${n.agree}/${n.scenarios} scenarios (${pct(n.agree, n.scenarios)}, ${target}); allowed ${n.allowed}, FAIL ${n.failing}`,
  ];
}

/** Whether the Nova-compatible best-host agreement reaches BEST_HOST_TARGET. */
export function bestHostTargetMet(compat: Report): boolean {
  return (
    compat.best.scenarios === 0 || compat.best.agree >= BEST_HOST_TARGET * compat.best.scenarios
  );
}
