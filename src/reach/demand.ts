/**
 * The superset stage as grounding needs it (relevance first, docs/reach.md), with demand where
 * it pays: Algorithm 9.2 in Tau-Prolog on the relevant relaxed program, or on its magic-sets
 * rewrite (src/reach/magic.ts), which derives a demanded axiom only for the bindings its
 * callers ask for.
 *
 * Why not always: the rewrite gives the same fluents and moves and fewer axiom instances, and
 * the same ground game once unused instances are removed (instantiation filters a relation's
 * heads by its instances, and the instances no caller asks for are unused; 54 corpus games and
 * games/ compared byte for byte), but its extra relations cost time: wargame03 1.3 s against
 * 42 s, knightfight 0.3 s against 2.2 s. So by default (`auto`) it runs in two kinds of games:
 * - with an accumulator relation, every demandable relation (merrills' `count_loop`: the plain
 *   run needs 38 s to reach the budget, demand grounds it in 17 s; ad_game_2x2 4.7 s against
 *   3.5 s; linesOfAction, the one loss, 0.9 s against 3.8 s);
 * - else, only the relations whose callers can ask for a hundredth of their domains at most
 *   (src/reach/demand-choice.ts: crisscross's `count/6`, called with five constants, 203 axioms
 *   in 0.2 s instead of 830,457 in 15-18 s);
 * - else, the large relations free of the state in the relaxed game whose callers' state-free
 *   literals, counted in a small run, pass two fifths of their domains at most, demanded with
 *   static seeds (src/reach/demand-seeds.ts: amazons' `*MoveIgnoring`, 296,821 axioms instead
 *   of 752,469, and 458,588 fewer rules made).
 * The last two need the unused instances removed, so a caller that keeps them (`--keep-unused`)
 * asks for `accumulator`, which leaves the rest plain.
 * Every other game keeps exactly the plain run's supersets. `fallback` (after the plain run
 * passes the atom budget) rescued none of the corpus games refused that way (chess,
 * mummymaze1p) and doubled the time of mummymaze1p's refusal (34 s against 70 s, side by side),
 * so it is not the default.
 */
import { Deadline } from '../deadline.js';
import { GdlError, deadlineTicker } from '../gdl/diagnostics.js';
import { computeSupersetsProlog } from './prolog.js';
import { accumulatorRelations, demandableRelations, isAtomBudget, magicGame, undemand, undemandedName } from './magic.js';
import { seededDemand } from './demand-seeds.js';
import type { NormalGame } from '../normalize/types.js';
import type { ReachLimits, ReachResult } from './types.js';
import { keepExactNegations, withoutKept } from './exact-negation.js';
import { relationsWorthDemanding } from './demand-choice.js';
import { staticDemand } from './demand-statics.js';
import { withAskedStatics } from './handover.js';
import { type RelaxedPlan, planRelaxedGame } from './relaxed.js';

/**
 * When the rewrite is used. `auto` (the default): every demandable relation when the game has
 * an accumulator relation (`accumulatorRelations`), else the relations worth demanding
 * (`relationsWorthDemanding`), if any, else those `seededDemand` chooses; `accumulator`: only the first (the supersets of a game
 * without an accumulator are then the plain run's, as `--keep-unused` needs); `fallback`:
 * after the plain run passes the atom budget, time-boxed to the plain run's time; `always`;
 * `never`.
 */
export type DemandMode = 'auto' | 'accumulator' | 'fallback' | 'always' | 'never';

/**
 * The shortest time box of a run after a plain one (a small game's plain run takes milliseconds,
 * and one refused early by its estimate, src/reach/growth.ts, a few seconds: mummymaze1p's
 * refined run needs 6-9 s after a plain run stopped at 2-4 s at load 11, so five seconds refused
 * it, and at load 20 15 s did too). A refined run that does not bound the game mostly stops
 * itself early now, on its own estimate.
 */
const MIN_BOX_MS = 30000;

/**
 * The refined run's share of the atom budget: where kept negations bound a game its supersets
 * are small (mummymaze1p 23,400 atoms, urmAdd 4,500); where they do not, the run stops sooner.
 */
const REFINED_SHARE = 4;

/**
 * How grounding's runs call Algorithm 9.2: the relevant components only, and the supersets in
 * the order found (instantiation reads them as sets).
 */
const GROUNDING = { relevantOnly: true, axiomOrder: 'found' } as const;

