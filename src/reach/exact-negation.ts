/**
 * Negations the relaxed game may keep (issue 33): the relaxation of section 9.1.2 drops every
 * negative literal, which over-approximates. A negative literal whose relation is known
 * exactly can be kept instead, and the least model is then still a superset of every atom of
 * every reachable state, only a smaller one. Two kinds are known exactly:
 *
 * - a **static** relation (it depends on neither `true` nor `does`) whose rules, and the rules
 *   of every relation below it, have no negative literal: its relaxed model is its model
 *   (urmAdd's `(not (maxLines ?n))`, mummymaze1p's `(not (lessthan ?x1 ?x2))`);
 * - `true` of an **invariant fluent**: a fluent functor whose only `next` rules are frames
 *   `(next (f X̄)) <= (true (f X̄))` (nothing else makes it, nothing removes it), so that in
 *   every reachable state `(true (f t̄))` holds exactly when `(init (f t̄))` does
 *   (mummymaze1p's walls: `(not (true (wall ?x ?y north)))`).
 *
 * The superset stage's engine evaluates positive programs, so a kept negation `not n(X̄)` is
 * written as a positive literal over a fresh static relation `kept k`(V̄) (V̄ the variables of
 * n), given by facts: the bindings of V̄ that the rule's static positive literals can give
 * (their least model, a superset of their real instances), minus those where n holds.
 *
 * Why the result is a superset: take a reachable state and a binding θ under which the original
 * rule's body holds there. Its static positive literals hold under θ in reality, so in their
 * least model too, and V̄θ is one of the bindings they give; n(V̄)θ is false in that state,
 * and n is known exactly (a static relation's model; an invariant fluent's `init`), so n(V̄)θ
 * is not among its instances: `kept k`(V̄θ) holds, and the rewritten rule's body holds under
 * θ in the relaxed game. A negative literal whose variables the static positive literals do
 * not all bind, or over anything else, is dropped as before.
 */
import type { Atom, Term } from '../gdl/ast.js';
import { NO_POS, mkAtom } from '../gdl/ast.js';
import { atomToString, atomVars, substituteAtom } from '../gdl/terms.js';
import { GdlError } from '../gdl/diagnostics.js';
import { dependents } from '../gdl/relations.js';
import type { Literal, NormalGame, NormalRule } from '../normalize/types.js';
import { TermTable } from '../datalog/terms.js';
import { storeIds } from '../datalog/block.js';
import { neededRules } from './relaxation.js';
import { keyOf } from './relaxed-rule.js';
import { evalContext } from './dg/eval.js';
import { createGuard } from './dg/guard.js';
import { evaluateStatics } from './dg/statics.js';
import type { ReachLimits, Supersets } from './types.js';

/** Prefix of the fresh relations (the space keeps them apart from every game symbol). */
const KEPT = 'kept ';

/** Most ground atoms the evaluation of the static part may make before the refinement is given up. */
const MAX_STATIC_ATOMS = 500_000;

/** A negative literal the rewrite keeps: which rule, which literal, what it reads exactly. */
interface Kept {
  readonly rule: number;
  readonly literal: number;
  /** Relation key whose instances are the exact extension of the literal (`init/1` for an invariant fluent). */
  readonly exact: string;
  /** The literal's atom as the exact relation reads it (`true` renamed to `init`). */
  readonly atom: Atom;
  readonly vars: readonly string[];
  /** The static positive literals of the rule that bind the variables. */
  readonly binders: readonly Atom[];
}

/** Body-to-head edges between relation keys (`rel/arity`), through positive and negative literals. */
function keyEdges(rules: readonly NormalRule[]): { from: string; to: string }[] {
  return rules.flatMap((r) => r.body.flatMap((l) => (l.kind === 'distinct' ? [] : [{ from: keyOf(l.atom), to: keyOf(r.head) }])));
}

/** Relation keys that depend (through any literal) on `true` or `does`, and those two. */
function stateDependentKeys(edges: readonly { from: string; to: string }[]): Set<string> {
  const starts = ['true/1', 'does/2'];
  return new Set([...starts, ...dependents(edges, starts)]);
}

