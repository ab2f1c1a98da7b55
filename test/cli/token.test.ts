// `berth token create|list|revoke` as a real CLI process on the embedded database: the token is
// printed once, listed without its secret, and revoked.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');

function berth(
  args: string[],
  dataDir: string,
): Promise<{ code: number | null; out: string; err: string }> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    BERTH_DATA_DIR: dataDir,
  };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  const child = spawn(
    process.execPath,
    ['-r', path.join(root, 'test/support/swc-register.cjs'), 'src/cli/main.ts', ...args],
    { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => {
    out += String(d);
  });
  child.stderr.on('data', (d) => {
    err += String(d);
  });
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, out, err })));
}

describe('berth token', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'berth-token-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('creates, lists and revokes a token; refuses an unknown role and a project-scoped admin', async () => {
    const created = await berth(
      ['token', 'create', '--role', 'scheduler', '--project', 'p1', '--name', 'nova'],
      dataDir,
    );
    expect(created.code).toBe(0);
    const token = created.out.trim();
    expect(token).toMatch(/^berth_[0-9a-f]{16}_[A-Za-z0-9-]{43}$/);
    const id = token.split('_')[1]!;
    expect(created.err).toContain(`created token ${id} (role scheduler, project p1)`);

    const listed = await berth(['token', 'list'], dataDir);
    expect(listed.code).toBe(0);
    expect(listed.out).toMatch(
      new RegExp(`^${id}\\tscheduler\\tp1\\tnova\\t\\S+\\tnever\\tactive$`, 'm'),
    );
    expect(listed.out).not.toContain(token.split('_')[2]);

    expect((await berth(['token', 'revoke', id], dataDir)).out.trim()).toBe(`revoked ${id}`);
    const bad = await berth(['token', 'create', '--role', 'root'], dataDir);
    expect(bad.code).toBe(1);
    expect(bad.err.trim()).toBe(
      "berth: unknown role 'root': expected admin, service, scheduler, reader or member",
    );
    const scopedAdmin = await berth(
      ['token', 'create', '--role', 'admin', '--project', 'p1'],
      dataDir,
    );
    expect(scopedAdmin.code).toBe(1);
    expect(scopedAdmin.err).toMatch(/^berth: admin tokens cannot be scoped to a project/);
    expect(scopedAdmin.out).toBe('');
  }, 120000);
});
