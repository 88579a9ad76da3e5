/**
 * Runs a command in a worker thread of the process the user started, instead of a second
 * process: a child process could outlive a killed parent (it kept grounding and wrote its output
 * 20 s after `kill -KILL`), its `--timeout` counted from its own start, and starting it cost
 * about 0.9 s. A thread dies with its process. Its V8 heap is sized through `resourceLimits`
 * above `--max-memory`, so that the run's own memory check (exit 3) comes before V8's.
 *
 * The main thread waits, so it answers a terminating signal (INT, TERM, HUP) at once, even while
 * the command computes: it stops the thread, removes the temporary files the thread announced
 * (src/cli/io.ts) and ends with 128 + the signal's number (130 for Ctrl-C).
 */
import { rmSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { type CommandThreadData, INITIAL_HEAP_MB, LAZY_INITIAL_HEAP_MB, defaultMaxMemoryMb, heapForMemoryLimit } from '../runtime.js';
import { EXIT, TERMINATING_SIGNALS, type TempFileMessage, signalExitCode } from './exit.js';

/**
 * Whether the command in `args` runs in a thread: all but `batch`, which computes nothing itself
 * (each game is ground in a worker process with its own heap) and handles its signals itself.
 */
export function runsInThread(args: readonly string[]): boolean {
  return args[0] !== 'batch';
}

/**
 * The value of flag `name` in `args` (command-line words after the script), written
 * `--name value` or `--name=value`, the first that `valid` accepts; words after `--` are not
 * flags. A malformed value is left for the options parser to refuse.
 */
function flagValue(args: readonly string[], name: string, valid: RegExp): number | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') break;
    const value = a === name ? args[i + 1] : a.startsWith(`${name}=`) ? a.slice(name.length + 1) : undefined;
    if (value !== undefined && valid.test(value) && Number(value) > 0) return Number(value);
  }
  return undefined;
}

/** The `--max-memory` value in `args` if it is a positive whole number, else the default. */
export function requestedMemoryMb(args: readonly string[]): number {
  return flagValue(args, '--max-memory', /^\d+$/) ?? defaultMaxMemoryMb();
}

/**
 * The first heap limit for the command in `args` (src/runtime.ts): lower when `--lazy-axioms`
 * is given (before `--`), whose first round is often thrown away.
 */
export function initialHeapMb(args: readonly string[]): number {
  const end = args.indexOf('--');
  return (end < 0 ? args : args.slice(0, end)).includes('--lazy-axioms') ? LAZY_INITIAL_HEAP_MB : INITIAL_HEAP_MB;
}

/**
 * The `--timeout` value in `args` in seconds if it is a positive number, else undefined (no
 * limit, or a malformed value that the options parser refuses).
 */
export function requestedTimeoutSeconds(args: readonly string[]): number | undefined {
  return flagValue(args, '--timeout', /^\d+(\.\d+)?$/);
}

/**
 * How long past `--timeout` the main thread lets the command thread run before it stops it. The
 * stages check the run's deadline themselves and end with their own message well inside this;
 * the backstop is for work between two checks that runs long (a lazy round, one huge join), so
 * that no run outlives its limit by more than a second, counted from the process's start (the
 * start of the process and its end take a few tenths of a second of that second).
 */
const BACKSTOP_GRACE_MS = 500;

/**
 * How long the main thread waits for a stopped thread to end before it ends the run without it:
 * on a loaded machine terminating a thread busy in one long join took up to half a second, and
 * a run stopped at 60.7 s ended 1.27 s past its limit.
 */
const BACKSTOP_EXIT_WAIT_MS = 150;

/** How the command thread ended, as the main thread saw it. */
interface ThreadEnd {
  readonly code: number;
  readonly signal: NodeJS.Signals | undefined;
  readonly outOfHeap: boolean;
  /** The main thread stopped it at the backstop, past `--timeout`. */
  readonly overTime: number | undefined;
}

