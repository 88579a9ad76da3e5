/**
 * Process-wide V8 tuning for this project's programs, one list of flags ({@link v8Flags}) for all
 * of them: the `gdl-ground` command sets them first thing for the thread that runs its command
 * ({@link tuneProcess}); the processes this project starts to ground or measure a game (`batch`'s
 * workers, the benchmarks' workers) get them on their command line. Once a command has run long,
 * the command line's main thread lowers the interrupt budget ({@link lowerBudgetWhenLong}). The
 * library never sets them: V8 flags belong to the whole process, which may be someone else's.
 */
import { availableParallelism, totalmem } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { isMainThread, workerData } from 'node:worker_threads';

/**
 * V8's interrupt budget: how much bytecode a function runs before V8 considers optimizing it
 * with TurboFan. About fifteen times the default (67,584 in Node 20); it was four times
 * (270,000) until the dependency-graph method was measured too. On the 10 median games of
 * docs/reach.md item 14, 3 alternating cold runs each, processor time of the stage: the dg
 * method (reach, instantiation, ground reachability) 2.50 -> 1.86 s in total, the Prolog
 * method's superset computation 0.83 -> 0.64 s; on games of 2-4 s no clear change.
 */
const INTERRUPT_BUDGET = 1_000_000;

/**
 * V8's interrupt budget once a run has proved long ({@link LONG_RUN_CPU_MS}): 400,000, the
 * value at which the largest games spent least (docs/corpus.md, tier29). A run that has already
 * taken that much processor time is one of the corpus's largest, and its hot functions pay back
 * their optimizing sooner; the corpus's typical runs (0.25-0.5 CPU s) end before and keep
 * {@link INTERRUPT_BUDGET}, with which they measured 3-4% less than with this one from the start.
 */
const LONG_RUN_INTERRUPT_BUDGET = 400_000;

/**
 * Processor time of the whole process (ms, boot included) after which a run counts as long:
 * above the ten median games of docs/reach.md item 14 (0.25-0.47 s each), below the first
 * second of every game of the scale benchmark.
 */
const LONG_RUN_CPU_MS = 600;

/**
 * Bounds of the wait between two reads of the process's processor time (ms): each read waits
 * as long as the process needs at least to use the rest on all the machine's cores, so a short
 * run is woken a few times, not every 20 ms (a wake-up every 20 ms cost about 1.5% on the ten
 * median games of docs/reach.md item 14, none of which reaches {@link LONG_RUN_CPU_MS}).
 */
const LONG_RUN_WAIT_MS = { least: 20, most: 1000 } as const;

/**
 * V8's setting for short runs. Most games take 50-300 ms in one fresh process, and V8's defaults
 * are made for long-lived ones: there, TurboFan starts compiling the hot functions of the
 * engine within the first milliseconds, and that compiling competes with the run for the
 * processor (two cores here, shared with the garbage collector's helpers) while the optimized
 * code arrives too late to pay back. With a larger budget, functions are optimized only
 * once they have proved hot. Measured (with four times the default) on 10 games around the
 * benchmark's median, 5 interleaved cold runs each: about 25% less time for the superset
 * computation of the Prolog method. On longer
 * games no consistent change: 6.2 s against 6.6 s on 5 games of 0.7-1.8 s, 16.9 s against
 * 16.1 s on 8 games of 0.4-6 s (docs/reach.md, "How it runs", item 14).
 */
const SHORT_RUNS_FLAG = `--interrupt-budget=${INTERRUPT_BUDGET}`;

/**
 * TurboFan compiles on the thread that runs the code instead of on V8's helper threads. The CPU
 * that a run spends beyond its stages' wall time (0.4-0.7 s on the mid-sized scale games) was
 * those helpers, and nearly all of it optimizing compilation, not the garbage collector: with
 * this flag the helpers took 0.00-0.04 s (kalaha_2009, racer4, shogi_ctk; per-thread CPU from
 * /proc), the command thread 0.1-0.5 s more, the process 0.2-0.45 s less in all (docs/corpus.md,
 * alloc28). Compiling in the background lets the run go on meanwhile in slower code, which on
 * two cores shared with other runs bought no time and cost the compiler's concurrency overhead.
 */