/** Relation keys with a negative literal in their own rules or in those of any relation below them. */
function negationBelow(rules: readonly NormalRule[], edges: readonly { from: string; to: string }[]): Set<string> {
  const starts = [...new Set(rules.filter((r) => r.body.some((l) => l.kind === 'neg')).map((r) => keyOf(r.head)))];
  return new Set([...starts, ...dependents(edges, starts)]);
}

/** `name/arity` of a fluent term; undefined for a variable. */
function functorKey(t: Term | undefined): string | undefined {
  if (t === undefined || t.kind === 'var') return undefined;
  return `${t.name}/${t.kind === 'fn' ? t.args.length : 0}`;
}

/** A frame rule `(next F) <= (true F)` whose F is a constant or a functor over distinct variables. */
function isFrame(r: NormalRule): boolean {
  const f = r.head.args[0];
  const b = r.body[0];
  if (f === undefined || f.kind === 'var' || r.body.length !== 1 || b?.kind !== 'pos' || b.atom.rel !== 'true') return false;
  if (atomToString(b.atom) !== atomToString(mkAtom('true', [f]))) return false;
  const names = f.kind === 'fn' ? f.args.map((a) => (a.kind === 'var' ? a.name : '')) : [];
  return names.every((n) => n !== '') && new Set(names).size === names.length;
}

/** Fluent functors whose only `next` rules are frames (none, if some `next` head is a variable). */
function invariantFluents(rules: readonly NormalRule[]): Set<string> {
  const frames = new Set<string>();
  const other = new Set<string>();
  for (const r of rules) {
    if (r.head.rel !== 'next' || r.head.args.length !== 1) continue;
    const f = functorKey(r.head.args[0]);
    if (f === undefined) return new Set();
    (isFrame(r) ? frames : other).add(f);
  }
  return new Set([...frames].filter((f) => !other.has(f)));
}

/** The static positive literals of `body` linked through shared variables to `vars` (which they grow). */
function bindersOf(body: readonly Literal[], start: readonly string[], isStatic: (a: Atom) => boolean): { binders: Atom[]; bound: Set<string> } {
  const wanted = new Set(start);
  const bound = new Set<string>();
  const pool = body.flatMap((l) => (l.kind === 'pos' && isStatic(l.atom) ? [l.atom] : []));
  const binders: Atom[] = [];
  for (let changed = true; changed; ) {
    changed = false;
    for (const a of pool) {
      if (binders.includes(a)) continue;
      const vs = atomVars(a);
      if (![...vs].some((v) => wanted.has(v))) continue;
      binders.push(a);
      for (const v of vs) (wanted.add(v), bound.add(v));
      changed = true;
    }
  }
  return { binders, bound };
}

/** The negative literals of the relaxed rules that can be kept (see the module comment). */
function keptLiterals(rules: readonly NormalRule[]): Kept[] {
  const edges = keyEdges(rules);
  const dependent = stateDependentKeys(edges);
  const negated = negationBelow(rules, edges);
  const invariant = invariantFluents(rules);
  const exactStatic = (k: string): boolean => !dependent.has(k) && !negated.has(k);
  const isStatic = (a: Atom): boolean => !dependent.has(keyOf(a));
  const out: Kept[] = [];
  rules.forEach((r, ri) => {
    r.body.forEach((l, li) => {
      if (l.kind !== 'neg') return;
      const k = keyOf(l.atom);
      const fluent = k === 'true/1' ? functorKey(l.atom.args[0]) : undefined;
      let atom: Atom;
      if (exactStatic(k)) atom = l.atom;
      else if (fluent !== undefined && invariant.has(fluent) && exactStatic('init/1')) atom = mkAtom('init', l.atom.args, l.atom.pos);
      else return;
      const vars = [...atomVars(l.atom)].sort();
      const { binders, bound } = bindersOf(r.body, vars, isStatic);
      if (vars.some((v) => !bound.has(v))) return;
      out.push({ rule: ri, literal: li, exact: keyOf(atom), atom, vars, binders });
    });
  });
  return out;
}

/** The static rules `keys` need, closed downwards. */
function staticRulesFor(rules: readonly NormalRule[], keys: Iterable<string>): NormalRule[] {
  const need = new Set(keys);
  for (let changed = true; changed; ) {
    changed = false;
    for (const r of rules) {
      if (!need.has(keyOf(r.head))) continue;
      for (const l of r.body) {
        if (l.kind !== 'distinct' && !need.has(keyOf(l.atom))) (need.add(keyOf(l.atom)), (changed = true));
      }
    }
  }
  return rules.filter((r) => need.has(keyOf(r.head)));
}

