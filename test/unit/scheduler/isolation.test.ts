// Unit tests for src/scheduler/isolation.ts: budgets, sync and async guarded calls.
import { Budget, guard, isPromiseLike } from '../../../src/scheduler/runtime/isolation';

describe('guard', () => {
  it('returns synchronously for a synchronous call and charges its time', () => {
    let clock = 0;
    const budget = new Budget(100, () => clock);
    const outcome = guard(budget, () => {
      clock += 40;
      return 'ok';
    });
    expect(isPromiseLike(outcome)).toBe(false);
    expect(outcome).toEqual({ ok: true, value: 'ok' });
    expect(budget.spentMs).toBe(40);
  });

  it('reports a timeout once the summed calls exceed the budget', () => {
    let clock = 0;
    const budget = new Budget(100, () => clock);
    const slow = () => {
      clock += 60;
      return 1;
    };
    expect(guard(budget, slow)).toEqual({ ok: true, value: 1 });
    expect(guard(budget, slow)).toMatchObject({ ok: false, cause: 'timeout' });
  });

  it('catches anything thrown', () => {
    const budget = new Budget(100, () => 0);
    expect(
      guard(budget, () => {
        throw new Error('bad');
      }),
    ).toEqual({ ok: false, cause: 'error', message: 'bad' });
    expect(
      guard(budget, () => {
        throw 'plain';
      }),
    ).toEqual({ ok: false, cause: 'error', message: 'plain' });
  });

  const circular: Record<string, unknown> = { name: 'loop' };
  circular.self = circular;
  const throwingGetter = Object.defineProperty(new Error('x'), 'message', {
    get() {
      throw new Error('getter');
    },
  });
  const hostileThen = new Proxy(
    {},
    {
      get() {
        throw new Error('trap');
      },
    },
  );
  it.each<[string, unknown, string | RegExp]>([
    ['a circular object', circular, '[object Object]'],
    ['a BigInt inside an object', { code: 10n }, '{"code":"10n"}'],
    ['a bare BigInt', 10n, '"10n"'],
    ['a symbol', Symbol('s'), 'Symbol(s)'],
    ['null', null, 'null'],
    ['undefined', undefined, 'undefined'],
    ['an Error whose message getter throws', throwingGetter, '[object Error]'],
    ['a Proxy whose every trap throws', hostileThen, 'a value that cannot be printed'],
    ['a huge string', 'x'.repeat(10_000), /^x{500}…$/],
  ])('turns %s into a message, sync and async, without throwing', async (_n, value, message) => {
    const budget = new Budget(1000, () => performance.now());
    const sync = guard(budget, () => {
      throw value;
    });
    expect(sync).toMatchObject({ ok: false, cause: 'error' });
    expect((sync as { message: string }).message).toMatch(message);
    const async = await guard(budget, () => Promise.reject(value));
    expect(async).toMatchObject({ ok: false, cause: 'error' });
    expect((async as { message: string }).message).toMatch(message);
  });

  it('treats a result whose `then` getter throws as a plain value', () => {
    expect(guard(new Budget(1000, () => 0), () => hostileThen)).toMatchObject({ ok: true });
  });

  it('resolves an async call that answers in time', async () => {
    const outcome = guard(new Budget(1000, () => performance.now()), async () => 7);
    expect(isPromiseLike(outcome)).toBe(true);
    await expect(outcome).resolves.toEqual({ ok: true, value: 7 });
  });

  it('abandons an async call at the end of the budget; a late rejection stays handled', async () => {
    let rejectLate: (err: Error) => void = () => {};
    const late = new Promise<number>((_resolve, reject) => {
      rejectLate = reject;
    });
    const outcome = await guard(new Budget(10, () => performance.now()), () => late);
    expect(outcome).toMatchObject({ ok: false, cause: 'timeout' });
    rejectLate(new Error('too late'));
    await new Promise((r) => setTimeout(r, 5));
  });

  it('reports an async rejection as an error', async () => {
    await expect(
      guard(new Budget(1000, () => 0), () => Promise.reject(new Error('no'))),
    ).resolves.toEqual({
      ok: false,
      cause: 'error',
      message: 'no',
    });
  });
});
