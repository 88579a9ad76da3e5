/**
 * Algorithm 9.2 (section 9.1.2) as the thesis writes it, on Tau-Prolog: `--method prolog-plain`.
 * The loop is prolog/alg92.pl (embedded in alg92-text.ts), run by Prolog itself over the relaxed
 * game loaded as clauses: query legal, assert the new does; query next, assert the new true;
 * until nothing is new; then query every axiom. Relations of recursive components are closed
 * bottom-up in Prolog (the header of prolog/alg92.pl says why). No optimization of the
 * `prolog` method (prolog.ts) is used beyond the relaxed rules themselves; the supersets are
 * the same least model, reached more slowly.
 */
import type { Atom } from '../gdl/ast.js';
import { KEYWORDS, NO_POS } from '../gdl/ast.js';
import { EngineLimitError, type PrologEngine, type TauTerm, createEngine, fromTau, tauArgs, tauName } from '../engine/tau.js';
import { prologText } from '../engine/prolog-text.js';
import { deadlineLimit, relationLimitError } from '../gdl/diagnostics.js';
import { relationComponents } from '../gdl/relations.js';
import { sortByCodePoints } from '../gdl/terms.js';
import type { NormalGame } from '../normalize/types.js';
import { StageTimer } from '../timer.js';
import { ALG92_PROLOG } from './alg92-text.js';
import { PLAIN_PREFIX, plainClauseParts, plainRelation } from './clauses.js';
import { refuseDeepTerms } from './depth.js';
import { invalidError, limitError } from './failures.js';
import { DEFAULT_MAX_TERM_DEPTH } from './prolog.js';
import { type RelaxedPlan, type RelaxedRule, keyOf, planRelaxedGame } from './relaxed.js';
import type { PlainCounts, ReachLimits, ReachResult, Supersets } from './types.js';


/**
 * Algorithm 9.2 by prolog/alg92.pl on Tau-Prolog: supersets equal to the least model of the
 * relaxed game (those of the `prolog` method). Throws GdlError with code 'limit' when the
 * deadline, the atom budget or the term depth is exceeded, 'invalid' on a non-ground fact.
 */
export function computeSupersetsPlain(game: NormalGame, limits: ReachLimits): ReachResult {
  const timer = new StageTimer();
  const maxDepth = limits.maxTermDepth ?? DEFAULT_MAX_TERM_DEPTH;
  refuseDeepTerms(game, maxDepth);
  const plan = planRelaxedGame(game);
  const engine = timer.run('load', () => {
    const e = createEngine({ deadline: limits.deadline });
    e.consult(ALG92_PROLOG);
    e.consult(gameProgram(plan, maxDepth, limits.maxAtoms));
    return e;
  });
  const counts = timer.run('alg92', () => runAlgorithm(game, plan, engine, limits));
  const supersets = timer.run('collect', () => collect(engine));
  // Answers: what the queries of lines 11, 16 and 23 kept after sort/2 (the plain program does
  // not count duplicates); kept: the facts asserted, the same.
  const kept = counts.moves + counts.fluents + counts.axioms;
  return { supersets, stats: { method: 'prolog-plain', iterations: counts.iterations, answers: kept, kept, times: timer.steps(), plain: counts } };
}

/**
 * The relaxed game for prolog/alg92.pl: clauses of non-recursive relations, `alg92_rule`
 * facts for the recursive ones, one `alg92_axiom_goal` per non-keyword relation, the limits.
 */
