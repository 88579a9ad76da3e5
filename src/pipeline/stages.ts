/**
 * The grounding pipeline; the only module that knows the order of the stages, and the only way
 * in for the command line, the comparison and the benchmarks. Each stage is a pure function
 * from one immutable value to the next; this module resolves the options once, times the stages
 * through one {@link StageTimer} and stops at the first stage that reports errors.
 */
import { type GdlEmitOptions, emitGdl, emitGdlBytes } from '../formats/gdl/write.js';
import { emitJson, emitJsonBytes } from '../formats/json/write.js';
import { type GameDescription, NO_POS } from '../gdl/ast.js';
import { type Diagnostic, GdlError, checkDeadline, diag, hasErrors, sortDiagnostics } from '../gdl/diagnostics.js';
import { parseGdl } from '../gdl/parser.js';
import { instantiateGame } from '../ground/instantiate.js';
import { keepsFluentsAndMoves, sharedSupersets } from '../ground/frame-run.js';
import { reachesAll, writtenReach } from '../ground/frame-reach.js';
import { finalSupersets, pruneUnreachable } from '../ground/reachability.js';
import type { GroundGame } from '../ground/types.js';
import { atomCount, ruleCount } from '../ground/compact.js';
import { assembleNormalGame } from '../normalize/normalize.js';
import { type GameSummary, summarizeGame } from '../normalize/summary.js';
import { type NormalGame, asRule } from '../normalize/types.js';
import { relationKeys } from '../gdl/relations.js';
import { validateGame } from '../normalize/validate.js';
import { argGraphToDot, argGraphToText } from '../reach/dg/dot.js';
import { type DGAnalysis, analyzeDG, computeSupersetsDG, dependencyGraph } from '../reach/dg/index.js';
import { type ReachProgress, computeSupersetsProlog } from '../reach/prolog.js';
import { computeSupersetsPlain } from '../reach/plain.js';
import { repairUnsafeHeads } from '../reach/repair.js';
import { type DemandMode, supersetsForGrounding } from '../reach/demand.js';
import type { ReachResult, Supersets } from '../reach/types.js';
import { supersetSizes } from '../reach/handover.js';
import { removeAxioms } from '../axioms/remove.js';
import { type AxiomOptions, type AxiomResult, DEFAULT_AXIOM_OPTIONS } from '../axioms/types.js';
import { type UnusedStats, removeUnused } from '../axioms/unused.js';
import { emitFormulaGdlBytes } from '../formats/gdl/formula.js';
import { StageTimer, utf8Length } from '../timer.js';
import { type LazyPlan, mayBeLazy, refuseLazy, withLazyNote } from '../ground/lazy.js';
import { lazyRounds } from '../ground/lazy-rounds.js';
// For a refusal without lazy axioms that can name what they would leave non-ground (src/cli/ground.ts).
// The limits a run with lazy axioms would answer: the benchmark's mutex column grounds those games again with them.
export { lazyWouldAnswer } from '../ground/lazy.js';

import { type PipelineOptions, instantiateLimits, reachLimits } from './options.js';

// The options of a run, resolved once (src/pipeline/options.ts).
export { type PipelineOptions, type PipelineSettings, type ReachMethod, defaultPipelineOptions, resolvePipelineOptions } from './options.js';

