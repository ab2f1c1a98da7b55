// Unit tests for src/scheduler/runtime/extender.ts verdictsOrThrow: an HTTP extender's filter
// answer read into verdicts, each rejection with its reason code (the Kubernetes protocol has none).

import { buildHostView } from '../../../src/scheduler/plugin-testing';
import {
  CODE_EXTENDER_FAILED_NODE,
  CODE_EXTENDER_NOT_KEPT,
  verdictsOrThrow,
} from '../../../src/scheduler/runtime/extender';
import { isReasonCode } from '../../../src/scheduler/runtime/verdict';

const hosts = ['gpu-1', 'cpu-1', 'cpu-2', 'odd-1'].map((name, i) =>
  buildHostView({ providers: [{ uuid: `u${i}`, name }] }),
);

describe('verdictsOrThrow', () => {
  it('codes failedNodes as extender.failed_node and unlisted hosts as extender.not_kept', () => {
    const answer = {
      nodeNames: ['gpu-1'],
      failedNodes: { 'cpu-1': 'no GPU on this host', u2: 'no GPU either' },
      error: '',
    };
    expect(verdictsOrThrow(answer, hosts, 'extender Gpu')).toEqual([
      { fits: true },
      { fits: false, reason: 'no GPU on this host', code: 'extender.failed_node' },
      { fits: false, reason: 'no GPU either', code: 'extender.failed_node' },
      {
        fits: false,
        reason: 'not among the hosts extender Gpu kept',
        code: 'extender.not_kept',
      },
    ]);
  });

  it('uses well-formed codes', () => {
    expect([CODE_EXTENDER_FAILED_NODE, CODE_EXTENDER_NOT_KEPT].every(isReasonCode)).toBe(true);
  });

  it('throws for a failedNodes that is not { name: reason }', () => {
    expect(() =>
      verdictsOrThrow({ nodeNames: [], failedNodes: { 'cpu-1': 3 } }, hosts, 'extender Gpu'),
    ).toThrow('extender Gpu: failedNodes must be an object { hostName: reason }');
  });
});
