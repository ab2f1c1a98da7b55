// The import progress bar: draws on a TTY only, one line, within the terminal width.
import { ProgressBar, renderBar } from '../../../src/import/progress';

function stream(isTTY: boolean) {
  const chunks: string[] = [];
  return { isTTY, columns: 60, chunks, write: (c: string) => chunks.push(c) > 0 };
}

describe('ProgressBar', () => {
  it('writes nothing when the stream is not a TTY', () => {
    const s = stream(false);
    const bar = new ProgressBar(s, 0);
    bar.update(1, 2, 'a');
    bar.update(2, 2, 'b');
    bar.finish();
    expect(s.chunks).toEqual([]);
  });

  it('redraws one line on a TTY and ends it on finish', () => {
    const s = stream(true);
    const bar = new ProgressBar(s, 0);
    bar.update(1, 4, 'cmp1');
    bar.update(4, 4, 'cmp4');
    bar.finish();
    expect(s.chunks).toEqual([
      `\r${renderBar(1, 4, 'cmp1', 60)}\x1b[K`,
      `\r${renderBar(4, 4, 'cmp4', 60)}\x1b[K`,
      '\n',
    ]);
  });

  it('throttles intermediate updates but always draws the last', () => {
    const s = stream(true);
    const bar = new ProgressBar(s, 60_000);
    bar.update(1, 3);
    bar.update(2, 3);
    bar.update(3, 3);
    expect(s.chunks).toHaveLength(2);
  });
});

describe('renderBar', () => {
  it.each([
    { done: 0, total: 10, want: '[........................]  0/10   0% x' },
    { done: 5, total: 10, want: '[############............]  5/10  50% x' },
    { done: 10, total: 10, want: '[########################] 10/10 100% x' },
    { done: 0, total: 0, want: '[########################] 0/0 100% x' },
  ])('renders $done/$total', ({ done, total, want }) => {
    expect(renderBar(done, total, 'x', 80)).toBe(want);
  });

  it('cuts the label to fit the terminal width, never the bar', () => {
    expect(renderBar(1, 2, 'a-very-long-hypervisor-hostname.example.org', 40)).toBe(
      '[############............] 1/2  50% a-v',
    );
    expect(renderBar(1, 2, 'label', 0)).toBe('[############............] 1/2  50%');
  });

  it('draws a full-width bar when the terminal reports no width', () => {
    const s = {
      isTTY: true,
      columns: 0,
      chunks: [] as string[],
      write: (c: string) => s.chunks.push(c) > 0,
    };
    new ProgressBar(s, 0).update(1, 1, 'cmp1');
    expect(s.chunks).toEqual([`\r${renderBar(1, 1, 'cmp1', 80)}\x1b[K`]);
  });
});
