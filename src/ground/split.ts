/**
 * Rule splitting before joining (issue 17), the shape part: a pure rewrite of one normalized
 * rule into auxiliary rules and a smaller head rule that together define the same head atoms.
 * Which rules are split, and when, is decided by the instantiation driver (split-run.ts) from
 * the join's estimate; this module only knows rule shapes.
 *
 * Two rewrites, as Fast Downward's split_rules and GGP-Base's CondensationIsolator do:
 *
 *   projection   h(X) <= p(X, Y), rest(X)          Y in p only (not in h, not in rest)
 *                -> aux(X) <= p(X, Y)      h(X) <= aux(X), rest(X)
 *   components   h(X) <= A(X, Y), B(X, Z)          A and B share no variable outside the head
 *                -> auxA(X') <= A(X, Y)    auxB(X'') <= B(X, Z)    h(X) <= auxA(X'), auxB(X'')
 *                   (X', X'': the head variables of each part)
 *
 * and, for a rule with neither, {@link eliminate}: one join-tree step (bucket elimination).
 *
 * All keep the meaning: aux(V) holds exactly when its part has a solution extending V, and a
 * variable of a part but not of the head occurs nowhere else, so the existential can be moved
 * inside the part. Negated atoms and `distinct` go with the part holding their non-head
 * variables (a literal binds or tests the variables that connect it); a part whose test uses
 * a head variable that none of its positive atoms binds gets a copy of a head-only positive
 * atom that binds it (conjunction is idempotent), and the rule is left alone if there is none.
 * Only positive atoms are projected: a variable private to a negated atom is unsafe anyway.
 * Parts made only of static literals are not split off: static atoms vanish from the ground
 * rules, and the join already treats their private variables as existential.
 */
import type { Atom, Term } from '../gdl/ast.js';
import { atomToString, collectVars, substitute, substituteAtom, termToString } from '../gdl/terms.js';
import type { Literal, NormalGame, NormalRule } from '../normalize/types.js';
import { linkedGroups } from '../datalog/plan.js';

/** What the splitter needs to know about a relation and how to name a new one. */
export interface SplitContext {
  /** True for a literal over a static relation (evaluated away during instantiation). */
  readonly isStatic: (atom: Atom) => boolean;
  /** A fresh relation name, never used by the game (see {@link auxPrefix}). */
  readonly fresh: () => string;
}

/** The variables of a literal (both sides of a `distinct`). */
export function literalVars(l: Literal): Set<string> {
  if (l.kind === 'distinct') return collectVars(l.right, collectVars(l.left, new Set()));
  const out = new Set<string>();
  for (const a of l.atom.args) collectVars(a, out);
  return out;
}

/** The variables of an atom's arguments. */
export function atomVarSet(atom: Atom): Set<string> {
  const out = new Set<string>();
  for (const a of atom.args) collectVars(a, out);
  return out;
}

/** Variables in order of first occurrence in `lits` (a deterministic argument order). */
function orderedVars(lits: readonly Literal[], keep: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const l of lits) for (const v of literalVars(l)) if (keep.has(v) && !out.includes(v)) out.push(v);
  return out;
}

/** The atom `rel(vars...)` (an auxiliary relation's head or body atom). */
export function auxAtom(rel: string, vars: readonly string[], pos: Atom['pos']): Atom {
  const args: Term[] = vars.map((name) => ({ kind: 'var', name, pos }));
  return { kind: 'atom', rel, args, pos };
}

/** Groups literals connected through variables outside `headVars` (indexes, see `linkedGroups`). */
export function components(vars: readonly Set<string>[], headVars: ReadonlySet<string>): number[][] {
  return linkedGroups(vars, (v) => headVars.has(v));
}

function isStaticLiteral(l: Literal, ctx: SplitContext): boolean {
  return l.kind === 'distinct' || ctx.isStatic(l.atom);
}

/**
 * The positive atoms to add to a part so that its tests are safe: for each variable of a test
 * not bound by a positive atom of the part, the first head-only positive atom outside it that
 * binds the variable. Null when some variable has none (the rule is then not split).
 */
