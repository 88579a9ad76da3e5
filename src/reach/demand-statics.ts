/**
 * Static relations asked for, not derived whole, by the superset stage of a grounding (issue 27,
 * docs/corpus.md "gt18"). Instantiation evaluates every static relation exactly itself and
 * never reads its superset (src/ground/instantiate.ts drops a static relation's instances), so
 * the stage needs a static relation only for what the relevant relations (those the loop of
 * Algorithm 9.2 reads) ask of it. gt_two_thirds_6p's `guessableNumber` reads `(lte ?n 100)`,
 * and the plain run derived all 180,901 instances of `lte` in Tau-Prolog (half of the stage's
 * time, 50 MiB of its peak) where 5,151 answer the call.
 *
 * The rewrite is src/reach/magic.ts's with static seeds, over the relevant relations' rules only
 * (a caller outside them, `lt` there, reads `lte` whole, but the stage never evaluates it, and
 * instantiation evaluates `lte` itself). Demanded are the relations that are demandable there,
 * free of the state in the relaxed game and static in instantiation (not depending on `true` or
 * `does`, negation included, nor on a relation that negates its own component). A relation
 * asked somewhere with no bound argument, or from a caller's literals rather than its constants,
 * is left plain (its magic relation may ask for most of it, and cost the run more than it cuts:
 * see `asksConstants`), until none is.
 */
import type { Atom } from '../gdl/ast.js';
import { dependents, relationGraph } from '../gdl/relations.js';
import { type NormalGame, type NormalRule, asRule } from '../normalize/types.js';
import { isGround } from '../gdl/terms.js';
import { demandableRelations, magicGame, magicParts, stateFreeRelations } from './magic.js';
import { type RelaxedPlan, keyOf, planRelaxedGame, relevantComponents } from './relaxed.js';

/** The relevant relations' rules rewritten, and the static relations (keys `name/arity`) demanded. */
interface StaticDemand {
  readonly game: NormalGame;
  readonly relations: readonly string[];
}

/**
 * The relations (keys `name/arity`) that instantiation evaluates exactly in `game` when no
 * relation is lazy: those depending on neither `true` nor `does`, less every one that depends
 * on a relation negating its own component (instantiate.ts, `staticRelations`).
 */
function exactStatics(game: NormalGame): Set<string> {
  const graph = relationGraph(game.rules.map(asRule));
  const dynamic = dependents(graph.edges, ['true', 'does']);
  const statics = new Set(graph.relations.filter((r) => !dynamic.has(r) && r !== 'true' && r !== 'does'));
  const comp = graph.component;
  const demoted = graph.edges.filter((e) => e.negative && statics.has(e.to) && comp.get(e.from) === comp.get(e.to)).map((e) => e.to);
  for (const r of [...demoted, ...dependents(graph.edges, demoted)]) statics.delete(r);
  const out = new Set<string>();
  const note = (a: Atom): void => {
    if (statics.has(graph.key(a))) out.add(keyOf(a));
  };
  for (const r of game.rules) {
    note(r.head);
    for (const l of r.body) if (l.kind !== 'distinct') note(l.atom);
  }
  return out;
}

/** The rules of `game` (relaxed as `plan`) whose head is a relevant relation (the only ones a grounding's run evaluates). */
function relevantRules(game: NormalGame, plan: RelaxedPlan): NormalGame {
  const wanted = relevantComponents(plan.components);
  const relevant = new Set<string>();
  plan.components.forEach((c, i) => {
    if (wanted.has(i)) for (const k of c.relations) relevant.add(k);
  });
  return { file: game.file, rules: game.rules.filter((r) => relevant.has(keyOf(r.head))) };
}

/**
 * Whether magic rule `r` (its relation adorned `adornment`) asks for a sliver: some argument
 * bound, and either a ground tuple (a caller's constants, `(lte ?n 100)`) or one read from a
 * magic relation (the demanded relations' own calls). A seed from a caller's state-free
 * literals may ask for most of the relation (the checkers games' `kingjump`, chess's
 * `knight_move`: the run took 1.3-2 times the plain run's time, for no instance fewer).
 */
function asksConstants(r: NormalRule, adornment: string): boolean {
  if (!adornment.includes('b')) return false;
  if (r.body.length === 0) return r.head.args.every(isGround);
  return r.body.some((l) => l.kind === 'pos' && magicParts(l.atom.rel) !== undefined);
}

/**
 * The static demand of `game` (see the module comment), or undefined when no static relation
 * is asked for with a bound argument by every call (the plain run is then the one to make).
 * `plan`: the game's relaxed plan, when the caller has it.
 */
export function staticDemand(game: NormalGame, plan: RelaxedPlan = planRelaxedGame(game)): StaticDemand | undefined {
  const sub = relevantRules(game, plan);
  const exact = exactStatics(game);
  // One plan for both questions about `sub` (each made its own: 24 ms a plan on FRED).
  const subPlan = planRelaxedGame(sub);
  const stateFree = stateFreeRelations(sub, subPlan);
  let chosen = new Set([...demandableRelations(sub, subPlan)].filter((k) => stateFree.has(k) && exact.has(k)));
  while (chosen.size > 0) {
    const rewritten = magicGame(sub, chosen, stateFree);
    const plain = new Set<string>();
    for (const r of rewritten.rules) {
      const m = magicParts(r.head.rel);
      if (m !== undefined && !asksConstants(r, m.adornment)) plain.add(`${m.rel}/${m.adornment.length}`);
    }
    if (plain.size === 0) return { game: rewritten, relations: [...chosen].sort() };
    chosen = new Set([...chosen].filter((k) => !plain.has(k)));
  }
  return undefined;
}
