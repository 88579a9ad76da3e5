/**
 * Rule splitting during instantiation (docs/ground.md, "Rule splitting"): a rule whose join is
 * estimated above the threshold is rewritten by {@link splitRule} into auxiliary rules and a
 * head rule, but only when that pays. The auxiliary rules are instantiated at once (each is a
 * component of its own: its body reads relations that are complete), then the head rule is
 * estimated over the auxiliary relations just made; the split is kept when the ground rules
 * made plus that estimate stay below the original estimate by {@link SPLIT_GAIN}, otherwise it
 * is rolled back and the rule is instantiated as written.
 *
 * Between a 40th of the threshold and the threshold only projections are tried, and kept only
 * when they gain {@link PROJECT_GAIN} times; below that nothing changes, so every game whose
 * rules all stay under it grounds to the same bytes as without splitting.
 */
import type { Atom } from '../gdl/ast.js';
import { compareCodePoints } from '../gdl/terms.js';
import { compileRule, type JoinRule } from './compile.js';
import type { NormalRule } from '../normalize/types.js';
import { evaluateComponent, ruleEstimate } from './evaluate.js';
import { type Context, type Mark, madeSince, markOf, rollBack, rulesMade } from './run-context.js';
import { AuxDemandConflict, checkReuse, demandAux, demandRest, forgetDemand } from './aux-demand.js';
import { auxKey, eliminate, innerVariables, renameRelation, splitRule } from './split.js';
import { DEFAULT_FRAME_ABOVE, frameCandidate, tryFrame } from './frame-run.js';
import type { SplitEnv } from './split-env.js';

/**
 * Default threshold: a rule is considered for splitting when its join is estimated above this
 * many bindings. The largest estimate of a state-dependent rule among the corpus games that
 * ground today is 2.26×10⁶ (madness's `next`, docs/hard-games.md); 4×10⁶ stays above it, so
 * their output is unchanged, and below the default budget of 5×10⁶ ground rules, which a rule
 * over the threshold is likely to exhaust on its own.
 */
export const DEFAULT_SPLIT_ABOVE = 4_000_000;

/**
 * A split is kept only when it makes at least this many times fewer ground rules (estimated):
 * "a lot", yet low enough for checkers' frame rules (10 kept them whole; with 4 and
 * `--split-above 100000` checkers falls from 262,113 to 100,775 ground rules).
 */
const SPLIT_GAIN = 4;

/**
 * Projection pays from a lower threshold: a rule estimated above `--split-above` divided by this
 * share (100,000 by default) is tried too when its only rewrite is {@link splitRule}'s
 * projection (variables found in one positive atom only, as in racer4's
 * `(does ?player (speed ?dx ?dy))` where the next position needs only `?dx`). Projecting one
 * atom costs little to try (one pass over one relation), and kept only at {@link PROJECT_GAIN}
 * it changes only the games where it removes most of a rule's ground instances
 * (docs/ground.md, "Rule splitting", has the corpus figures).
 */
export const PROJECT_SHARE = 40;

/** A projection below `--split-above` is kept only when it makes this many times fewer ground rules (estimated). */
const PROJECT_GAIN = 16;

/**
 * Auxiliary rules are split again (projection, components) above this estimate: they are new
 * rules, with no output to keep identical, and a part is often a product of its own (amazons:
 * a move's source cell joined with every cell, where the move's other arguments can go).
 */
const AUX_SPLIT_ABOVE = 10_000;

/** How deep auxiliary rules are split again (each level has fewer literals or variables). */
const MAX_DEPTH = 8;

/** At most this many join-tree steps per rule (each removes at least one variable). */
const MAX_STEPS = 32;


/** A fresh environment for one instantiation run. */
export function splitEnv(above: number, prefix: string, key: (atom: Atom) => string, frameAbove = DEFAULT_FRAME_ABOVE, frameShared = false, frameNext = false): SplitEnv {
  const frame = { rules: 0, estimated: 0, made: 0, candidates: 0, deferred: 0, early: [] };
  return { above, prefix, key, made: { count: 0 }, memo: new Map(), journal: [], tainted: new Set(), frameAbove, frame, frameShared, frameNext };
}

/**
 * The relation made before for an auxiliary rule equal to `rule` up to names, if any; a
 * conflict when that relation's heads were tested against another rule (`SplitEnv.tainted`).
 */