// What the command line prints, re-exported so that it reaches the library only through here.
export { formatSupersets, supersetSentences } from '../reach/format.js';
export { formatSummary, type GameSummary } from '../normalize/summary.js';
export type { VerifyOptions, VerifyResult } from '../play/verify.js';
export type { ReachProgress } from '../reach/prolog.js';
export { OPTIMIZATIONS, type Optimization, isOptimization } from '../reach/ablation.js';
// The relaxed game for the benchmark's SWI-Prolog baseline (src/bench/swi.ts).
export { swiProgram } from '../reach/swi-program.js';
export type { ReachResult, ReachStats, Supersets } from '../reach/types.js';
export type { SupersetSizes } from '../reach/dg/index.js';
export type { GroundGame } from '../ground/types.js';
export type { NormalGame } from '../normalize/types.js';
export type { MutexResult } from '../mutex/index.js';
export type { AxiomOptions, AxiomResult } from '../axioms/types.js';
export type { UnusedStats } from '../axioms/unused.js';
export { DEFAULT_AXIOM_OPTIONS, GROWTH_FACTOR, GROWTH_FLOOR } from '../axioms/types.js';
export { lazyStatsLine } from '../formats/gdl/lazy.js';
// The stages that play (mutex groups, verification, playouts) are stages-play.ts's: importing
// them here would load about 70 modules into every run that only grounds (docs/corpus.md, gt15).
export { type MutexSettings, DEFAULT_MUTEX_SETTINGS, MUTEX_EXTRA_SECONDS } from './mutex-settings.js';
export type { PlayoutOptions, PlayoutResult } from '../play/playouts.js';

/** A game read, validated and normalized; warnings are kept for the caller to show. */
export interface LoadedGame {
  readonly game: GameDescription;
  readonly normal: NormalGame;
  /** Warnings (repairs) found by validation; errors throw instead. */
  readonly warnings: readonly Diagnostic[];
}

/**
 * Steps 1 and 2: parses, validates and normalizes; throws {@link GdlError} listing every
 * error. Validation normalizes each rule once, with `options.normalize`, and normalization
 * assembles those normal forms.
 */
export function loadGame(text: string, file: string, options: PipelineOptions, timer: StageTimer): LoadedGame {
  const parsed = timer.run('parse', () => parseGdl(text, file, options.deadline), (r) => ({ rules: r.game.rules.length }));
  // Syntax and meaning together: with syntax errors, the sentences that were read completely
  // are still validated (the checks that need the whole file left out), all sorted by position.
  const complete = !hasErrors(parsed.diagnostics);
  if (complete) checkDeadline(options.deadline, file, 'reading the game');
  const validated = timer.run('validate', () => validateGame(parsed.game, options.normalize, complete, options.deadline), (r) => ({ problems: r.diagnostics.length }));
  const diagnostics = sortDiagnostics([...parsed.diagnostics, ...validated.diagnostics]);
  if (hasErrors(diagnostics)) throw new GdlError(diagnostics);
  checkDeadline(options.deadline, file, 'validating the game');
  const assembled = timer.run('normalize', () => assembleNormalGame(validated.game.file, validated.forms), (n) => ({ rules: n.rules.length }));
  // Unsafe head variables, deferred by the validator, are bound over dependency-graph domains.
  const repaired = timer.run('repair', () => repairUnsafeHeads(assembled, reachLimits(options)), (r) => ({ problems: r.diagnostics.length }));
  const all = sortDiagnostics([...diagnostics, ...repaired.diagnostics]);
  if (hasErrors(all)) throw new GdlError(all);
  return { game: validated.game, normal: repaired.game, warnings: all };
}

/** What `check` prints about a loaded game. */
export function summarizeLoaded(loaded: LoadedGame): GameSummary {
  return summarizeGame(loaded.game, loaded.normal);
}

/** Step 3: supersets of reachable fluents, moves and axioms, by the chosen method. */
export function reachGame(
  normal: NormalGame,
  options: PipelineOptions,
  timer: StageTimer,
  onProgress?: (p: ReachProgress) => void,
): ReachResult {
  const limits = reachLimits(options);
  const compute = (): ReachResult => options.method === 'prolog'
    ? computeSupersetsProlog(normal, limits, { ...(onProgress === undefined ? {} : { onProgress }), ...(options.reachOff === undefined ? {} : { off: options.reachOff }) })
    : options.method === 'prolog-plain' ? computeSupersetsPlain(normal, limits) : computeSupersetsDG(normal, limits);
  return timer.run(`reach-${options.method}`, compute, (r) => ({
    fluents: r.supersets.fluents.length,
    moves: r.supersets.moves.length,
    axioms: r.supersets.axioms.length,
  }));
}

