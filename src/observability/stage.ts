// The one seam through which the scheduler reports its stages: each observed stage is timed into
// the `berth_scheduler_stage_duration_seconds` histogram and, when an OpenTelemetry SDK is
// registered (src/observability/tracing.ts), opened as a span under the current one. With no SDK
// the @opentelemetry/api tracer is a no-op; `BARE_STAGES` skips both (the bench's baseline).
// With tracing off an observation is two clock reads and a bucket increment on counters found
// once per stage and plugin (src/observability/fast-histogram.ts).
import {
  type Attributes,
  context,
  type ProxyTracerProvider,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import { ATTR_PLUGIN, ATTR_REQUEST_ID, ATTR_STAGE, TRACER_NAME } from './attributes';
import type { FastHistogram, HistogramSeries } from './fast-histogram';
import { currentRequestId } from './request-scope';

/** The stages of a scheduling request (the `stage` label; `plugin` names the plugin, if any). */
export type StageName =
  | 'schedule'
  | 'explain'
  | 'candidates'
  | 'filter'
  | 'weighing'
  | 'weigher'
  | 'claim';

/** Runs scheduler stages under observation. */
export interface StageObserver {
  /**
   * Runs `fn` as stage `name` (of plugin `plugin`, for filter and weigher stages) and returns its
   * result; `attrs` go on the span only.
   */
  observe<T>(
    name: StageName,
    plugin: string | undefined,
    attrs: Attributes | undefined,
    fn: () => Promise<T>,
  ): Promise<T>;
}

/** Bare calls: no timing, no span. */
export const BARE_STAGES: StageObserver = {
  observe: (_name, _plugin, _attrs, fn) => fn(),
};

/**
 * Stages timed into `histogram` (labels `stage`, `plugin`) and traced with the global tracer.
 * Each stage and plugin's counters are looked up once and kept (plugin names come from the
 * configured pipelines, so the set is bounded).
 */
export function stageObserver(histogram: FastHistogram<'stage' | 'plugin'>): StageObserver {
  const tracer = trace.getTracer(TRACER_NAME);
  const byStage = new Map<string, Map<string, HistogramSeries>>();
  const child = (stage: string, plugin: string) => {
    let plugins = byStage.get(stage);
    if (!plugins) {
      plugins = new Map();
      byStage.set(stage, plugins);
    }
    let c = plugins.get(plugin);
    if (!c) {
      c = histogram.series({ stage, plugin });
      plugins.set(plugin, c);
    }
    return c;
  };
  // The global provider is a proxy; until an SDK registers a delegate there is no tracer to ask.
  const provider = trace.getTracerProvider() as Partial<ProxyTracerProvider>;
  const tracing = () =>
    typeof provider.getDelegateTracer !== 'function' ||
    provider.getDelegateTracer(TRACER_NAME) !== undefined;
  return {
    async observe(name, plugin, attrs, fn) {
      const timer = child(name, plugin ?? '');
      if (!tracing()) {
        const started = performance.now();
        try {
          return await fn();
        } finally {
          timer.observe((performance.now() - started) / 1000);
        }
      }
      const spanName = plugin === undefined ? `scheduler.${name}` : `scheduler.${name} ${plugin}`;
      return tracer.startActiveSpan(spanName, async (span) => {
        if (span.isRecording()) {
          span.setAttribute(ATTR_STAGE, name);
          if (plugin !== undefined) {
            span.setAttribute(ATTR_PLUGIN, plugin);
          }
          const requestId = currentRequestId(context.active());
          if (requestId !== undefined) {
            span.setAttribute(ATTR_REQUEST_ID, requestId);
          }
          if (attrs) {
            span.setAttributes(attrs);
          }
        }
        const started = performance.now();
        try {
          return await fn();
        } catch (err) {
          span.recordException(err as Error);
          span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error)?.message });
          throw err;
        } finally {
          timer.observe((performance.now() - started) / 1000);
          span.end();
        }
      });
    },
  };
}