const COMPILE_IN_PLACE_FLAG = '--no-concurrent-recompilation';

/**
 * How far V8 lets the old generation grow past what its last full collection left live, in
 * percent. Without it the factor is 4 (300%) for heaps limited above about 2 GB, which
 * `--max-memory`'s default gives: the superset stage of amazons left about 110 MiB live and
 * filled about 500 MiB of heap with its garbage before the next full collection, which set the
 * run's peak. 100 (a factor of 2) was measured on the 10 games of the scale benchmark
 * (docs/corpus.md, mem14).
 */
const HEAP_GROWING_PERCENT = 100;

/**
 * Bounds the heap's growth between full collections (the flag is read at each collection, so
 * setting it in a running process works): peak memory on large games against a few more full
 * collections.
 */
const HEAP_GROWTH_FLAG = `--heap-growing-percent=${HEAP_GROWING_PERCENT}`;

/**
 * The old generation's first limit, in MB. V8 starts it at a few MB and makes a full collection
 * each time the heap reaches it, growing it from what each left live (by
 * {@link HEAP_GROWING_PERCENT}): a large game's first seconds, whose heap only grows, pass
 * through a dozen full collections of a heap that is still mostly live (amazons: 13-14
 * mark-compacts, 6 with a first limit of 300 MB, `node --trace-gc`). Starting at 128 MB spares
 * the early ones; a run whose heap stays below it never collects its old generation (its
 * garbage stays until the run ends: 10-25 MB more peak on the mid-sized scale games).
 * Measured in docs/corpus.md, amaz24.
 */
export const INITIAL_HEAP_MB = 128;

/**
 * The first limit for a run with lazy axioms, in MB: lower, so that V8 collects once inside a
 * first round that is stopped and thrown away (chess and the held-out 2006 scramblings: round 0,
 * the superset stage on the game as written, stopped by foresight). With 128 MB that round's
 * garbage, about 40 of its 90 MB of heap, was never collected while it ran and set the run's
 * peak (held-out GERMANY: 203-204 MiB, about 505 MiB per million rules; with 96 MB 194-197).
 * Measured in docs/corpus.md, chess25.
 */
export const LAZY_INITIAL_HEAP_MB = 96;

/**
 * The flag that starts the heap at `mb` MB. It is read when an isolate's heap is set up: set in
 * a running process it reaches only threads started afterwards (the command line's command
 * thread), not the process's own heap, so a child process needs it on its command line
 * (`node --trace-gc` with 50 MB kept: one full collection with it set at run time, none with it
 * given as `node --initial-heap-size=128`).
 */
function heapStartFlag(mb: number): string {
  return `--initial-heap-size=${mb}`;
}

/**
 * The V8 flags of every process this project runs to ground or measure a game, as `node`
 * command-line words, the heap started at `initialMb`: the one list that {@link tuneProcess}
 * sets and that the spawners of `batch`'s and the benchmarks' worker processes pass
 * (`execArgv`), so that what they measure is what `gdl-ground ground` runs.
 */
export function v8Flags(initialMb: number = INITIAL_HEAP_MB): string[] {
  return [SHORT_RUNS_FLAG, COMPILE_IN_PLACE_FLAG, HEAP_GROWTH_FLAG, heapStartFlag(initialMb)];
}

/**
 * Sets {@link v8Flags} in this process, for the threads it starts afterwards (the command line's
 * command thread gets all of them; the command line passes {@link LAZY_INITIAL_HEAP_MB} for
 * `--lazy-axioms`); its own heap keeps its initial size (see {@link heapStartFlag}).
 */
export function tuneProcess(initialMb: number = INITIAL_HEAP_MB): void {
  for (const flag of v8Flags(initialMb)) setFlagsFromString(flag);
}

