/**
 * Move mutexes for frame rules during instantiation (docs/ground.md, "Frame rules"): a rule
 * estimated above the frame threshold and shaped like a frame rule ({@link frameRule}) is
 * replaced by its `moved` and `touched` rules, instantiated at once, and a head rule reading
 * them, but only when that pays: the ground rules made plus the head rule's estimate must be
 * {@link FRAME_GAIN} times fewer than the rule's own estimate; otherwise everything made is
 * rolled back and the rule goes on to rule splitting (split-run.ts) as before.
 */
import type { Atom } from '../gdl/ast.js';
import { checkDeadline } from '../gdl/diagnostics.js';
import type { Deadline } from '../deadline.js';
import type { NormalGame, NormalRule } from '../normalize/types.js';
import type { Supersets } from '../reach/types.js';
import { supersetSizes } from '../reach/handover.js';
import { compileRule, type JoinRule } from './compile.js';
import { evaluateComponent, ruleBound, ruleEstimate } from './evaluate.js';
import { type Context, type Mark, madeSince, markOf, rollBack, rulesMade } from './run-context.js';
import { frameRule, keepsFluent } from './frame.js';
import { finalSupersets } from './reachability.js';
import type { GroundGame } from './types.js';
import type { FrameStats, SplitEnv } from './split-env.js';

/**
 * Default frame threshold: rules estimated above this many bindings are tried. Breakthrough's
 * frame rule is estimated at 44,352, checkers' at 4.9 to 7.5×10⁵, chess's at 6×10⁶
 * (docs/ground.md, "Frame rules"); below it a rule costs the join little, and every game whose
 * rules all stay below grounds to the same bytes as before. Both methods decide alike at any
 * threshold: the decision is made again over the supersets read back from the pruned game
 * ({@link sharedSupersets}; docs/ground.md, "One decision for both methods").
 */
export const DEFAULT_FRAME_ABOVE = 10_000;

/** A rewrite is kept only when it makes at least this many times fewer ground rules. */
const FRAME_GAIN = 4;


/**
 * Whether `rule` is a frame rule ({@link frameRule} gives a rewrite) whose bound
 * ({@link ruleBound}, which only shrinks with the stores) is above the frame threshold: a rule
 * that is not could not be rewritten over smaller supersets either.
 */
export function frameCandidate(ctx: Context, rule: JoinRule, env: SplitEnv): boolean {
  // The shape first: it is a syntactic test, and most rules (no `does`) fail it at once, while
  // the bound prepares the rule's join.
  // The names are only looked at, not made: the rewrite is thrown away.
  const probe = { isStatic: (a: Atom) => ctx.statics.has(env.key(a)), isLazy: (a: Atom) => ctx.lazy?.has(env.key(a)) === true, fresh: () => `${env.prefix}-0` };
  return frameRule(rule.source, probe) !== null && ruleBound(ctx, rule) > env.frameAbove;
}

/**
 * Tries the frame rewrite of `rule` (estimated at `estimate`): evaluates its domain (static),
 * instantiates its `moved` and `touched` relations and returns the compiled head rule that
 * replaces `rule`, or null when the rule has not the shape or the rewrite does not pay (all
 * made then rolled back, the new relations' stores and names included, so that a game where
 * no rewrite is kept grounds to the same bytes as without the rewrite).
 */
