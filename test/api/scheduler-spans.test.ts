// Tracing: with a tracer provider registered (here an in-memory exporter, in production the
// NodeSDK of src/observability/tracing.ts), a `schedule` request served over HTTP produces a
// schedule span whose children are the candidates stage, one span per filter, the weighing with
// one span per weigher, and the claim; every one names the request id the logs carry. Only
// berth's own spans are checked: the http/pg/ioredis/graphql instrumentations patch modules as
// they load, which the NodeSDK does at `berth serve` start and jest's module registry does not.
import { randomUUID } from 'node:crypto';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { createTestApp, type TestApp } from '../support/app';
import { buildResourceProvider } from '../support/factories';
import { scheduleOverHttp, served } from '../support/metrics';

const SCHEDULE = `mutation($i: ScheduleInput!) { schedule(input: $i) { selections { host { uuid } } } }`;

describe('scheduler spans', () => {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const contextManager = new AsyncLocalStorageContextManager();
  let t: TestApp;
  beforeAll(async () => {
    context.setGlobalContextManager(contextManager.enable());
    trace.setGlobalTracerProvider(provider);
    t = await createTestApp({
      BERTH_SCHEDULER_FILTERS: 'ComputeFilter,RamFilter',
      BERTH_SCHEDULER_WEIGHERS: 'RAMWeigher,CPUWeigher',
    });
    await buildResourceProvider(t.app.services, {
      inventories: [
        { resourceClass: 'VCPU', total: 8 },
        { resourceClass: 'MEMORY_MB', total: 4096 },
      ],
    });
  });
  afterAll(async () => {
    await t.close();
    await provider.shutdown();
    trace.disable();
    context.disable();
  });

  it('a schedule request is one span tree named by its request id', async () => {
    const requestId = `req-${randomUUID()}`;
    const status = await served(t.app, async (base) => {
      const { status, body } = await scheduleOverHttp(base, {
        query: SCHEDULE,
        vcpu: 1,
        memoryMb: 256,
        headers: { 'x-request-id': requestId },
      });
      expect(body.errors).toBeUndefined();
      expect(body.data.schedule.selections[0].host).not.toBeNull();
      return status;
    });
    expect(status).toBe(200);

    const spans = exporter.getFinishedSpans();
    const root = spans.find((s) => s.name === 'scheduler.schedule');
    expect(root).toBeDefined();
    const childrenOf = (parent: ReadableSpan) =>
      spans
        .filter((s) => s.parentSpanContext?.spanId === parent.spanContext().spanId)
        .sort((a, b) => (a.startTime[0] - b.startTime[0]) * 1e9 + a.startTime[1] - b.startTime[1])
        .map((s) => s.name);
    expect(childrenOf(root!)).toEqual([
      'scheduler.candidates',
      'scheduler.filter ComputeFilter',
      'scheduler.filter RamFilter',
      'scheduler.weighing',
      'scheduler.claim',
    ]);
    const weighing = spans.find((s) => s.name === 'scheduler.weighing')!;
    expect(childrenOf(weighing)).toEqual([
      'scheduler.weigher RAMWeigher',
      'scheduler.weigher CPUWeigher',
    ]);
    const ours = spans.filter((s) => s.name.startsWith('scheduler.'));
    expect(ours).toHaveLength(8);
    for (const s of ours) {
      expect(s.attributes['berth.request_id']).toBe(requestId);
      expect(s.spanContext().traceId).toBe(root!.spanContext().traceId);
    }
    const filter = spans.find((s) => s.name === 'scheduler.filter RamFilter')!;
    expect(filter.attributes).toMatchObject({
      'berth.stage': 'filter',
      'berth.plugin': 'RamFilter',
    });
    expect(filter.attributes['berth.hosts_in']).toBe(1);
  });
});
