// Graceful drain of the HTTP listener (src/server/server.ts listen): in-flight requests are
// answered, their keep-alive connections close, new connections are refused.
import { Agent, request } from 'node:http';
import { listen } from '../../../src/server/server';

function get(
  url: string,
  agent: Agent,
): Promise<{ status: number; connection?: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent }, (res) => {
      let body = '';
      res.on('data', (c) => {
        body += c;
      });
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

describe('listen().drain', () => {
  it('answers the in-flight request with connection: close and refuses new connections when draining', async () => {
    let release: () => void = () => {};
    let arrived: () => void = () => {};
    const gotRequest = new Promise<void>((r) => {
      arrived = r;
    });
    const listener = await listen(
      (_req, res) => {
        arrived();
        release = () => res.end('done');
      },
      // An hour: if the keep-alive connection were not closed, drain() would not resolve and the
      // test would time out.
      { port: 0, host: '127.0.0.1', shutdownTimeoutMs: 3600_000 },
    );
    const agent = new Agent({ keepAlive: true });
    try {
      const inFlight = get(`${listener.url}/slow`, agent);
      await gotRequest;
      const drained = listener.drain();
      release();
      expect(await inFlight).toEqual({ status: 200, connection: 'close', body: 'done' });
      await drained;
      await expect(get(`${listener.url}/new`, new Agent())).rejects.toMatchObject({
        code: 'ECONNREFUSED',
      });
    } finally {
      agent.destroy();
    }
  });
});