/**
 * Step 3 by the dependency-graph method with every intermediate result (the graph, its
 * domains, the product sizes before reduction), for the comparison of the two methods.
 */
export function analyzeDependencyGraph(normal: NormalGame, options: PipelineOptions, timer: StageTimer): DGAnalysis {
  return timer.run('reach-dg', () => analyzeDG(normal, reachLimits(options)), (a) => ({
    fluents: a.supersets.fluents.length,
    moves: a.supersets.moves.length,
    axioms: a.supersets.axioms.length,
  }));
}

/** How `gdl-ground graph` draws the argument dependency graph. */
export type GraphFormat = 'dot' | 'text';

/**
 * The argument dependency graph with its domain sizes, goal and terminal rules included,
 * without the reduction (for `gdl-ground graph`), drawn in `format`; `relation` keeps only the
 * part that relation's domains come from (undefined when the graph has no such relation).
 */
export function drawDependencyGraph(
  normal: NormalGame,
  options: PipelineOptions,
  format: GraphFormat,
  relation: string | undefined,
  timer: StageTimer,
): string | undefined {
  const { graph, domains } = timer.run('graph', () => dependencyGraph(normal, reachLimits(options)));
  return (format === 'dot' ? argGraphToDot : argGraphToText)(graph, domains, { relation });
}

/**
 * Steps 4 and 5: instantiation, then reachability on the ground rules. `auxDemand`: for callers
 * that remove unused instances next (InstantiateLimits.auxDemand).
 */
export function groundGame(normal: NormalGame, supersets: Supersets, options: PipelineOptions, timer: StageTimer, lazy?: LazyPlan, auxDemand = false): GroundGame {
  const counts = (g: GroundGame): Record<string, number> => ({ rules: ruleCount(g), atoms: atomCount(g), init: g.init.length });
  // Frame rules rewritten with move mutexes (docs/ground.md): how many, estimated rules before and after.
  const frame = (g: GroundGame): Record<string, number> => (g.frame === undefined || g.frame.rules === 0 ? {} : { frameRules: g.frame.rules, frameFrom: Math.round(g.frame.estimated), frameTo: Math.round(g.frame.made) });
  // Without a lazy plan, `(next F)` frame rules may be rewritten in this run already (frame-reach.ts).
  const limits = { ...instantiateLimits(options), auxDemand, ...(lazy === undefined ? { frameNext: true } : {}) };
  const ground = timer.run('instantiate', () => instantiateGame(normal, supersets, limits, lazy), (g) => ({ ...counts(g), ...frame(g) }));
  const pruned = timer.run('prune', () => pruneUnreachable(ground, options.deadline), counts);
  // Frame rewrites are decided again over the supersets read back from the pruned game, which
  // both methods share (docs/ground.md, "One decision for both methods"). Lazy plans are not.
  if ((ground.frame?.candidates ?? 0) === 0 || lazy !== undefined) return pruned;
  const shared = frameRecheck(normal, supersets, ground, pruned, options, timer);
  if (shared === undefined) return pruned;
  const again = timer.run('reinstantiate', () => instantiateGame(normal, shared, { ...limits, frameShared: true }), (g) => ({ ...counts(g), ...frame(g) }));
  return timer.run('prune', () => pruneUnreachable(again, options.deadline), counts);
}

/**
 * The supersets read back from the first run (`ground`, `pruned`) for the run that decides the
 * frame rewrites again, or undefined when that run would be the first one again: nothing was
 * deferred and they have every fluent and move of `supersets` (the same stores, hence the same
 * decisions). Early rewrites (`GroundGame.frame.early`) are read as the rules they replaced
 * (frame-reach.ts), so the supersets are those the first run gave before it made them.
 */
