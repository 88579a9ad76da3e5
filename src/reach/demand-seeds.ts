/**
 * Demand chosen by counting what the callers pass (issue 27, docs/reach.md, "Demand seeded by
 * state-free literals"): for relations free of `true` and `does` in the relaxed game, which the
 * plain run derives whole before the loop of Algorithm 9.2 even where every caller binds most of
 * their arguments.
 *
 * amazons' `queenMoveIgnoring ?xIg ?yIg ?x1 ?y1 ?x2 ?y2` (a queen's line, ignoring one cell) and
 * the six relations under it are derived for every cell ignored: 752,469 instances, of which
 * instantiation then makes 458,588 rules that unused-instance removal drops. Only the three
 * that are not recursive (queen, rook and bishop moves) are demanded: see `recursiveRelations`. Their one caller,
 * the legal rule, binds the first four arguments from `queenMove` (the ignored cell is the
 * queen's own). The domains of the argument dependency graph cannot see that sliver (queenMove's
 * domain product is 10^4, its relaxed model 2,940 pairs), so src/reach/demand-choice.ts does not
 * choose them. Here the bindings are counted: the magic-sets rewrite with static seeds
 * (`magicGame(game, group, stateFree)`: magic rules read only state-free literals) is made for
 * the group of candidate relations, and its seed rules (the magic rules of calls from outside
 * the group) are evaluated alone, with the state-free relations they read, under a small atom
 * budget. With m tuples of a seeded magic relation and the domain sizes of the call's free
 * positions,
 *
 *   asked = Σ over seeded magic relations of m × Π over free positions of the position's domain
 *   full  = Σ over the relations called from outside of the product of their domains
 *
 * and the group is demanded when asked ≤ full / {@link SEED_RATIO}. amazons: asked 2,940 × 100,
 * full 10^6; amazonsTorus 3,600 × 100. With static seeds every magic relation and adorned copy
 * is state-free too, so the demanded run derives them once before the loop, as the plain run
 * derived the relations.
 */
import type { Atom, Term } from '../gdl/ast.js';
import { GdlError } from '../gdl/diagnostics.js';
import { isGround, matchTerm, termEquals } from '../gdl/terms.js';
import type { NormalGame, NormalRule } from '../normalize/types.js';
import { demandableRelations, isAtomBudget, magicGame, magicParts, stateFreeRelations } from './magic.js';
import { MIN_FULL, domainProduct } from './demand-choice.js';
import { computeSupersetsProlog } from './prolog.js';
import { handedIds } from './handover.js';
import { keyOf } from './relaxed-rule.js';
import { type RelaxedPlan, planRelaxedGame } from './relaxed.js';
import { relationComponents } from '../gdl/relations.js';
import { domainSizesOf } from './domain-sizes.js';
import type { ReachLimits } from './types.js';
import type { DomainSizes } from './run.js';

/**
 * How many times smaller than the callees' domain products the counted bindings must be. The
 * count is an upper bound (every free position's whole domain per seed tuple): amazonsTorus asks
 * 3,600 × 100 of 10^6 (ratio 2.78), and the demanded run keeps 684,220 of 1,151,420 axioms:
 * instantiation makes 1.93×10⁶ rules instead of 2.65×10⁶ (docs/corpus.md, amaz17); 3 did not
 * choose it. No other corpus or held-out game has a ratio between 2.5 and 3.
 */
const SEED_RATIO = 2.5;

/** Atom budget of the seed run: past it the callers pass too much to count, and nothing is chosen. */
const SEED_BUDGET = 100_000;

/** A group of relations to demand with static seeds, and the counts that chose it. */
interface SeededDemand {
  /** Relation keys `name/arity` to demand. */
  readonly relations: ReadonlySet<string>;
  /** The relations free of `true` and `does` in the relaxed game: `magicGame`'s static seeds. */
  readonly stateFree: ReadonlySet<string>;
  readonly asked: number;
  readonly full: number;
}

/**
 * The state-free demandable relations of `game` worth demanding with static seeds (see the
 * module comment), or undefined. `tick` is called per rule while the dependency graph is built;
 * `plan`: the game's relaxed plan, when the caller has it.
 */
