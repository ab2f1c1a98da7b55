// A subscriber that stops reading, over a real HTTP connection: the server stops pulling events
// while the connection cannot take more (it waits for 'drain'), the subscription's own buffer
// (BERTH_SUBSCRIPTION_BUFFER) overflows into one `resync`, and memory held for the subscriber
// stays bounded however many changes happen meanwhile.
import type { Server, ServerResponse } from 'node:http';
import { createTestApp, type TestApp } from '../support/app';
import { closeServer, listen } from '../support/rest';

const BUFFER = 4;
const CHANGES = 300;

describe('a subscriber that stops reading', () => {
  let t: TestApp;
  let server: Server;
  let base: string;
  let stream: ServerResponse | undefined;

  beforeAll(async () => {
    t = await createTestApp({ BERTH_SUBSCRIPTION_BUFFER: String(BUFFER) });
    ({ server, base } = await listen((req, res) => {
      if (req.headers.accept === 'text/event-stream') {
        stream = res;
      }
      t.app.handle(req, res);
    }));
  });
  afterAll(async () => {
    await closeServer(server);
    await t.close();
  });

  it('holds at most one write above the high-water mark, then resyncs', async () => {
    const abort = new AbortController();
    const res = await fetch(`${base}/graphql`, {
      signal: abort.signal,
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({
        query:
          'subscription { providerChanged { resync providerUuids providers { uuid name generation } } }',
      }),
    });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    for (let i = 0; i < 100 && t.app.services.live.openFor('anonymous') === 0; i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(t.app.services.live.openFor('anonymous')).toBe(1);
    // The peer stops taking data: nothing written from now on leaves the process, so write()
    // returns false above the high-water mark and 'drain' does not come until it reads again.
    const socket = stream!.socket!;
    socket.cork();

    let maxHeld = 0;
    for (let i = 0; i < CHANGES; i++) {
      await t.app.services.providers.create({ name: `bp-${i}-${'x'.repeat(120)}` });
      await new Promise((r) => setImmediate(r));
      maxHeld = Math.max(maxHeld, socket.writableLength);
    }
    // Every change produced an event; without back-pressure all of them (tens of kB) would sit
    // in the socket's buffer. With it, at most one event beyond the high-water mark does.
    expect(maxHeld).toBeLessThanOrEqual(socket.writableHighWaterMark + 4096);

    // The peer reads again: what was held arrives, then the buffered few, then one resync.
    socket.uncork();
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    const deadline = Date.now() + 20_000;
    while (!text.includes('"resync":true') && Date.now() < deadline) {
      const { value, done } = await Promise.race([
        reader.read(),
        new Promise<{ value: undefined; done: true }>((r) =>
          setTimeout(() => r({ value: undefined, done: true }), deadline - Date.now()),
        ),
      ]);
      if (done) {
        break;
      }
      text += decoder.decode(value, { stream: true });
    }
    abort.abort();
    const events = text.split('\n\n').filter((b) => b.includes('event: next'));
    expect(text).toContain('"resync":true');
    expect(events.length).toBeLessThan(CHANGES / 2);
  });
});
