/**
 * Demand-driven axioms for the superset stage (issue 17): a magic-sets rewrite of the relaxed
 * program, so that an axiom is derived only for the argument bindings its callers ask for
 * (tabling, as Vittaut & Méhat 2014 ground with, computes the same demanded answers).
 *
 * A relation p rewritten this way (a *demanded* relation) gets, for each pattern of bound (b)
 * and free (f) arguments it is called with (its adornment a), a copy `p a` whose rules are
 * guarded by a magic relation `magic p a` over the bound arguments:
 *
 *   p a(X̄) <= magic p a(X̄ᵇ), body'                    (one per rule of p)
 *   magic q c(Ȳᶜ) <= magic p a(X̄ᵇ), l₁', ..., lᵢ₋₁'    (one per demanded literal lᵢ = q(Ȳ))
 *
 * Body literals are ordered by sideways information passing (the most bound literal next);
 * a rule of a relation that is not demanded seeds the magic relations of the demanded
 * literals it calls. The answers of every relation that is not demanded, and so the fluents
 * and moves, are those of the plain relaxed program; a demanded relation keeps only the
 * instances some caller can ask for. Names carry a space, which no GDL symbol holds.
 *
 * Only relations called positively, and only by rules of relevant relations (those the loop of
 * Algorithm 9.2 reads), are demanded: a caller under negation, or in goal and terminal, would
 * ask for bindings the relaxed program never sees, and instantiation, which filters a
 * relation's heads by its superset, would then lose instances it needs.
 */
import type { Atom, Term } from '../gdl/ast.js';
import { KEYWORDS, mkAtom } from '../gdl/ast.js';
import { atomToString, atomVars, collectVars, sortByCodePoints } from '../gdl/terms.js';
import { GdlError } from '../gdl/diagnostics.js';
import type { Literal, NormalGame, NormalRule } from '../normalize/types.js';
import { type RelaxedPlan, keyOf, planRelaxedGame, relevantComponents } from './relaxed.js';
import type { Supersets } from './types.js';

/** Prefix of magic relation names (the space keeps them apart from every game symbol). */
const MAGIC = 'magic ';

/** The name of relation `rel` adorned with `a` (`count_loop bbbbff`). */
const adornedName = (rel: string, a: string): string => `${rel} ${a}`;

/** The magic relation of `rel` adorned with `a`. */
const magicName = (rel: string, a: string): string => `${MAGIC}${rel} ${a}`;

/** The relation and adornment of a magic relation's name ({@link magicName}'s inverse), or undefined for any other name. */
export function magicParts(name: string): { rel: string; adornment: string } | undefined {
  if (!name.startsWith(MAGIC)) return undefined;
  const [, rel, adornment] = name.split(' ') as [string, string, string];
  return { rel, adornment };
}

/**
 * The relations the rewrite may demand: defined by a rule with a body (a relation of facts
 * only gains nothing), not a keyword, relevant to the loop of Algorithm 9.2, and called only
 * positively and only in rules of relevant relations. `plan`: the game's relaxed plan, when the
 * caller has it (made once per grounding: dropping subsumed rules took FRED 30 ms a plan).
 */
export function demandableRelations(game: NormalGame, plan: RelaxedPlan = planRelaxedGame(game)): Set<string> {
  const wanted = relevantComponents(plan.components);
  const relevant = new Set<string>();
  plan.components.forEach((c, i) => {
    if (wanted.has(i)) for (const k of c.relations) relevant.add(k);
  });
  const excluded = new Set<string>();
  const derived = new Set<string>();
  for (const r of game.rules) {
    if (r.body.length > 0 && !KEYWORDS.has(r.head.rel)) derived.add(keyOf(r.head));
    const callerRelevant = relevant.has(keyOf(r.head));
    for (const l of r.body) {
      if (l.kind === 'neg' || (l.kind === 'pos' && !callerRelevant)) excluded.add(keyOf(l.atom));
    }
  }
  return new Set([...derived].filter((k) => relevant.has(k) && !excluded.has(k)));
}

/**
 * The relations of `game` free of `true` and `does` in its relaxed program (negations dropped):
 * the static seeds of {@link magicGame}. `plan`: the game's relaxed plan, when the caller has it.
 */
export function stateFreeRelations(game: NormalGame, plan: RelaxedPlan = planRelaxedGame(game)): Set<string> {
  const out = new Set<string>();
  for (const c of plan.components) if (!c.stateDependent) for (const k of c.relations) out.add(k);
  return out;
}

/** `b` for each argument whose variables are all bound, else `f`. */
function adornment(atom: Atom, bound: ReadonlySet<string>): string {
  return atom.args.map((t) => ([...collectVars(t, new Set())].every((v) => bound.has(v)) ? 'b' : 'f')).join('');
}

