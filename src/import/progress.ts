// The progress bar of the long CLI commands (`berth import compute-nodes`, `berth import
// placement`, `berth export placement`): a cli-progress bar on a TTY, nothing otherwise (pipes and
// CI logs stay clean).
import cliProgress from 'cli-progress';
import { escapeForTerminal } from '../lib/text-table';

/** The stream the bar draws on (process.stderr in the CLI). */
export interface ProgressStream {
  readonly isTTY?: boolean;
  readonly columns?: number;
  write(chunk: string): boolean;
}

/** One cli-progress bar, started on the first update: `[####....] 45/100 45% label`. */
export class ProgressBar {
  private readonly bar: cliProgress.SingleBar | undefined;
  private started = false;

  /** @param throttleMs least time between two redraws, ms (the last step is always drawn). */
  constructor(stream: ProgressStream, throttleMs = 100) {
    this.bar =
      stream.isTTY === true
        ? new cliProgress.SingleBar(
            {
              stream: stream as unknown as NodeJS.WritableStream,
              format: '[{bar}] {value}/{total} {percentage}% {label}',
              hideCursor: true,
              // Only the final summary may follow the bar; it never erases it.
              clearOnComplete: false,
              gracefulExit: false,
              fps: 1000 / Math.max(1, throttleMs),
              linewrap: false,
            },
            cliProgress.Presets.legacy,
          )
        : undefined;
  }

  /** True when the bar draws anything. */
  get enabled(): boolean {
    return this.bar !== undefined;
  }

  /** Updates the bar (`done` of `total` rows; `label`: the current row or step, escaped). */
  update(done: number, total: number, rawLabel = ''): void {
    if (!this.bar) {
      return;
    }
    const label = escapeForTerminal(rawLabel);
    if (!this.started) {
      this.bar.start(total, done, { label });
      this.started = true;
      return;
    }
    this.bar.setTotal(total);
    this.bar.update(done, { label });
    if (done >= total) {
      this.bar.render();
    }
  }

  /** Draws the last state and ends the bar's line so later output starts on a fresh one. */
  finish(): void {
    if (this.bar && this.started) {
      this.bar.stop();
      this.started = false;
    }
  }
}
