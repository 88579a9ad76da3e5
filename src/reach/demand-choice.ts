/**
 * Which relations the superset stage demands when the game has no accumulator (issue 33,
 * docs/reach.md, "Demand where the callers pass constants"): those whose callers, all of them,
 * can ask for only a sliver of what the relaxed game derives.
 *
 * crisscross's `count/6` is derived by 13 rules for every four cells, every player and payoff
 * (830,457 instances, 15-18 s of the stage), and called only by `stones`, with five constants:
 * `(count e3 e4 f3 f4 red ?payoff)`. The magic-sets rewrite of that one relation derives 203
 * axioms in 0.2 s. The choice is made before the run, from the argument dependency graph of the
 * game (Definition 9.3, docs/dg.md: domains of argument positions, statics not evaluated, cheap):
 *
 *   full(p)  = Π over p's argument positions of the size of the position's domain
 *   asked(p) = Σ over every positive body literal p(t̄) of the game (callers, and p's own rules)
 *                of Π over its arguments t_i that are not ground of the size of p's position i
 *
 * asked(p) bounds what demand can derive of p (a ground argument asks for one value; any other
 * is counted as if it asked for its whole domain, whichever of its variables end up bound), and
 * full(p) is what the relaxed game may derive. A demandable relation (src/reach/magic.ts) is
 * chosen when full(p) is at least {@link MIN_FULL} and asked(p) at most full(p) / {@link RATIO}.
 * Only the chosen relations are rewritten (`magicGame(game, chosen)`), so a game pays for no
 * magic relation it does not gain from: with constants in the calls, each magic relation holds
 * one fact per call.
 */
import type { Term } from '../gdl/ast.js';
import { isGround } from '../gdl/terms.js';
import type { NormalGame } from '../normalize/types.js';
import { domainSizesOf } from './domain-sizes.js';
import type { DomainSizes } from './run.js';
import { keyOf } from './relaxed-rule.js';

/**
 * Smallest product of a relation's argument domains worth demanding: below it the relaxed
 * relation costs little however much of it no caller reads.
 */
export const MIN_FULL = 100_000;

/** How many times smaller than the domain product what the callers can ask for must be. */
const RATIO = 100;

/** A demandable relation whose callers ask for a sliver of its domain: the sizes of the choice. */
interface DemandChoice {
  /** Relation key `name/arity`. */
  readonly key: string;
  /** Product of its arguments' domain sizes (Infinity when a domain nests without end). */
  readonly full: number;
  /** The most its calls can ask for (see the module comment). */
  readonly asked: number;
}

/**
 * The relations of `demandable` worth demanding in `game` (see the module comment), sorted by
 * key; `tick` is called per rule while the dependency graph is built (the run's deadline).
 */
export function relationsWorthDemanding(game: NormalGame, demandable: ReadonlySet<string>, tick: () => void): DemandChoice[] {
  if (demandable.size === 0) return [];
  const dom = domainSizesOf(game.rules, tick);
  const sizes = (rel: string, arity: number): number[] => Array.from({ length: arity }, (_, i) => dom.position(rel, arity, i));
  const asked = new Map<string, number>();
  for (const r of game.rules) {
    for (const l of r.body) {
      if (l.kind !== 'pos' || !demandable.has(keyOf(l.atom))) continue;
      const dom = sizes(l.atom.rel, l.atom.args.length);
      const key = keyOf(l.atom);
      asked.set(key, (asked.get(key) ?? 0) + callSize(l.atom.args, dom));
    }
  }
  const out: DemandChoice[] = [];
  for (const key of [...demandable].sort()) {
    const full = domainProduct(dom, key);
    const ask = asked.get(key) ?? 0;
    if (full >= MIN_FULL && Number.isFinite(ask) && ask * RATIO <= full) out.push({ key, full, asked: ask });
  }
  return out;
}

/** What one call can ask for: the product of the domain sizes at its arguments that are not ground. */
function callSize(args: readonly Term[], dom: readonly number[]): number {
  return args.reduce((p, t, i) => (isGround(t) ? p : p * (dom[i] ?? 0)), 1);
}

/** The product of the argument domains of relation `key` (`name/arity`). */
export function domainProduct(dom: DomainSizes, key: string): number {
  const slash = key.lastIndexOf('/');
  return dom.relation(key.slice(0, slash), Number(key.slice(slash + 1)));
}
