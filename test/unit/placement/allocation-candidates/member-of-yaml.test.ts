// Port of placement's gabbits/allocation-candidates-member-of.yaml (NonSharedStorageFixture),
// including its aggregate updates, to the engine and the index's setAggregates mutator.

import { loadFixture } from './fixture-builder';
import { NON_SHARED_STORAGE } from './gabbit-fixtures';
import { amountsOf, get } from './helpers';

describe('allocation-candidates-member-of.yaml', () => {
  // One fixture for the whole file: later tests depend on the aggregate updates, as upstream.
  const fx = loadFixture(NON_SHARED_STORAGE);
  const E: Record<string, string> = {
    ...fx.env,
    AGGA_UUID: 'agg-A',
    AGGB_UUID: 'agg-B',
    AGGC_UUID: 'agg-C',
  };
  const q = (qs: string) => get({ ...fx, env: E }, qs);
  const plain = 'resources=VCPU:1,MEMORY_MB:1024,DISK_GB:100';
  const setAggs = (env: string, aggs: string[]) => {
    fx.index.setAggregates(fx.index.providerId[fx.index.slotOfUuid(E[env]!)]!, aggs);
  };

  it('get allocation candidates with no match for member_of', () => {
    expect(q(`${plain}&member_of=$ENVIRON['AGGA_UUID']`).allocationRequests).toHaveLength(0);
  });

  it('verify that the member_of call now returns 1 allocation_candidate', () => {
    setAggs('CN1_UUID', ['agg-A']);
    const r = q(`${plain}&member_of=in:$ENVIRON['AGGA_UUID'],$ENVIRON['AGGB_UUID']`);
    expect(r.allocationRequests).toHaveLength(1);
  });

  it('verify that the member_of call now returns both RPs', () => {
    setAggs('CN2_UUID', ['agg-B']);
    const r = q(`${plain}&member_of=in:$ENVIRON['AGGA_UUID'],$ENVIRON['AGGB_UUID']`);
    expect(r.allocationRequests).toHaveLength(2);
  });

  it('verify that aggC still returns no RPs', () => {
    expect(q(`${plain}&member_of=$ENVIRON['AGGC_UUID']`).allocationRequests).toHaveLength(0);
  });

  it('verify that the member_of call for aggs A and B still returns 2 allocation_candidates', () => {
    setAggs('CN1_UUID', ['agg-A', 'agg-C']);
    const r = q(`${plain}&member_of=in:$ENVIRON['AGGA_UUID'],$ENVIRON['AGGB_UUID']`);
    expect(r.allocationRequests).toHaveLength(2);
  });

  it('verify that no RP is associated with BOTH aggA and aggB', () => {
    const r = q(`${plain}&member_of=$ENVIRON['AGGA_UUID']&member_of=$ENVIRON['AGGB_UUID']`);
    expect(r.allocationRequests).toHaveLength(0);
  });

  it('verify that second RP is associated with BOTH aggA and aggB', () => {
    setAggs('CN2_UUID', ['agg-A', 'agg-B']);
    const r = q(`${plain}&member_of=$ENVIRON['AGGA_UUID']&member_of=$ENVIRON['AGGB_UUID']`);
    expect(r.allocationRequests).toHaveLength(1);
  });

  it('negative agg', () => {
    const r = q("resources=VCPU:1&member_of=!$ENVIRON['AGGC_UUID']");
    expect(r.allocationRequests).toHaveLength(2);
    expect(r.providerSummaries).toHaveLength(2);
    expect(amountsOf(r, E['CN2_UUID']!, 'VCPU')).toEqual([1]);
    expect(amountsOf(r, E['CN3_UUID']!, 'VCPU')).toEqual([1]);
  });

  it('negative agg multiple', () => {
    const r = q("resources=VCPU:1&member_of=!in:$ENVIRON['AGGB_UUID'],$ENVIRON['AGGC_UUID']");
    expect(r.allocationRequests).toHaveLength(1);
    expect(amountsOf(r, E['CN3_UUID']!, 'VCPU')).toEqual([1]);
  });

  it('negative agg with positive agg', () => {
    const r = q(
      "resources=VCPU:1&member_of=!$ENVIRON['AGGB_UUID']&member_of=$ENVIRON['AGGC_UUID']",
    );
    expect(r.allocationRequests).toHaveLength(1);
    expect(amountsOf(r, E['CN1_UUID']!, 'VCPU')).toEqual([1]);
  });

  it('negative agg multiple with positive agg', () => {
    const r = q(
      "resources=VCPU:1&member_of=!in:$ENVIRON['AGGB_UUID'],$ENVIRON['AGGC_UUID']&member_of=$ENVIRON['AGGA_UUID']",
    );
    expect(r.allocationRequests).toHaveLength(0);
    expect(r.providerSummaries).toHaveLength(0);
  });

  it('negative agg with the same agg on positive get rp', () => {
    const r = q(
      "resources=VCPU:1&member_of=!$ENVIRON['AGGB_UUID']&member_of=in:$ENVIRON['AGGB_UUID'],$ENVIRON['AGGC_UUID']",
    );
    expect(r.allocationRequests).toHaveLength(1);
    expect(amountsOf(r, E['CN1_UUID']!, 'VCPU')).toEqual([1]);
  });

  it('negative agg with the same agg on positive no rp', () => {
    const r = q(
      "resources=VCPU:1&member_of=!$ENVIRON['AGGB_UUID']&member_of=$ENVIRON['AGGB_UUID']",
    );
    expect(r.allocationRequests).toHaveLength(0);
  });
});
