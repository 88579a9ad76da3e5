/**
 * What travels between the stages of a batch: the games found, the job a worker process runs,
 * what it sends back, and the report row every game gets (`gdl-ground batch`, `npm run bench`).
 */

import type { LimitInfo } from '../gdl/diagnostics.js';

/** How one game ended: ground, refused, over its time or memory limit, or its worker died. */
export type GameStatus = 'ok' | 'invalid' | 'limit' | 'memory' | 'crash';

/** Every status, in the order the summary counts them. */
export const STATUSES: readonly GameStatus[] = ['ok', 'invalid', 'limit', 'memory', 'crash'];

/** A game found under the paths of a batch. */
export interface FoundGame {
  /** The path as given or found (for messages and the report). */
  readonly file: string;
  /** Output name without extension, relative to `--out`: the game's path under its folder argument. */
  readonly name: string;
}

/** Output formats a batch writes; each is a list of files (see outputs.ts). */
export type BatchFormat = 'gdl' | 'json' | 'gddl' | 'rddl';

/** The job a worker process is sent over IPC (plain JSON). */
export interface WorkerJob {
  readonly file: string;
  readonly name: string;
  readonly format: BatchFormat;
  readonly method: 'prolog' | 'prolog-plain' | 'dg';
  /** Seconds for the whole game (Infinity is sent as null). */
  readonly timeoutSeconds: number | null;
  /** Heap size (MB) past which the pipeline stops with a memory limit; below V8's own. */
  readonly heapLimitMb: number;
  readonly maxReachAtoms?: number;
  readonly maxGroundAtoms?: number;
  readonly maxGroundRules?: number;
  /** `--lazy-axioms` (docs/lazy.md). */
  readonly lazyAxioms?: boolean;
  /** Folder the worker writes its output files into (the parent moves them); none: not written. */
  readonly tmpDir?: string;
  /**
   * When the parent started the worker (ms since the epoch): the game's time limit counts from
   * here, so the worker's start-up (a second or more on a loaded machine) is inside it.
   */
  readonly startedAt?: number;
}

/** The figures of a game a worker measured (all optional: a failed game has only some). */
export interface GameFigures {
  /** Milliseconds per stage, in pipeline order (`reach-prolog` and `reach-dg` read as `reach`). */
  readonly stages: Readonly<Record<string, number>>;
  /** Peak resident set size of the worker, MiB. */
  readonly peakMiB?: number;
  /** Reachable fluents, moves and axioms once the ground rules are pruned. */
  readonly fluents?: number;
  readonly moves?: number;
  readonly axioms?: number;
  /** Ground rules written. */
  readonly rules?: number;
  /** Bytes of all output files. */
  readonly outputBytes?: number;
  /** Relations left non-ground by `--lazy-axioms` (docs/lazy.md); absent when none. */
  readonly lazyRelations?: number;
  /** Non-ground rules of the lazy part (lazy keyword rules and lazy relations' rules); absent when none. */
  readonly lazyRules?: number;
  /** The game's warnings (repairs, lenient readings), formatted `file:line:col: warning: ...`, at most 100. */
  readonly warnings?: readonly string[];
  /** How many warnings the game had (more than `warnings` lists when over 100). */
  readonly warningCount?: number;
  /** For a game stopped by a limit of the pipeline: which one, as the `GdlError` carried it (never read from the message). */
  readonly limit?: LimitInfo;
}

/** What a worker sends back before it exits. */
export interface WorkerReply extends GameFigures {
  readonly status: 'ok' | 'invalid' | 'limit' | 'memory';
  readonly message?: string;
  /** Output files written into the job's `tmpDir`, relative to it. */
  readonly outputs: readonly string[];
}

/** One row of the report: one game. */
export interface GameRow extends GameFigures {
  readonly game: string;
  readonly status: GameStatus;
  /** The exit code `gdl-ground ground` gives such an outcome (0, 1, 3), or the dead worker's; null when killed by a signal. */
  readonly exitCode: number | null;
  /** Why it failed (first line of the diagnostic, the signal, ...); empty when ok. */
  readonly message: string;
  /** Wall-clock seconds from start to end of the game's worker. */
  readonly seconds: number;
  /** Output files written, relative to `--out`. */
  readonly outputs: readonly string[];
  /** Further columns a caller adds (the benchmark's own measurements), by header. */
  readonly extra?: Readonly<Record<string, string>>;
}
