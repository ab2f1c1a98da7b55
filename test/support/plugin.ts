// A harness for plugin table tests: build a plugin the way the registry does, and ask a host
// filter about one host the way the pipeline does (prepare once, then filter). For the built-in
// plugins, whose hooks are synchronous.

import type {
  AggregateView,
  FilterPlugin,
  HostView,
  PluginFactory,
  RequestSpec,
  SchedulerPlugin,
  Verdict,
} from '../../src/scheduler/plugin-api';
import type { PipelineResult } from '../../src/scheduler/runtime/explanation';
import { isPromiseLike } from '../../src/scheduler/runtime/isolation';
import type { Pipeline } from '../../src/scheduler/runtime/pipeline';

/** `create(config, handle)` as the registry calls it, with a silent log. */
export function buildPlugin<P extends SchedulerPlugin>(
  create: PluginFactory<P>,
  name: string,
  config: Record<string, unknown> = {},
): P {
  return create(config, { name, config, log: () => {} });
}

/** The verdict of a synchronous host filter for `host`: `prepare` (if any), then `filter`. */
export function verdictOf<S>(plugin: FilterPlugin<S>, host: HostView, req: RequestSpec): Verdict {
  const state = plugin.prepare ? plugin.prepare(req) : (undefined as S);
  if (isPromiseLike(state)) {
    throw new Error(`${plugin.name}.prepare is async: await it in the test instead`);
  }
  const verdict = plugin.filter(host, req, state);
  if (isPromiseLike(verdict)) {
    throw new Error(`${plugin.name}.filter is async: await it in the test instead`);
  }
  return verdict;
}

/**
 * Runs `pipeline` over a fixed list of hosts the way scheduling does (amend, filter, weigh, rank),
 * with `aggregates` as the metadata-bearing aggregates the pre-candidate hooks see.
 */
export async function runPipeline(
  pipeline: Pipeline,
  hosts: readonly HostView[],
  spec: RequestSpec,
  aggregates: readonly AggregateView[] = [],
): Promise<PipelineResult> {
  const evaluation = await pipeline.evaluate(spec, {
    aggregates: async () => aggregates,
    hosts: async () => hosts,
  });
  return pipeline.rank(evaluation);
}
