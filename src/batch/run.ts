/**
 * The scheduler of a batch: every game in its own worker process (so that a game over its
 * memory, or one that crashes V8, takes only itself down), at most `jobs` at a time, through
 * the corpus runner (runner.ts). A worker past its time limit plus a grace is killed; an abort (Ctrl-C) kills every
 * worker and leaves no temporary file. Rows come back in the order of the games.
 */
import { mkdirSync, renameSync, rmSync } from 'node:fs';
import { totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_MEMORY_SHARE, v8Flags } from '../runtime.js';
import { type Ending, heapAborted, runAll, runChild } from './runner.js';
import type { BatchFormat, FoundGame, GameRow, WorkerJob, WorkerReply } from './types.js';

const WORKER = join(dirname(fileURLToPath(import.meta.url)), 'worker.js');

/** Seconds a worker gets past its time limit (its own deadline should stop it first) before it is killed. */
const GRACE_SECONDS = 5;

/** Share of a worker's V8 heap at which the pipeline's own memory check stops the game cleanly. */
const HEAP_CHECK_SHARE = 0.9;

/**
 * The default `--max-memory` of a worker: the share of the machine's memory one run may use
 * ({@link DEFAULT_MEMORY_SHARE}, half) divided by the jobs, at least 256 MB.
 */
export function defaultMaxMemoryMb(jobs: number): number {
  return Math.max(256, Math.floor((totalmem() / 2 ** 20) * DEFAULT_MEMORY_SHARE / jobs));
}

/** Options of a batch, resolved once by the caller. */
export interface BatchOptions {
  readonly jobs: number;
  /** Seconds per game; undefined for none. */
  readonly timeoutSeconds: number | undefined;
  /** V8 heap size of each worker (`--max-old-space-size`), MB. */
  readonly maxMemoryMb: number;
  readonly method: 'prolog' | 'prolog-plain' | 'dg';
  readonly format: BatchFormat;
  /** Folder of the output files; undefined: games are ground and measured but not written. */
  readonly out: string | undefined;
  readonly maxReachAtoms?: number;
  readonly maxGroundAtoms?: number;
  readonly maxGroundRules?: number;
  /** `--lazy-axioms` (docs/lazy.md). */
  readonly lazyAxioms?: boolean;
}

/** Called as games start and end (for the progress line). */
interface BatchHooks {
  readonly onStart?: (game: FoundGame) => void;
  readonly onDone?: (row: GameRow) => void;
}

/** The rows of the games that ended, in game order; `interrupted` when aborted. */
interface BatchResult {
  readonly rows: readonly GameRow[];
  readonly interrupted: boolean;
}

/**
 * The `node` options of a worker whose V8 heap is `maxMemoryMb`: the command line's V8 settings,
 * so that a game costs here what `ground` costs. Its code cache is made for these flags
 * (scripts/bundle-cli.mjs, with the default heap of one job): V8 refuses a cache of other flags.
 */
export function workerExecArgv(maxMemoryMb: number): string[] {
  return [...v8Flags(), `--max-old-space-size=${maxMemoryMb}`];
}

/** Runs one job in a fresh worker through the corpus runner; resolves when the worker has exited (never rejects). */
function runWorker(job: WorkerJob, options: BatchOptions, signal: AbortSignal): Promise<Ending> {
  return runChild({
    // The worker watches this process id and dies when its parent is gone (worker.ts).
    args: [WORKER, String(process.pid)],
    execArgv: workerExecArgv(options.maxMemoryMb),
    message: (startedAt) => ({ ...job, startedAt }),
    ...(options.timeoutSeconds === undefined ? {} : { killAfterMs: (options.timeoutSeconds + GRACE_SECONDS) * 1000 }),
  }, signal);
}

/** The exit code `gdl-ground ground` gives each outcome of a worker that replied. */
const EXIT_OF: Readonly<Record<WorkerReply['status'], number>> = { ok: 0, invalid: 1, limit: 3, memory: 3 };