export function seededDemand(game: NormalGame, limits: ReachLimits, tick: () => void, plan: RelaxedPlan = planRelaxedGame(game)): SeededDemand | undefined {
  const stateFree = stateFreeRelations(game, plan);
  const candidates = [...demandableRelations(game, plan)].filter((k) => stateFree.has(k));
  if (candidates.length === 0) return undefined;
  const dom = domainSizesOf(game.rules, tick);
  const large = candidates.filter((k) => domainProduct(dom, k) >= MIN_FULL);
  const recursive = recursiveRelations(game);
  const flat = large.filter((k) => !recursive.has(k));
  const group = new Set(flat.length > 0 ? flat : large);
  if (group.size === 0) return undefined;
  const seeds = seedRules(magicGame(game, group, stateFree).rules);
  if (seeds === undefined || seeds.length === 0) return undefined;
  // The counting run is spent only where its answer is not known already (see surelyDeclined).
  if (surelyDeclined(game, seeds, dom)) return undefined;
  const counts = countSeeds(game, seeds, limits);
  if (counts === undefined) return undefined;
  let asked = 0;
  const called = new Set<string>();
  for (const [magic, m] of counts) {
    const { rel, adornment } = magicParts(magic)!;
    called.add(`${rel}/${adornment.length}`);
    asked += [...adornment].reduce((p, c, i) => (c === 'f' ? p * dom.position(rel, adornment.length, i) : p), m);
  }
  const total = [...called].reduce((s, k) => s + domainProduct(dom, k), 0);
  // A domain that nests without end (Infinity) says nothing of the model's size: not chosen.
  return total > 0 && Number.isFinite(total) && asked * SEED_RATIO <= total ? { relations: group, stateFree, asked, full: total } : undefined;
}

/**
 * True when the counting run is sure to end in no choice, so that it need not run: the magic
 * relations whose seed rules surely fire (see {@link surelyFires}) have at least one tuple each,
 * so `asked` is at least the sum of their free positions' domain products, while `full` is at
 * most the sum of the domain products of every relation a seed rule asks for (the counted
 * relations are among them). When the first times {@link SEED_RATIO} passes the second,
 * `asked × SEED_RATIO ≤ full` fails whatever the run counts (and a run over its budget chooses
 * nothing either). MUZONE_S's `riefut/5` has a seed rule with no body, asked = full = 1.4×10⁸;
 * FRED's `shesers/3` one that reads a fact, asked ≥ 1,050,804 of full ≤ 2,101,608: each run
 * counted for nothing (0.1-0.2 s of FRED's superset stage, docs/corpus.md, small24).
 */
function surelyDeclined(game: NormalGame, seeds: readonly NormalRule[], dom: DomainSizes): boolean {
  const facts = groundFacts(game);
  let askedAtLeast = 0;
  const fired = new Set<string>();
  const called = new Set<string>();
  for (const r of seeds) {
    const { rel, adornment } = magicParts(r.head.rel)!;
    called.add(`${rel}/${adornment.length}`);
    if (fired.has(r.head.rel) || !surelyFires(r, facts)) continue;
    fired.add(r.head.rel);
    askedAtLeast += [...adornment].reduce((p, c, i) => (c === 'f' ? p * dom.position(rel, adornment.length, i) : p), 1);
  }
  const fullAtMost = [...called].reduce((s, k) => s + domainProduct(dom, k), 0);
  return askedAtLeast * SEED_RATIO > fullAtMost;
}

/** The game's ground facts (rules with no body and a ground head), by relation key. */
function groundFacts(game: NormalGame): Map<string, Atom[]> {
  const out = new Map<string, Atom[]>();
  for (const r of game.rules) {
    if (r.body.length > 0 || !r.head.args.every(isGround)) continue;
    const list = out.get(keyOf(r.head));
    if (list === undefined) out.set(keyOf(r.head), [r.head]);
    else list.push(r.head);
  }
  return out;
}

/** Steps of {@link surelyFires}'s search over the facts: past them it answers "not sure". */
const FIRE_STEPS = 10_000;

/**
 * True when rule `r` surely derives its head in the counting run: its body holds positive
 * literals and ground `distinct`s only, and some choice of one fact of `facts` per positive
 * literal matches them all with one binding of the variables (the run derives every fact it
 * reads, and this binding satisfies the body). False is "not sure": a derived relation, a
 * negated literal, a `distinct` over variables, or a search past {@link FIRE_STEPS}.
 */
