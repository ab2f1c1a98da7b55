// The request log line names what an operator needs to find a refused request: its stable error
// code (REST and GraphQL, whose refusals usually answer 200), and REST's Placement request id is
// built from the logged request id, so the log, the answer and the audit trail name one request.
import type { Server } from 'node:http';
import { Writable } from 'node:stream';
import { createLogger } from '../../src/observability/logger';
import { createTestApp, type TestApp } from '../support/app';
import { closeServer, listen } from '../support/rest';

interface Line {
  msg?: string;
  requestId?: string;
  status?: number;
  code?: string;
  url?: string;
}

describe('request log', () => {
  let t: TestApp;
  let server: Server;
  let base: string;
  let logs = '';
  const lines = (): Line[] =>
    logs
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as Line)
      .filter((l) => l.msg === 'request');
  const lineOf = (requestId: string) => lines().find((l) => l.requestId === requestId);

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk, _enc, done) {
        logs += String(chunk);
        done();
      },
    });
    t = await createTestApp({}, { logger: createLogger('info', sink) });
    ({ server, base } = await listen((req, res) => t.app.handle(req, res)));
  });
  afterAll(async () => {
    await closeServer(server);
    await t.close();
  });

  it('REST: the error code, and the Placement request id built from the logged one', async () => {
    const id = '6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f';
    const res = await fetch(`${base}/placement/resource_providers`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'openstack-api-version': 'placement latest',
        'x-request-id': id,
      },
      body: JSON.stringify({ name: 'x', uuid: 'not-a-uuid' }),
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { errors: { code: string }[] };
    expect(res.headers.get('x-openstack-request-id')).toBe(`req-${id}`);
    await new Promise((r) => setImmediate(r));
    expect(lineOf(id)).toMatchObject({ status: 400, code: body.errors[0]!.code });
    expect(body.errors[0]!.code).toMatch(/^placement\./);
  });

  it('REST: a request id that is not a uuid still gets a fresh req-<uuid>', async () => {
    const res = await fetch(`${base}/placement/resource_providers`, {
      headers: { 'x-request-id': 'my-trace-42' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-openstack-request-id')).toMatch(/^req-[0-9a-f-]{36}$/);
    await new Promise((r) => setImmediate(r));
    expect(lineOf('my-trace-42')).toMatchObject({ status: 200 });
    expect(lineOf('my-trace-42')?.code).toBeUndefined();
  });

  it('GraphQL: a refused operation answered 200 carries its error code', async () => {
    const res = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': 'gql-refused-1' },
      body: JSON.stringify({
        query: 'mutation { deleteResourceProvider(uuid: "9d0d5b0c-1d53-4ad5-9f52-5b3a1d7e0c11") }',
      }),
    });
    const body = (await res.json()) as { errors?: { extensions?: { code?: string } }[] };
    const code = body.errors?.[0]?.extensions?.code;
    expect(typeof code).toBe('string');
    await new Promise((r) => setImmediate(r));
    expect(lineOf('gql-refused-1')).toMatchObject({ status: res.status, code });
  });
});
