/**
 * The progress of a batch on stderr. On a terminal one line, redrawn in place: games done/total,
 * running, counts by status, elapsed seconds. Elsewhere (a log file, CI) one line per finished
 * game, appended: a redrawn line would be noise there, and silence for minutes looks like a hang.
 */
import type { FoundGame, GameRow, GameStatus } from './types.js';
import { STATUSES } from './types.js';

/** The counts the line always shows. */
const ALWAYS: readonly GameStatus[] = ['ok', 'invalid', 'limit'];

/** A terminal stream the line is drawn on. */
interface ProgressStream {
  readonly isTTY?: boolean;
  write(text: string): unknown;
}

/** Tracks the batch: draws the line on a terminal, appends a line per finished game elsewhere. */
export class Progress {
  private done = 0;
  private running = 0;
  private readonly counts = new Map<GameStatus, number>();
  private readonly start = Date.now();
  private readonly ticker: NodeJS.Timeout | undefined;

  constructor(private readonly total: number, private readonly stream: ProgressStream = process.stderr) {
    // Redraw once a second so that the elapsed time moves while long games run.
    this.ticker = stream.isTTY === true ? setInterval(() => this.draw(), 1000) : undefined;
    this.ticker?.unref();
  }

  /** A game started. */
  started(_game: FoundGame): void {
    this.running++;
    this.draw();
  }

  /** A game ended. */
  finished(row: GameRow): void {
    this.running--;
    this.done++;
    this.counts.set(row.status, (this.counts.get(row.status) ?? 0) + 1);
    if (this.stream.isTTY === true) this.draw();
    else this.stream.write(`${this.finishedLine(row)}\n`);
  }

  /** The line appended for a finished game when the stream is not a terminal. */
  finishedLine(row: GameRow): string {
    const why = row.message === '' ? '' : `: ${row.message.split('\n')[0]}`;
    return `[${this.done}/${this.total}] ${row.status} ${row.game} (${row.seconds.toFixed(1)} s)${why}`;
  }

  /** The line as it is drawn. */
  line(): string {
    // ok, invalid and limit always; memory and crash once they happen.
    const counts = STATUSES.filter((s) => (this.counts.get(s) ?? 0) > 0 || ALWAYS.includes(s)).map((s) => `${s} ${this.counts.get(s) ?? 0}`);
    const elapsed = ((Date.now() - this.start) / 1000).toFixed(0);
    return `${this.done}/${this.total} done, ${this.running} running, ${counts.join(', ')}, ${elapsed} s`;
  }

  private draw(): void {
    if (this.stream.isTTY !== true) return;
    this.stream.write(`\r\x1b[K${this.line()}`);
  }

  /** Stops redrawing and clears the line. */
  stop(): void {
    if (this.ticker !== undefined) clearInterval(this.ticker);
    if (this.stream.isTTY === true) this.stream.write('\r\x1b[K');
  }
}