function frameRecheck(normal: NormalGame, supersets: Supersets, ground: GroundGame, pruned: GroundGame, options: PipelineOptions, timer: StageTimer): Supersets | undefined {
  const { deferred, early } = ground.frame!;
  if (early.length === 0) {
    if (deferred === 0 && timer.run('read-back', () => keepsFluentsAndMoves(pruned, supersets, options.deadline))) return undefined;
    return timer.run('read-back', () => sharedSupersets(normal, supersets, pruned, options.deadline));
  }
  const reached = timer.run('read-back', () => writtenReach(ground, early, options.deadline));
  if (deferred === 0 && reachesAll(ground, reached, supersets)) return undefined;
  return timer.run('read-back', () => sharedSupersets(normal, supersets, ground, options.deadline, reached));
}

/**
 * The supersets read back from a pruned ground game: what is reachable once the ground rules
 * are pruned (end of 9.1.3); a limit error past the run's deadline (`options`).
 */
export function readBackSupersets(normal: NormalGame, supersets: Supersets, ground: GroundGame, options: PipelineOptions): Supersets {
  return gameRelationsOnly(normal, finalSupersets(normal, supersets, ground, options.deadline));
}

/**
 * Supersets of the game's own relations only. The ground game also holds the auxiliary
 * relations that instantiation's rewrites make (split and frame rules: `split-2`, ...,
 * docs/ground.md); they are the grounder's, not the game's, so the read-back leaves them out and
 * `reach` prints the same relations whatever the method (the Prolog method never sees them).
 */
function gameRelationsOnly(normal: NormalGame, supersets: Supersets): Supersets {
  const key = relationKeys(normal.rules.map(asRule));
  const own = new Set<string>();
  for (const r of normal.rules) {
    own.add(key(r.head));
    for (const l of r.body) if (l.kind !== 'distinct') own.add(key(l.atom));
  }
  return { ...supersets, axioms: supersets.axioms.filter((a) => own.has(key(a))) };
}

/**
 * Steps 3 to 5 on a loaded game: supersets, instantiation, reachability. `demand` as in
 * {@link reachForGrounding}: `auto` only when the caller removes unused instances next.
 */
export function groundNormalGame(
  normal: NormalGame,
  options: PipelineOptions,
  timer: StageTimer,
  demand: GroundingDemand = 'accumulator',
): { reach: ReachResult; ground: GroundGame } {
  if (options.lazyAxioms === true || options.lazyRelations !== undefined) return groundLazily(normal, options, timer, demand);
  try {
    const reach = reachForGrounding(normal, options, timer, demand, true);
    return { reach, ground: groundGame(normal, reach.supersets, options, timer, undefined, demand === 'auto') };
  } catch (err) {
    throw withLazyNote(normal, err);
  }
}

/**
 * Steps 3 to 5 with lazy axioms (docs/lazy.md): each limit that names a relation makes it lazy
 * and the grounding starts again, a few rounds at most, under the same deadline.
 */
function groundLazily(normal: NormalGame, options: PipelineOptions, timer: StageTimer, demand: GroundingDemand): { reach: ReachResult; ground: GroundGame } {
  // Supersets of an earlier round stay sound: every round's relaxed game over-approximates.
  // Not those with static relations asked for (`askedStatics`): under a lazy plan a static
  // relation may depend on a lazy one and read its instances; made again without, on the same game.
  let reached: { reach: ReachResult; game: NormalGame } | undefined;
  return lazyRounds(normal, options.lazyRelations ?? [], options.lazyAxioms === true, options.deadline, (plan) => {
    const game = reached?.game ?? plan?.relaxed ?? normal;
    const reuse = reached !== undefined && (plan === undefined || reached.reach.supersets.askedStatics === undefined);
    const reach = reuse ? reached!.reach : reachForGrounding(game, options, timer, demand, plan === undefined);
    reached = { reach, game };
    return { reach, ground: groundGame(normal, reach.supersets, options, timer, plan, demand === 'auto') };
  }, options.reclaim);
}

