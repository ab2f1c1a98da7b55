// Soak fault plugin: a filter that throws on every host (`--fault plugin`). Declared fail-open, so
// an isolated failure must leave scheduling exactly as if it were not enabled.
import type { FilterPlugin, PluginFactory } from '../../../../src/scheduler/plugin-api';

export const NAME = 'SoakThrowingFilter';
export const kind = 'filter';

export const create: PluginFactory = () =>
  ({
    name: NAME,
    kind,
    onError: 'open',
    filter() {
      throw new Error('soak: injected plugin failure');
    },
  }) satisfies FilterPlugin;