/** The name of kept literal number `i`'s relation. */
const keptName = (i: number): string => `${KEPT}${i}`;

/**
 * The facts of each kept literal's relation: the binders' bindings of its variables without
 * those where the literal's atom holds. Undefined when the static part passes
 * {@link MAX_STATIC_ATOMS} (the refinement is then not tried).
 */
function keptFacts(file: string, rules: readonly NormalRule[], kept: readonly Kept[], limits: ReachLimits): Atom[][] | undefined {
  const v = (name: string): Term => ({ kind: 'var', name, pos: NO_POS });
  const domains = kept.map((k, i): NormalRule => ({
    head: mkAtom(`dom ${keptName(i)}`, k.vars.map(v)),
    body: k.binders.map((atom) => ({ kind: 'pos', atom })),
    pos: NO_POS,
  }));
  const needed = staticRulesFor(rules, [...kept.flatMap((k) => [k.exact, ...k.binders.map(keyOf)])]);
  const ctx = evalContext(new TermTable(), createGuard(file, { ...limits, maxAtoms: Math.min(limits.maxAtoms, MAX_STATIC_ATOMS) }));
  let stores;
  try {
    stores = evaluateStatics(ctx, [...needed, ...domains]);
  } catch (err) {
    if (err instanceof GdlError && err.code === 'limit' && err.limit?.kind === 'atoms') return undefined;
    throw err;
  }
  const { table, rels } = ctx;
  const atomsOf = (key: string, name: string): Atom[] => {
    const arity = Number(key.slice(key.lastIndexOf('/') + 1));
    const store = stores.get(rels.intern(name, arity));
    return store === undefined ? [] : storeIds(store).map((id) => mkAtom(name, table.args(id).map((a) => table.toTerm(a))));
  };
  const exactTexts = new Map<string, Set<string>>();
  return kept.map((k, i) => {
    let holds = exactTexts.get(k.exact);
    if (holds === undefined) exactTexts.set(k.exact, (holds = new Set(atomsOf(k.exact, k.atom.rel).map(atomToString))));
    const out: Atom[] = [];
    for (const d of atomsOf(`x/${k.vars.length}`, `dom ${keptName(i)}`)) {
      ctx.guard.tick();
      const binding = new Map(k.vars.map((name, j) => [name, d.args[j]!]));
      if (!holds.has(atomToString(substituteAtom(k.atom, binding)))) out.push(mkAtom(keptName(i), d.args));
    }
    return out;
  });
}

/**
 * The game with the negative literals the relaxation may keep written as positive literals over
 * fresh relations given by facts (see the module comment), for the superset stage only; or
 * undefined when there is none, or the static part they need passes its budget. Rules the
 * relaxation leaves out (goal, terminal, base, input) are left out here too.
 */
export function keepExactNegations(game: NormalGame, limits: ReachLimits): NormalGame | undefined {
  const rules = neededRules(game.rules);
  const kept = keptLiterals(rules);
  if (kept.length === 0) return undefined;
  const facts = keptFacts(game.file, game.rules, kept, limits);
  if (facts === undefined) return undefined;
  const byRule = new Map<number, Map<number, number>>();
  kept.forEach((k, i) => byRule.set(k.rule, (byRule.get(k.rule) ?? new Map()).set(k.literal, i)));
  const rewritten = rules.map((r, ri): NormalRule => {
    const mine = byRule.get(ri);
    if (mine === undefined) return r;
    const body = r.body.map((l, li): Literal => {
      const i = mine.get(li);
      return i === undefined ? l : { kind: 'pos', atom: mkAtom(keptName(i), kept[i]!.vars.map((name) => ({ kind: 'var', name, pos: NO_POS })), r.pos) };
    });
    return { ...r, body };
  });
  const factRules = facts.flatMap((list) => list.map((head): NormalRule => ({ head, body: [], pos: NO_POS })));
  return { file: game.file, rules: [...rewritten, ...factRules] };
}

/** Supersets of the rewritten game read as the original's: the fresh relations dropped. */
export function withoutKept(s: Supersets): Supersets {
  return { ...s, axioms: s.axioms.filter((a) => !a.rel.startsWith(KEPT)) };
}
