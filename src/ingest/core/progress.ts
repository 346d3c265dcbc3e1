/**
 * Progress output on stderr: a cli-progress bar when stderr is a terminal, otherwise plain lines
 * (at most one every few seconds per phase, plus the last), so cron and CI logs stay readable.
 */
import cliProgress from 'cli-progress';

export interface Progress {
  /** Starts a phase (e.g. "financials 2023-12-31"); `total` in rows or requests when known. */
  start(label: string, total?: number): void;
  /** Sets how far the current phase is. */
  update(done: number, total?: number): void;
  /** Ends the current phase. */
  stop(): void;
}

export type ProgressMode = 'bar' | 'lines' | 'none';

export function progressMode(requested: string | undefined, isTty: boolean): ProgressMode {
  if (requested === 'bar' || requested === 'lines' || requested === 'none') return requested;
  return isTty ? 'bar' : 'lines';
}

export function createProgress(mode: ProgressMode, source: string, write: (line: string) => void): Progress {
  if (mode === 'none') return { start() {}, update() {}, stop() {} };
  return mode === 'bar' ? new BarProgress(source) : new LineProgress(source, write);
}

class BarProgress implements Progress {
  private bar: cliProgress.SingleBar | null = null;
  /** Without a known total the bar shows the count so far (a full bar, then the summary). */
  private knownTotal = false;

  constructor(private readonly source: string) {}

  start(label: string, total = 0): void {
    this.stop();
    this.bar = new cliProgress.SingleBar(
      {
        format: `${this.source} ${label} [{bar}] {value}/{total} {percentage}% {duration_formatted}`,
        stream: process.stderr,
        hideCursor: true,
        clearOnComplete: false,
      },
      cliProgress.Presets.shades_classic,
    );
    this.knownTotal = total > 0;
    this.bar.start(total, 0);
  }

  update(done: number, total?: number): void {
    if (total !== undefined) this.knownTotal = true;
    const limit = total ?? (this.knownTotal ? undefined : done);
    if (limit !== undefined) this.bar?.setTotal(limit);
    this.bar?.update(done);
  }

  stop(): void {
    this.bar?.stop();
    this.bar = null;
  }
}

const LINE_INTERVAL_MS = 2000;

class LineProgress implements Progress {
  private label = '';
  private total: number | undefined;
  private done = 0;
  private lastLine = 0;
  private active = false;

  constructor(
    private readonly source: string,
    private readonly write: (line: string) => void,
  ) {}

  start(label: string, total?: number): void {
    this.stop();
    this.label = label;
    this.total = total;
    this.done = 0;
    this.active = true;
    this.lastLine = Date.now();
    this.write(`${this.source}: ${label} …`);
  }

  update(done: number, total?: number): void {
    this.done = done;
    if (total !== undefined) this.total = total;
    if (Date.now() - this.lastLine >= LINE_INTERVAL_MS) this.line();
  }

  stop(): void {
    if (this.active) this.line();
    this.active = false;
  }

  private line(): void {
    this.lastLine = Date.now();
    const of = this.total
      ? `/${this.total} (${Math.floor((100 * this.done) / Math.max(1, this.total))}%)`
      : '';
    this.write(`${this.source}: ${this.label} ${this.done}${of}`);
  }
}
