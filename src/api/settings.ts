/**
 * What a library caller may set and how a call of the API runs: {@link Settings} (every one
 * optional, the command line's defaults), {@link RunControl} (an abort signal and a progress
 * callback), and the run context one call builds from them. The command line resolves its
 * flags into the same pipeline options (src/pipeline/options.ts), so a setting left out here
 * means what the flag left out means there.
 */
import type { AbortFlag } from '../deadline.js';
import { NO_POS } from '../gdl/ast.js';
import { GdlError, deadlineError } from '../gdl/diagnostics.js';
import { type PipelineSettings, type ReachMethod, resolvePipelineOptions } from '../pipeline/stages.js';
import { type RunContext, runContext } from '../pipeline/recipes/index.js';
import { type StageRecord, StageTimer } from '../timer.js';

/**
 * How a game is loaded and ground. Every setting is optional; one left out takes the command
 * line's default (README, "Limits"), except that the library sets no memory limit.
 */
export interface Settings {
  /** How supersets are computed: `prolog` (default), `prolog-plain` or `dg` (CLI `--method`). */
  readonly method?: ReachMethod;
  /** Seconds one call may take (default: no limit; CLI `--timeout`). Each call of the API counts anew. */
  readonly timeoutSeconds?: number;
  /** Megabytes of V8 heap a call may use, read with the clock (default: no limit; Node only; CLI `--max-memory`). */
  readonly maxMemoryMb?: number;
  /** Atoms the superset computation may derive (default 2,000,000; CLI `--max-atoms`). */
  readonly maxReachAtoms?: number;
  /** Ground atoms instantiation may derive (default 5,000,000; CLI `--max-ground-atoms`). */
  readonly maxGroundAtoms?: number;
  /** Ground rules instantiation may make (default 5,000,000; CLI `--max-rules`). */
  readonly maxGroundRules?: number;
  /** Deepest term nesting accepted (default 256; CLI `--max-term-depth`). */
  readonly maxTermDepth?: number;
  /** Rules one rule may split into in disjunctive normal form (default 4096; CLI `--max-disjuncts`). */
  readonly maxDisjuncts?: number;
  /** Rules whose join is estimated above this many bindings are split (default 4,000,000; CLI `--split-above`). */
  readonly splitAbove?: number;
  /** Frame rules estimated above this many bindings are rewritten with move mutexes (default 10,000; CLI `--frame-above`). */
  readonly frameAbove?: number;
  /** Leave relations non-ground when they pass a limit, docs/lazy.md (default off; CLI `--lazy-axioms`). */
  readonly lazyAxioms?: boolean;
}

/**
 * How one call runs: an abort signal and a progress callback, both optional. An aborted call
 * throws (the async entry points reject) a `GdlError` with code `limit` and `limit.kind`
 * `aborted`; see docs/library.md for when an abort is seen.
 */
export interface RunControl {
  /** Aborts the call; read before the call, between its steps, and inside every stage with the clock. */
  readonly signal?: AbortFlag;
  /** Told of each stage as it ends (failed stages too): its name, milliseconds and counts. */
  readonly onProgress?: (stage: StageRecord) => void;
  /** Told of each stage's name as it starts (for a progress line that names the stage running). */
  readonly onStageStart?: (stage: string) => void;
}

/** The pipeline's settings of `settings` and `control`: only the fields the API documents. */
function pipelineSettings(settings: Settings, control: RunControl): PipelineSettings {
  const { method, timeoutSeconds, maxMemoryMb, maxReachAtoms, maxGroundAtoms, maxGroundRules, maxTermDepth, maxDisjuncts, splitAbove, frameAbove, lazyAxioms } = settings;
  const all = { method, timeoutSeconds, maxMemoryMb, maxReachAtoms, maxGroundAtoms, maxGroundRules, maxTermDepth, maxDisjuncts, splitAbove, frameAbove, lazyAxioms, signal: control.signal };
  return Object.fromEntries(Object.entries(all).filter(([, v]) => v !== undefined)) as PipelineSettings;
}

/**
 * The context of one call: the settings resolved now (so the call's deadline starts now), a
 * timer that reports each stage to `control.onProgress`. Throws the abort error when the signal
 * is already aborted.
 */
export function callContext(file: string, settings: Settings, control: RunControl): RunContext {
  const ctx = runContext(file, resolvePipelineOptions(pipelineSettings(settings, control)), new StageTimer(control.onProgress, control.onStageStart));
  if (ctx.deadline.exceeded() === 'aborted') throw abortError(ctx, 'before starting');
  return ctx;
}

/** The error of an aborted call: a `GdlError` of code `limit`, kind `aborted`, saying where. */
function abortError(ctx: RunContext, where: string): GdlError {
  return deadlineError(ctx.deadline, ctx.file, NO_POS, where);
}

/** Whether `err` is the error of an aborted call (which every entry point lets through). */
export function isAbort(err: unknown): boolean {
  return err instanceof GdlError && err.limit?.kind === 'aborted';
}

/** Resolves after the event loop has run other tasks (a macrotask: timers, messages, UI events). */
function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * The async form of a synchronous step over `ctx`: it waits for a macrotask first, so that the
 * caller's page or server runs and an abort can come, then throws the abort error if the signal
 * was aborted meanwhile, else runs `step` (synchronously, to its end or its first limit).
 */
export async function afterYield<T>(ctx: RunContext, what: string, step: () => T): Promise<T> {
  await nextTask();
  if (ctx.deadline.exceeded() === 'aborted') throw abortError(ctx, what);
  return step();
}