function known(env: SplitEnv, rule: NormalRule): string | undefined {
  const same = env.memo.get(auxKey(rule));
  if (same !== undefined && env.tainted.has(same)) throw new AuxDemandConflict(`auxiliary relation ${same} reused after a join-tree step's demand`);
  return same;
}

/** Instantiates an auxiliary rule (`compiled`, made from `rule`) and remembers it. */
function instantiateAux(ctx: Context, env: SplitEnv, rule: NormalRule, compiled: JoinRule): void {
  evaluateComponent(ctx, [compiled], new Set([compiled.head.rel]));
  const key = auxKey(rule);
  env.memo.set(key, rule.head.rel);
  env.journal.push(key);
}

/** Ground rules the run may still make. */
function budgetLeft(ctx: Context): number {
  return ctx.limits.maxRules - rulesMade(ctx);
}

function recursive(rule: JoinRule, rels: ReadonlySet<string>): boolean {
  return [...rule.positives, ...rule.negatives].some((a) => rels.has(a.rel));
}

/**
 * Join-tree steps on a rule that has no separate parts: repeatedly eliminate the inner variable
 * whose auxiliary rule is estimated smallest, instantiating it, while that is smaller than the
 * rule's own estimate. Returns the rule left (the input when no step pays).
 */
function eliminateGreedy(ctx: Context, rule: JoinRule, estimate: number, env: SplitEnv): JoinRule {
  let current = rule;
  let size = estimate;
  // From the first step whose heads are tested against the rest on, every step's relation may
  // carry those heads' values (aux-demand.ts, demandRest).
  let tested = false;
  for (let step = 0; size > AUX_SPLIT_ABOVE && step < MAX_STEPS; step++) {
    let best: { aux: JoinRule; rest: NormalRule; e: number; count: number } | null = null;
    const count = env.made.count;
    for (const v of innerVariables(current.source)) {
      env.made.count = count;
      const cut = eliminate(current.source, v, { isStatic: (a) => ctx.statics.has(env.key(a)), fresh: () => `${env.prefix}-${++env.made.count}` });
      if (cut === null) continue;
      const aux = compileRule(cut.aux, ctx.file, ctx.table, env.key);
      const e = ruleEstimate(ctx, aux);
      if (e > budgetLeft(ctx)) continue;
      if (best === null || e < best.e) best = { aux, rest: cut.rest, e, count: env.made.count };
    }
    if (best === null || best.e >= size) {
      env.made.count = count;
      break;
    }
    env.made.count = best.count;
    const same = known(env, best.aux.source);
    if (same === undefined) {
      tested = demandRest(ctx, best.rest, best.aux.head.rel, env.key) || tested;
      if (tested) env.tainted.add(best.aux.head.rel);
      instantiateAux(ctx, env, best.aux.source, best.aux);
    }
    const rest = same === undefined ? best.rest : renameRelation(best.rest, best.aux.head.rel, same);
    current = compileRule(rest, ctx.file, ctx.table, env.key);
    size = ruleEstimate(ctx, current);
  }
  return current;
}

/**
 * Instantiates the auxiliary rules of a split (all of `parts` but the last, each split again
 * when large) and returns the compiled head rule, or null as soon as the parts made so far
 * cannot pay against `estimate`.
 */
function splitParts(ctx: Context, parts: readonly NormalRule[], estimate: number, env: SplitEnv, depth: number, mark: Mark): JoinRule | null {
  let later = [...parts];
  while (later.length > 1) {
    const aux = later[0]!;
    later = later.slice(1);
    const same = known(env, aux);
    if (same !== undefined) {
      later = later.map((r) => renameRelation(r, aux.head.rel, same));
      checkReuse(ctx, later[later.length - 1]!, same, env.key);
      continue;
    }
    const plain = compileRule(aux, ctx.file, ctx.table, env.key);
    let e = ruleEstimate(ctx, plain);
    const compiled = e > AUX_SPLIT_ABOVE ? trySplit(ctx, plain, e, env, depth + 1) : plain;
    if (compiled !== plain) e = ruleEstimate(ctx, compiled);
    // What this part will make, with what the parts before it made, must already pay, and fit
    // the budget (else the rule as written is refused, under its own name, not the part's).
    if ((madeSince(ctx, mark) + e) * SPLIT_GAIN > estimate || e > budgetLeft(ctx)) return null;
    // The head rule (the last part) reads only the aux atoms its filtered heads need (aux-demand.ts).
    demandAux(ctx, later[later.length - 1]!, aux.head.rel, env.key);
    instantiateAux(ctx, env, aux, compiled);
  }
  return compileRule(later[0]!, ctx.file, ctx.table, env.key);
}

