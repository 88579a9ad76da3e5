/**
 * What every command shares: reading a game file, writing output atomically, and turning
 * failures into messages and exit codes. Only the CLI sets exit codes; the library throws.
 */
import { randomBytes } from 'node:crypto';
import { type Stats, accessSync, closeSync, constants as fsConstants, openSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { parentPort } from 'node:worker_threads';
import { GdlError, formatDiagnostic } from '../gdl/diagnostics.js';
import { type StageTimer, stagesJson } from '../timer.js';
import { EXIT, TERMINATING_SIGNALS, type TempFileMessage, reportInternal, signalExitCode } from './exit.js';

/**
 * Tells the main thread that the temporary `path` is made (before it is) or gone (after); a
 * command run in the main thread itself (`batch`) has no one to tell.
 */
export function announceTemp(path: string, made: boolean): void {
  parentPort?.postMessage({ path: resolve(path), made } satisfies TempFileMessage);
}

/** A usage problem found after commander parsed the arguments (exit 2). */
export class UsageError extends Error {}

/** The name messages give a game read from standard input (the path `-`). */
const STDIN_NAME = '<stdin>';

/** Bytes of a game as text: bytes that are not UTF-8 become U+FFFD, which the lexer reports with its position. */
export function decodeGame(bytes: Uint8Array): string {
  return new TextDecoder('utf-8', { fatal: false }).decode(bytes);
}

/** True when `path` exists and is not a regular file (a device such as /dev/null, a pipe). */
function isSpecial(path: string): boolean {
  try {
    const s = statSync(path);
    return !s.isFile() && !s.isDirectory();
  } catch {
    return false;
  }
}

/** The name a game at `path` has in messages: `<stdin>` for `-`, else the path. */
export function gameName(path: string): string {
  return path === '-' ? STDIN_NAME : path;
}

/** The file system's entry at `path`, or undefined when there is none (or it cannot be seen). */
function statOrNone(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/** A usage error unless `dir` is a folder this process may create entries in. */
function checkWritableFolder(target: string, dir: string): void {
  const s = statOrNone(dir);
  if (s === undefined) throw new UsageError(`cannot write '${target}': no folder '${dir}'`);
  if (!s.isDirectory()) throw new UsageError(`cannot write '${target}': '${dir}' is not a folder`);
  try {
    accessSync(dir, fsConstants.W_OK);
  } catch {
    throw new UsageError(`cannot write '${target}': no permission to write in '${dir}'`);
  }
}

/**
 * Checks an output target before the work starts, so that a run of minutes does not end with a
 * path that cannot be written (reported, before, with the name of the internal temporary file).
 * `file`: the path is a file to write (or a device, or `-`/undefined for stdout), in an
 * existing folder. `folder`: a folder of outputs, existing or made in an existing folder;
 * `folders`: the same, whose missing parents are made too (the nearest existing one is checked).
 */
export function checkOutputTarget(path: string | undefined, kind: 'file' | 'folder' | 'folders' = 'file'): void {
  if (path === undefined || path === '-') return;
  const s = statOrNone(path);
  if (kind === 'file') {
    if (s?.isDirectory() === true) throw new UsageError(`cannot write '${path}': it is a folder`);
    if (s === undefined || s.isFile()) checkWritableFolder(path, dirname(path));
    return;
  }
  if (s !== undefined) {
    if (!s.isDirectory()) throw new UsageError(`cannot write '${path}': it exists and is not a folder`);
    return;
  }
  let parent = dirname(path);
  while (kind === 'folders' && statOrNone(parent) === undefined && dirname(parent) !== parent) parent = dirname(parent);
  checkWritableFolder(path, parent);
}

/** Reads a game file (`-`: standard input) as UTF-8 ({@link decodeGame}); a file that cannot be read is a usage error. */
export function readGameFile(path: string): string {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path === '-' ? 0 : path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    throw new UsageError(`cannot read '${gameName(path)}': ${code === 'ENOENT' ? 'no such file' : code}`);
  }
  return decodeGame(bytes);
}

/**
 * Writes `text` to `path` via a temporary file and a rename, so no partial file is left. A
 * device or pipe (`-o /dev/null`) is written in place: renaming over it would replace it with
 * a regular file (which, run as root, breaks /dev/null for the whole machine).
 *
 * A terminating signal (INT, TERM, HUP) during the write leaves no temporary file: see
 * `cleanUpOnSignal`; the command ends with 128 + the signal's number.
 */
export function writeAtomic(path: string, text: string): void {
  writeAtomicChunks(path, (write) => write(text));
}

/** `--stats-json PATH`: the run's stages as JSON, written atomically to PATH, or to stderr for `-`. */
export function writeStatsJson(path: string, timer: StageTimer): void {
  const text = stagesJson(timer.list(), timer.peakRss());
  if (path === '-') process.stderr.write(text);
  else writeAtomic(path, text);
}

/**
 * Like {@link writeAtomic}, for text made in chunks (strings, or UTF-8 bytes valid during the
 * call): `produce` hands each chunk to `write` as it is made, and it goes straight to the
 * temporary file (or the device), so no string holds the whole text. When `produce` throws (a
 * limit reached while emitting), the temporary file is removed and the error passes on
 * unchanged; a write that fails is a usage error.
 */
export function writeAtomicChunks(path: string, produce: (write: (chunk: string | Uint8Array) => void) => void): void {
  const special = isSpecial(path);
  const target = special ? path : tempPath(path);
  const cannot = (err: unknown): UsageError => new UsageError(`cannot write '${path}': ${(err as Error).message}`);
  const stopHere = special ? undefined : cleanUpOnSignal(target);
  let fd: number | undefined;
  try {
    try {
      fd = openSync(target, 'w');
    } catch (err) {
      throw cannot(err);
    }
    produce((chunk) => {
      try {
        writeFileSync(fd!, chunk);
      } catch (err) {
        throw cannot(err);
      }
    });
    const open = fd;
    fd = undefined;
    try {
      closeSync(open);
      if (!special) renameSync(target, path);
    } catch (err) {
      throw cannot(err);
    }
  } catch (err) {
    if (fd !== undefined) closeSync(fd);
    if (!special) rmSync(target, { force: true });
    throw err;
  } finally {
    stopHere?.();
  }
}

/**
 * Writes several files so that they appear together: each goes to its temporary file first, and
 * the temporary files are renamed into place only once every one is whole (the two files of
 * `--format rddl`). A terminating signal or an error before the renames leaves the old files, or
 * none, and no temporary file.
 */
export function writeAtomicFiles(files: readonly (readonly [path: string, text: string])[]): void {
  const temps = files.map(([path]) => tempPath(path));
  const stops = temps.map((t) => cleanUpOnSignal(t));
  const cannot = (path: string, err: unknown): UsageError => new UsageError(`cannot write '${path}': ${(err as Error).message}`);
  try {
    files.forEach(([path, text], i) => {
      try {
        writeFileSync(temps[i]!, text);
      } catch (err) {
        throw cannot(path, err);
      }
    });
    files.forEach(([path], i) => {
      try {
        renameSync(temps[i]!, path);
      } catch (err) {
        throw cannot(path, err);
      }
    });
  } catch (err) {
    for (const t of temps) rmSync(t, { force: true });
    throw err;
  } finally {
    for (const stop of stops) stop();
  }
}

/**
 * The temporary file beside `path` that a write goes to before its rename:
 * `.NAME.PID-HEX.tmp`. The process id lets a later run tell a file left by a killed run (SIGKILL
 * cannot be caught, so nothing removed it) from one a live run is writing: see
 * {@link removeStaleTemps}.
 */
function tempPath(path: string): string {
  removeStaleTemps(path);
  return join(dirname(path), `.${basename(path)}.${process.pid}-${randomBytes(6).toString('hex')}.tmp`);
}

/** Whether process `pid` is alive (signal 0 checks without sending; EPERM: alive, not ours). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the temporary files of `path` that runs killed with SIGKILL left beside it (their
 * process is gone), so that at most the last such run's file is ever seen, and only until the
 * next write to the same target. Nothing else is touched: the name must be exactly ours.
 */
function removeStaleTemps(path: string): void {
  const prefix = `.${basename(path)}.`;
  let names: string[];
  try {
    names = readdirSync(dirname(path));
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const m = /^(\d+)-[0-9a-f]{12}\.tmp$/.exec(name.slice(prefix.length));
    if (m !== null && Number(m[1]) !== process.pid && !alive(Number(m[1]))) rmSync(join(dirname(path), name), { force: true });
  }
}

/**
 * Makes sure a terminating signal leaves no temporary `target`, and returns what undoes that
 * once the file is renamed or removed. In the thread of a command, the main thread is told, and
 * it removes the file at once when a signal comes (src/cli/thread.ts). In the main thread itself
 * the write (synchronous) ends first: then the file is whole, or absent with its temporary file
 * removed, and the process ends with 128 + the signal's number.
 */
export function cleanUpOnSignal(target: string): () => void {
  if (parentPort !== null) {
    announceTemp(target, true);
    return () => announceTemp(target, false);
  }
  const handlers = TERMINATING_SIGNALS.map((signal) => {
    const handler = (): void => {
      rmSync(target, { force: true });
      process.exit(signalExitCode(signal));
    };
    process.once(signal, handler);
    return [signal, handler] as const;
  });
  return () => {
    for (const [signal, handler] of handlers) process.off(signal, handler);
  };
}

/** Writes to `path` atomically, or to stdout when `path` is undefined or `-`. */
export function writeOutput(path: string | undefined, text: string): void {
  if (path === undefined || path === '-') process.stdout.write(text);
  else writeAtomic(path, text);
}

/**
 * Runs a command body and maps what it throws to a message on stderr and an exit code:
 * diagnostics (1, or 3 for limits), usage errors (2), anything else (70, no stack trace
 * unless GDL_GROUND_DEBUG is set).
 */
export async function runCommand(body: () => Promise<number> | number): Promise<void> {
  try {
    process.exitCode = await body();
  } catch (err) {
    if (err instanceof GdlError) {
      for (const d of err.diagnostics) process.stderr.write(`${formatDiagnostic(d)}\n`);
      process.exitCode = err.code === 'limit' ? EXIT.limit : EXIT.invalid;
    } else if (err instanceof UsageError) {
      process.stderr.write(`gdl-ground: ${err.message}\n`);
      process.exitCode = EXIT.usage;
    } else {
      reportInternal(err);
      process.exitCode = EXIT.internal;
    }
  }
}
