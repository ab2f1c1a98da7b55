// Tracing in the real process: `berth serve` with OTEL_TRACES_EXPORTER=console starts the
// OpenTelemetry NodeSDK before loading the server (src/observability/tracing.ts), so one
// `schedule` over HTTP prints its span tree on stdout: the HTTP server span, the GraphQL parse,
// PostgreSQL queries, and berth's scheduler stages carrying the request id. The in-process span
// test (test/api/scheduler-spans.test.ts) checks berth's tree exactly; this one checks that the
// SDK and the http / graphql / pg instrumentations load and patch on the supported Node.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { berth, collect, freePort, terminate, waitFor } from '../support/cli';

describe('berth serve with OTEL_TRACES_EXPORTER=console', () => {
  it('prints the spans of a schedule request: http, graphql, pg and the scheduler stages', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'berth-otel-'));
    const port = String(await freePort());
    const child = berth(['serve'], {
      BERTH_DATA_DIR: dataDir,
      PORT: port,
      OTEL_TRACES_EXPORTER: 'console',
      OTEL_SERVICE_NAME: 'berth-under-test',
    });
    const io = collect(child);
    try {
      await waitFor(() => io.out().includes('listening on'), 110_000);
      const requestId = randomUUID();
      const res = await fetch(`http://127.0.0.1:${port}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-request-id': requestId },
        body: JSON.stringify({
          query: `mutation Place($i: ScheduleInput!) { schedule(input: $i) { selections { reason } } }`,
          variables: {
            i: {
              consumerUuids: [randomUUID()],
              projectId: 'p',
              userId: 'u',
              request: { groups: [{ resources: [{ resourceClass: 'VCPU', amount: 1 }] }] },
            },
          },
        }),
      });
      expect(res.status).toBe(200);
      // The console exporter prints each span as it ends; the server span ends last.
      await waitFor(() => /name: 'scheduler\.schedule'/.test(io.out()), 20_000);
      await waitFor(() => /kind: 1,/.test(io.out()), 20_000);
      const out = io.out();
      expect(out).toMatch(/'service\.name': 'berth-under-test'/);
      expect(out).toMatch(/name: 'scheduler\.candidates'/);
      expect(out).toMatch(new RegExp(`'berth\\.request_id': '${requestId}'`));
      expect(out).toMatch(/name: 'POST'/); // @opentelemetry/instrumentation-http's server span
      expect(out).toMatch(/name: 'graphql\.parse'/);
      expect(out).toMatch(/name: 'pg\.(query|connect)/);
      expect(await terminate(child)).toBe(0);
    } finally {
      child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 150_000);
});
