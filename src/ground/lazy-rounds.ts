/**
 * The lazy rounds (`--lazy-axioms`, docs/lazy.md): grounding is attempted, and each limit that
 * names a relation (or a keyword rule, by position) makes it lazy and starts the attempt again,
 * a few rounds at most. A keyword component's later rules refused alike in the same attempt
 * (src/ground/lazy-scan.ts) are taken at once, as the rounds that would each have stopped at
 * one of them (docs/corpus.md, round23).
 */
import type { Pos } from '../gdl/ast.js';
import { NO_POS } from '../gdl/ast.js';
import type { Deadline } from '../deadline.js';
import { type Diagnostic, GdlError, type LimitInfo, diag } from '../gdl/diagnostics.js';
import { asRule, type NormalGame } from '../normalize/types.js';
import { relationKeys } from '../gdl/relations.js';
import { type LazyPlan, LazyRefusal, planLazy, ruleSeed, seedOfLimit } from './lazy.js';
import { lazyDynamic } from './lazy-part.js';
import { LazyRulesLimit } from './lazy-scan.js';

/** Rounds of lazy grounding at most: each makes one more relation (or keyword rule) lazy. */
const MAX_LAZY_ROUNDS = 6;

/**
 * Runs `attempt` with the plan for `seeds` (none while `seeds` is empty); when `retry` is set
 * and it stops at a limit naming a relation (not the clock or the heap), that relation is made
 * lazy and `attempt` runs again, at most {@link MAX_LAZY_ROUNDS} times. A relation that cannot
 * be lazy ends the rounds with the limit error, which then says why. The later keyword rules a
 * lazy-rule limit carries ({@link LazyRulesLimit}) are made lazy with it, each counted as the
 * round it saves ({@link laterRuleSeeds}).
 * `reclaim`, when given, is called between two rounds, once the stopped round's data is garbage
 * (the command line's full garbage collection: `reclaim` of src/pipeline/options.ts).
 */
export function lazyRounds<R>(
  game: NormalGame,
  seeds: readonly string[],
  retry: boolean,
  deadline: Deadline,
  attempt: (plan: LazyPlan | undefined) => R,
  reclaim?: () => void,
): R {
  const lazy = [...seeds];
  for (let round = 0; ; round++) {
    const plan = lazy.length === 0 ? undefined : planOrRefuse(game, lazy, undefined);
    const retryable = (err: GdlError): string | undefined => {
      if (!retry || round >= MAX_LAZY_ROUNDS || err.code !== 'limit' || deadline.exceeded() !== undefined) return undefined;
      const first = err.diagnostics[0];
      const rel = first === undefined ? undefined : seedOfLimit(first);
      return rel === undefined || lazy.includes(rel) || plan?.program.includes(rel) === true ? undefined : rel;
    };
    const outcome = attemptOrLimit(attempt, plan, retryable);
    if (outcome.kind === 'done') return outcome.value;
    const { met } = outcome;
    // The stopped attempt's stores are unreachable now (LimitMet); collected here, they are not
    // still filling the heap while the next round fills it too (docs/corpus.md, chess25).
    reclaim?.();
    const next = planOrRefuse(game, [...lazy, met.rel], met);
    lazy.push(met.rel);
    // Rounds k+1.. would each stop at the next of these rules: at most as many as the cap leaves.
    const later = met.later.length > 0 ? laterRuleSeeds(game, lazy, next, met.later, MAX_LAZY_ROUNDS - round - 1) : [];
    lazy.push(...later);
    round += later.length;
  }
}

/**
 * A limit an attempt met that starts another round: the error's data, not the error. A thrown
 * error keeps its stack's frames, their functions and what their closures hold: the round 0 of
 * chess (the superset stage on the game as written, stopped by foresight) stayed reachable
 * through the caught error's frames, about 50 MiB of Prolog tables and 37 MiB of fact-store
 * arrays, for as long as the rounds ran (docs/corpus.md, cinst24).
 */
interface LimitMet {
  /** The relation (or keyword rule, by position) the limit makes lazy. */
  readonly rel: string;
  readonly diagnostics: readonly Diagnostic[];
  readonly limit: LimitInfo | undefined;
  /** The component's later rules refused alike ({@link LazyRulesLimit}), or none. */
  readonly later: readonly Pos[];
}

/**
 * `attempt(plan)`'s result, or the limit it met when `retryable` names a seed for it; any other
 * error is thrown on. The error itself is dropped with this frame ({@link LimitMet}).
 */
