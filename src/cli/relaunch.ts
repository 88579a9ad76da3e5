/**
 * The memory limit of `gdl-ground` needs a V8 heap larger than the limit: a run stops with exit 3
 * when its heap passes `--max-memory` (checked with the deadline), and V8 must not abort the
 * process first. V8's heap limit is fixed when the process starts, so when the one Node started
 * with is too small, the command starts itself again with `--max-old-space-size` set to match,
 * passes signals on and ends with its child's exit code (128 + the signal's number when the child
 * was killed by one: 130 for Ctrl-C).
 */
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { currentHeapLimitMb, defaultMaxMemoryMb, heapForMemoryLimit } from '../runtime.js';

/** Set in the environment of the relaunched process, so that it never relaunches again. */
const RELAUNCHED = 'GDL_GROUND_RELAUNCHED';

/**
 * Commands that run no stage in this process: `batch` grounds each game in a worker with a heap
 * of its own (its `--max-memory` is per worker), so it never needs a second process.
 */
const NO_RELAUNCH: ReadonlySet<string> = new Set(['batch']);

/**
 * The `--max-memory` value in `args` (command-line words after the script) if it is a whole
 * number, else the default; a malformed value is left for the options parser to refuse.
 */
export function requestedMemoryMb(args: readonly string[]): number {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') break;
    const value = a === '--max-memory' ? args[i + 1] : a.startsWith('--max-memory=') ? a.slice('--max-memory='.length) : undefined;
    if (value !== undefined && /^\d+$/.test(value) && Number(value) > 0) return Number(value);
  }
  return defaultMaxMemoryMb();
}

/**
 * Runs the command in a child process with a large enough V8 heap when this one's is too small;
 * resolves to the child's exit code, or to undefined when this process can run the command itself.
 */
export async function relaunchIfHeapTooSmall(): Promise<number | undefined> {
  if (process.env[RELAUNCHED] !== undefined || NO_RELAUNCH.has(process.argv[2] ?? '')) return undefined;
  const heap = heapForMemoryLimit(requestedMemoryMb(process.argv.slice(2)));
  if (currentHeapLimitMb() >= heap) return undefined;
  const child = spawn(process.execPath, [...process.execArgv, `--max-old-space-size=${heap}`, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...process.env, [RELAUNCHED]: '1' },
  });
  const forward = (signal: NodeJS.Signals): void => {
    child.kill(signal);
  };
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  for (const s of signals) process.on(s, forward);
  return new Promise((resolve) => {
    // Node could not start itself again: run the command here, with the heap it has.
    child.on('error', () => resolve(undefined));
    child.on('exit', (code, signal) => {
      for (const s of signals) process.off(s, forward);
      resolve(signal !== null ? 128 + (constants.signals[signal] ?? 0) : code ?? 1);
    });
  });
}