export function tryFrame(ctx: Context, rule: JoinRule, estimate: number, env: SplitEnv, stats: FrameStats): JoinRule | null {
  const count = env.made.count;
  const fresh = (): string => `${env.prefix}-${++env.made.count}`;
  const isStatic = (a: Atom): boolean => ctx.statics.has(env.key(a));
  const rewrite = frameRule(rule.source, { isStatic, isLazy: (a) => ctx.lazy?.has(env.key(a)) === true, fresh });
  // Rewritten, a rule that fails keepsFluent could make the supersets read back depend on the
  // method: it waits for the run over the read-back supersets (docs/ground.md), unless its head
  // is `(next F)` and the run may rewrite early (the read-back then reads it as written).
  const early = !env.frameShared && !keepsFluent(rule.source);
  if (rewrite === null || (early && !(env.frameNext && nextHead(rule.source)))) {
    if (rewrite !== null) stats.deferred++;
    env.made.count = count;
    return null;
  }
  const mark = markOf(ctx);
  const made = [rewrite.dom, rewrite.moved, ...rewrite.touched].flatMap((r) => (r === null ? [] : [r.head.rel]));
  const fail = (): null => {
    forget(ctx, mark, new Set(made));
    env.made.count = count;
    return null;
  };
  const compile = (r: NormalRule): JoinRule => compileRule(r, ctx.file, ctx.table, env.key);
  if (rewrite.dom !== null) {
    // A static relation: evaluated exactly, its atoms vanish from the rules that read it.
    ctx.statics.add(rewrite.dom.head.rel);
    evaluateComponent(ctx, [compile(rewrite.dom)], new Set([rewrite.dom.head.rel]));
  }
  // Both groups are estimated before either is made: neither reads the other, so the estimates
  // are the same before and after, and a group over the budget left now is over it after the
  // other is made too. amazons' touched group (every move times every cell, 1.7×10⁷) failed only
  // after its moved group's 173,960 rules were made and rolled back (0.2 s of 5).
  // A touched rule's body starts with the move (frame.ts touchedBody): read first, each move is
  // tested against the cells once per value of the move's variables the tests read (join-memo.ts).
  // (Compiled in the order as before, the moved rule first: compiling interns the rules' terms.)
  const moved = [compile(rewrite.moved)];
  const touched = rewrite.touched.map((r): JoinRule => ({ ...compile(r), lead: 0 }));
  const groups = [moved, touched].filter((g) => g.length > 0).map((compiled) => {
    return { compiled, e: compiled.reduce((sum, r) => sum + ruleEstimate(ctx, r), 0) };
  });
  if (groups.some((g) => g.e > ctx.limits.maxRules - rulesMade(ctx))) return fail();
  for (const { compiled, e } of groups) {
    // The estimate ignores the tests, which are most of a touched rule: only the budget is
    // checked before, what the rules made must pay after.
    if (e > ctx.limits.maxRules - rulesMade(ctx)) return fail();
    evaluateComponent(ctx, compiled, new Set([compiled[0]!.head.rel]));
    if (madeSince(ctx, mark) * FRAME_GAIN >= estimate) return fail();
  }
  const head = compile(rewrite.head);
  const total = madeSince(ctx, mark) + ruleEstimate(ctx, head);
  if (total * FRAME_GAIN >= estimate) return fail();
  stats.rules++;
  stats.estimated += estimate;
  stats.made += total;
  if (early) stats.early.push({ moved: rewrite.moved.head.rel, touched: rewrite.touched[0]?.head.rel ?? null });
  return head;
}

/**
 * Whether the head of `rule` is `(next F)`: no rule reads `next`, and its atoms are filtered by
 * the fluents, so a rewrite made early changes no store but its own relations' (frame-reach.ts).
 */
function nextHead(rule: NormalRule): boolean {
  return rule.head.rel === 'next' && rule.head.args.length === 1;
}

/**
 * The supersets the frame rewrites are decided again over (docs/ground.md, "One decision for
 * both methods"): those read back from the pruned ground `game` (the same whichever method gave
 * `supersets`, see frame.ts on the `next` head), without the atoms of auxiliary relations, whose
 * names the new run gives again, maybe to other rules. `reached`: the atoms of `game` read as
 * reachable, when not its own ground reachability's (an unpruned game with early frame
 * rewrites read as the rules they replaced, frame-reach.ts).
 */
export function sharedSupersets(normal: NormalGame, supersets: Supersets, game: GroundGame, deadline: Deadline, reached?: Uint8Array): Supersets {
  const final = finalSupersets(normal, supersets, game, deadline, reached);
  const rels = new Set(normal.rules.map((r) => r.head.rel));
  return { ...final, axioms: final.axioms.filter((a) => rels.has(a.rel)) };
}

/**
 * Whether the supersets read back from `pruned` (instantiated over `first`, hence within it)
 * have all the fluents and moves of `first`. Then instantiating over them would give the first
 * run again: every atom the rules derive from those fluents and moves is reachable, so read
 * back, and the stores, estimates and decisions are the same (docs/ground.md). The Prolog
 * method's supersets are mostly such (its relaxed game is the one ground reachability walks).
 * Found without reading back the axioms, most of that work (amazonsTorus: 1.2M axioms, 5 s):
 * the fluents and moves of the vocabulary of `pruned` (one entry per term, and terms are
 * interned, so entries are as distinct as texts), counted against those of `first`.
 */
export function keepsFluentsAndMoves(pruned: GroundGame, first: Supersets, deadline: Deadline): boolean {
  // Every atom of a pruned game is reachable (pruneUnreachable keeps no other), so its
  // vocabulary's fluents and moves are the ones read back.
  checkDeadline(deadline, pruned.file, 'reading the supersets back');
  const { fluents, moves } = pruned.vocabulary;
  // The supersets are free of duplicates (their contract, reach/types.ts), so their lengths
  // count them: no term is looked up or printed (amazonsTorus: 259,202 moves, 0.2 s as strings).
  // Were one listed twice, the answer would be false: the slower way to the same game. Handed
  // over as term ids, they are counted by their ids, without building their arrays.
  const sizes = supersetSizes(first);
  return fluents.length === sizes.fluents && moves.length === sizes.moves;
}

/**
 * Rolls back to `mark` and forgets the relations `rels` made since: their stores, the blocks
 * over them and their static mark, so that their names can be given again to new relations.
 */
function forget(ctx: Context, mark: Mark, rels: ReadonlySet<string>): void {
  rollBack(ctx, mark);
  for (const rel of rels) {
    ctx.stores.delete(rel);
    ctx.statics.delete(rel);
  }
  for (const [key, block] of ctx.blocks) if (rels.has(block.store.rel)) ctx.blocks.delete(key);
}