function attemptOrLimit<R>(
  attempt: (plan: LazyPlan | undefined) => R,
  plan: LazyPlan | undefined,
  retryable: (err: GdlError) => string | undefined,
): { kind: 'done'; value: R } | { kind: 'limit'; met: LimitMet } {
  try {
    return { kind: 'done', value: attempt(plan) };
  } catch (err) {
    const rel = err instanceof GdlError ? retryable(err) : undefined;
    if (rel === undefined) throw err;
    const e = err as GdlError;
    return { kind: 'limit', met: { rel, diagnostics: e.diagnostics, limit: e.limit, later: e instanceof LazyRulesLimit ? e.later : [] } };
  }
}

/**
 * Of the keyword rules at `later` (in evaluation order), the first `max` at most, as seeds, for
 * as long as each leaves the rules still ground as in `plan` (the plan of `lazy`, {@link onlyDrops}).
 * Then the instantiation
 * that would follow is the one that stopped, without these rules, up to the next of them, whose
 * estimate it computes over the same stores (lazy-scan.ts): so the rounds skipped would each
 * have stopped at the next rule, and the final set is the one the rounds one by one find.
 */
function laterRuleSeeds(game: NormalGame, lazy: readonly string[], plan: LazyPlan, later: readonly Pos[], max: number): string[] {
  const taken: string[] = [];
  // One seed per position: the rules normalization made of one rule are refused one round.
  const seeds = [...new Set(later.map(ruleSeed))].slice(0, Math.max(0, max));
  for (const seed of seeds) {
    if (lazy.includes(seed)) continue;
    const candidate = [...taken, seed];
    const next = planOrUndefined(game, [...lazy, ...candidate]);
    if (next === undefined || !onlyDrops(plan, next, new Set(candidate))) break;
    taken.push(seed);
  }
  return taken;
}

/** The plan for `seeds`, or undefined when it is refused. */
function planOrUndefined(game: NormalGame, seeds: readonly string[]): LazyPlan | undefined {
  try {
    return planLazy(game, seeds);
  } catch (err) {
    if (err instanceof LazyRefusal) return undefined;
    throw err;
  }
}

/**
 * Whether `next` is `plan` with the keyword rules of `seeds` (by position) made lazy and nothing
 * else changed for the rules still ground: the same lazy relations; the ground rules of `next`
 * those of `plan` (the same objects, in the same order) but the rules of `seeds` and the rules
 * of relations no ground rule of `next` defines or reads any more (the program reads them now,
 * as those rules did: a relation read by a rule still ground keeps all its rules); and the same
 * state-dependent relations among those `next` grounds.
 */
function onlyDrops(plan: LazyPlan, next: LazyPlan, seeds: ReadonlySet<string>): boolean {
  const same = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((x, i) => x === b[i]);
  // A seed names every rule at its position (normalization may make several of one).
  const dropped = plan.ground.rules.filter((r) => seeds.has(ruleSeed(r.pos)));
  if (!same(plan.relations, next.relations) || next.lazyRules.length !== plan.lazyRules.length + dropped.length) return false;
  const kept = new Set(next.ground.rules);
  const key = relationKeys(plan.ground.rules.map(asRule));
  const used = new Set(next.ground.rules.flatMap((r) => [key(r.head), ...r.body.flatMap((l) => (l.kind === 'distinct' ? [] : [key(l.atom)]))]));
  let at = 0;
  for (const r of plan.ground.rules) {
    if (kept.has(r)) {
      if (next.ground.rules[at] !== r) return false;
      at++;
    } else if (!seeds.has(ruleSeed(r.pos)) && used.has(key(r.head))) return false;
  }
  if (at !== next.ground.rules.length) return false;
  const dynamic = (p: LazyPlan): string[] => [...lazyDynamic(p.ground.rules.map(asRule), p)].filter((k) => used.has(k)).sort();
  return same(dynamic(plan), dynamic(next));
}

/** The plan for `seeds`; a refusal becomes the limit `cause` met with the reason added, or an invalid-game error. */
function planOrRefuse(game: NormalGame, seeds: readonly string[], cause: LimitMet | undefined): LazyPlan {
  try {
    return planLazy(game, seeds);
  } catch (err) {
    if (!(err instanceof LazyRefusal)) throw err;
    const first = cause?.diagnostics[0];
    if (first === undefined) throw new GdlError([diag('error', game.file, NO_POS, `lazy axioms: ${err.message}`)]);
    throw new GdlError([{ ...first, message: `${first.message}; it cannot be lazy: ${err.message}` }, ...cause!.diagnostics.slice(1)], 'limit', cause!.limit);
  }
}