/**
 * Tries to split `rule` (estimated at `estimate`): into separate parts and projections when it
 * has them, else by join-tree steps. Instantiates the auxiliary rules and returns the head rule
 * that replaces `rule`, or `rule` itself (everything made rolled back) when no split pays.
 */
function trySplit(ctx: Context, rule: JoinRule, estimate: number, env: SplitEnv, depth: number, gain = depth === 0 ? SPLIT_GAIN : 1): JoinRule {
  if (depth >= MAX_DEPTH) return rule;
  const count = env.made.count;
  const journal = env.journal.length;
  const mark = markOf(ctx);
  const fresh = (): string => `${env.prefix}-${++env.made.count}`;
  const parts = splitRule(rule.source, { isStatic: (a) => ctx.statics.has(env.key(a)), fresh });
  const head = parts === null ? eliminateGreedy(ctx, rule, estimate, env) : splitParts(ctx, parts, estimate, env, depth, mark);
  // A rule of the game must gain a lot; an auxiliary rule (no output to keep) just has to gain.
  if (head !== null && head !== rule && (madeSince(ctx, mark) + ruleEstimate(ctx, head)) * gain < estimate) return head;
  rollBack(ctx, mark);
  env.made.count = count;
  for (const key of env.journal.splice(journal)) {
    const rel = env.memo.get(key)!;
    forgetDemand(ctx, rel);
    env.tainted.delete(rel);
    env.memo.delete(key);
  }
  return rule;
}

/**
 * A rule estimated between the projection threshold and `env.above`: split when
 * {@link splitRule} finds only projections (every auxiliary rule is one atom of the body) and
 * they make {@link PROJECT_GAIN} times fewer ground rules; else the rule as written.
 */
function tryProject(ctx: Context, rule: JoinRule, estimate: number, env: SplitEnv): JoinRule {
  const count = env.made.count;
  const parts = splitRule(rule.source, { isStatic: (a) => ctx.statics.has(env.key(a)), fresh: () => `${env.prefix}-${++env.made.count}` });
  env.made.count = count;
  if (parts === null || parts.slice(0, -1).some((aux) => aux.body.length !== 1)) return rule;
  return trySplit(ctx, rule, estimate, env, 0, PROJECT_GAIN);
}

/**
 * The rules of one component as they are to be instantiated: every non-recursive,
 * state-dependent rule estimated above `env.above` (above `env.above` / {@link PROJECT_SHARE}
 * for a projection) is replaced by the head rule of a split that pays, its auxiliary relations
 * instantiated on the way (before the component itself).
 * Candidates are tried in the order of their text (variables renamed), not of the file, so
 * that the auxiliary names, numbered as made, do not depend on the order of the sentences.
 */
export function splitLargeRules(ctx: Context, rules: readonly JoinRule[], rels: ReadonlySet<string>, env: SplitEnv): JoinRule[] {
  const projectAbove = env.above / PROJECT_SHARE;
  const above = Math.min(projectAbove, env.frameAbove);
  if (!Number.isFinite(above)) return [...rules];
  const plain = rules.filter((rule) => !ctx.statics.has(rule.head.rel) && !recursive(rule, rels));
  // Frame rules the recheck over the pruned game's supersets might rewrite (frame-run.ts).
  env.frame.candidates += plain.filter((rule) => frameCandidate(ctx, rule, env)).length;
  const large = plain
    .map((rule) => ({ rule, estimate: ruleEstimate(ctx, rule), text: `${rule.head.rel} ${auxKey(rule.source)}` }))
    .filter((c) => c.estimate > above)
    .sort((a, b) => compareCodePoints(a.text, b.text));
  // A frame rule is rewritten with move mutexes (frame-run.ts) when that pays, else split.
  const rewrite = (c: { rule: JoinRule; estimate: number }): JoinRule =>
    (c.estimate > env.frameAbove ? tryFrame(ctx, c.rule, c.estimate, env, env.frame) : null)
    ?? (c.estimate > env.above ? trySplit(ctx, c.rule, c.estimate, env, 0)
      : c.estimate > projectAbove ? tryProject(ctx, c.rule, c.estimate, env) : c.rule);
  const replaced = new Map(large.map((c) => [c.rule, rewrite(c)]));
  return rules.map((rule) => replaced.get(rule) ?? rule);
}
