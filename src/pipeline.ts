/**
 * The grounding pipeline; the only module that knows the order of the stages. Each stage is a
 * pure function from one immutable value to the next; this module times them and stops at the
 * first stage that reports errors.
 */
import type { GameDescription } from './gdl/ast.js';
import { type Diagnostic, GdlError, hasErrors, sortDiagnostics } from './gdl/diagnostics.js';
import { parseGdl } from './gdl/parser.js';
import { validateGame } from './gdl/validate.js';
import { DEFAULT_INSTANTIATE_LIMITS, type InstantiateLimits, instantiateGame } from './ground/instantiate.js';
import { finalSupersets, pruneUnreachable } from './ground/reachability.js';
import type { GroundGame } from './ground/types.js';
import { DEFAULT_NORMALIZE_OPTIONS, type NormalizeOptions, normalizeGame } from './normalize/normalize.js';
import type { NormalGame } from './normalize/types.js';
import { computeSupersetsDG } from './reach/dg/index.js';
import { computeSupersetsProlog } from './reach/prolog.js';
import { DEFAULT_REACH_LIMITS, type ReachLimits, type ReachResult, type Supersets } from './reach/types.js';
import { StageTimer } from './timer.js';

/** How supersets are computed: Algorithm 9.2 (Prolog) or 9.3/9.4 (dependency graph). */
export type ReachMethod = 'prolog' | 'dg';

/** Options of a pipeline run, resolved once by the caller. */
export interface PipelineOptions {
  readonly method: ReachMethod;
  /** Limits of the superset computation. */
  readonly limits: ReachLimits;
  readonly normalize: NormalizeOptions;
  /** Limits of instantiation (its deadline is normally the same as `limits.deadline`). */
  readonly ground: InstantiateLimits;
}

/** Defaults: the Prolog method, default limits. */
export const DEFAULT_PIPELINE_OPTIONS: PipelineOptions = {
  method: 'prolog',
  limits: DEFAULT_REACH_LIMITS,
  normalize: DEFAULT_NORMALIZE_OPTIONS,
  ground: DEFAULT_INSTANTIATE_LIMITS,
};

/** A game read, validated and normalized; warnings are kept for the caller to show. */
export interface LoadedGame {
  readonly game: GameDescription;
  readonly normal: NormalGame;
  /** Warnings (repairs) found by validation; errors throw instead. */
  readonly warnings: readonly Diagnostic[];
}

/** Parses, validates and normalizes; throws {@link GdlError} listing every error. */
export function loadGame(text: string, file: string, options: PipelineOptions, timer = new StageTimer()): LoadedGame {
  const parsed = timer.run('parse', () => parseGdl(text, file), (r) => ({ rules: r.game.rules.length }));
  if (hasErrors(parsed.diagnostics)) throw new GdlError(sortDiagnostics(parsed.diagnostics));
  const validated = timer.run('validate', () => validateGame(parsed.game), (r) => ({ problems: r.diagnostics.length }));
  const diagnostics = sortDiagnostics([...parsed.diagnostics, ...validated.diagnostics]);
  if (hasErrors(diagnostics)) throw new GdlError(diagnostics);
  const normal = timer.run('normalize', () => normalizeGame(validated.game, options.normalize), (n) => ({ rules: n.rules.length }));
  return { game: validated.game, normal, warnings: diagnostics };
}

/** Step 3: supersets of reachable fluents, moves and axioms, by the chosen method. */
export function reachGame(normal: NormalGame, options: PipelineOptions, timer = new StageTimer()): ReachResult {
  const compute = options.method === 'prolog' ? computeSupersetsProlog : computeSupersetsDG;
  return timer.run(`reach-${options.method}`, () => compute(normal, options.limits), (r) => ({
    fluents: r.supersets.fluents.length,
    moves: r.supersets.moves.length,
    axioms: r.supersets.axioms.length,
  }));
}

/** Steps 4 and 5: instantiation, then reachability on the ground rules. */
export function groundGame(normal: NormalGame, supersets: Supersets, options: PipelineOptions, timer = new StageTimer()): GroundGame {
  const counts = (g: GroundGame): Record<string, number> => ({ rules: g.rules.length, atoms: g.atoms.length, init: g.init.length });
  const ground = timer.run('instantiate', () => instantiateGame(normal, supersets, options.ground), counts);
  return timer.run('prune', () => pruneUnreachable(ground), counts);
}

/** Steps 3 to 5 on a loaded game: supersets, instantiation, reachability. */
export function groundNormalGame(
  normal: NormalGame,
  options: PipelineOptions,
  timer = new StageTimer(),
): { reach: ReachResult; ground: GroundGame } {
  const reach = reachGame(normal, options, timer);
  return { reach, ground: groundGame(normal, reach.supersets, options, timer) };
}

/**
 * Steps 3 to 5 read back as supersets: what is reachable once the ground rules are pruned.
 * This is how the dependency-graph method ends (end of 9.1.3), and it equals the Prolog
 * method's supersets after the same post-processing.
 */
export function postProcessedSupersets(normal: NormalGame, options: PipelineOptions, timer = new StageTimer()): ReachResult {
  const { reach, ground } = groundNormalGame(normal, options, timer);
  return { supersets: finalSupersets(normal, reach.supersets, ground), stats: reach.stats };
}

/** The whole job from text to ground game. */
export function runGrounding(
  text: string,
  file: string,
  options: PipelineOptions = DEFAULT_PIPELINE_OPTIONS,
  timer = new StageTimer(),
): { loaded: LoadedGame; reach: ReachResult; ground: GroundGame; timer: StageTimer } {
  const loaded = loadGame(text, file, options, timer);
  return { loaded, ...groundNormalGame(loaded.normal, options, timer), timer };
}
