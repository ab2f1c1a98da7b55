// deploy/prometheus/berth-rules.yml passes `promtool check rules` and its unit tests
// (`promtool test rules berth-rules.test.yml`: every alert firing and staying quiet), and every
// berth metric the rules and deploy/grafana/berth-dashboard.json read exists in the /metrics of a
// real berth app, so neither can drift from what berth exposes.
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTestApp, type TestApp } from '../support/app';
import { buildResourceProvider } from '../support/factories';
import { scrape, served } from '../support/metrics';

const ROOT = join(__dirname, '..', '..');
const PROMETHEUS = join(ROOT, 'deploy', 'prometheus');
const RULES = join(PROMETHEUS, 'berth-rules.yml');
const DASHBOARD = join(ROOT, 'deploy', 'grafana', 'berth-dashboard.json');

const hasPromtool = spawnSync('promtool', ['--version']).status === 0;
/** Skipped visibly without promtool (.ci/run ensure_ops_tools installs it). */
const withPromtool = hasPromtool ? it : it.skip;
if (!hasPromtool) {
  console.warn('promtool not installed: the promtool checks of deploy/prometheus are skipped');
}

const promtool = (args: string[]) => {
  const r = spawnSync('promtool', args, { cwd: PROMETHEUS, encoding: 'utf8' });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
};

/** The berth_* metric names an expression mentions. */
const berthNames = (expr: string) => [...expr.matchAll(/\bberth_[a-z0-9_]+\b/g)].map((m) => m[0]);

interface Panel {
  readonly type: string;
  readonly title: string;
  readonly description?: string;
  readonly datasource?: { readonly uid?: string };
  readonly targets?: readonly { readonly expr: string }[];
}

const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as {
  schemaVersion: number;
  uid: string;
  templating: { list: { name: string; type: string; query: unknown }[] };
  panels: Panel[];
};

describe('deploy/prometheus rules', () => {
  withPromtool('pass promtool check rules', () => {
    const r = promtool(['check', 'rules', 'berth-rules.yml']);
    expect(r.out).toMatch(/SUCCESS: \d+ rules found/);
    expect(r.status).toBe(0);
  });

  withPromtool('pass their unit tests (each alert firing and quiet)', () => {
    const r = promtool(['test', 'rules', 'berth-rules.test.yml']);
    expect(r.out).toContain('SUCCESS');
    expect(r.status).toBe(0);
  });

  it('test every alert they define', () => {
    const rules = readFileSync(RULES, 'utf8');
    const tests = readFileSync(join(PROMETHEUS, 'berth-rules.test.yml'), 'utf8');
    const alerts = [...rules.matchAll(/- alert: (\w+)/g)].map((m) => m[1]);
    expect(alerts.length).toBeGreaterThanOrEqual(7);
    for (const alert of alerts) {
      // Firing somewhere (exp_alerts with an entry) and quiet somewhere (exp_alerts: []).
      const cases = [
        ...tests.matchAll(
          new RegExp(`alertname: ${alert}\\n\\s+eval_time: \\S+\\n\\s+exp_alerts:( \\[\\])?`, 'g'),
        ),
      ];
      expect({ alert, firing: cases.some((c) => !c[1]), quiet: cases.some((c) => c[1]) }).toEqual({
        alert,
        firing: true,
        quiet: true,
      });
    }
  });
});

describe('deploy/grafana/berth-dashboard.json', () => {
  it('is a Grafana dashboard on a data source variable, every panel described', () => {
    expect(dashboard.schemaVersion).toBeGreaterThanOrEqual(39);
    expect(dashboard.templating.list).toContainEqual(
      expect.objectContaining({ name: 'datasource', type: 'datasource', query: 'prometheus' }),
    );
    const panels = dashboard.panels.filter((p) => p.type !== 'row');
    for (const p of panels) {
      expect({ title: p.title, uid: p.datasource?.uid, described: !!p.description }).toEqual({
        title: p.title,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: Grafana's variable syntax
        uid: '${datasource}',
        described: true,
      });
      expect(p.targets?.length).toBeGreaterThan(0);
    }
    expect(panels.map((p) => p.title)).toEqual(
      expect.arrayContaining([
        'Allocatable and used per resource class',
        'Utilisation per aggregate',
        'Claims and conflicts',
        'GraphQL p50 / p95',
        'REST p50 / p95',
        'No valid host',
        'Replicas ready',
      ]),
    );
  });
});

describe('metrics the rules and the dashboard read', () => {
  let t: TestApp;
  let exposed: Map<string, string>;
  beforeAll(async () => {
    t = await createTestApp();
    await buildResourceProvider(t.app.services, {
      inventories: [{ resourceClass: 'VCPU', total: 8 }],
      aggregates: [randomUUID()],
    });
    const text = await served(t.app, scrape);
    exposed = new Map(
      [...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => [m[1]!, m[2]!] as const),
    );
  });
  afterAll(async () => {
    await t.close();
  });

  /** `name` as exposed: itself, or the histogram it is a series of (`_bucket`, `_count`, `_sum`). */
  const family = (name: string) => {
    const base = name.replace(/_(bucket|count|sum)$/, '');
    return exposed.has(name) ? name : exposed.get(base) === 'histogram' ? base : undefined;
  };

  it.each([
    ['deploy/prometheus/berth-rules.yml', () => berthNames(readFileSync(RULES, 'utf8'))],
    [
      'deploy/grafana/berth-dashboard.json',
      () =>
        dashboard.panels
          .flatMap((p) => (p.targets ?? []).flatMap((x) => berthNames(x.expr)))
          .concat(dashboard.templating.list.flatMap((v) => berthNames(JSON.stringify(v.query)))),
    ],
  ])('%s reads only metrics berth exposes', (_file, names) => {
    const used = [...new Set(names())].sort();
    expect(used.length).toBeGreaterThan(5);
    expect(used.filter((n) => family(n) === undefined)).toEqual([]);
  });
});
