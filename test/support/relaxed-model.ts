/**
 * A second engine for tests (datafrog's differential testing): the least model of the relaxed
 * game (what Algorithm 9.2 computes, section 9.1.2) on the Datalog core instead of Tau-Prolog,
 * restricted to what grounding needs: relevance first. The pipeline runs Algorithm 9.2 in
 * Tau-Prolog (the primary method); test/explode.test.ts holds the two against each other.
 * Only the relations that true, does, legal and next depend on are evaluated (the relaxed
 * program drops negative literals and goal/terminal rules, so nothing else can add a fluent or
 * a move); the axioms of every other relation are left to instantiation, which derives them
 * over the same fluents and moves. The relaxed program and the bridges
 *
 *   true(F) <= init(F)      true(F) <= next(F)      does(R, M) <= legal(R, M)
 *
 * are one positive program, evaluated component by component with the core's semi-naive
 * fixpoint, so the fluents and moves equal the Prolog method's, and so do the axioms of the
 * relations it evaluates. A term nested deeper than the limit means the relaxed game is
 * infinite, as in the Prolog method.
 */
import { TEST_REACH_LIMITS } from './context.js';
import { GdlError, diag } from '../../src/gdl/diagnostics.js';
import type { NormalGame, NormalRule } from '../../src/normalize/types.js';
import { TermTable } from '../../src/datalog/terms.js';
import { StageTimer } from '../../src/timer.js';
import { collectSupersets } from '../../src/reach/dg/index.js';
import { evalContext } from '../../src/reach/dg/eval.js';
import { createGuard } from '../../src/reach/dg/guard.js';
import { evaluateStatics } from '../../src/reach/dg/statics.js';
import { DEFAULT_MAX_TERM_DEPTH } from '../../src/reach/prolog.js';
import { BRIDGE_RULES } from '../../src/reach/relaxation.js';
import { keyOf, planRelaxedGame, relevantComponents } from '../../src/reach/relaxed.js';
import { type ReachLimits, type ReachResult } from '../../src/reach/types.js';

/** The relaxed rules of the components fluents and moves depend on, with their bridges. */
function relevantRules(game: NormalGame): NormalRule[] {
  const plan = planRelaxedGame(game);
  const wanted = relevantComponents(plan.components);
  const rules: NormalRule[] = [];
  const keys = new Set<string>();
  plan.components.forEach((c, i) => {
    if (!wanted.has(i)) return;
    rules.push(...c.rules);
    for (const k of c.relations) keys.add(k);
  });
  return [...rules, ...BRIDGE_RULES.filter((b) => keys.has(keyOf(b.head)))];
}

/**
 * Nesting depth of term `id` (a constant is 1), memoized: terms are shared, so each is
 * measured once. Iterative, over an explicit stack.
 */
function depthOf(table: TermTable, memo: Map<number, number>, id: number): number {
  const stack = [id];
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (memo.has(top)) {
      stack.pop();
      continue;
    }
    const missing = table.args(top).filter((a) => !memo.has(a));
    if (missing.length > 0) {
      stack.push(...missing);
      continue;
    }
    stack.pop();
    memo.set(top, 1 + Math.max(0, ...table.args(top).map((a) => memo.get(a)!)));
  }
  return memo.get(id)!;
}

/**
 * Fluents, moves and the axioms of the relations they depend on, as the Prolog method finds
 * them (the relations it leaves out are missing from `axioms`). Throws GdlError 'limit' when
 * `limits` are exceeded or a term nests deeper than `maxTermDepth`.
 */
export function relevantSupersets(game: NormalGame, limits: ReachLimits = TEST_REACH_LIMITS, maxTermDepth = DEFAULT_MAX_TERM_DEPTH): ReachResult {
  const timer = new StageTimer();
  const table = new TermTable();
  const guard = createGuard(game.file, limits, 'relaxed game');
  const ctx = evalContext(table, guard);
  const rules = relevantRules(game);
  const memo = new Map<number, number>();
  const model = timer.run('fixpoint', () => evaluateStatics(ctx, rules, (id) => {
    // An atom is one level more than its arguments; the limit is on the arguments.
    if (depthOf(table, memo, id) - 1 <= maxTermDepth) return;
    const message = `has instances with terms nested deeper than ${maxTermDepth} levels: the relaxed game is infinite`;
    throw new GdlError([diag('error', game.file, guard.pos, `relation '${guard.what}' ${message}`)], 'limit');
  }));
  const supersets = timer.run('collect', () => collectSupersets(ctx, model));
  const kept = supersets.fluents.length + supersets.moves.length + supersets.axioms.length;
  return { supersets, stats: { method: 'prolog', iterations: 0, answers: kept, kept, times: timer.list().map((r) => ({ step: r.stage, ms: r.ms })) } };
}
