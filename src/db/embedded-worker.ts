// The embedded database's thread (started by src/db/embedded-thread.ts): opens PGlite on the data
// directory, serves it, posts the URL, and on `stop` closes both and posts `stopped`.
import { parentPort, workerData } from 'node:worker_threads';
import { servePglite } from './embedded-pg';
import type { ThreadMessage, ThreadSettings } from './embedded-thread';

const port = parentPort!;
const post = (m: ThreadMessage) => port.postMessage(m);
const why = (err: unknown) => (err instanceof Error ? err.message : String(err));
const { dir, ...opts } = workerData as ThreadSettings;

servePglite(dir, opts).then(
  (pg) => {
    port.once('message', () => {
      pg.stop().then(
        () => post({ stopped: true }),
        (err) => post({ error: why(err) }),
      );
    });
    post({ url: pg.url, timings: pg.timings });
  },
  (err) => post({ error: why(err) }),
);
