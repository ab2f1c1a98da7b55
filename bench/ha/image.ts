// berth's container image, built and run with podman on this machine: buildImage() runs
// deploy/image/build.sh (the debootstrap base image when missing, then deploy/Containerfile);
// runContainerReplica() starts one `berth serve` container on the host's network, so that it
// reaches PostgreSQL and Redis on 127.0.0.1 and answers on 127.0.0.1:<port>.
//
// Containers run with `podman --runtime runc` and a containers.conf without default ulimits: on
// this kind of machine podman's default runtime (crun) fails ("cgroups in hybrid mode not
// supported") and so does setting RLIMIT_NOFILE.
import { execFile, spawn, spawnSync } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const CONTAINERS_CONF = '[containers]\ndefault_ulimits = []\n';

/** Why images cannot be built or run here, or undefined when they can. */
export function podmanUnavailable(): string | undefined {
  if (process.platform !== 'linux') {
    return `podman containers need Linux (this is ${process.platform})`;
  }
  if (process.getuid?.() !== 0) {
    return 'building the base image (debootstrap) and running containers need root';
  }
  for (const [cmd, pkg] of [
    ['podman', 'podman'],
    ['runc', 'runc'],
    ['debootstrap', 'debootstrap'],
  ]) {
    const r = spawnSync(cmd, ['--version'], { encoding: 'utf8' });
    if (r.error || r.status !== 0) {
      return `${cmd} not installed (apt-get install ${pkg})`;
    }
  }
  if (!process.version.startsWith('v20.')) {
    return `the base image copies this machine's Node.js, which must be 20 (is ${process.version})`;
  }
  return undefined;
}

/** What one image build took. */
export interface ImageBuild {
  readonly tag: string;
  /** Seconds building the base image; near 0 when it existed and was reused. */
  readonly baseSeconds: number;
  readonly buildSeconds: number;
  readonly sizeMb: number;
  /** Whether the base image was built by this call (false: reused). */
  readonly baseBuilt: boolean;
}

/**
 * Builds (or reuses) the base image, then deploy/Containerfile as `tag` (default
 * localhost/berth:<package.json version>), by deploy/image/build.sh.
 * @throws with the build's last output lines when it fails.
 */
export async function buildImage(o: {
  repoRoot: string;
  log: (m: string) => void;
  tag?: string;
}): Promise<ImageBuild> {
  const version = (
    JSON.parse(readFileSync(path.join(o.repoRoot, 'package.json'), 'utf8')) as { version: string }
  ).version;
  const tag = o.tag ?? `localhost/berth:${version}`;
  const script = path.join(o.repoRoot, 'deploy/image/build.sh');
  const child = spawn('bash', [script, tag], {
    cwd: o.repoRoot,
    env: { ...process.env, PODMAN_RUNTIME: 'runc' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const tail: string[] = [];
  let summary: RegExpExecArray | null = null;
  let baseBuilt = false;
  const onLine = (line: string) => {
    tail.push(line);
    if (tail.length > 40) {
      tail.shift();
    }
    // The script's own lines and podman's step headers; npm's and tsc's output only on failure.
    if (
      /^(build-base:|build:|(\[\d+\/\d+\] )?STEP \d+\/\d+|COMMIT|Successfully tagged)/.test(line)
    ) {
      o.log(line);
    }
    if (line.startsWith('build-base:') && line.includes(' built in ')) {
      baseBuilt = true;
    }
    summary = /^build: (\S+) base_s=(\d+) build_s=(\d+) size_mb=(\d+)$/.exec(line) ?? summary;
  };
  for (const stream of [child.stdout, child.stderr]) {
    let buf = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      buf += chunk;
      const lines = buf.split('\n');
      buf = lines.pop() ?? '';
      lines.forEach(onLine);
    });
  }
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (c) => resolve(c));
  });
  const m = summary as RegExpExecArray | null;
  if (code !== 0 || !m) {
    throw new Error(`deploy/image/build.sh exited ${code}:\n${tail.join('\n')}`);
  }
  return {
    tag: m[1],
    baseSeconds: Number(m[2]),
    buildSeconds: Number(m[3]),
    sizeMb: Number(m[4]),
    baseBuilt,
  };
}

