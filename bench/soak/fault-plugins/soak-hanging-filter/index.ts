// Soak fault plugin: an async filter that never answers (`--fault plugin`). Its 50 ms time budget
// runs out on the first host; declared fail-open, so scheduling goes on without it.
import type { FilterPlugin, PluginFactory, Verdict } from '../../../../src/scheduler/plugin-api';

export const NAME = 'SoakHangingFilter';
export const kind = 'filter';

export const create: PluginFactory = () =>
  ({
    name: NAME,
    kind,
    onError: 'open',
    timeBudgetMs: 50,
    filter() {
      return new Promise<Verdict>(() => {});
    },
  }) satisfies FilterPlugin;