function safetyCopies(part: readonly number[], body: readonly Literal[], vars: readonly Set<string>[], headVars: ReadonlySet<string>): number[] | null {
  const bound = new Set<string>();
  for (const i of part) if (body[i]!.kind === 'pos') for (const v of vars[i]!) bound.add(v);
  const copies: number[] = [];
  for (const i of part) {
    if (body[i]!.kind === 'pos') continue;
    for (const v of vars[i]!) {
      if (bound.has(v)) continue;
      const j = body.findIndex((l, k) => l.kind === 'pos' && vars[k]!.has(v) && [...vars[k]!].every((w) => headVars.has(w)));
      if (j < 0) return null;
      copies.push(j);
      for (const w of vars[j]!) bound.add(w);
    }
  }
  return copies;
}

/**
 * Splits `rule` into auxiliary rules (first, in the order they must be evaluated) and a head
 * rule (last), or returns null when neither rewrite applies (a body of fewer than two
 * literals, one part that cannot be projected, or a part whose tests cannot be made safe).
 */
export function splitRule(rule: NormalRule, ctx: SplitContext): NormalRule[] | null {
  const body = rule.body;
  if (body.length < 2) return null;
  const headVars = atomVarSet(rule.head);
  const vars = body.map(literalVars);
  const aux: NormalRule[] = [];
  const replaced = new Map<number, Literal | null>();
  for (const part of components(vars, headVars)) {
    const lits = part.map((i) => body[i]!);
    // A single literal, the whole body, or only static literals: nothing to gain.
    if (part.length === 1 || part.length === body.length || lits.every((l) => isStaticLiteral(l, ctx))) continue;
    const copies = safetyCopies(part, body, vars, headVars);
    if (copies === null) return null;
    const partBody = [...copies.map((i) => body[i]!), ...lits];
    const partVars = new Set(part.flatMap((i) => [...vars[i]!]));
    const args = orderedVars(partBody, new Set([...partVars].filter((v) => headVars.has(v))));
    const head = auxAtom(ctx.fresh(), args, rule.pos);
    aux.push({ head, body: partBody, pos: rule.pos });
    replaced.set(part[0]!, { kind: 'pos', atom: head });
    for (const i of part.slice(1)) replaced.set(i, null);
  }
  // Projection of single positive atoms left in the head rule: variables found nowhere else.
  body.forEach((l, i) => {
    if (replaced.has(i) || l.kind !== 'pos' || ctx.isStatic(l.atom)) return;
    const others = new Set([...headVars, ...vars.flatMap((vs, k) => (k === i ? [] : [...vs]))]);
    if ([...vars[i]!].every((v) => others.has(v))) return;
    const head = auxAtom(ctx.fresh(), orderedVars([l], others), rule.pos);
    aux.push({ head, body: [l], pos: rule.pos });
    replaced.set(i, { kind: 'pos', atom: head });
  });
  if (aux.length === 0) return null;
  const headBody: Literal[] = [];
  body.forEach((l, i) => {
    const r = replaced.has(i) ? replaced.get(i)! : l;
    if (r !== null) headBody.push(r);
  });
  return [...aux, { head: rule.head, body: headBody, pos: rule.pos }];
}

/** Non-head variables of `rule`, in order of first occurrence: candidates for {@link eliminate}. */
export function innerVariables(rule: NormalRule): string[] {
  const headVars = atomVarSet(rule.head);
  return orderedVars(rule.body, new Set(rule.body.flatMap((l) => [...literalVars(l)]).filter((v) => !headVars.has(v))));
}

/**
 * Variable elimination, the step of a join tree (bucket elimination): the literals holding
 * variable `v` become one auxiliary rule over their variables that the head or another literal
 * still needs, and the rule reads that auxiliary atom in their place:
 *
 *   h(X) <= B1(v, Y1), ..., Bk(v, Yk), rest(Y)   ->   aux(Y') <= B1, ..., Bk     h(X) <= aux(Y'), rest(Y)
 *
 * with Y' the variables of the Bi found in X or in rest. Null when it would not shrink the rule
 * (the bucket is the whole body or only static literals) or a test of the bucket has a variable
 * no positive atom of the bucket binds.
 */