/**
 * Lowers V8's interrupt budget to {@link LONG_RUN_INTERRUPT_BUDGET} once the process has used
 * `afterCpuMs` of processor time, watched from a thread that is idle meanwhile (the command
 * line's main thread while its command thread runs; a timer on the working thread would never
 * fire). The budget is one process-wide setting, and V8 reads it each time it resets a
 * function's budget (when the function's feedback is made and at each interrupt tick), so from
 * the next tick on every function of the running thread counts against the lower one (checked
 * with `--trace-opt`, docs/corpus.md, tier29). Returns a function that stops the watch; the
 * watch keeps no process alive.
 */
export function lowerBudgetWhenLong(afterCpuMs: number = LONG_RUN_CPU_MS): () => void {
  let watch: ReturnType<typeof setTimeout> | undefined;
  const check = (): void => {
    const used = process.cpuUsage();
    const left = afterCpuMs - (used.user + used.system) / 1000;
    if (left <= 0) {
      setFlagsFromString(`--interrupt-budget=${LONG_RUN_INTERRUPT_BUDGET}`);
      return;
    }
    const wait = Math.min(LONG_RUN_WAIT_MS.most, Math.max(LONG_RUN_WAIT_MS.least, left / availableParallelism()));
    watch = setTimeout(check, wait);
    watch.unref();
  };
  check();
  return () => clearTimeout(watch);
}

/**
 * Gives threads started afterwards a global `gc()`, a full garbage collection, for the command
 * line's process (the flag is read when a context is made, so the command thread started after
 * this call has it; the main thread's own context does not). Only {@link fullCollection} calls
 * it: the command line's lazy rounds collect a stopped round's data before the next round
 * (docs/corpus.md, chess25). The library never sets it.
 */
export function exposeCollector(): void {
  setFlagsFromString('--expose-gc');
}

/**
 * A full garbage collection, when this thread's global `gc()` exists ({@link exposeCollector}
 * before the thread started), else undefined.
 */
export function fullCollection(): (() => void) | undefined {
  const gc: unknown = (globalThis as { gc?: unknown }).gc;
  return typeof gc === 'function' ? () => void gc() : undefined;
}

/** Share of the machine's physical memory a run may use by default (`--max-memory`). */
export const DEFAULT_MEMORY_SHARE = 0.5;

/** The default of `--max-memory` in MB: half the machine's physical memory, at least 512 MB. */
export function defaultMaxMemoryMb(): number {
  return Math.max(512, Math.floor((totalmem() / 1048576) * DEFAULT_MEMORY_SHARE));
}

/**
 * The V8 heap (MB, `--max-old-space-size`) a run limited to `maxMemoryMb` needs: the limit plus
 * headroom, so that the run's own check (heap used, read every few thousand steps) stops it
 * with exit 3 before V8 aborts the process with "heap out of memory" between two checks.
 */
export function heapForMemoryLimit(maxMemoryMb: number): number {
  return Math.ceil(maxMemoryMb + Math.max(512, maxMemoryMb / 2));
}

/** What the command line's main thread hands the thread that runs the command (src/cli/thread.ts). */
export interface CommandThreadData {
  /** The command-line words after the script, as `process.argv.slice(2)`. */
  readonly args: readonly string[];
  /** `performance.timeOrigin` of the process the user started: the clock of `--timeout` starts there. */
  readonly processStartedAt: number;
  /** Whether the process's stderr is a terminal (the thread's own stderr never is). */
  readonly stderrIsTTY: boolean;
}

/**
 * The instant (ms since the epoch) the process the user started began: `performance.timeOrigin`
 * in the main thread; in the thread that runs a command, the main thread's, which it hands over,
 * since a worker thread's own time origin is its own start (later by the module loading).
 */
export function processStartedAt(): number {
  if (isMainThread) return performance.timeOrigin;
  const data = workerData as Partial<CommandThreadData> | undefined;
  return typeof data?.processStartedAt === 'number' ? data.processStartedAt : performance.timeOrigin;
}
