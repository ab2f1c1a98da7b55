// The CLI progress bar (cli-progress underneath): draws on a TTY only, reports the progress made
// and ends its line when done.
import { ProgressBar } from '../../../src/import/progress';

function stream(isTTY: boolean, columns = 80) {
  const chunks: string[] = [];
  return { isTTY, columns, chunks, write: (c: string) => chunks.push(c) > 0 };
}

// What a terminal shows: the escape sequences removed.
const ansi = new RegExp(`${String.fromCharCode(27)}\\[[0-9;?]*[A-Za-z]`, 'g');
const plain = (chunks: string[]) => chunks.join('').replace(ansi, '');

describe('ProgressBar', () => {
  it('writes nothing when the stream is not a TTY', () => {
    const s = stream(false);
    const bar = new ProgressBar(s, 0);
    bar.update(1, 2, 'a');
    bar.update(2, 2, 'b');
    bar.finish();
    expect(bar.enabled).toBe(false);
    expect(s.chunks).toEqual([]);
  });

  it('reports the progress and completes on a TTY', () => {
    const s = stream(true);
    const bar = new ProgressBar(s, 0);
    bar.update(1, 4, 'cmp1');
    const early = plain(s.chunks);
    bar.update(4, 4, 'cmp4');
    bar.finish();
    const shown = plain(s.chunks);
    expect(bar.enabled).toBe(true);
    expect(early).toContain('1/4');
    expect(early).toContain('cmp1');
    expect(shown).toContain('4/4');
    expect(shown).toContain('100%');
    expect(shown).toContain('cmp4');
    expect(shown.endsWith('\n')).toBe(true);
  });

  it('draws the last step even when intermediate ones are throttled', () => {
    const s = stream(true);
    const bar = new ProgressBar(s, 60_000);
    bar.update(1, 3, 'one');
    bar.update(2, 3, 'two');
    bar.update(3, 3, 'three');
    bar.finish();
    const shown = plain(s.chunks);
    expect(shown).toContain('3/3');
    expect(shown).toContain('three');
  });

  it('finish without any update writes nothing', () => {
    const s = stream(true);
    new ProgressBar(s, 0).finish();
    expect(s.chunks).toEqual([]);
  });
});
