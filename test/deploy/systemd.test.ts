// The systemd units under deploy/systemd/, checked by systemd's own tools on the files as
// shipped: `systemd-analyze verify` (syntax, known keys, ExecStart= commands found) and
// `systemd-analyze security --offline=true` (the hardening's exposure score). They are verified,
// not booted: the test machine's PID 1 is not systemd. Also: every variable the example
// environment file sets is one berth's configuration reads, and it loads as a valid config.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config/config';
import { root } from '../support/cli';

const UNITS = path.join(root, 'deploy/systemd');
const ANALYZE = spawnSync('systemd-analyze', ['--version']).status === 0;
const describeSystemd = ANALYZE ? describe : describe.skip;

/** Runs systemd-analyze in a copy of deploy/systemd (the template needs its instance's name). */
function analyze(args: string[]): { status: number | null; output: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'berth-units-'));
  try {
    for (const f of readdirSync(UNITS)) {
      copyFileSync(path.join(UNITS, f), path.join(dir, f));
    }
    const r = spawnSync('systemd-analyze', args, { cwd: dir, encoding: 'utf8' });
    return { status: r.status, output: `${r.stdout}${r.stderr}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describeSystemd(
  `deploy/systemd units${ANALYZE ? '' : ' (skipped: systemd-analyze not installed; apt-get install systemd)'}`,
  () => {
    // berth@8081.service is an instance of the template berth@.service.
    it.each(['berth.service', 'berth@8081.service', 'berth-migrate.service'])(
      'systemd-analyze verify %s: no error, no warning about the unit',
      (unit) => {
        const r = analyze(['verify', `./${unit}`]);
        // Warnings (an unknown key, say) leave the status 0: the unit's files must not be named.
        const ours = r.output
          .split('\n')
          .filter((l) => /berth(@|-migrate)?[^/\s]*\.service/.test(l));
        expect({ status: r.status, ours }).toEqual({ status: 0, ours: [] });
      },
    );

    it.each(['berth.service', 'berth@8081.service'])(
      'systemd-analyze security --offline=true %s: exposure at most 2.0 (OK)',
      (unit) => {
        const r = analyze(['security', '--offline=true', '--threshold=20', `./${unit}`]);
        const score = /Overall exposure level for \S+: (\d+\.\d)/.exec(r.output)?.[1];
        expect({ status: r.status, score: Number(score) <= 2.0 }).toEqual({
          status: 0,
          score: true,
        });
      },
    );
  },
);

describe.each([
  ['deploy/systemd/berth.env.example', path.join(UNITS, 'berth.env.example')],
  ['deploy/ha/berth.env', path.join(root, 'deploy/ha/berth.env')],
])('%s', (_name, file) => {
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .map((l) => l.trim());
  const assignment = /^#?([A-Z][A-Z0-9_]*)=(.*)$/;

  it('names only variables berth reads, and its active lines load as a valid configuration', () => {
    const configSource = readFileSync(path.join(root, 'src/config/config.ts'), 'utf8');
    const names = lines.flatMap((l) => assignment.exec(l)?.[1] ?? []);
    expect(names.length).toBeGreaterThan(5);
    expect(names.filter((n) => !configSource.includes(`${n}:`))).toEqual([]);
    const env: Record<string, string> = {};
    for (const l of lines) {
      const m = l.startsWith('#') ? null : assignment.exec(l);
      if (m) {
        env[m[1]] = m[2];
      }
    }
    const cfg = loadConfig(env);
    expect(cfg.databaseUrl).toBe(env.DATABASE_URL);
    expect(cfg.redisUrl).toBe(env.REDIS_URL);
    expect(cfg.host).toBe('0.0.0.0');
    expect(cfg.auth).toBe(true);
  });
});
