/**
 * The one budget of a run: a wall-clock instant and a heap size, fixed once when options are
 * resolved and handed to every stage. Stages look at it at a fine grain; reading the clock and the
 * heap on every step of a join would cost more than the step, so {@link Deadline.tick} reads them
 * once per {@link TICKS_PER_CLOCK_READ} calls.
 */

/** Calls of {@link Deadline.tick} per clock read: about a millisecond of join work. */
export const TICKS_PER_CLOCK_READ = 4096;

/**
 * Milliseconds between two reads of the heap size. Node's `process.memoryUsage()` also reads the
 * resident set size from /proc, 20-50 µs a call: read at every clock read (about once a
 * millisecond) it took 4% of a long run (amazonsTorus: 3.4 s of 85 s of processor time). The heap
 * grows by far less than a limit's slack in this time.
 */
const HEAP_READ_MS = 25;

/** Which limit of a {@link Deadline} was reached: its time, its heap, or its caller's abort signal. */
export type LimitKind = 'time' | 'memory' | 'aborted';

/**
 * What a {@link Deadline} reads of an abort signal: `AbortSignal` (browsers and Node) fits.
 * Structural, so that the core names no host's type.
 */
export interface AbortFlag {
  readonly aborted: boolean;
}

/**
 * Processor time (user and system, all threads) of the process in ms, where the runtime reports
 * it (Node), else undefined (a browser): what a stage's budget counts, and the timer's T of the
 * mutex stage's default budget.
 */
export function cpuMs(): number | undefined {
  if (typeof process === 'undefined' || typeof process.cpuUsage !== 'function') return undefined;
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/**
 * A wall-clock deadline (ms since the epoch; Infinity for none), a heap limit (bytes) and, for
 * library callers, an abort signal, read with the clock: an aborted signal is a limit reached; and
 * for a stage's budget made by {@link Deadline.within}, a limit on the process's processor time (ms).
 */
export class Deadline {
  private ticks = 0;
  /** The first limit found reached; once reached, a limit stays reached. */
  private reached: LimitKind | undefined;
  /** When the heap size was last read (ms since the epoch; 0: never, so the first check reads it). */
  private heapReadAt = 0;

  /** `at`: ms since the epoch, Infinity for no deadline; `maxHeapBytes`: Infinity for no limit; `signal`: none by default; `cpuAt`: processor-time limit (ms), Infinity for none. */
  constructor(readonly at: number, readonly maxHeapBytes = Infinity, readonly signal?: AbortFlag, readonly cpuAt = Infinity) {}

  /** No deadline and no memory limit. */
  static never(): Deadline {
    return new Deadline(Infinity);
  }

  /** A deadline `seconds` from now (Infinity for none), and a heap limit in MB (default none). */
  static in(seconds: number, maxHeapMb = Infinity, signal?: AbortFlag): Deadline {
    return new Deadline(seconds === Infinity ? Infinity : Date.now() + seconds * 1000, maxHeapMb * 1024 * 1024, signal);
  }

  /**
   * A budget for one stage inside this one: `seconds` of processor time from now (of wall-clock
   * time where the runtime reports no processor time), never past this deadline, the same heap
   * limit. Processor time, so that a machine busy with other jobs does not change what the stage
   * finds. A stage that stops at its budget keeps what it has; the run's own deadline still
   * decides whether the run failed (the mutex stage's time budget, docs/mutex.md).
   */
  within(seconds: number): Deadline {
    if (seconds === Infinity) return new Deadline(this.at, this.maxHeapBytes, this.signal, this.cpuAt);
    const cpu = cpuMs();
    if (cpu === undefined) return new Deadline(Math.min(this.at, Date.now() + seconds * 1000), this.maxHeapBytes, this.signal, this.cpuAt);
    return new Deadline(this.at, this.maxHeapBytes, this.signal, Math.min(this.cpuAt, cpu + seconds * 1000));
  }

  /**
   * A budget of `share` of the processor time this deadline has left (itself when it counts no
   * processor time): for a step that must leave time to the steps after it in the same budget.
   */
  shareOfRest(share: number): Deadline {
    const left = this.processorSecondsLeft();
    return left === Infinity ? this : this.within(Math.max(0, left) * share);
  }

  /**
   * Processor seconds left of this deadline's budget ({@link Deadline.within}), negative once it
   * has passed; Infinity when it counts no processor time (no budget, or a runtime that reports
   * none). The one place a step reads what its budget leaves, instead of subtracting clocks itself.
   */
  processorSecondsLeft(): number {
    const now = cpuMs();
    return now === undefined || this.cpuAt === Infinity ? Infinity : (this.cpuAt - now) / 1000;
  }

  /**
   * Seconds left before the nearer of this deadline's limits: its processor-time budget
   * ({@link Deadline.processorSecondsLeft}) and its wall-clock instant; negative once passed,
   * Infinity for neither.
   */
  secondsLeft(): number {
    const byWall = this.at === Infinity ? Infinity : (this.at - Date.now()) / 1000;
    return Math.min(this.processorSecondsLeft(), byWall);
  }

  /**
   * This deadline's wall-clock instant, heap limit and abort signal, without a processor-time
   * budget ({@link Deadline.within}): for work a stage does past its spent budget that only the
   * run's own limits may stop (the mutex stage's candidates, sampling's simulator compilation).
   */
  withoutBudget(): Deadline {
    return new Deadline(this.at, this.maxHeapBytes, this.signal);
  }

  /** Which limit has been reached, if any (reads the clock and the heap size). */
  exceeded(): LimitKind | undefined {
    if (this.reached !== undefined) return this.reached;
    if (this.signal?.aborted === true) this.reached = 'aborted';
    else if (this.at !== Infinity && Date.now() > this.at) this.reached = 'time';
    else if (this.cpuAt !== Infinity && (cpuMs() ?? 0) > this.cpuAt) this.reached = 'time';
    // Only Node reports the heap used; in a browser (no `process`) a heap limit is not checked.
    else if (this.maxHeapBytes !== Infinity && typeof process !== 'undefined' && this.heapDue() && process.memoryUsage().heapUsed > this.maxHeapBytes) this.reached = 'memory';
    return this.reached;
  }

  /** True when the heap size is to be read now (at most once per {@link HEAP_READ_MS}). */
  private heapDue(): boolean {
    const now = Date.now();
    if (now - this.heapReadAt < HEAP_READ_MS) return false;
    this.heapReadAt = now;
    return true;
  }

  /** True once a limit has been reached (reads the clock). */
  passed(): boolean {
    return this.exceeded() !== undefined;
  }

  /** Counts one unit of work; true when a limit has been reached (reads the clock rarely). */
  tick(): boolean {
    return (++this.ticks & (TICKS_PER_CLOCK_READ - 1)) === 0 && this.passed();
  }

  /**
   * Counts `units` units of work at once (a loop that ticks once per many items); true when a
   * limit has been reached. The clock is read when the count passes a multiple of
   * {@link TICKS_PER_CLOCK_READ}, as often per unit as with {@link tick}.
   */
  tickMany(units: number): boolean {
    const before = this.ticks;
    this.ticks += units;
    return (before & -TICKS_PER_CLOCK_READ) !== (this.ticks & -TICKS_PER_CLOCK_READ) && this.passed();
  }

  /** Words for a message about the limit reached: "time limit reached", "memory limit of 512 MB reached", "aborted by the caller". */
  describe(): string {
    if (this.exceeded() === 'aborted') return 'aborted by the caller';
    if (this.exceeded() === 'memory') return `memory limit of ${Math.round(this.maxHeapBytes / 1048576)} MB reached`;
    return 'time limit reached';
  }
}