/**
 * The demand-driven run: the game rewritten for `demanded` (default: every demandable
 * relation), its supersets read back as the original's while they are collected.
 */
function demandRun(game: NormalGame, limits: ReachLimits, demanded?: ReadonlySet<string>, stateFree?: ReadonlySet<string>): ReachResult {
  return computeSupersetsProlog(magicGame(game, demanded, stateFree), limits, { ...GROUNDING, readAs: undemandedName });
}

/**
 * The relations `auto` demands in a game without an accumulator relation (empty: none,
 * the plain run): those worth demanding, src/reach/demand-choice.ts.
 */
function chosenDemand(game: NormalGame, limits: ReachLimits, demandable: ReadonlySet<string>): Set<string> {
  return new Set(relationsWorthDemanding(game, demandable, demandTicker(game, limits)).map((c) => c.key));
}

/** The deadline's ticker while the relations to demand are chosen. */
function demandTicker(game: NormalGame, limits: ReachLimits): () => void {
  return deadlineTicker(limits.deadline, game.file, 'choosing the relations to demand');
}

/**
 * The run after a plain one passed the atom budget with `err`: the negations the relaxation may
 * keep (src/reach/exact-negation.ts) kept, and demand on top, with a quarter of the atom budget,
 * time-boxed to the plain run's time (at least `MIN_BOX_MS`). Its supersets
 * are still supersets of the reachable atoms, only smaller (docs/reach.md, "Kept negations").
 * Where nothing can be kept, or the refined run passes a limit of its own, `err` stands.
 */
function refinedRun(game: NormalGame, limits: ReachLimits, err: unknown, plainMs: number): ReachResult {
  const refined = keepExactNegations(game, limits);
  if (refined === undefined) throw err;
  const box = timeBox(limits.deadline, plainMs);
  const maxAtoms = Math.ceil(limits.maxAtoms / REFINED_SHARE);
  try {
    const r = computeSupersetsProlog(magicGame(refined), { ...limits, maxAtoms, deadline: box }, GROUNDING);
    const stats = { ...r.stats, times: [{ step: 'plain run (over budget)', ms: plainMs }, ...r.stats.times] };
    // Every caller of a demandable relation is positive and relevant in the original game too.
    const demandedStatics = [...demandableRelations(game)].sort();
    return { supersets: { ...undemand(withoutKept(r.supersets)), demandedStatics }, stats };
  } catch (again) {
    // The plain run's message names the game's own relation; the run's own limits win.
    if (again instanceof GdlError && again.code === 'limit' && !limits.deadline.passed()) {
      const why = isAtomBudget(again) ? `more than ${maxAtoms} atoms` : 'more than the time the plain run took';
      throw withNote(err, `; kept negations and demand did not bound it either (${why})`);
    }
    throw again;
  }
}

/**
 * The deadline of a second run after a plain one that took `plainMs`: at most that long again (at
 * least `MIN_BOX_MS`), within the run's own deadline, with its heap limit and its caller's abort
 * signal (a library caller's cancel must reach the second run too).
 */
function timeBox(deadline: Deadline, plainMs: number): Deadline {
  return new Deadline(Math.min(deadline.at, Date.now() + Math.max(plainMs, MIN_BOX_MS)), deadline.maxHeapBytes, deadline.signal);
}

/** `err` (a GdlError) with `note` added to its first message; the relation and the limit stay data. */
function withNote(err: unknown, note: string): unknown {
  if (!(err instanceof GdlError) || err.diagnostics.length === 0) return err;
  const [first, ...rest] = err.diagnostics;
  return new GdlError([{ ...first!, message: `${first!.message}${note}` }, ...rest], err.code, err.limit);
}

/**
 * Relevant supersets for instantiation: fluents and moves equal to the relaxed game's, and the
 * axioms of the relevant relations (with demand: the demanded instances). When that passes
 * the atom budget, the refined run (kept negations and demand, `refinedRun`), whose fluents
 * and moves are a subset of the relaxed game's and still a superset of the reachable ones.
 * Throws like `computeSupersetsProlog`; when the refined or demand run after a plain one
 * passes the budget or its time box, the plain run's error (it names the game's own relation).
 * `statics` (a grounding with no lazy relation, `auto` or `accumulator`): where the run would be
 * plain, static relations are asked for instead (`askedStatics`; instantiation ignores their
 * instances, so the ground game is the same, with or without `--keep-unused`).
 */
