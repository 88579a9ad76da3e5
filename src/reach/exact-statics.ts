/**
 * Which static relations the superset stage derives exactly, so that instantiation can take
 * their facts instead of deriving them again (issue 27, docs/corpus.md stat26: kalaha_2009's
 * `plus`, 20,301 facts over 202 rounds in Tau-Prolog, then again whole in the Datalog core).
 *
 * The relaxed game (src/reach/relaxed.ts) differs from the game only by its dropped negative
 * literals (and its dropped goal, terminal, base and input rules, which no kept rule reads):
 * subsumed rules and eliminated parts leave each relation's least model as it is. So a relation that no
 * negative literal reaches, neither in its own rules nor in those of any relation it reads,
 * transitively, has the same least model in both: its facts after its component ran in
 * Algorithm 9.2 are exactly the facts instantiation derives for it (the perfect model of a
 * negation-free program is its least model).
 */
import type { NormalGame } from '../normalize/types.js';
import { dependents } from '../gdl/relations.js';
import { keyOf } from './relaxed-rule.js';

/**
 * The relation keys (`name/arity`) of `game` whose least model the relaxation leaves as it is:
 * no rule of theirs, nor of a relation they read (transitively), has a negative literal.
 */
export function negationFree(game: NormalGame): Set<string> {
  const edges: { from: string; to: string }[] = [];
  const heads = new Set<string>();
  const negated = new Set<string>();
  for (const r of game.rules) {
    const head = keyOf(r.head);
    heads.add(head);
    for (const l of r.body) {
      if (l.kind === 'neg') negated.add(head);
      else if (l.kind === 'pos') edges.push({ from: keyOf(l.atom), to: head });
    }
  }
  const tainted = dependents(edges, [...negated]);
  for (const rel of negated) tainted.add(rel);
  return new Set([...heads].filter((rel) => !tainted.has(rel)));
}