/** The exit code of the run, with the message of an end the thread could not report itself. */
function exitCodeOf(end: ThreadEnd, maxMemoryMb: number): number {
  if (end.signal !== undefined) return signalExitCode(end.signal);
  if (end.overTime !== undefined) {
    process.stderr.write(`gdl-ground: time limit of ${end.overTime} s reached (the run was stopped between two of its own checks)\n`);
    return EXIT.limit;
  }
  if (end.outOfHeap) {
    process.stderr.write(`gdl-ground: memory limit of ${maxMemoryMb} MB reached (V8 heap full)\n`);
    return EXIT.limit;
  }
  return end.code;
}

/**
 * Runs the command of `args` in a worker thread started from `entry` (the command line's own
 * module) and resolves to the run's exit code. Standard output and error of the thread reach the
 * process's own, in order, before it resolves. When the backstop has stopped a thread that does
 * not end, `abandon` gets the exit code (by default the process exits with it rather than wait
 * for the thread's 'exit' event, which once came 10 s late).
 */
export function runInThread(entry: URL, args: readonly string[], abandon: (code: number) => void = (code) => process.exit(code)): Promise<number> {
  const maxMemoryMb = requestedMemoryMb(args);
  const data: CommandThreadData = { args, processStartedAt: performance.timeOrigin, stderrIsTTY: process.stderr.isTTY === true };
  const worker = new Worker(entry, { workerData: data, resourceLimits: { maxOldGenerationSizeMb: heapForMemoryLimit(maxMemoryMb) } });
  const temps = new Set<string>();
  let signal: NodeJS.Signals | undefined;
  let outOfHeap = false;
  let crashed = false;
  const stop = (s: NodeJS.Signals): void => {
    signal ??= s;
    void worker.terminate();
  };
  for (const s of TERMINATING_SIGNALS) process.on(s, stop);
  const timeout = requestedTimeoutSeconds(args);
  let overTime: number | undefined;
  let settle: ((end: ThreadEnd) => void) | undefined;
  let settled = false;
  // Counted from the process's start, as the run's own deadline is (runtime.ts: processStartedAt).
  const backstop = timeout === undefined ? undefined : setTimeout(() => {
    overTime = timeout;
    void worker.terminate();
    // A thread that does not end at once is left behind (urmAdd ended 10 s past its limit while
    // the main thread waited for its thread to end).
    setTimeout(() => {
      if (settled) return;
      worker.unref();
      settle?.({ code: EXIT.limit, signal, outOfHeap, overTime });
      abandon(EXIT.limit);
    }, BACKSTOP_EXIT_WAIT_MS).unref();
  }, Math.max(0, timeout * 1000 + BACKSTOP_GRACE_MS - performance.now()));
  worker.on('message', (m: TempFileMessage) => {
    if (m.made) temps.add(m.path);
    else temps.delete(m.path);
  });
  worker.on('error', (err: NodeJS.ErrnoException) => {
    // Uncaught errors end the thread through guardProcess (exit 70); what is left is V8's heap.
    if (err.code === 'ERR_WORKER_OUT_OF_MEMORY') outOfHeap = true;
    else {
      crashed = true;
      process.stderr.write(`gdl-ground: internal error (a bug in gdl-ground, please report it with the game): ${err.message}\n`);
    }
  });
  return new Promise((resolve) => {
    settle = (end) => {
      if (settled) return;
      settled = true;
      if (backstop !== undefined) clearTimeout(backstop);
      for (const s of TERMINATING_SIGNALS) process.off(s, stop);
      for (const path of temps) rmSync(path, { force: true });
      resolve(exitCodeOf(end, maxMemoryMb));
    };
    // Node delivers the thread's last messages before 'exit', so every announced file is known here.
    worker.on('exit', (code) => settle?.({ code: crashed ? EXIT.internal : code, signal, outOfHeap, overTime }));
  });
}