export function supersetsForGrounding(game: NormalGame, limits: ReachLimits, mode: DemandMode = 'auto', statics = false): ReachResult {
  const start = performance.now();
  const first = firstRun(game, limits, mode, statics);
  if (first.kind === 'done') return first.result;
  const plainMs = performance.now() - start;
  return mode === 'fallback' ? demandFallback(game, limits, first.err, plainMs) : refinedRun(game, limits, first.err, plainMs);
}

/**
 * The run {@link supersetsForGrounding} chooses first, or its atom-budget error when a second
 * run may follow. That error comes back as a copy made here: the one thrown keeps its stack's
 * frames, whose closures hold the stopped run's tables, alive through the second run (the same
 * holding as the lazy rounds' limit errors, docs/corpus.md cinst24).
 */
function firstRun(game: NormalGame, limits: ReachLimits, mode: DemandMode, statics: boolean): { kind: 'done'; result: ReachResult } | { kind: 'over'; err: GdlError } {
  try {
    return { kind: 'done', result: chosenRun(game, limits, mode, statics) };
  } catch (err) {
    if (!isAtomBudget(err) || mode === 'never' || mode === 'always') throw err;
    const e = err as GdlError;
    return { kind: 'over', err: new GdlError(e.diagnostics, e.code, e.limit) };
  }
}

/** The first run of {@link supersetsForGrounding} by `mode`: demand where it pays, else plain (statics asked for). */
function chosenRun(game: NormalGame, limits: ReachLimits, mode: DemandMode, statics: boolean): ReachResult {
  if (mode === 'always') return demandRun(game, limits);
  if (mode === 'auto' || mode === 'accumulator') {
    // The relaxed plan once for every question below (five plans on FRED, 30 ms each).
    const plan = planRelaxedGame(game);
    const demandable = demandableRelations(game, plan);
    if (accumulatorRelations(game, demandable).length > 0) return demandRun(game, limits, demandable);
    const chosen = mode === 'auto' ? chosenDemand(game, limits, demandable) : new Set<string>();
    if (chosen.size > 0) return demandRun(game, limits, chosen);
    const seeded = mode === 'auto' ? seededDemand(game, limits, demandTicker(game, limits), plan) : undefined;
    if (seeded !== undefined) return demandRun(game, limits, seeded.relations, seeded.stateFree);
    const asked = statics ? staticsAskedRun(game, limits, plan) : undefined;
    if (asked !== undefined) return asked;
  }
  // The plain run names the static relations it derived exactly, for instantiation to take.
  return computeSupersetsProlog(game, limits, { ...GROUNDING, exactStatics: true });
}

/**
 * The run with static relations asked for (src/reach/demand-statics.ts), or undefined when none
 * is, or when the run passes a limit before the deadline: the plain run then makes the same
 * supersets and errors as without it (its messages name the game's own relations). `plan`: the
 * game's relaxed plan.
 */
function staticsAskedRun(game: NormalGame, limits: ReachLimits, plan: RelaxedPlan): ReachResult | undefined {
  const asked = staticDemand(game, plan);
  if (asked === undefined) return undefined;
  try {
    const r = computeSupersetsProlog(asked.game, limits, { ...GROUNDING, readAs: undemandedName });
    return { ...r, supersets: withAskedStatics(r.supersets, asked.relations) };
  } catch (err) {
    if (err instanceof GdlError && err.code === 'limit' && !limits.deadline.passed()) return undefined;
    throw err;
  }
}

/** The `fallback` mode's run after the plain one passed the budget: demand alone, time-boxed like `refinedRun`. */
function demandFallback(game: NormalGame, limits: ReachLimits, err: unknown, plainMs: number): ReachResult {
  // The demand run gets at most the time the plain run took (at least MIN_BOX_MS): where demand pays it is much
  // faster (merrills: 17 s against 38 s); where callers ask for nearly everything
  // (mummymaze1p's direction-from) it would otherwise take longer and end the same way.
  const box = timeBox(limits.deadline, plainMs);
  try {
    const r = demandRun(game, { ...limits, deadline: box });
    return { ...r, stats: { ...r.stats, times: [{ step: 'plain run (over budget)', ms: plainMs }, ...r.stats.times] } };
  } catch (again) {
    if (again instanceof GdlError && again.code === 'limit' && !limits.deadline.passed()) throw err;
    throw again;
  }
}
