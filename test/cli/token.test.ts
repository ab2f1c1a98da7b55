// `berth token create|list|revoke` as a real CLI process on the embedded database: the token is
// printed once, listed without its secret, and revoked. The refusals need an open database too
// (the role is checked by the token store): each runs on a data directory of its own, beside the
// list and revoke. Every process runs with QUICK_V8 (it is mostly PGlite's start).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { QUICK_V8, runBerth } from '../support/cli';

function berth(args: string[], dataDir: string) {
  return runBerth(args, { BERTH_DATA_DIR: dataDir }, QUICK_V8);
}

describe('berth token', () => {
  const work = mkdtempSync(path.join(tmpdir(), 'berth-token-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('creates, lists and revokes a token; refuses an unknown role and a project-scoped admin', async () => {
    const dataDir = path.join(work, 'tokens');
    const created = await berth(
      ['token', 'create', '--role', 'scheduler', '--project', 'p1', '--name', 'nova'],
      dataDir,
    );
    // Started once the first command has made sure of the template (a cold cache is made once).
    const refusals = Promise.all([
      berth(['token', 'create', '--role', 'root'], path.join(work, 'root')),
      berth(['token', 'create', '--role', 'admin', '--project', 'p1'], path.join(work, 'admin')),
    ]);
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
    const [bad, scopedAdmin] = await refusals;
    expect(bad.code).toBe(1);
    expect(bad.err.trim()).toBe(
      "berth: unknown role 'root': expected admin, service, scheduler, reader or member",
    );
    expect(scopedAdmin.code).toBe(1);
    expect(scopedAdmin.err).toMatch(/^berth: admin tokens cannot be scoped to a project/);
    expect(scopedAdmin.out).toBe('');
  }, 120000);
});
