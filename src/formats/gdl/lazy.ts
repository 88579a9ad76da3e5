/**
 * The lazy part of a ground game (docs/lazy.md) as text: its non-ground rules and the static
 * facts they read, as ordinary GDL after the ground rules, so that any GDL reader (our
 * `verify`, the oracles, a player) reads the output as one game.
 */
import { atomToString, termToString } from '../../gdl/terms.js';
import type { Literal, NormalRule } from '../../normalize/types.js';
import type { GroundGame, LazyPart } from '../../ground/types.js';
import { lazyInputAtoms } from '../../ground/atoms.js';

function literalText(l: Literal): string {
  if (l.kind === 'pos') return atomToString(l.atom);
  if (l.kind === 'neg') return `(not ${atomToString(l.atom)})`;
  return `(distinct ${termToString(l.left)} ${termToString(l.right)})`;
}

/** A normalized rule as KIF text on one line. */
function normalRuleText(r: NormalRule): string {
  const head = atomToString(r.head);
  return r.body.length === 0 ? head : `(<= ${head} ${r.body.map(literalText).join(' ')})`;
}

/** The comment line that says which relations are lazy. */
function lazyComment(lazy: LazyPart): string {
  return `; lazy axioms: ${lazy.relations.join(' ')} stay non-ground (${lazy.rules.length} rules, ${lazy.facts.length} static facts follow)`;
}

/**
 * The lines of the lazy part: the comment, the static facts (sorted by text; `role` facts
 * are written at the top already) and the non-ground rules in source order.
 */
export function lazyLines(game: GroundGame): string[] {
  const lazy = game.lazy;
  if (lazy === undefined) return [];
  const { terms } = game;
  const facts = lazy.facts.filter((t) => terms.name(t) !== 'role').map((t) => terms.text(t));
  return [lazyComment(lazy), ...facts, ...lazy.rules.map(normalRuleText)];
}

/** The lazy part for the JSON output: relations, heads, facts and rules as text. */
export function lazyJson(game: GroundGame): unknown {
  const lazy = game.lazy!;
  const text = (t: number): string => game.terms.text(t);
  return { relations: lazy.relations, heads: lazy.heads.map(text), facts: lazy.facts.map(text), rules: lazy.rules.map(normalRuleText) };
}

/** The `--stats` line of a game with lazy axioms (undefined without): relations, non-ground rules, opaque atoms, possible heads. */
export function lazyStatsLine(game: GroundGame): string | undefined {
  const lazy = game.lazy;
  if (lazy === undefined) return undefined;
  const inputs = lazyInputAtoms(game).length;
  const rels = lazy.relations.length === 0 ? 'none (only rules)' : lazy.relations.join(' ');
  return `lazy: relations ${rels}; ${lazy.rules.length} non-ground rules, ${lazy.facts.length} static facts, ${inputs - lazy.heads.length} lazy atoms, ${lazy.heads.length} atoms lazy rules may make`;
}
