// Shared fixtures of the pipeline tests: four hosts, a request, and filters that reject, throw or
// record what they were asked.

import type {
  FailurePolicy,
  FilterPlugin,
  HostView,
  Verdict,
} from '../../../src/scheduler/plugin-api';
import { buildHostView, buildRequestSpec } from '../../../src/scheduler/plugin-testing';
import type { SchedulerLogger } from '../../../src/scheduler/runtime/pipeline';

export const hosts: HostView[] = ['h1', 'h2', 'h3', 'h4'].map((uuid, i) =>
  buildHostView({
    providers: [{ uuid, name: `host-${i + 1}`, inventories: { MEMORY_MB: 1024 * (i + 1) } }],
  }),
);
export const spec = buildRequestSpec({ resources: { MEMORY_MB: 512 } });

/** A filter rejecting the listed hosts, recording every host it is asked about. */
export function rejecting(
  name: string,
  reject: string[],
  calls: string[] = [],
  onError: FailurePolicy = 'closed',
): FilterPlugin {
  return {
    name,
    kind: 'filter',
    onError,
    filter: (host): Verdict => {
      calls.push(`${name}:${host.uuid}`);
      return reject.includes(host.uuid)
        ? { fits: false, reason: `${name} does not like ${host.uuid}` }
        : { fits: true };
    },
  };
}

export function throwing(onError: FailurePolicy, afterHosts = 0): FilterPlugin {
  let seen = 0;
  return {
    name: 'Broken',
    kind: 'filter',
    onError,
    filter: (host) => {
      seen += 1;
      if (seen > afterHosts) {
        throw new Error(`boom on ${host.uuid}`);
      }
      return host.uuid === 'h1' ? { fits: false, reason: 'not h1' } : { fits: true };
    },
  };
}

export function recordingLogger(): SchedulerLogger & { warnings: object[] } {
  const warnings: object[] = [];
  return { warnings, warn: (fields) => warnings.push(fields), info: () => {} };
}

export const uuids = (result: { hosts: readonly { host: HostView }[] }) =>
  result.hosts.map((r) => r.host.uuid).sort();
