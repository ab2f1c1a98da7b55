// Fills a Placement (the real one, or berth's REST facade) through its own REST API with the
// shapes a migration must carry: a compute node with two NUMA children, a plain host, sharing
// providers in aggregates (MISC_SHARES_VIA_AGGREGATE), custom resource classes and traits,
// consumers of several consumer types and one without a type, a move's doubled allocations, an
// allocation_ratio change and an inventory lowered below its usage (capacity < used: Placement
// accepts it with a warning).
import { randomUUID } from 'node:crypto';
import http from 'node:http';

/** Sends one Placement request; throws with the answer unless the status is expected. */
export type PlacementCall = (
  method: string,
  path: string,
  body?: unknown,
  microversion?: string,
) => Promise<{ status: number; json: any }>;

/**
 * A PlacementCall against `base` (noauth2 admin) at microversion 1.39 unless told otherwise. One
 * connection per request: uWSGI's http-socket closes after each answer, which a pooled keep-alive
 * client (fetch) would meet as ECONNRESET.
 */
export function placementCaller(base: string): PlacementCall {
  return (method, path, body, microversion = '1.39') =>
    new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const req = http.request(
        `${base}${path}`,
        {
          method,
          agent: false,
          headers: {
            'x-auth-token': 'admin',
            accept: 'application/json',
            'openstack-api-version': `placement ${microversion}`,
            ...(payload === undefined
              ? {}
              : {
                  'content-type': 'application/json',
                  'content-length': Buffer.byteLength(payload),
                }),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', reject);
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let json: any;
            try {
              json = text ? JSON.parse(text) : undefined;
            } catch {
              json = text;
            }
            resolve({ status: res.statusCode ?? 0, json });
          });
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
}

/** What fillPlacement created (the uuids the comparison walks). */
export interface Filled {
  providers: Record<string, string>;
  aggregates: Record<string, string>;
  consumers: Record<string, string>;
  projects: string[];
  users: string[];
}

async function ok(call: PlacementCall, method: string, path: string, body?: unknown, mv?: string) {
  const r = await call(method, path, body, mv);
  if (r.status >= 300) {
    throw new Error(`${method} ${path} → ${r.status}: ${JSON.stringify(r.json)}`);
  }
  return r.json;
}

const inv = (total: number, o: Record<string, number> = {}) => ({ total, ...o });

/** Creates the fixture through `call`; uuids are new each run. */
export async function fillPlacement(call: PlacementCall): Promise<Filled> {
  const u = () => randomUUID();
  const p = { cn1: u(), numa0: u(), numa1: u(), cn2: u(), cn3: u(), disk: u(), ip: u() };
  const agg = { a1: u(), a2: u(), a3: u() };
  const c = { inst1: u(), inst2: u(), inst3: u(), mig3: u(), legacy: u(), port: u() };
  const projects = [u(), u()];
  const users = [u(), u()];

  for (const rc of ['CUSTOM_FPGA_XILINX', 'CUSTOM_MAGIC_BEANS']) {
    await ok(call, 'PUT', `/resource_classes/${rc}`);
  }
  for (const t of ['CUSTOM_GOLD', 'CUSTOM_RACK_7']) await ok(call, 'PUT', `/traits/${t}`);

  // Each provider's generation as the last write answered it (POST and the PUTs below return it
  // from 1.20/1.19 on): what a GET before each write would read, without the GET.
  const gen: Record<string, number> = {};
  const mk = async (name: string, uuid: string, parent?: string) => {
    const rp = await ok(call, 'POST', '/resource_providers', {
      name,
      uuid,
      ...(parent ? { parent_provider_uuid: parent } : {}),
    });
    gen[uuid] = rp.generation;
  };
  await mk('mig-cn1', p.cn1);
  await mk('mig-cn1-numa0', p.numa0, p.cn1);
  await mk('mig-cn1-numa1', p.numa1, p.cn1);
  await mk('mig-cn2', p.cn2);
  await mk('mig-cn3', p.cn3);
  await mk('mig-shared-disk', p.disk);
  await mk('mig-ip-pool', p.ip);

  const putInv = async (rp: string, inventories: Record<string, unknown>) => {
    const r = await ok(call, 'PUT', `/resource_providers/${rp}/inventories`, {
      resource_provider_generation: gen[rp],
      inventories,
    });
    gen[rp] = r.resource_provider_generation;
  };
  await putInv(p.cn1, { CUSTOM_FPGA_XILINX: inv(2), DISK_GB: inv(100, { reserved: 10 }) });
  for (const n of [p.numa0, p.numa1]) {
    await putInv(n, {
      VCPU: inv(8, { allocation_ratio: 4.0 }),
      MEMORY_MB: inv(8192, { reserved: 512, min_unit: 256, step_size: 256, max_unit: 8192 }),
    });
  }
  await putInv(p.cn2, {
    VCPU: inv(16, { allocation_ratio: 2.0, max_unit: 8 }),
    MEMORY_MB: inv(16384, { allocation_ratio: 1.5 }),
    CUSTOM_MAGIC_BEANS: inv(5),
  });
  await putInv(p.cn3, { VCPU: inv(4), MEMORY_MB: inv(4096) });
  await putInv(p.disk, { DISK_GB: inv(1000, { reserved: 100, allocation_ratio: 1.0 }) });
  await putInv(p.ip, { IPV4_ADDRESS: inv(64, { max_unit: 4 }) });

  const putTraits = async (rp: string, traits: string[]) => {
    const r = await ok(call, 'PUT', `/resource_providers/${rp}/traits`, {
      resource_provider_generation: gen[rp],
      traits,
    });
    gen[rp] = r.resource_provider_generation;
  };
  await putTraits(p.cn1, ['HW_CPU_X86_AVX2', 'CUSTOM_GOLD', 'COMPUTE_VOLUME_MULTI_ATTACH']);
  await putTraits(p.numa0, ['HW_NUMA_ROOT']);
  await putTraits(p.numa1, ['HW_NUMA_ROOT', 'CUSTOM_RACK_7']);
  await putTraits(p.cn2, ['HW_CPU_X86_AVX2', 'HW_CPU_X86_SSE42', 'CUSTOM_RACK_7']);
  await putTraits(p.cn3, ['COMPUTE_STATUS_DISABLED']);
  await putTraits(p.disk, ['MISC_SHARES_VIA_AGGREGATE', 'STORAGE_DISK_SSD']);
  await putTraits(p.ip, ['MISC_SHARES_VIA_AGGREGATE']);

  const putAggs = async (rp: string, aggregates: string[]) => {
    const r = await ok(call, 'PUT', `/resource_providers/${rp}/aggregates`, {
      resource_provider_generation: gen[rp],
      aggregates,
    });
    gen[rp] = r.resource_provider_generation;
  };
  await putAggs(p.cn1, [agg.a1]);
  await putAggs(p.cn2, [agg.a1, agg.a2]);
  await putAggs(p.cn3, [agg.a3]);
  await putAggs(p.disk, [agg.a1]);
  await putAggs(p.ip, [agg.a2, agg.a3]);

  const alloc = (
    consumer: string,
    allocations: Record<string, Record<string, number>>,
    project: string,
    user: string,
    consumerType: string | undefined,
    generation: number | null = null,
  ) =>
    ok(
      call,
      'PUT',
      `/allocations/${consumer}`,
      {
        allocations: Object.fromEntries(
          Object.entries(allocations).map(([rp, resources]) => [rp, { resources }]),
        ),
        project_id: project,
        user_id: user,
        consumer_generation: generation,
        ...(consumerType ? { consumer_type: consumerType } : {}),
      },
      consumerType ? '1.39' : '1.37',
    );
  const [p1, p2] = projects as [string, string];
  const [u1, u2] = users as [string, string];
  await alloc(
    c.inst1,
    {
      [p.numa0]: { VCPU: 2, MEMORY_MB: 2048 },
      [p.cn1]: { CUSTOM_FPGA_XILINX: 1 },
      [p.disk]: { DISK_GB: 20 },
    },
    p1,
    u1,
    'INSTANCE',
  );
  await alloc(
    c.inst2,
    { [p.cn2]: { VCPU: 4, MEMORY_MB: 4096, CUSTOM_MAGIC_BEANS: 2 }, [p.disk]: { DISK_GB: 40 } },
    p1,
    u2,
    'INSTANCE',
  );
  // A move in flight: the instance holds the destination (cn2), the migration the source (numa1).
  await alloc(c.inst3, { [p.numa1]: { VCPU: 2, MEMORY_MB: 1024 } }, p2, u1, 'INSTANCE');
  await ok(call, 'POST', '/allocations', {
    [c.inst3]: {
      allocations: { [p.cn2]: { resources: { VCPU: 2, MEMORY_MB: 1024 } } },
      project_id: p2,
      user_id: u1,
      consumer_generation: 1,
      consumer_type: 'INSTANCE',
    },
    [c.mig3]: {
      allocations: { [p.numa1]: { resources: { VCPU: 2, MEMORY_MB: 1024 } } },
      project_id: p2,
      user_id: u1,
      consumer_generation: null,
      consumer_type: 'MIGRATION',
    },
  });
  // …and, mid-move, an instance with allocations on two hosts at once (the doubled allocation).
  await alloc(
    c.port,
    { [p.cn3]: { VCPU: 3, MEMORY_MB: 3000 }, [p.cn2]: { VCPU: 1 }, [p.ip]: { IPV4_ADDRESS: 2 } },
    p2,
    u2,
    'CUSTOM_PORT_CLAIM',
  );
  // A consumer written before 1.38: no consumer type.
  await alloc(c.legacy, { [p.numa0]: { VCPU: 1, MEMORY_MB: 512 } }, p2, u2, undefined);

  // allocation_ratio change on a provider in use, then capacity lowered below usage. (The
  // allocations moved cn3's generation: read once.)
  const cn3 = await ok(call, 'GET', `/resource_providers/${p.cn3}/inventories`);
  const vcpu = await ok(call, 'PUT', `/resource_providers/${p.cn3}/inventories/VCPU`, {
    resource_provider_generation: cn3.resource_provider_generation,
    total: 4,
    allocation_ratio: 0.5,
  });
  await ok(call, 'PUT', `/resource_providers/${p.cn3}/inventories/MEMORY_MB`, {
    resource_provider_generation: vcpu.resource_provider_generation,
    total: 2048,
  });

  return { providers: p, aggregates: agg, consumers: c, projects, users };
}