export function eliminate(rule: NormalRule, v: string, ctx: SplitContext): { aux: NormalRule; rest: NormalRule } | null {
  const vars = rule.body.map(literalVars);
  const inBucket = vars.map((vs) => vs.has(v));
  const bucket = rule.body.filter((_, i) => inBucket[i]);
  if (bucket.length === rule.body.length || bucket.every((l) => isStaticLiteral(l, ctx))) return null;
  const bound = new Set(bucket.flatMap((l) => (l.kind === 'pos' ? [...literalVars(l)] : [])));
  if (bucket.some((l) => [...literalVars(l)].some((w) => !bound.has(w)))) return null;
  const needed = new Set([...atomVarSet(rule.head), ...vars.flatMap((vs, i) => (inBucket[i] ? [] : [...vs]))]);
  const head = auxAtom(ctx.fresh(), orderedVars(bucket, needed), rule.pos);
  const first = inBucket.indexOf(true);
  const body: Literal[] = rule.body.flatMap((l, i) => (i === first ? [{ kind: 'pos' as const, atom: head }] : inBucket[i] ? [] : [l]));
  return { aux: { head, body: bucket, pos: rule.pos }, rest: { head: rule.head, body, pos: rule.pos } };
}

/**
 * The text of an auxiliary rule up to its name and its variables' names (renamed in order of
 * first occurrence): two auxiliary rules with the same key define the same relation, so the
 * second is not instantiated again (racer's `legal_speed`, split in two by its `or`).
 */
export function auxKey(rule: NormalRule): string {
  const names = new Map<string, Term>();
  for (const v of [...rule.body.flatMap((l) => [...literalVars(l)]), ...atomVarSet(rule.head)]) {
    if (!names.has(v)) names.set(v, { kind: 'var', name: `?${names.size}`, pos: rule.pos });
  }
  const term = (t: Term): string => termToString(substitute(t, names));
  const lit = (l: Literal): string => {
    if (l.kind === 'distinct') return `(distinct ${term(l.left)} ${term(l.right)})`;
    const atom = atomToString(substituteAtom(l.atom, names));
    return l.kind === 'neg' ? `(not ${atom})` : atom;
  };
  return `(${rule.head.args.map(term).join(' ')}) <= ${rule.body.map(lit).join(' ')}`;
}

/** `rule` reading relation `to` where it read `from` (an auxiliary relation found made before). */
export function renameRelation(rule: NormalRule, from: string, to: string): NormalRule {
  const body = rule.body.map((l): Literal => (l.kind !== 'distinct' && l.atom.rel === from ? { ...l, atom: { ...l.atom, rel: to } } : l));
  return { head: rule.head, body, pos: rule.pos };
}

/** The start of every auxiliary relation name. */
export const AUX_ROOT = 'split';

/**
 * The prefix of every auxiliary relation name: `split`, followed by as many `x` as needed so
 * that no symbol of the game (relation, function or object constant) starts with it; the
 * names `PREFIX-N` therefore cannot collide with the game's symbols.
 */
export function auxPrefix(symbols: Iterable<string>): string {
  // Every candidate starts with AUX_ROOT: symbols that do not are never looked at.
  const all = [...symbols];
  let prefix = AUX_ROOT;
  while (all.some((s) => s.startsWith(prefix))) prefix += 'x';
  return prefix;
}

/**
 * Every symbol of a normalized game: relation, function and object constant names; with
 * `prefix`, only those starting with it (all {@link auxPrefix} needs: a set of every symbol of a
 * game of half a million facts took seconds).
 */
export function gameSymbols(game: NormalGame, prefix = ''): Set<string> {
  const out = new Set<string>();
  const terms: Term[] = [];
  const atom = (a: Atom): void => {
    if (a.rel.startsWith(prefix)) out.add(a.rel);
    for (const t of a.args) terms.push(t);
  };
  for (const r of game.rules) {
    atom(r.head);
    for (const l of r.body) {
      if (l.kind === 'distinct') terms.push(l.left, l.right);
      else atom(l.atom);
    }
  }
  // Iterative: terms nest thousands deep.
  while (terms.length > 0) {
    const t = terms.pop()!;
    if (t.kind === 'var') continue;
    if (t.name.startsWith(prefix)) out.add(t.name);
    if (t.kind === 'fn') for (const a of t.args) terms.push(a);
  }
  return out;
}
