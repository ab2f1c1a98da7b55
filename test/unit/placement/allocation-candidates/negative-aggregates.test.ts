// The worked example of the "negative aggregate membership" design note
// (shared/seeds/000_299978429ad69d68.txt; upstream spec nova negative-aggregate-membership):
// a forbidden aggregate on a root excludes its whole tree for the unsuffixed group only.
import { type FixtureSpec, loadFixture } from './fixture-builder';
import { get } from './helpers';

const DISK = { DISK_GB: [100, 0, 1, 100, 1, 1] as const };
const SHARES = ['MISC_SHARES_VIA_AGGREGATE'];
const NOTE: FixtureSpec = {
  customClasses: [],
  customTraits: [],
  providers: [
    ['cn1', 'cn1', null, ['aggA'], [], DISK],
    ['numa1_1', 'numa1_1', 'cn1', ['aggC'], [], DISK],
    ['numa1_2', 'numa1_2', 'cn1', [], [], DISK],
    ['cn2', 'cn2', null, ['aggB'], [], DISK],
    ['numa2_1', 'numa2_1', 'cn2', [], [], DISK],
    ['numa2_2', 'numa2_2', 'cn2', [], [], DISK],
    ['ss1', 'ss1', null, ['aggB'], SHARES, DISK],
    ['ss2', 'ss2', null, ['aggC'], SHARES, DISK],
  ],
  usage: [],
};
const ALL = ['cn1', 'numa1_1', 'numa1_2', 'cn2', 'numa2_1', 'numa2_2', 'ss1', 'ss2'];
const fx = loadFixture(NOTE);

/** Names of the providers that give DISK_GB in at least one candidate. */
function used(qs: string): string[] {
  const r = get(fx, qs);
  const uuids = new Set(
    r.allocationRequests.flatMap((ar) => ar.allocations.map((a) => a.providerUuid)),
  );
  return ALL.filter((n) => uuids.has(fx.uuid(n)));
}

function without(...excluded: string[]): string[] {
  return ALL.filter((n) => !excluded.includes(n));
}

describe('negative aggregate membership design note', () => {
  it('uses every provider when nothing is forbidden', () => {
    expect(used('resources=DISK_GB:10')).toEqual(ALL);
    expect(used('resources1=DISK_GB:10')).toEqual(ALL);
  });

  it.each([
    ['aggA', ['cn1', 'numa1_1', 'numa1_2']],
    ['aggB', ['cn2', 'numa2_1', 'numa2_2', 'ss1']],
    ['aggC', ['numa1_1', 'ss2']],
  ])('member_of=!%s excludes %j (root aggregates span the tree)', (agg, excluded) => {
    expect(used(`resources=DISK_GB:10&member_of=!agg-${agg}`)).toEqual(without(...excluded));
  });

  it.each([
    ['aggA', ['cn1']],
    ['aggB', ['cn2', 'ss1']],
    ['aggC', ['numa1_1', 'ss2']],
  ])('member_of<N>=!%s excludes only %j (own aggregates)', (agg, excluded) => {
    expect(used(`resources1=DISK_GB:10&member_of1=!agg-${agg}`)).toEqual(without(...excluded));
  });

  it('anchors ss2 to cn1 through its child numa1_1 in aggC', () => {
    const withCpu = loadFixture({
      ...NOTE,
      providers: NOTE.providers.map((p) =>
        p[0] === 'cn1' ? [p[0], p[1], p[2], p[3], p[4], { VCPU: [4, 0, 1, 4, 1, 1] }] : p,
      ),
    });
    const res = get(withCpu, 'resources=DISK_GB:10,VCPU:1');
    const disks = res.allocationRequests.map(
      (ar) => ar.allocations.find((a) => 'DISK_GB' in a.resources)!.providerUuid,
    );
    expect(disks).toEqual(['numa1_1', 'numa1_2', 'ss2'].map(withCpu.uuid));
  });
});