/** The demand modes of the superset stage a grounding may ask for (src/reach/demand.ts). */
type GroundingDemand = Extract<DemandMode, 'auto' | 'accumulator'>;

/**
 * Step 3 as instantiation needs it. With the Prolog method, relevance first: Algorithm 9.2 in
 * Tau-Prolog over only the components that true, does, legal and next depend on (the same
 * least model of the relaxed game, restricted); instantiation derives every other axiom itself
 * over the same fluents and moves, so the ground game is the one the full supersets give. The
 * scale benchmark's ASP program takes its fluents and moves from here too (src/bench/asp-program.ts):
 * the full supersets of gt_two_thirds_6p (182,203 axioms) took minutes in Tau-Prolog.
 * `demand`: `accumulator` (the default) demands only in games with an accumulator relation, and
 * the ground game before unused-instance removal is the one the relevant supersets give; `auto`
 * also demands the relations whose callers ask for a sliver of them (docs/reach.md), for callers
 * that remove unused instances next: the game after removal is the same. `statics`: static
 * relations asked for where the run would be plain (src/reach/demand-statics.ts), for a
 * grounding with no lazy plan (instantiation then ignores their instances).
 */
export function reachForGrounding(normal: NormalGame, options: PipelineOptions, timer: StageTimer, demand: GroundingDemand = 'accumulator', statics = false): ReachResult {
  if (options.method !== 'prolog') return reachGame(normal, options, timer);
  // Foresight names a relation that may be lazy (src/reach/foresight.ts), with or without lazy axioms.
  const limits = { ...reachLimits(options), foresight: { mayBeLazy: (rel: string) => mayBeLazy(normal, rel) } };
  // Demand-driven axioms (src/reach/demand.ts) where they pay.
  // Counted without making the arrays of supersets handed over as term ids (src/reach/handover.ts).
  return timer.run('reach-prolog', () => supersetsForGrounding(normal, limits, demand, statics), (r) => supersetSizes(r.supersets));
}

/**
 * Steps 3 to 5 read back as supersets: what is reachable once the ground rules are pruned.
 * This is how the dependency-graph method ends (end of 9.1.3), and it equals the Prolog
 * method's supersets after the same post-processing.
 */
export function postProcessedSupersets(normal: NormalGame, options: PipelineOptions, timer: StageTimer): ReachResult {
  // The full supersets: the static axioms read back come from them.
  const reach = reachGame(normal, options, timer);
  const ground = groundGame(normal, reach.supersets, options, timer);
  return { supersets: readBackSupersets(normal, reach.supersets, ground, options), stats: reach.stats };
}

/** The whole job from text to ground game. */
export function runGrounding(
  text: string,
  file: string,
  options: PipelineOptions,
  timer: StageTimer,
): { loaded: LoadedGame; reach: ReachResult; ground: GroundGame; timer: StageTimer } {
  const loaded = loadGame(text, file, options, timer);
  return { loaded, ...groundNormalGame(loaded.normal, options, timer), timer };
}

/** Output formats of a ground game. */
export type GroundFormat = 'gdl' | 'json';

/**
 * Step 6: the ground game as text; a game too large for one string is reported as a limit, and
 * so is the run's deadline (`options`).
 */
export function emitGround(game: GroundGame, format: GroundFormat, gdl: GdlEmitOptions, timer: StageTimer, options: PipelineOptions): string {
  return timer.run('emit', () => {
    try {
      return format === 'json' ? emitJson(game, options.deadline) : emitGdl(game, gdl, options.deadline);
    } catch (err) {
      if (!(err instanceof RangeError)) throw err;
      throw new GdlError([diag('error', game.file, NO_POS, `the ground game is too large to write (${ruleCount(game)} rules)`)], 'limit', { kind: 'output' });
    }
  }, (s) => ({ bytes: utf8Length(s) }));
}

