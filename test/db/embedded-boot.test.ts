// `npm start` as a fresh clone's first start (a copy of the sources without dist/, node_modules
// linked) on the embedded default: the console builds in a child process while the server's
// modules load and the embedded database is unpacked from the prebuilt one (bin/start.js), and
// the server opens its port only once the console is built: the console is served as soon as it
// listens.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cliEnv, collect, freePort, root, terminate, waitFor } from '../support/cli';

/** What `npm start` reads of the sources. */
const SOURCES = [
  'bin',
  'src',
  'migrations',
  'filters',
  'schema',
  'console',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
];

describe('npm start on a fresh clone', () => {
  it('builds the console beside the embedded start and serves it once listening', async () => {
    const work = mkdtempSync(path.join(tmpdir(), 'berth-boot-'));
    const tree = path.join(work, 'tree');
    mkdirSync(tree);
    for (const entry of SOURCES) {
      cpSync(path.join(root, entry), path.join(tree, entry), { recursive: true });
    }
    symlinkSync(path.join(root, 'node_modules'), path.join(tree, 'node_modules'));
    const port = String(await freePort());
    const child = spawn(process.execPath, ['--max-semi-space-size=64', 'bin/start.js'], {
      cwd: tree,
      env: cliEnv({
        BERTH_DATA_DIR: path.join(work, 'data'),
        BERTH_TEMPLATE_CACHE: path.join(work, 'cache'),
        LOG_LEVEL: 'info',
        PORT: port,
      }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const io = collect(child);
    try {
      await waitFor(() => io.out().includes('listening on') || child.exitCode !== null, 280_000);
      const out = io.out();
      expect(out).toMatch(/^build: server sources \d+ written, 0 removed$/m);
      const built = out.search(/^build: console built /m);
      expect(built).toBeGreaterThan(0);
      expect(built).toBeLessThan(out.indexOf('listening on'));
      const ui = await fetch(`http://127.0.0.1:${port}/ui/`);
      expect([ui.status, (await ui.text()).includes('<div id="root">')]).toEqual([200, true]);
      const rest = await fetch(`http://127.0.0.1:${port}/placement/resource_providers`);
      expect(rest.status).toBe(200);
      const serving = out
        .split('\n')
        .find((l) => l.includes('"embedded PostgreSQL (PGlite) serving"'));
      expect(JSON.parse(serving ?? '{}')).toMatchObject({ from: 'prebuilt' });
      expect(existsSync(path.join(work, 'cache'))).toBe(false);
      expect(await terminate(child)).toBe(0);
    } finally {
      child.kill('SIGKILL');
      rmSync(work, { recursive: true, force: true });
    }
  }, 300_000);
});
