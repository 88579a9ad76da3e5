/**
 * The messages between the playground page (main.ts) and the worker that grounds (worker.ts).
 * Plain data only: they cross postMessage's structured clone.
 */

/** What the page asks the worker to do: ground one game text with a few settings. */
export interface GroundRequest {
  readonly kind: 'ground';
  /** The game's file name (gddl's domain name and rddl's file names come from it). */
  readonly name: string;
  readonly text: string;
  readonly method: 'prolog' | 'dg';
  readonly lazyAxioms: boolean;
  /** Seconds each step of the run may take (loading, grounding, each output, the mutex groups: the library counts per call), or undefined for none. */
  readonly timeoutSeconds?: number;
  /** Seconds of random playouts per engine after grounding (0: none). */
  readonly playSeconds: number;
}

/** A diagnostic with its position in the text (line and column from 1; 0 when unknown). */
export interface WebDiagnostic {
  readonly severity: 'error' | 'warning';
  readonly line: number;
  readonly col: number;
  readonly message: string;
}

/** One row of the `--stats` table. */
export interface StageRow {
  readonly stage: string;
  readonly ms: number;
  readonly counts: Readonly<Record<string, number>>;
}

/** One file to download. */
export interface OutputFile {
  /** `gdl`, `json`, `gddl` or `rddl`: the format it belongs to. */
  readonly format: string;
  readonly name: string;
  readonly text: string;
}

/** One mutex group as the page shows it. */
export interface WebMutexGroup {
  readonly proven: boolean;
  readonly exactlyOne: boolean;
  readonly relation: string;
  readonly members: readonly string[];
}

/** One engine's random playouts. */
export interface EngineRate {
  /** `fast simulator` (the ground game) or `Tau-Prolog reasoner` (the original rules). */
  readonly engine: string;
  readonly playouts: number;
  readonly playoutsPerSecond: number;
  readonly statesPerSecond: number;
  readonly averageDepth: number;
  readonly elapsed: number;
}

/** The mutex groups of the ground game and the bits per state of their encoding. */
export interface WebMutex {
  readonly fluents: number;
  readonly bits: number;
  readonly groups: readonly WebMutexGroup[];
}

/**
 * What the worker tells the page, in order: stages as they run; the warnings; the ground game
 * (GDL and JSON) as soon as it is written; then the graph, the playouts, the mutex groups and
 * the planner formats, each when it is ready (the last two can take long); the stats of every
 * stage; done. An error ends the run early.
 */
export type WorkerMessage =
  | { readonly kind: 'stage'; readonly stage: string; readonly phase: 'start' | 'end'; readonly ms: number }
  | { readonly kind: 'warnings'; readonly diagnostics: readonly WebDiagnostic[] }
  | { readonly kind: 'error'; readonly message: string; readonly limit: boolean; readonly diagnostics: readonly WebDiagnostic[] }
  | { readonly kind: 'grounded'; readonly ms: number; readonly summary: readonly string[]; readonly files: readonly OutputFile[] }
  | { readonly kind: 'graph'; readonly dot: string }
  | { readonly kind: 'playout'; readonly rate: EngineRate }
  | { readonly kind: 'mutex'; readonly mutex?: WebMutex; readonly failed?: string }
  /** Files of the planner formats; `skipped`: formats not written, with the reason (rddl for several roles). */
  | { readonly kind: 'files'; readonly files: readonly OutputFile[]; readonly skipped: readonly { readonly format: string; readonly reason: string }[] }
  | { readonly kind: 'stats'; readonly stages: readonly StageRow[] }
  | { readonly kind: 'done' };