/**
 * A piece of output: text, or UTF-8 bytes that are valid only during the call they are handed
 * to (the writer reuses its buffer; a consumer that keeps them copies them).
 */
export type OutputChunk = string | Uint8Array;

/**
 * Step 6 streamed: the ground game's text handed to `write` in chunks whose concatenation is
 * {@link emitGround}'s text byte for byte (GDL and JSON as UTF-8 bytes in chunks of whole lines
 * or items, so no string holds a game too large for one). The `emit` time includes the writing.
 */
export function emitGroundStream(game: GroundGame, format: GroundFormat, gdl: GdlEmitOptions, write: (chunk: OutputChunk) => void, timer: StageTimer, options: PipelineOptions): void {
  timer.run('emit', () => {
    let bytes = 0;
    const chunks = format === 'json' ? emitJsonBytes(game, options.deadline) : emitGdlBytes(game, gdl, options.deadline);
    for (const chunk of chunks) {
      bytes += chunk.length;
      write(chunk);
    }
    return bytes;
  }, (bytes) => ({ bytes }));
}


/**
 * Step 7a: drops every ground rule and atom that no legal, next, goal or terminal rule depends
 * on (GGP book 14.4). Play is unchanged, so `ground` does this by default. A limit error past
 * the run's deadline (`options`).
 */
export function removeUnusedInstances(game: GroundGame, timer: StageTimer, options: PipelineOptions): { game: GroundGame; stats: UnusedStats } {
  return timer.run('unused', () => removeUnused(game, options.deadline), (r) => ({ rules: ruleCount(r.game), atoms: atomCount(r.game) }));
}

/**
 * Step 7b: every non-keyword axiom replaced by its definition in topological order (slides
 * 35-41); recursive axioms, those whose substitution would exceed `axioms.maxFormula` and
 * those that would push the total body size over the growth budget stay rules. Past the run's
 * deadline it throws a limit error (the CLI exits with 3).
 */
export function removeGameAxioms(game: GroundGame, options: PipelineOptions, axioms: AxiomOptions = DEFAULT_AXIOM_OPTIONS, timer: StageTimer): AxiomResult {
  refuseLazy(game, 'axiom removal (and GDDL, RDDL)');
  return timer.run('axioms', () => removeAxioms(game, axioms, options.deadline), (r) => ({
    removed: r.stats.removed, kept: r.stats.kept.length, rules: r.game.rules.length, size: r.stats.sizeAfter,
  }));
}

/**
 * Step 8 for a game without axioms: GDL with `(or ...)`, `(and ...)`, `(not ...)` bodies, handed
 * to `write` as UTF-8 bytes in chunks of whole lines (valid during the call, as
 * {@link emitGroundStream}'s); a limit error past the run's deadline. The `emit` time includes
 * the writing.
 */
export function emitFormulaGroundStream(game: AxiomResult['game'], gdl: GdlEmitOptions, write: (chunk: OutputChunk) => void, options: PipelineOptions, timer: StageTimer): void {
  timer.run('emit', () => {
    let bytes = 0;
    try {
      for (const chunk of emitFormulaGdlBytes(game, gdl, options.deadline)) {
        bytes += chunk.length;
        write(chunk);
      }
    } catch (err) {
      if (!(err instanceof RangeError)) throw err;
      throw new GdlError([diag('error', game.file, NO_POS, `the game without axioms is too large to write (${game.rules.length} rules)`)], 'limit', { kind: 'output' });
    }
    return bytes;
  }, (bytes) => ({ bytes }));
}

/**
 * Loads a ground game written to a file (by `ground`, with or without axioms) so that it can be
 * played against its original: large variable-free subformulas of `(not (or ...))` bodies are
 * named rather than expanded to disjunctive normal form.
 */
export function loadGroundFile(text: string, file: string, options: PipelineOptions, timer: StageTimer): LoadedGame {
  return loadGame(text, file, { ...options, normalize: { ...options.normalize, splitGround: true } }, timer);
}
