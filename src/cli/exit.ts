/**
 * What the process the user started needs before any command runs: the exit codes, the
 * terminating signals, and the guard that turns an uncaught error into exit 70. Apart from
 * io.ts so that the main thread, which only starts the command's thread and waits, loads no
 * more than this (io.ts brings node:crypto, the diagnostics and the stage timer: about
 * 10 ms of processor time per run, docs/corpus.md, fixed23).
 */
import { constants } from 'node:os';

/**
 * Exit codes of `gdl-ground` (the table in README.md): 130 is Ctrl-C (128 + SIGINT), and 70
 * (EX_SOFTWARE of sysexits.h) an internal error, that is a bug, reported with a message and no
 * stack trace.
 */
export const EXIT = { ok: 0, invalid: 1, usage: 2, limit: 3, internal: 70, interrupted: 130 } as const;

/** The signals a user sends to end a run; each ends it with 128 + its number and no temporary file. */
export const TERMINATING_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** The exit code of a run ended by `signal`: 128 + its number, as a shell reports a process it killed. */
export function signalExitCode(signal: NodeJS.Signals): number {
  return 128 + (constants.signals[signal] ?? 0);
}

/**
 * What the thread that runs a command tells the main thread about a temporary file or folder
 * (src/cli/thread.ts): made (`made`), or renamed into place or removed. The main thread removes
 * those still announced when the run is stopped by a signal or dies.
 */
export interface TempFileMessage {
  readonly path: string;
  readonly made: boolean;
}

/**
 * Makes the process end with a message and a documented code whatever happens outside a
 * command body: an output pipe closed by its reader (`gdl-ground ground g.kif | head`) ends the
 * run quietly with 0, as the reader asked for no more; any other uncaught error is an internal
 * error (70), without a stack trace unless GDL_GROUND_DEBUG is set.
 */
export function guardProcess(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE') process.exit(EXIT.ok);
      reportInternal(err);
      process.exit(EXIT.internal);
    });
  }
  process.on('uncaughtException', (err) => {
    reportInternal(err);
    process.exit(EXIT.internal);
  });
}

/** Writes the message of an internal error: what happened, and that it is a bug (and the stack under GDL_GROUND_DEBUG). */
export function reportInternal(err: unknown): void {
  const e = err as Error | undefined;
  try {
    process.stderr.write(`gdl-ground: internal error (a bug in gdl-ground, please report it with the game): ${e?.message ?? String(err)}\n`);
    if (process.env.GDL_GROUND_DEBUG) process.stderr.write(`${e?.stack ?? ''}\n`);
  } catch {
    // stderr is gone too: the exit code is all that is left.
  }
}