function gameProgram(plan: RelaxedPlan, maxDepth: number, maxAtoms: number): string {
  const recursive = recursiveRelations(plan);
  const lines: string[] = [`alg92_limits(${maxDepth}, ${maxAtoms}).`];
  for (const comp of plan.components) {
    for (const r of comp.rules) {
      if (recursive.has(keyOf(r.head))) lines.push(...closureRuleTexts(r, comp.stateDependent, recursive));
      else lines.push(clauseText(r));
    }
  }
  for (const r of plan.relations.values()) {
    if (KEYWORDS.has(r.rel)) continue;
    const vars = Array.from({ length: r.arity }, () => '_');
    lines.push(`alg92_axiom_goal(${r.arity === 0 ? plainRelation(r.rel) : `${plainRelation(r.rel)}(${vars.join(',')})`}).`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Relations in recursive components of the rules alone: the loop's copies next -> true and
 * legal -> does are not edges here, since the loop of lines 9-20 is what iterates over them.
 */
function recursiveRelations(plan: RelaxedPlan): Set<string> {
  const edges = plan.components.flatMap((c) => c.rules.flatMap((r) => r.body.flatMap((l) => (l.kind === 'pos' ? [{ from: keyOf(l.atom), to: keyOf(r.head) }] : []))));
  return new Set(relationComponents(plan.relations.keys(), edges).filter((c) => c.recursive).flatMap((c) => c.members));
}

/** The head and body goals of a rule as Prolog text. */
function ruleParts(r: RelaxedRule): { head: string; body: string[] } {
  // Variables named _V0, _V1, ...: Tau-Prolog warns of singletons unless a name starts with _.
  return plainClauseParts(r, (t, v) => prologText(t, v, '_V'));
}

/** A rule of a relation that is not recursive, as a clause `head :- body.` */
function clauseText(r: RelaxedRule): string {
  const { head, body } = ruleParts(r);
  return body.length === 0 ? `${head}.` : `${head} :- ${body.join(', ')}.`;
}

/**
 * A rule of a recursive relation for the closure of prolog/alg92.pl: `alg92_rule(Kind, Head,
 * Body)` (Kind `state` when its component depends on true or does), and one
 * `alg92_delta_rule(Head, Literal, Rest)` per body literal of a recursive relation: the
 * semi-naive variant that reads that literal from the last round's new facts, the rest (in the
 * rule's order) from all facts.
 */
function closureRuleTexts(r: RelaxedRule, stateDependent: boolean, recursive: ReadonlySet<string>): string[] {
  const { head, body } = ruleParts(r);
  const conj = (goals: readonly string[]): string => (goals.length === 0 ? 'true' : goals.join(', '));
  const lines = [`alg92_rule(${stateDependent ? 'state' : 'static'}, ${head}, (${conj(body)})).`];
  r.body.forEach((l, i) => {
    if (l.kind !== 'pos' || !recursive.has(keyOf(l.atom))) return;
    lines.push(`alg92_delta_rule(${head}, ${body[i]}, (${conj(body.filter((_, j) => j !== i))})).`);
  });
  return lines;
}

/** Runs `alg92(Stats)`; its stops (alg92_stopped/1) and the deadline become GdlErrors. */
function runAlgorithm(game: NormalGame, plan: RelaxedPlan, engine: PrologEngine, limits: ReachLimits): PlainCounts {
  let stats: TauTerm | undefined;
  try {
    engine.solve('alg92(S)', ['S'], ([s]) => { stats = s; });
  } catch (err) {
    if (err instanceof EngineLimitError) {
      throw relationLimitError(game.file, NO_POS, '', `Algorithm 9.2 (plain): ${limits.deadline.describe()}`, deadlineLimit(limits.deadline));
    }
    // Tau-Prolog walks lists recursively in JavaScript: findall over some 10^5 answers
    // overflows its stack. A limit of the plain method, as memory, not a bug of the game.
    if (err instanceof RangeError) {
      throw relationLimitError(game.file, NO_POS, '', `Algorithm 9.2 (plain): Tau-Prolog's stack overflowed (${err.message}): a query has too many answers for findall`, { kind: 'memory' });
    }
    let stopped: TauTerm | undefined;
    engine.solve('alg92_stopped(E)', ['E'], ([e]) => { stopped = e; });
    throw stopped === undefined ? err : failure(game, plan, stopped, limits);
  }
  if (stats === undefined) throw new Error('prolog/alg92.pl: alg92/1 failed');
  const [iterations, moves, fluents, axioms, closureRounds] = tauArgs(stats).map((t) => Number(tauName(t)));
  return { iterations: iterations!, moves: moves!, fluents: fluents!, axioms: axioms!, closureRounds: closureRounds! };
}

/** The GdlError for a stop of prolog/alg92.pl: alg92_limit(Kind, Relation) or alg92_nonground(Fact). */
function failure(game: NormalGame, plan: RelaxedPlan, thrown: TauTerm, limits: ReachLimits): Error {
  const [first, second] = tauArgs(thrown);
  if (tauName(thrown) === 'alg92_nonground') {
    return invalidError(game.file, NO_POS, `Algorithm 9.2 (plain): a rule derives the non-ground fact ${tauName(first!).slice(PLAIN_PREFIX.length)}`);
  }
  const kind = tauName(first!) === 'depth' ? 'depth' : 'atoms';
  const name = tauName(second!).replace(/^r:/, '').replace(/^alg92_reach_axiom$/, '');
  const what = kind === 'depth' ? `has a term nested deeper than ${limits.maxTermDepth ?? DEFAULT_MAX_TERM_DEPTH} levels` : `reached the budget of ${limits.maxAtoms} ground atoms in all`;
  return limitError(game.file, plan, { rel: name, arity: 0 }, `${what} (Algorithm 9.2, plain)`, { kind });
}

/** Line 26: the three supersets, read off the asserted facts and sorted by KIF text. */
function collect(engine: PrologEngine): Supersets {
  const fluents: { text: string; t: TauTerm }[] = [];
  engine.solve(`${plainRelation('true')}(X)`, ['X'], ([x]) => fluents.push({ text: engine.kif(x!).text, t: x! }));
  const moves: { text: string; r: TauTerm; m: TauTerm }[] = [];
  engine.solve(`${plainRelation('does')}(R, M)`, ['R', 'M'], ([r, m]) => moves.push({ text: `${engine.kif(r!).text} ${engine.kif(m!).text}`, r: r!, m: m! }));
  const axioms: { text: string; a: TauTerm }[] = [];
  engine.solve('alg92_reach_axiom(A)', ['A'], ([a]) => {
    const args = tauArgs(a!);
    const name = tauName(a!).slice(PLAIN_PREFIX.length);
    axioms.push({ text: args.length === 0 ? name : `(${name} ${args.map((x) => engine.kif(x).text).join(' ')})`, a: a! });
  });
  return {
    fluents: sortByCodePoints(fluents, (f) => f.text).map((f) => fromTau(f.t)),
    moves: sortByCodePoints(moves, (m) => m.text).map((m) => ({ role: fromTau(m.r), action: fromTau(m.m) })),
    axioms: sortByCodePoints(axioms, (x) => x.text).map((x): Atom => ({ kind: 'atom', rel: tauName(x.a).slice(PLAIN_PREFIX.length), args: tauArgs(x.a).map(fromTau), pos: NO_POS })),
  };
}
