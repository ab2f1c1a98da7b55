// A small progress bar for long imports: redraws one line on a TTY, prints nothing otherwise
// (pipes and CI logs stay clean). No dependency.

/** The stream the bar draws on (process.stderr in the CLI). */
export interface ProgressStream {
  readonly isTTY?: boolean;
  readonly columns?: number;
  write(chunk: string): boolean;
}

/** Draws `[#####.....]  45/100  45%  name` at most every `intervalMs`, and on the last step. */
export class ProgressBar {
  private last = 0;
  private drawn = false;

  constructor(
    private readonly stream: ProgressStream,
    private readonly intervalMs = 100,
  ) {}

  /** True when the bar draws anything. */
  get enabled(): boolean {
    return this.stream.isTTY === true;
  }

  /** Updates the bar (`done` of `total` rows; `label`: the current row). */
  update(done: number, total: number, label = ''): void {
    if (!this.enabled) {
      return;
    }
    const now = Date.now();
    if (done < total && now - this.last < this.intervalMs) {
      return;
    }
    this.last = now;
    this.stream.write(`\r${renderBar(done, total, label, this.stream.columns || 80)}\x1b[K`);
    this.drawn = true;
  }

  /** Ends the bar's line so later output starts on a fresh one. */
  finish(): void {
    if (this.enabled && this.drawn) {
      this.stream.write('\n');
      this.drawn = false;
    }
  }
}

/** One line of the bar, cut to fit `columns` (the label goes first). */
export function renderBar(done: number, total: number, label: string, columns: number): string {
  const ratio = total > 0 ? Math.min(1, done / total) : 1;
  const width = 24;
  const filled = Math.round(ratio * width);
  const bar = `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}]`;
  const count = `${String(done).padStart(String(total).length)}/${total}`;
  const pct = `${String(Math.floor(ratio * 100)).padStart(3)}%`;
  const line = `${bar} ${count} ${pct} ${label}`;
  // Never cut into the bar itself, even on a terminal that reports a tiny width.
  const room = Math.max(columns - 1, bar.length + count.length + pct.length + 2);
  return line.length > room ? line.slice(0, room) : line;
}
