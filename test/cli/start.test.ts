// `npm start`, as README's first command runs it (the repository's own dist/, brought up to date
// by bin/start.js): the server answers on the embedded default, sends a browser from / to the
// console, serves the console, and stops on SIGTERM.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cliEnv, collect, freePort, root, waitFor } from '../support/cli';

describe('npm start', () => {
  it('builds what changed, serves on the embedded default and sends a browser to the console', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'berth-start-'));
    const port = String(await freePort());
    const child = spawn('npm', ['start'], {
      cwd: root,
      env: cliEnv({ BERTH_DATA_DIR: dataDir, PORT: port }),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true, // its own process group: npm's child server stops with it
    });
    const io = collect(child);
    try {
      // A fresh clone transpiles every source and builds the console first: minutes when busy.
      await waitFor(() => io.out().includes('listening on'), 280_000);
      expect(io.out()).toMatch(/^build: server sources /m);
      expect(io.out()).toContain(`console: http://127.0.0.1:${port}/ui/`);
      const landing = await fetch(`http://127.0.0.1:${port}/`, {
        headers: { accept: 'text/html' },
        redirect: 'manual',
      });
      expect([landing.status, landing.headers.get('location')]).toEqual([302, '/ui/']);
      const ui = await fetch(`http://127.0.0.1:${port}/ui/`);
      expect(ui.status).toBe(200);
      expect(await ui.text()).toContain('<div id="root">');
    } finally {
      const exited = new Promise((resolve) => child.on('exit', resolve));
      process.kill(-child.pid!, 'SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 300_000);
});
