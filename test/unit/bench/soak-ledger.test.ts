// The soak ledger (bench/soak/ledger.ts): which database states the clients' answers allow.
import { ANY_PROVIDER, Ledger } from '../../../bench/soak/ledger';

const A = { rp1: { VCPU: 2, MEMORY_MB: 2048 } };
const B = { rp1: { VCPU: 4, MEMORY_MB: 2048 } };

describe('Ledger', () => {
  it('allows only the acknowledged holding once a claim is acknowledged', () => {
    const l = new Ledger();
    const e = l.create('c1', 'setAllocations');
    l.acknowledged(e, A, 1);
    expect([l.allows(e, A), l.allows(e, null), l.allows(e, B)]).toEqual([true, false, false]);
  });

  it('allows both states when a resize answer was lost, and one again once released', () => {
    const l = new Ledger();
    const e = l.create('c1', 'setAllocations');
    l.acknowledged(e, A, 1);
    l.inDoubt(e, B);
    const during = [l.allows(e, A), l.allows(e, B), l.allows(e, null), l.known(e)];
    l.acknowledged(e, null);
    expect({
      during,
      after: [l.allows(e, null), l.allows(e, A)],
      everInDoubt: e.everInDoubt,
    }).toEqual({
      during: [true, true, false, undefined],
      after: [true, false],
      everInDoubt: true,
    });
  });

  it('matches a lost schedule answer on any one provider with exactly the requested amounts', () => {
    const l = new Ledger();
    const e = l.create('c1', 'schedule');
    l.inDoubt(e, { [ANY_PROVIDER]: { VCPU: 2, MEMORY_MB: 2048 } });
    expect([
      l.allows(e, null),
      l.allows(e, { rp9: { VCPU: 2, MEMORY_MB: 2048 } }),
      l.allows(e, { rp9: { VCPU: 1, MEMORY_MB: 2048 } }),
      l.allows(e, { rp8: { VCPU: 1 }, rp9: { VCPU: 1, MEMORY_MB: 2048 } }),
    ]).toEqual([true, true, false, false]);
  });
});