function surelyFires(r: NormalRule, facts: ReadonlyMap<string, readonly Atom[]>): boolean {
  const atoms: Atom[] = [];
  for (const l of r.body) {
    if (l.kind === 'neg') return false;
    if (l.kind === 'pos') atoms.push(l.atom);
    else if (!isGround(l.left) || !isGround(l.right) || termEquals(l.left, l.right)) return false;
  }
  // Depth-first over the literals with an explicit stack: per literal, the next fact to try and the binding before it.
  const next = new Array<number>(atoms.length + 1).fill(0);
  const bindings: Map<string, Term>[] = [new Map()];
  let depth = 0;
  for (let steps = 0; steps < FIRE_STEPS; steps++) {
    if (depth === atoms.length) return true;
    if (depth < 0) return false;
    const candidates = facts.get(keyOf(atoms[depth]!)) ?? [];
    const i = next[depth]!++;
    if (i >= candidates.length) {
      next[depth--] = 0;
      continue;
    }
    const binding = new Map(bindings[depth]!);
    if (atoms[depth]!.args.every((a, k) => matchTerm(a, candidates[i]!.args[k]!, binding))) bindings[++depth] = binding;
  }
  return false;
}

/**
 * The relations on a cycle of the game's dependency graph: left out of the group when it has
 * others (games/demand-seeds.kif has only a recursive one, demanded as before). A recursive
 * call passes bindings of its own, and where they reach most of the relation (amazonsTorus's
 * rows and diagonals wrap around) its magic relations and adorned copies cost the superset stage
 * more than the instances they cut save; the relations above them are cut by their callers'
 * bindings alone. amazonsTorus: superset stage 4.8 s plain, 8.1 s with the seven relations
 * demanded, 4.0 s with the three non-recursive ones (docs/corpus.md, amaz17).
 */
function recursiveRelations(game: NormalGame): Set<string> {
  const edges = game.rules.flatMap((r) => r.body.flatMap((l) => (l.kind === 'distinct' ? [] : [{ from: keyOf(l.atom), to: keyOf(r.head) }])));
  const comps = relationComponents(game.rules.map((r) => keyOf(r.head)), edges);
  return new Set(comps.filter((c) => c.recursive).flatMap((c) => c.members));
}

/**
 * The magic rules of calls from outside the group (no magic literal in the body), or undefined
 * when one of them reads a demanded relation's copy (a caller of two group relations: its
 * bindings would need the group itself, so they are not counted, and nothing is chosen).
 */
function seedRules(rules: readonly NormalRule[]): NormalRule[] | undefined {
  const out: NormalRule[] = [];
  for (const r of rules) {
    if (magicParts(r.head.rel) === undefined) continue;
    const demanded = r.body.filter((l) => l.kind === 'pos' && l.atom.rel.includes(' '));
    if (demanded.some((l) => l.kind === 'pos' && magicParts(l.atom.rel) !== undefined)) continue;
    if (demanded.length > 0) return undefined;
    out.push(r);
  }
  return out;
}

/**
 * Tuples per seeded magic relation: the seed rules run with the rules of the (state-free)
 * relations they read, in a run of their own under {@link SEED_BUDGET} atoms; undefined past it.
 */
function countSeeds(game: NormalGame, seeds: readonly NormalRule[], limits: ReachLimits): Map<string, number> | undefined {
  const byHead = new Map<string, NormalRule[]>();
  for (const r of game.rules) {
    const rules = byHead.get(keyOf(r.head));
    if (rules === undefined) byHead.set(keyOf(r.head), [r]);
    else rules.push(r);
  }
  const rules: NormalRule[] = [...seeds];
  const seen = new Set<string>();
  const queue = seeds.flatMap((r) => r.body.flatMap((l) => (l.kind === 'pos' ? [keyOf(l.atom)] : [])));
  while (queue.length > 0) {
    const key = queue.pop()!;
    if (seen.has(key)) continue;
    seen.add(key);
    for (const r of byHead.get(key) ?? []) {
      rules.push(r);
      for (const l of r.body) if (l.kind === 'pos') queue.push(keyOf(l.atom));
    }
  }
  try {
    const r = computeSupersetsProlog({ file: game.file, rules }, { ...limits, maxAtoms: SEED_BUDGET }, { axiomOrder: 'found' });
    const counts = new Map<string, number>();
    // Counted off the run's ids, relation by relation: no atom made for an axiom (amazons: 10,509).
    const groups = handedIds(r.supersets)?.axioms ?? r.supersets.axioms.map((a) => ({ rel: a.rel, size: 1 }));
    for (const g of groups) if (magicParts(g.rel) !== undefined) counts.set(g.rel, (counts.get(g.rel) ?? 0) + g.size);
    return counts;
  } catch (err) {
    // Too many to count is an answer (choose nothing); the run's own limits are not.
    if (err instanceof GdlError && isAtomBudget(err) && !limits.deadline.passed()) return undefined;
    throw err;
  }
}
