/**
 * The one deadline of a run: a wall-clock instant fixed once, when options are resolved, and
 * handed to every stage. Stages look at it at a fine grain; reading the clock on every step of a
 * join would cost more than the step, so {@link Deadline.tick} reads it once per
 * {@link TICKS_PER_CLOCK_READ} calls.
 */

/** Calls of {@link Deadline.tick} per clock read: about a millisecond of join work. */
export const TICKS_PER_CLOCK_READ = 4096;

/** A wall-clock deadline (ms since the epoch; Infinity for none). */
export class Deadline {
  private ticks = 0;

  /** `at`: ms since the epoch, Infinity for no deadline. */
  constructor(readonly at: number) {}

  /** No deadline. */
  static never(): Deadline {
    return new Deadline(Infinity);
  }

  /** A deadline `seconds` from now (Infinity for none). */
  static in(seconds: number): Deadline {
    return new Deadline(seconds === Infinity ? Infinity : Date.now() + seconds * 1000);
  }

  /** True once the deadline has passed (reads the clock). */
  passed(): boolean {
    return this.at !== Infinity && Date.now() > this.at;
  }

  /** Counts one unit of work; true when the deadline has passed (reads the clock rarely). */
  tick(): boolean {
    return (++this.ticks & (TICKS_PER_CLOCK_READ - 1)) === 0 && this.passed();
  }
}
