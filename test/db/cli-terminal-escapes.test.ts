// The attack run's terminal injection, end to end: a `scheduler` token writes allocations whose
// project_id returns to column 0, erases the line and prints a forged one, with a token whose name
// holds a bidi override; the real `berth audit log` process shows both as escapes, one event per
// line (real PostgreSQL: the process is pointed at the test schema).
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createTestApp, type TestApp } from '../support/app';
import { CLI_ARGS, cliEnv, root } from '../support/cli';
import { realPostgresIt, schemaUrl } from '../support/db';
import { type RestClient, restClient } from '../support/rest';

jest.setTimeout(120_000);

const ESC = '\u001b';
const FORGED_PROJECT = `\r${ESC}[2K2026-01-01T00:00:00.000Z  admin  admin  nothing to see`;
/** Reads as `nova-exe.txt` on a terminal that honours the override. */
const EVIL_NAME = 'nova-\u202etxt.exe';
const UNSAFE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/;

describe('berth audit log with hostile names', () => {
  let t: TestApp;
  let rest: RestClient;
  const tokens: Record<string, string> = {};
  const call = (role: string, method: string, path: string, body?: unknown) =>
    rest.call(method, path, {
      headers: {
        accept: 'application/json',
        'openstack-api-version': 'placement latest',
        'x-auth-token': tokens[role]!,
      },
      body,
    });

  beforeAll(async () => {
    t = await createTestApp({ BERTH_AUTH: 'on', BERTH_REST_AUTH: 'token' });
    for (const role of ['service', 'scheduler']) {
      const name = role === 'scheduler' ? EVIL_NAME : `attack-${role}`;
      tokens[role] = (await t.app.tokens.create({ role, name })).token;
    }
    rest = await restClient(t.app);
  });
  afterAll(async () => {
    await rest.close();
    await t.close();
  });

  realPostgresIt('prints names and ids with escapes, never raw', async () => {
    const rp = randomUUID();
    expect(
      (await call('service', 'POST', '/resource_providers', { uuid: rp, name: 'cmp-1' })).status,
    ).toBe(200);
    const inv = await call('service', 'PUT', `/resource_providers/${rp}/inventories`, {
      resource_provider_generation: 0,
      inventories: { VCPU: { total: 8 } },
    });
    expect(inv.status).toBe(200);
    const put = await call('scheduler', 'PUT', `/allocations/${randomUUID()}`, {
      allocations: { [rp]: { resources: { VCPU: 1 } } },
      project_id: FORGED_PROJECT,
      user_id: 'u',
      consumer_generation: null,
      consumer_type: 'INSTANCE',
    });
    expect(put.status).toBe(204);

    const run = spawnSync(process.execPath, [...CLI_ARGS, 'audit', 'log'], {
      cwd: root,
      env: cliEnv({ DATABASE_URL: schemaUrl(t.db.schema) }),
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    // The header, then one line per event: two tokens created, provider, inventories, allocations.
    const [{ n }] = await t.db.dataSource.query('SELECT count(*)::int AS n FROM audit_events');
    expect(n).toBe(5);
    expect(lines).toHaveLength(1 + n);
    for (const line of lines) {
      expect({ line, unsafe: UNSAFE.test(line) }).toEqual({ line, unsafe: false });
    }
    expect(lines[1]).toContain(
      'project:\\r\\x1b[2K2026-01-01T00:00:00.000Z  admin  admin  nothing to see',
    );
    expect(lines[1]).toMatch(/^\S+Z +nova-\\u202etxt\.exe +scheduler +PUT \/allocations/);
    expect(lines.filter((l) => l.includes('"name":"nova-\\u202etxt.exe"'))).toHaveLength(1);
  });
});