/** One `berth serve` container on the host's network. */
export interface ContainerReplica {
  readonly name: string;
  readonly port: number;
  /** http://127.0.0.1:<port> */
  readonly url: string;
  signal(sig: 'SIGTERM' | 'SIGKILL'): Promise<void>;
  /** Resolves with the exit code when the container has stopped (null: unknown, e.g. removed). */
  readonly exited: Promise<number | null>;
  /** What berth printed (stdout and stderr), also written to <logDir>/<name>.log. */
  logs(): Promise<string>;
  /** `podman exec <name> ...cmd` (e.g. ['id', '-u']). */
  exec(cmd: string[]): Promise<{ code: number; out: string; err: string }>;
  /**
   * Runs the image's HEALTHCHECK once (`podman healthcheck run`; podman schedules it only with
   * systemd): code 0 when healthy.
   */
  healthcheck(): Promise<{ code: number; out: string; err: string }>;
  /** Until GET /readyz answers 200. @throws after `timeoutMs` or when the container stops. */
  waitReady(timeoutMs?: number): Promise<void>;
  /** Stop (SIGTERM, SIGKILL after 10 s) and remove the container. */
  remove(): Promise<void>;
}

function podman(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile(
      'podman',
      ['--runtime', 'runc', ...args],
      { env, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, out: String(stdout), err: String(stderr) });
      },
    );
  });
}

/**
 * Starts `tag` as container `name` (replacing a leftover one of that name):
 * `podman --runtime runc run -d --network host` with PORT=<port>, BERTH_HOST=127.0.0.1 and `env`.
 * Returns once podman has started it; `waitReady()` waits for berth.
 */
export async function runContainerReplica(o: {
  tag: string;
  name: string;
  port: number;
  env: Record<string, string>;
  logDir: string;
}): Promise<ContainerReplica> {
  mkdirSync(o.logDir, { recursive: true });
  const conf = path.join(o.logDir, 'containers.conf');
  writeFileSync(conf, CONTAINERS_CONF);
  const env = { ...process.env, CONTAINERS_CONF: conf };
  await podman(['rm', '-f', '--ignore', o.name], env);
  const vars = { ...o.env, PORT: String(o.port), BERTH_HOST: '127.0.0.1' };
  const run = await podman(
    [
      'run',
      '-d',
      '--network',
      'host',
      '--log-driver',
      'k8s-file',
      '--name',
      o.name,
      ...Object.entries(vars).flatMap(([k, v]) => ['-e', `${k}=${v}`]),
      o.tag,
    ],
    env,
  );
  if (run.code !== 0) {
    throw new Error(`podman run ${o.name} failed (${run.code}): ${run.err.trim()}`);
  }
  const logFile = path.join(o.logDir, `${o.name}.log`);
  const follower = spawn('podman', ['logs', '-f', o.name], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const sink = createWriteStream(logFile);
  follower.stdout.pipe(sink, { end: false });
  follower.stderr.pipe(sink, { end: false });
  const followed = new Promise<void>((resolve) => {
    follower.once('close', () => sink.end(resolve));
  });

  let stopped = false;
  const exited = podman(['wait', o.name], env).then((r) => {
    stopped = true;
    const code = Number.parseInt(r.out.trim(), 10);
    return r.code === 0 && Number.isFinite(code) ? code : null;
  });
  const url = `http://127.0.0.1:${o.port}`;
  let removed = false;

  return {
    name: o.name,
    port: o.port,
    url,
    exited,
    async signal(sig) {
      const r = await podman(['kill', '--signal', sig, o.name], env);
      if (r.code !== 0 && !stopped) {
        throw new Error(`podman kill --signal ${sig} ${o.name}: ${r.err.trim()}`);
      }
    },
    exec: (cmd) => podman(['exec', o.name, ...cmd], env),
    healthcheck: () => podman(['healthcheck', 'run', o.name], env),
    async logs() {
      if (!removed) {
        const r = await podman(['logs', o.name], env);
        if (r.code === 0) {
          return r.out + r.err;
        }
      }
      await followed;
      return readFileSync(logFile, 'utf8');
    },
    async waitReady(timeoutMs = 120_000) {
      const deadline = Date.now() + timeoutMs;
      let last = 'no answer';
      while (Date.now() < deadline) {
        if (stopped) {
          throw new Error(`${o.name} stopped (exit ${await exited}) before /readyz answered 200`);
        }
        try {
          const res = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2000) });
          last = `${res.status} ${(await res.text()).slice(0, 200)}`;
          if (res.status === 200) {
            return;
          }
        } catch (err) {
          last = (err as Error).message;
        }
        await new Promise((r) => setTimeout(r, 250));
      }
      throw new Error(`${o.name}: /readyz not 200 after ${timeoutMs} ms (last: ${last})`);
    },
    async remove() {
      if (removed) {
        return;
      }
      if (!stopped) {
        await podman(['stop', '--time', '10', o.name], env);
      }
      await exited;
      await followed;
      await podman(['rm', '-f', '--ignore', o.name], env);
      removed = true;
    },
  };
}
