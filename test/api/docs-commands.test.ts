// Every shell command README.md and docs/*.md show in a ```sh block is run — here, as a reader
// pastes it, or by the test or CI step named in ELSEWHERE (which must contain it) — or is listed
// in ON_A_HOST with why no test can run it (it changes an operator's machine or cloud).
// Run here: the curl commands, against a berth on a fresh schema (localhost:8080 rewritten to its
// port); the settings blocks (VAR=value lines), through the configuration loader; the plugin
// guide's compile, type-check and table-test commands. A command matched by nothing fails the
// test with its file:line, as does an entry that no longer matches any command.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { loadConfig } from '../../src/config/config';
import { createTestApp, type TestApp } from '../support/app';
import { type Code, pages, repo, scan } from '../support/doc-pages';

const run = promisify(execFile);
const commands = pages.flatMap((p) => scan(p).shell);
const at = (c: Code) => `${c.page}:${c.line}`;

/** Commands another test or CI step runs: `by` must contain `shows`. */
const ELSEWHERE: readonly { command: RegExp; by: string; shows: string }[] = [
  {
    command: /^npm install && npm start$/,
    by: 'test/cli/start.test.ts',
    shows: "spawn('npm', ['start']",
  },
  { command: /^npm test$/, by: '.ci/run', shows: 'npm test' },
  { command: /^npm run demo$/, by: 'test/cli/demo.test.ts', shows: "'demo'" },
  { command: /npx jest --maxWorkers=1 test\/deploy$/, by: 'package.json', shows: '/test/deploy"' },
  {
    command: /npx jest test\/deploy\/upgrade\.test\.ts$/,
    by: 'test/deploy/upgrade.test.ts',
    shows: 'describeUpgrade(',
  },
  {
    command: /^berth import compute-nodes /,
    by: 'test/db/legacy-import-cli.test.ts',
    shows: "'--pci-max-unit'",
  },
  {
    command: /^berth import placement /,
    by: 'test/db/placement-import-cli.test.ts',
    shows: '--skip-invalid',
  },
  {
    command: /npx berth export placement .*--replace/,
    by: 'test/db/placement-import-cli.test.ts',
    shows: "'--replace'",
  },
  {
    command: /^openstack (user create|role add|service create|endpoint create) /,
    by: 'test/keystone/start.sh',
    shows: 'endpoint create --region RegionOne placement public',
  },
  {
    command: /^BERTH_AUTH=keystone .* npx berth serve$/,
    by: 'test/api/keystone-auth.test.ts',
    shows: "BERTH_AUTH: 'keystone'",
  },
  {
    command: /^openstack --os-auth-type password .* resource provider list$/,
    by: 'test/conformance/osc-smoke.sh',
    shows: 'resource provider list',
  },
  {
    command: /^openstack \.\.\. allocation candidate list /,
    by: 'test/conformance/osc-smoke.sh',
    shows: 'allocation candidate list',
  },
  { command: /^kill -HUP /, by: 'test/cli/serve-reload.test.ts', shows: "kill('SIGHUP')" },
  {
    command: /^deploy\/image\/build\.sh /,
    by: 'bench/ha/image.ts',
    shows: "'deploy/image/build.sh'",
  },
  {
    command: /^BERTH_TEST_IMAGE=1 .*npx jest test\/deploy\/container-image\.test\.ts$/,
    by: 'test/deploy/container-image.test.ts',
    shows: 'BERTH_TEST_IMAGE',
  },
  {
    // The cutover runbook's catalog switch, run from the page against a real Keystone.
    command:
      /^((public|internal)=\$\(openstack endpoint list |openstack endpoint (set --url http|list )|if \[ -n "\$internal" \]; then$|fi$)/,
    by: 'test/api/keystone-auth.test.ts',
    shows: 'runbookSwitch(',
  },
];

/** Commands that change an operator's host or cloud, with what checks the files they use. */
const ON_A_HOST: readonly { command: RegExp; why: string }[] = [
  {
    command: /^sudo /,
    why: 'installs into /opt and /etc; the units it copies are checked by test/deploy/systemd.test.ts',
  },
  {
    command: /^(docker|podman) /,
    why: 'runs the container image on a host; npm run test:ha builds it (deploy/image/build.sh) and runs its containers',
  },
  {
    command:
      /^(set -a; \. \/etc\/berth\/ha\.env; set \+a|(MEMBER=\S+ ADDR=\S+ )?deploy\/ha\/render\.sh deploy\/ha\/\S+ +> \/etc\/)/,
    why: "writes the cluster's configuration into /etc on an operator's hosts; npm run test:ha renders the same templates (bench/ha/cluster-support.ts)",
  },
  { command: /^systemctl /, why: "drives the host's systemd" },
  {
    command: /^(cp|rm) .*\/etc\/placement\/policy\.yaml/,
    why: "edits the old Placement's policy; the policy file itself is used by test/placement-ref/start.sh",
  },
  {
    command: /^openstack endpoint set --url <the old /,
    why: "the rollback: puts an operator's old Placement URL back in their catalog",
  },
];

const isCurl = (c: Code) => /^curl .*localhost:8080/.test(c.text);
const settingLine = /^([A-Z][A-Z0-9_]*)=(?:'([^']*)'|(\S*))\s*(?:#.*)?$/;
const isSetting = (c: Code) => settingLine.test(c.text);
const GUIDE = 'docs/writing-a-filter.md';
const guideCommand =
  /^(npx jest --config |npx tsc --noEmit |node docs\/examples\/compile-plugin\.cjs )/;