/** The arguments of `atom` at the `b` positions of `a`. */
function boundArgs(atom: Atom, a: string): Term[] {
  return atom.args.filter((_, i) => a[i] === 'b');
}

/** Share of an atom's arguments that are bound (a literal with no arguments counts as bound). */
function boundShare(atom: Atom, bound: ReadonlySet<string>): number {
  if (atom.args.length === 0) return 1;
  const a = adornment(atom, bound);
  return a.split('').filter((c) => c === 'b').length / a.length;
}

/** Work the rewrite shares: demanded relations, and adorned copies still to make. */
interface Rewrite {
  readonly demanded: ReadonlySet<string>;
  readonly queue: { readonly key: string; readonly a: string }[];
  readonly out: NormalRule[];
  /** With static seeds (see {@link magicGame}): the relations free of `true` and `does` in the relaxed game. */
  readonly stateFree: ReadonlySet<string> | undefined;
}

/**
 * True when `atom` may seed a magic relation: any atom without static seeds; with them, an atom
 * of a state-free relation, or a magic relation or adorned copy (state-free by construction: the
 * rule bodies of both are then state-free).
 */
function seeds(atom: Atom, w: Rewrite): boolean {
  return w.stateFree === undefined || atom.rel.includes(' ') || w.stateFree.has(keyOf(atom));
}

/**
 * Rewrites one rule: with `headAdornment`, as a rule of the adorned copy guarded by its magic
 * relation; without, as itself. Negative literals go (the relaxed game has none); every
 * demanded literal is renamed to its adorned copy and gets its magic rule.
 */
function rewriteRule(rule: NormalRule, headAdornment: string | undefined, w: Rewrite): void {
  const bound = new Set<string>();
  const body: Literal[] = [];
  // What the literals that may seed bind (all of them without static seeds): the adornments.
  const seeded = new Set<string>();
  if (headAdornment !== undefined) {
    for (const t of boundArgs(rule.head, headAdornment)) collectVars(t, bound);
    for (const t of boundArgs(rule.head, headAdornment)) collectVars(t, seeded);
    body.push({ kind: 'pos', atom: mkAtom(magicName(rule.head.rel, headAdornment), boundArgs(rule.head, headAdornment), rule.pos) });
  }
  const rest = rule.body.filter((l): l is Extract<Literal, { kind: 'pos' }> => l.kind === 'pos');
  let distincts = rule.body.filter((l): l is Extract<Literal, { kind: 'distinct' }> => l.kind === 'distinct');
  const flushDistincts = (): void => {
    const ready = distincts.filter((d) => [...collectVars(d.left, new Set()), ...collectVars(d.right, new Set())].every((v) => bound.has(v)));
    body.push(...ready);
    distincts = distincts.filter((d) => !ready.includes(d));
  };
  flushDistincts();
  while (rest.length > 0) {
    // Sideways information passing: the most bound literal next, a plain one before a demanded one.
    let best = 0;
    const score = (l: (typeof rest)[number]): number => boundShare(l.atom, bound) * 2 + (w.demanded.has(keyOf(l.atom)) ? 0 : 1);
    for (let i = 1; i < rest.length; i++) if (score(rest[i]!) > score(rest[best]!)) best = i;
    const lit = rest.splice(best, 1)[0]!;
    body.push(demandedLiteral(lit.atom, seeded, body, rule, w));
    atomVars(lit.atom, bound);
    if (seeds(lit.atom, w)) atomVars(lit.atom, seeded);
    flushDistincts();
  }
  body.push(...distincts);
  const head = headAdornment === undefined ? rule.head : mkAtom(adornedName(rule.head.rel, headAdornment), rule.head.args, rule.head.pos);
  w.out.push({ head, body, pos: rule.pos });
}

/**
 * The literal for `atom` (its adorned copy when demanded, queueing the copy and adding its magic
 * rule). `bound`: the variables the literals that may seed bind (`seeds`), which fix the adornment.
 */
function demandedLiteral(atom: Atom, bound: ReadonlySet<string>, before: readonly Literal[], rule: NormalRule, w: Rewrite): Literal {
  const key = keyOf(atom);
  if (!w.demanded.has(key)) return { kind: 'pos', atom };
  const a = adornment(atom, bound);
  w.queue.push({ key, a });
  // magic q a(bound args) <= what comes before the literal (with static seeds, its state-free part)
  w.out.push({ head: mkAtom(magicName(atom.rel, a), boundArgs(atom, a), atom.pos), body: seedBody(before, bound, w), pos: rule.pos });
  return { kind: 'pos', atom: mkAtom(adornedName(atom.rel, a), atom.args, atom.pos) };
}

