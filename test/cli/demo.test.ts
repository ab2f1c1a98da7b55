// `berth demo` against a real `berth serve` (auth on, as a production server runs): it refuses
// without a token, seeds the demo cloud with an admin token through the API, and the API then
// shows what a console user would see: hosts in zones, NUMA and GPU children, a shared pool,
// disabled hosts, usage, placed instances, server groups, quotas and audit events. A second run
// and an unreachable server are refused with one line and exit status 1.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildDemoCloud, instanceCount } from '../../src/demo/cloud';
import {
  berth,
  CLI_ARGS,
  cliEnv,
  collect,
  freePort,
  root,
  serveStorage,
  waitFor,
} from '../support/cli';

/** Runs `berth <args>` to completion. */
function run(
  args: string[],
  env: Record<string, string | undefined>,
): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, [...CLI_ARGS, ...args], {
    cwd: root,
    env: cliEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const io = collect(child);
  return new Promise((resolve) =>
    child.on('exit', (code) => resolve({ code, out: io.out(), err: io.err() })),
  );
}

describe('berth demo', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'berth-demo-'));
  let port = '';
  let url = '';
  let server: ChildProcess | undefined;
  let storage: Awaited<ReturnType<typeof serveStorage>>;
  let token = '';

  const gql = async (query: string, variables: object = {}) => {
    const r = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await r.json()) as { data?: any; errors?: unknown[] };
    expect(body.errors).toBeUndefined();
    return body.data;
  };

  beforeAll(async () => {
    port = String(await freePort());
    url = `http://127.0.0.1:${port}`;
    storage = await serveStorage(dataDir);
    server = berth(['serve'], { ...storage.env, PORT: port, BERTH_AUTH: 'on' });
    const io = collect(server);
    await waitFor(() => io.out().includes('listening on'), 110_000);
  }, 120_000);
  afterAll(async () => {
    server?.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
    await storage?.drop();
  });

  it('asks for an admin token, seeds the cloud with one, then refuses a second run', async () => {
    // The refusal and the token's creation (through the server's socket) side by side: the
    // server answers a request without a token the same whoever holds one.
    const [anonymous, created] = await Promise.all([
      run(['demo', '--url', url], {}),
      run(['token', 'create', '--role', 'admin', '--name', 'demo'], storage.env),
    ]);
    expect(anonymous.code).toBe(1);
    expect(anonymous.err).toBe(
      `berth: ${url} requires an admin token: create one on the server with \`berth token create --role admin --name demo\` and pass it with --token or BERTH_TOKEN\n`,
    );
    expect(created.code).toBe(0);
    token = created.out.trim();

    const seeded = await run(['demo', '--url', url], { BERTH_TOKEN: token });
    expect({ code: seeded.code, err: seeded.err }).toEqual({ code: 0, err: '' });
    const cloud = buildDemoCloud();
    const instances = instanceCount(cloud);
    expect(instances).toBeGreaterThanOrEqual(200);
    expect(seeded.out).toContain(`${instances} instances placed on`);
    expect(seeded.out).not.toContain('not placed');
    expect(seeded.out).toContain(`console:  ${url}/ui/`);
    expect(seeded.out).toContain(`GraphiQL: ${url}/graphql`);

    // What the console shows, read through the API.
    const d = await gql(`{
      providers: resourceProviders(first: 1000) {
        totalCount
        edges { node { name traits parent { name } aggregates { name } inventories { resourceClass } } }
      }
      aggregates { name metadata { key value } }
      capacity { providerCount lines { resourceClass used capacity } }
      consumers(first: 1) { totalCount }
      projects(first: 100) { edges { node { projectId consumerCount } } }
      serverGroups { name policy members hosts { host { name } } }
      quota(projectId: "hooli-staging") { lines { resource limit usedExact } }
      auditEvents(first: 1000) { edges { node { operation } } }
    }`);
    const nodes = d.providers.edges.map((e: any) => e.node);
    expect(d.providers.totalCount).toBe(cloud.providers.length);
    const hosts = nodes.filter(
      (n: any) => !n.parent && n.inventories.some((i: any) => i.resourceClass === 'MEMORY_MB'),
    );
    const numaHosts = nodes.filter((n: any) => !n.parent && n.name.startsWith('numa-'));
    expect(hosts.length + numaHosts.length).toBe(cloud.hostCount);
    expect(cloud.hostCount).toBeGreaterThanOrEqual(40);
    expect(cloud.hostCount).toBeLessThanOrEqual(60);
    expect(nodes.filter((n: any) => n.traits.includes('HW_NUMA_ROOT')).length).toBe(8);
    expect(
      nodes.filter(
        (n: any) => n.parent && n.inventories.some((i: any) => i.resourceClass === 'VGPU'),
      ).length,
    ).toBe(8);
    expect(
      nodes
        .filter((n: any) => n.traits.includes('COMPUTE_STATUS_DISABLED'))
        .map((n: any) => n.name),
    ).toEqual(cloud.disabledHosts);
    const pool = nodes.find((n: any) => n.traits.includes('MISC_SHARES_VIA_AGGREGATE'));
    expect(pool.aggregates.map((a: any) => a.name)).toContain('ceph-zone-c');
    const zones = d.aggregates.filter((a: any) =>
      a.metadata.some((m: any) => m.key === 'availability_zone'),
    );
    expect(zones.map((a: any) => a.name).sort()).toEqual(['zone-a', 'zone-b', 'zone-c']);
    const keys = d.aggregates.flatMap((a: any) => a.metadata.map((m: any) => m.key));
    expect(keys).toEqual(expect.arrayContaining(['filter_tenant_id', 'cpu_weight_multiplier']));
    const used = Object.fromEntries(d.capacity[0].lines.map((l: any) => [l.resourceClass, l.used]));
    for (const rc of ['VCPU', 'MEMORY_MB', 'DISK_GB', 'VGPU', 'CUSTOM_NVIDIA_A100']) {
      expect({ rc, used: used[rc] > 0 }).toEqual({ rc, used: true });
    }
    expect(d.consumers.totalCount).toBe(instances);
    expect(d.projects.edges).toHaveLength(5);
    const groups = Object.fromEntries(d.serverGroups.map((g: any) => [g.name, g]));
    expect(groups['db-cluster'].hosts).toHaveLength(1);
    expect(groups['db-cluster'].members).toHaveLength(3);
    expect(groups['web-frontends'].hosts).toHaveLength(8);
    const instancesLine = d.quota.lines.find((l: any) => l.resource === 'INSTANCES');
    expect(instancesLine).toEqual({ resource: 'INSTANCES', limit: 16, usedExact: 15 });
    const operations = new Set(d.auditEvents.edges.map((e: any) => e.node.operation));
    expect(operations.size).toBeGreaterThan(3);

    const again = await run(['demo', '--url', url], { BERTH_TOKEN: token });
    expect(again.code).toBe(1);
    expect(again.out).toBe('');
    expect(again.err).toMatch(/^berth: .* already holds a demo cloud .*\n$/);
    expect(again.err.split('\n')).toHaveLength(2);
  }, 600_000);

  it('refuses an unreachable server in one line', async () => {
    // A port nothing listens on: one the system just handed out and took back.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const closed = String((probe.address() as AddressInfo).port);
    await new Promise((resolve) => probe.close(resolve));
    const r = await run(['demo'], { PORT: closed });
    expect(r.code).toBe(1);
    expect(r.err).toBe(
      `berth: cannot reach berth at http://127.0.0.1:${closed} (connection refused); start it with \`npm start\` (or \`berth serve\`), or pass --url\n`,
    );
  }, 60_000);
});