const runHere = (c: Code) =>
  isCurl(c) || isSetting(c) || (c.page === GUIDE && guideCommand.test(c.text));

describe('the shell commands of README.md and docs/*.md', () => {
  it('are each run here, run elsewhere (named), or change a host (said why)', () => {
    const unmatched = commands
      .filter((c) => !runHere(c))
      .filter((c) => ![...ELSEWHERE, ...ON_A_HOST].some((e) => e.command.test(c.text)))
      .map((c) => `${at(c)}: ${c.text}`);
    expect(unmatched).toEqual([]);
    const stale = [...ELSEWHERE, ...ON_A_HOST]
      .filter((e) => !commands.some((c) => e.command.test(c.text)))
      .map((e) => String(e.command));
    expect(stale).toEqual([]);
  });

  it.each(ELSEWHERE.map((e) => [e.by, e.shows] as const))('%s runs it (shows %s)', (by, shows) => {
    expect(existsSync(join(repo, by))).toBe(true);
    expect(readFileSync(join(repo, by), 'utf8')).toContain(shows);
  });

  it('settings blocks load as configuration', () => {
    const blocks = new Map<string, Record<string, string>>();
    let last: Code | undefined;
    let key = '';
    for (const c of commands.filter(isSetting)) {
      if (!last || last.page !== c.page || c.line !== last.line + 1) {
        key = at(c);
      }
      const m = settingLine.exec(c.text)!;
      blocks.set(key, { ...blocks.get(key), [m[1]!]: m[2] ?? m[3]! });
      last = c;
    }
    expect(blocks.size).toBeGreaterThan(2);
    const problems: string[] = [];
    for (const [where, env] of blocks) {
      try {
        loadConfig({ NODE_ENV: 'test', ...env });
      } catch (err) {
        problems.push(`${where}: ${(err as Error).message}`);
      }
    }
    expect(problems).toEqual([]);
  });
});

describe('the curl commands, against a running berth', () => {
  let t: TestApp;
  let server: Server;
  let port: number;
  const curls = commands.filter(isCurl);

  beforeAll(async () => {
    t = await createTestApp();
    server = createServer((req, res) => t.app.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await t.close();
  });

  it('finds the pages’ curl commands', () => {
    expect(curls.length).toBeGreaterThanOrEqual(6);
  });

  it.each(curls.map((c) => [at(c), c] as const))('%s answers', async (_where, c) => {
    const stream = / -N /.test(c.text);
    // The reader's command, pointed at this server; curl appends the status and content type.
    const line = `${c.text.replaceAll('localhost:8080', `127.0.0.1:${port}`)} --max-time ${stream ? 2 : 20} -w '\\n%{http_code} %{content_type}'`;
    const out = await run('sh', ['-c', line], {
      env: { ...process.env, ADMIN_TOKEN: 'unused' },
    }).catch((err: { code?: number; stdout?: string }) => {
      // A subscription stream stays open: curl ends it at --max-time (exit 28).
      if (stream && err.code === 28) {
        return { stdout: err.stdout ?? '' };
      }
      throw err;
    });
    const lines = out.stdout.trimEnd().split('\n');
    const [status, type] = lines.pop()!.split(' ');
    expect({ where: at(c), status }).toEqual({ where: at(c), status: '200' });
    if (stream) {
      expect(type).toMatch(/^text\/event-stream/);
      return;
    }
    expect(type).toMatch(/json/);
    const body = JSON.parse(lines.join('\n')) as { errors?: unknown };
    expect(body.errors).toBeUndefined();
  });
});

describe(`the commands of ${GUIDE}`, () => {
  const guide = commands.filter((c) => c.page === GUIDE && guideCommand.test(c.text));
  let out: string;
  beforeAll(() => {
    out = mkdtempSync(join(tmpdir(), 'berth-guide-'));
  });
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('shows compile, type-check and table-test commands', () => {
    expect(guide.map((c) => c.text.split(' ').slice(0, 2).join(' '))).toEqual(
      expect.arrayContaining(['npx jest', 'npx tsc', 'node docs/examples/compile-plugin.cjs']),
    );
  });

  it.each(guide.map((c) => [at(c), c] as const))('%s succeeds', async (_where, c) => {
    // The plugin directory of the guide is /etc/berth/plugins; here a temporary one.
    const line = c.text.replaceAll('/etc/berth/plugins', out);
    await expect(run('sh', ['-c', line], { cwd: repo })).resolves.toBeDefined();
    if (c.text.includes('compile-plugin.cjs')) {
      expect(existsSync(join(out, 'host-maintenance-filter/index.js'))).toBe(true);
    }
  });
});