/**
 * The body of a magic rule from the literals `before` a demanded call: all of them, or with
 * static seeds the positive literals that may seed and the distinct tests over `bound` alone.
 * Leaving literals out only adds magic tuples (more is demanded, never less).
 */
function seedBody(before: readonly Literal[], bound: ReadonlySet<string>, w: Rewrite): Literal[] {
  if (w.stateFree === undefined) return [...before];
  const within = (t: Term): boolean => [...collectVars(t, new Set())].every((v) => bound.has(v));
  return before.filter((l) => (l.kind === 'pos' ? seeds(l.atom, w) : l.kind === 'distinct' && within(l.left) && within(l.right)));
}

/**
 * The magic-sets rewrite of `game` for the relations `demanded` (default: every demandable
 * relation). The result is a game for the superset stage only: negative literals are gone,
 * and it holds adorned and magic relations that {@link undemand} maps back.
 *
 * `stateFree` (static seeds): the relations free of `true` and `does` in the relaxed game. Magic
 * rules then read only those (and magic relations and adorned copies), and a call's adornment
 * counts only the variables they bind: every magic relation, and the adorned copy of every
 * state-free relation, is state-free too, derived once before the loop of Algorithm 9.2 instead
 * of again in its rounds. The magic tuples are a superset of the plain rewrite's (fewer literals
 * in each magic rule), so what is demanded includes what every caller asks for.
 */
export function magicGame(game: NormalGame, demanded: ReadonlySet<string> = demandableRelations(game), stateFree?: ReadonlySet<string>): NormalGame {
  const w: Rewrite = { demanded, queue: [], out: [], stateFree };
  const byHead = new Map<string, NormalRule[]>();
  for (const r of game.rules) {
    const k = keyOf(r.head);
    if (demanded.has(k)) byHead.set(k, [...(byHead.get(k) ?? []), r]);
    else rewriteRule(r, undefined, w);
  }
  const done = new Set<string>();
  while (w.queue.length > 0) {
    const { key, a } = w.queue.pop()!;
    if (done.has(`${key} ${a}`)) continue;
    done.add(`${key} ${a}`);
    for (const r of byHead.get(key) ?? []) rewriteRule(r, a, w);
  }
  return { file: game.file, rules: w.out };
}

/**
 * The supersets of the rewritten game read as supersets of the original: magic relations
 * dropped, adorned copies renamed back to their relation and merged (sorted, no duplicates).
 * Grounding's runs read them back while collecting instead (`readAs`, {@link undemandedName}).
 */
export function undemand(s: Supersets): Supersets {
  const seen = new Map<string, Atom>();
  for (const a of s.axioms) {
    const rel = undemandedName(a.rel);
    if (rel === undefined) continue;
    const atom = rel === a.rel ? a : { ...a, rel };
    const text = atomToString(atom);
    if (!seen.has(text)) seen.set(text, atom);
  }
  return { ...s, axioms: sortByCodePoints([...seen.keys()], (t) => t).map((t) => seen.get(t)!) };
}

/**
 * The relation of the original game that relation `rel` of the rewritten game is read as: an
 * adorned copy as its relation, any other as itself; undefined for a magic relation, which is
 * not the game's. (The rewrite's names carry a space, which no GDL symbol holds.)
 */
export function undemandedName(rel: string): string | undefined {
  if (rel.startsWith(MAGIC)) return undefined;
  const space = rel.indexOf(' ');
  return space < 0 ? rel : rel.slice(0, space);
}

/** True for the superset stage's atom budget (not its clock): the case demand may rescue. */
export function isAtomBudget(err: unknown): boolean {
  return err instanceof GdlError && err.code === 'limit' && err.limit?.kind === 'atoms';
}

/** Arguments of a recursive call made in the body, past which a relation counts as an accumulator. */
const ACCUMULATOR_ARGS = 3;

/**
 * Demandable relations that carry state through their recursion (merrills' `count_loop`: a
 * directly recursive rule whose recursive call has at least {@link ACCUMULATOR_ARGS}
 * arguments that are variables made in the body, not in the head). Their relaxed model is
 * the product of those arguments' ranges, while callers ask for a sliver of it: where demand pays.
 */
export function accumulatorRelations(game: NormalGame, demandable: ReadonlySet<string> = demandableRelations(game)): string[] {
  const found = new Set<string>();
  for (const r of game.rules) {
    const key = keyOf(r.head);
    if (!demandable.has(key)) continue;
    const headVars = atomVars(r.head);
    for (const l of r.body) {
      if (l.kind !== 'pos' || keyOf(l.atom) !== key) continue;
      const made = l.atom.args.filter((t) => t.kind === 'var' && !headVars.has(t.name));
      if (made.length >= ACCUMULATOR_ARGS) found.add(key);
    }
  }
  return [...found].sort();
}