/** The row of a worker that ended without replying: killed at the time limit, out of heap, or crashed. */
export function deadRow(game: FoundGame, e: Ending, options: BatchOptions): GameRow {
  const base = { game: game.file, seconds: e.seconds, outputs: [], stages: {} };
  if (e.timedOut) {
    return { ...base, status: 'limit', exitCode: 3, message: `killed ${GRACE_SECONDS} s after the time limit of ${options.timeoutSeconds} s`, limit: { kind: 'time' } };
  }
  if (heapAborted(e)) {
    return { ...base, status: 'memory', exitCode: 3, message: `worker ran out of its ${options.maxMemoryMb} MB heap`, limit: { kind: 'memory' } };
  }
  const last = e.stderr.trim().split('\n').pop() ?? '';
  const how = e.signal !== null ? `killed by ${e.signal}` : `exit code ${e.code}`;
  return { ...base, status: 'crash', exitCode: e.code, message: last === '' ? `worker ${how}` : `worker ${how}: ${last}` };
}

/** Moves a worker's files from its temporary folder to the output folder (each rename atomic). */
function moveOutputs(tmpDir: string, out: string, names: readonly string[]): void {
  for (const name of names) {
    const to = join(out, name);
    mkdirSync(dirname(to), { recursive: true });
    renameSync(join(tmpDir, name), to);
  }
}

/** The job of game number `index`. */
function jobOf(game: FoundGame, index: number, options: BatchOptions): WorkerJob {
  return {
    file: game.file,
    name: game.name,
    format: options.format,
    method: options.method,
    timeoutSeconds: options.timeoutSeconds ?? null,
    heapLimitMb: Math.floor(options.maxMemoryMb * HEAP_CHECK_SHARE),
    ...(options.maxReachAtoms === undefined ? {} : { maxReachAtoms: options.maxReachAtoms }),
    ...(options.maxGroundAtoms === undefined ? {} : { maxGroundAtoms: options.maxGroundAtoms }),
    ...(options.maxGroundRules === undefined ? {} : { maxGroundRules: options.maxGroundRules }),
    ...(options.lazyAxioms === true ? { lazyAxioms: true } : {}),
    ...(options.out === undefined ? {} : { tmpDir: join(options.out, `.batch-${process.pid}-${index}.tmp`) }),
  };
}

/** Runs one game; undefined when the batch was aborted meanwhile. The temporary folder is always removed. */
async function runGame(game: FoundGame, index: number, options: BatchOptions, signal: AbortSignal): Promise<GameRow | undefined> {
  if (signal.aborted) return undefined;
  const job = jobOf(game, index, options);
  try {
    const e = await runWorker(job, options, signal);
    if (e.aborted) return undefined;
    if (e.reply === undefined) return deadRow(game, e, options);
    const { status, message, outputs, ...figures } = e.reply as WorkerReply;
    const row: GameRow = { ...figures, game: game.file, status, exitCode: EXIT_OF[status], message: message ?? '', seconds: e.seconds, outputs };
    if (status !== 'ok' || job.tmpDir === undefined || options.out === undefined) return row;
    try {
      moveOutputs(job.tmpDir, options.out, outputs);
      return row;
    } catch (err) {
      return { ...row, status: 'crash', exitCode: null, message: `cannot write the output: ${(err as Error).message}`, outputs: [] };
    }
  } finally {
    if (job.tmpDir !== undefined) rmSync(job.tmpDir, { recursive: true, force: true });
  }
}

/**
 * Grounds `games`, `options.jobs` at a time. On `signal` the queue is dropped, running workers
 * are killed and their temporary folders removed; the result then says `interrupted`.
 */
export async function runBatch(games: readonly FoundGame[], options: BatchOptions, signal: AbortSignal, hooks: BatchHooks = {}): Promise<BatchResult> {
  if (options.out !== undefined) mkdirSync(options.out, { recursive: true });
  const rows = await runAll(games, options.jobs, async (game, index) => {
    hooks.onStart?.(game);
    const row = await runGame(game, index, options, signal);
    if (row !== undefined) hooks.onDone?.(row);
    return row;
  }, signal);
  return { rows, interrupted: signal.aborted };
}
