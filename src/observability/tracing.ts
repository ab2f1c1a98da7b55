// OpenTelemetry tracing of `berth serve`, configured by the standard OTEL_* variables and off
// unless one of them asks for traces. When on, the NodeSDK exports spans of incoming HTTP
// requests, GraphQL, PostgreSQL (pg) and Redis (ioredis) and berth's own scheduler stages
// (src/observability/stage.ts). Metrics stay on /metrics and logs on stdout: the SDK's metric and
// log exporters are not started. Loaded lazily: with tracing off none of the SDK is required.

/** Variables any of which turns tracing on (unless OTEL_TRACES_EXPORTER=none or OTEL_SDK_DISABLED). */
export const TRACING_VARIABLES = [
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
  'OTEL_TRACES_EXPORTER',
] as const;

/** True when `env` asks for traces. */
export function tracingRequested(env: NodeJS.ProcessEnv): boolean {
  if ((env.OTEL_SDK_DISABLED ?? '').trim().toLowerCase() === 'true') {
    return false;
  }
  const exporters = (env.OTEL_TRACES_EXPORTER ?? '').split(',').map((s) => s.trim());
  if (exporters.includes('none')) {
    return false;
  }
  return TRACING_VARIABLES.some((name) => (env[name] ?? '').trim() !== '');
}

/** A started tracer: flushes and stops on shutdown. */
export interface Tracing {
  shutdown(): Promise<void>;
}

/**
 * Starts the SDK when `env` asks for traces. Call it before the server's modules are loaded: the
 * instrumentations patch `http`, `pg`, `ioredis` and `graphql` as they are required.
 * @returns undefined when tracing is off.
 */
export function startTracing(env: NodeJS.ProcessEnv = process.env): Tracing | undefined {
  if (!tracingRequested(env)) {
    return undefined;
  }
  const { NodeSDK } =
    require('@opentelemetry/sdk-node') as typeof import('@opentelemetry/sdk-node');
  const { HttpInstrumentation } =
    require('@opentelemetry/instrumentation-http') as typeof import('@opentelemetry/instrumentation-http');
  const { GraphQLInstrumentation } =
    require('@opentelemetry/instrumentation-graphql') as typeof import('@opentelemetry/instrumentation-graphql');
  const { PgInstrumentation } =
    require('@opentelemetry/instrumentation-pg') as typeof import('@opentelemetry/instrumentation-pg');
  const { IORedisInstrumentation } =
    require('@opentelemetry/instrumentation-ioredis') as typeof import('@opentelemetry/instrumentation-ioredis');
  const sdk = new NodeSDK({
    // OTEL_SERVICE_NAME (read by the SDK) wins over this default.
    ...(env.OTEL_SERVICE_NAME ? {} : { serviceName: 'berth' }),
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      new HttpInstrumentation({
        // Probes and scrapes are not worth a trace each.
        ignoreIncomingRequestHook: (req) => /^\/(healthz|readyz|metrics)(\?|$)/.test(req.url ?? ''),
      }),
      new GraphQLInstrumentation({ ignoreTrivialResolveSpans: true, mergeItems: true }),
      new PgInstrumentation(),
      new IORedisInstrumentation(),
    ],
  });
  sdk.start();
  return { shutdown: () => sdk.shutdown() };
}
