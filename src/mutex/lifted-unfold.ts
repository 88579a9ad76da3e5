/**
 * What the lifted proofs read of the rules besides `next` (docs/mutex.md, section 2a, "Seeing
 * through derived relations"): the ground facts of the static relations, held jointly against
 * the static atoms of a pair's bodies, and the rules of the non-recursive derived relations
 * (and `legal` for `does`), unfolded into the bodies case by case. A positive atom of a derived
 * relation holds in (s, m) only when some instance of one of its rules has its head equal to the
 * atom and its body true (the perfect model is supported), so replacing the atom by "one of its
 * rules' bodies holds" is a complete case distinction; the pair is refuted only when every case
 * closes. Negative derived atoms stay opaque.
 */
import type { Deadline } from '../deadline.js';
import type { Atom, Term } from '../gdl/ast.js';
import { stronglyConnectedComponents } from '../gdl/scc.js';
import type { Literal, NormalGame, NormalRule } from '../normalize/types.js';
import { type Assumed, type Bounds, type Refute, type StaticFacts, closes } from './lifted-core.js';
import { relKey } from './lifted-relax.js';
import { type Subst, key, renameRule, unify, walk } from './lifted-terms.js';

/** The static facts and the unfoldable rules of a game, per `name/arity`. */
export interface RuleBase {
  /** Rows of ground arguments of each static relation (defined by ground facts only, `role` included). */
  readonly facts: StaticFacts;
  /** Rules of each non-recursive derived relation; `does/2` maps to the `legal` rules. */
  readonly rules: ReadonlyMap<string, readonly NormalRule[]>;
  /** Arguments of the game's fluents (every one the grounding found, a superset of the reachable ones), per `name/arity`. */
  readonly fluents: StaticFacts;
  /** Bounds of the derived relations (lifted-bounds.ts; none unless computed). */
  readonly over: Bounds;
  /** Closes a case that forbids a derived atom whose rule body it holds (lifted-entail.ts; none unless given). */
  readonly refute?: Refute;
}

/** Relations never unfolded: the state, the move, and what the rules define for the next state. */
const OPAQUE = new Set(['true', 'does', 'next', 'init', 'base', 'input']);

const atomText = (a: Atom, s: Subst): string => `${a.rel} ${a.args.map((t) => key(t, s)).join(' ')}`;

function isGroundTerm(t: Term): boolean {
  return t.kind === 'const' || (t.kind === 'fn' && t.args.every(isGroundTerm));
}

/** The static facts and the rules of the derived relations that are not recursive. */
export function ruleBase(normal: NormalGame, fluents: StaticFacts): RuleBase {
  const byHead = new Map<string, NormalRule[]>();
  for (const r of normal.rules) {
    const k = relKey(r.head.rel, r.head.args.length);
    byHead.set(k, [...(byHead.get(k) ?? []), r]);
  }
  const facts = new Map<string, Term[][]>();
  const derived: string[] = [];
  for (const [k, rules] of byHead) {
    if (OPAQUE.has(k.slice(0, k.lastIndexOf('/')))) continue;
    if (rules.every((r) => r.body.length === 0 && r.head.args.every(isGroundTerm))) facts.set(k, rules.map((r) => [...r.head.args]));
    else derived.push(k);
  }
  const index = new Map(derived.map((k, i) => [k, i]));
  const succ = derived.map((k) => [...new Set(byHead.get(k)!.flatMap((r) => r.body.flatMap((l) => {
    if (l.kind === 'distinct') return [];
    const j = index.get(relKey(l.atom.rel, l.atom.args.length));
    return j === undefined ? [] : [j];
  })))]);
  const rules = new Map<string, NormalRule[]>();
  for (const comp of stronglyConnectedComponents(derived.length, (v) => succ[v]!)) {
    if (comp.length > 1 || succ[comp[0]!]!.includes(comp[0]!)) continue;
    rules.set(derived[comp[0]!]!, byHead.get(derived[comp[0]!]!)!);
  }
  const legal = rules.get('legal/2');
  if (legal !== undefined) rules.set('does/2', inlinedLegal(legal, rules));
  return { facts, rules, fluents, over: new Map() };
}

/**
 * The `legal` rules, each that only passes a move on to another relation, non-recursive
 * (`(<= (legal ?r ?m) (legal2 ?r ?m))`, ttcc4_2player), replaced by that relation's rules with
 * their heads named `legal`. `legal(r, m)` holds exactly when one of `legal2`'s rules has its head
 * equal to `legal2(r, m)` and its body true (the perfect model is supported), so the cases of a
 * `does` are the same; but what decides them (`true (control ?r)`) is now in the `legal` rule's
 * body, which the case analyses read, instead of behind an atom they unfold only when one case
 * stays open (`legal2` has a rule per kind of move).
 */
export function inlinedLegal(legal: readonly NormalRule[], rules: ReadonlyMap<string, readonly NormalRule[]>): NormalRule[] {
  return legal.flatMap((r) => {
    const target = passedOn(r);
    const defs = target === undefined ? undefined : rules.get(target);
    return defs === undefined ? [r] : defs.map((d) => ({ ...d, head: { ...d.head, rel: 'legal' } }));
  });
}

/** The relation (`name/arity`) a rule's body only renames: one positive atom whose arguments are the head's, distinct variables in the same order. */
function passedOn(r: NormalRule): string | undefined {
  const [l] = r.body;
  if (r.body.length !== 1 || l === undefined || l.kind !== 'pos' || l.atom.rel === r.head.rel || OPAQUE.has(l.atom.rel)) return undefined;
  const names = r.head.args.map((t) => (t.kind === 'var' ? t.name : ''));
  if (names.includes('') || new Set(names).size !== names.length || l.atom.args.length !== names.length) return undefined;
  return l.atom.args.every((t, i) => t.kind === 'var' && t.name === names[i]) ? relKey(l.atom.rel, names.length) : undefined;
}

/** Limits of one pair's case analysis: nodes visited, splits along one branch, values of one split. */
const MAX_CASE_NODES = 400;
const MAX_UNFOLD_DEPTH = 16;
const MAX_VALUE_CASES = 8;
/** Rules a literal read by a `legal` rule may have to be looked at (it is unfolded only when at most one case stays open). */
const MAX_SHALLOW_RULES = 8;

/** One case: the literals that hold together, the equalities known, which literals were split on and how deep. */
interface CaseNode {
  readonly body: readonly Literal[];
  readonly s: Subst;
  /** Positions of the literals unfolded already. */
  readonly done: ReadonlySet<number>;
  /**
   * Positions of the literals unfolded whenever that pays: those of the pair's bodies and of
   * unfolded derived rules. The others (read by a `legal` rule) only when at most one case stays open.
   */
  readonly deep: ReadonlySet<number>;
  readonly depth: number;
}

/** What the case analysis reads. */
interface UnfoldContext {
  readonly assumed: Assumed;
  readonly base: RuleBase;
  readonly deadline: Deadline;
  /** Fresh tags for renaming rules apart. */
  readonly counter: { tag: number };
}

/**
 * Whether every case of unfolding the body's positive derived atoms (and `does` into `legal`),
 * and of splitting a `true` atom's open argument over the values the game's fluents have there,
 * closes. Per case, the split with the fewest cases left open is taken (none: the case closes).
 * True: refuted; false: unknown (a case stays open or a limit was reached).
 */
export function unfoldedCasesClose(body: readonly Literal[], s: Subst, goal: readonly [Term[], Term[]], ctx: UnfoldContext): boolean {
  // The root is open (the caller's checks did not close it); every node pushed is open too.
  const todo: CaseNode[] = [{ body, s, done: new Set(), deep: new Set(body.keys()), depth: 0 }];
  let nodes = 0;
  while (todo.length > 0) {
    const n = todo.pop()!;
    // A node costs up to milliseconds: the budget is read at every one.
    if (++nodes > MAX_CASE_NODES || ctx.deadline.passed() || n.depth >= MAX_UNFOLD_DEPTH) return false;
    const children = bestSplit(n, goal, ctx);
    if (children === undefined) return false;
    todo.push(...children);
  }
  return true;
}

/**
 * One way to split a node: its candidate cases, of which the first `seen` were given to `closes`
 * and `open` are those it left open. `cap`: a split with that many open is never taken (a literal
 * read by a `legal` rule is unfolded only when at most one case stays open).
 */
interface Split {
  readonly candidates: readonly CaseNode[];
  readonly open: CaseNode[];
  seen: number;
  readonly cap: number;
}

/** A split none of whose candidates has been looked at yet. */
const split = (candidates: readonly CaseNode[], cap = Infinity): Split => ({ candidates, open: [], seen: 0, cap });

/**
 * Gives the split's candidates to `closes` until `limit` of them are open (or `cap`) or none is
 * left; true when every candidate was seen with fewer than both open (its open cases are known).
 */
function advance(sp: Split, limit: number, goal: readonly [Term[], Term[]], ctx: UnfoldContext): boolean {
  const most = Math.min(limit, sp.cap);
  while (sp.open.length < most && sp.seen < sp.candidates.length) {
    const c = sp.candidates[sp.seen++]!;
    if (!closes(c.body, c.s, goal, ctx.assumed, ctx.base.facts, ctx.base.over, ctx.base.refute, ctx.base.fluents)) sp.open.push(c);
  }
  return sp.open.length < most;
}

/**
 * The open cases of the split with the fewest (the first of those in the body's order), or
 * undefined when there is nothing left to split on; the splits of one literal are looked at
 * together, and once one leaves at most one case open the literals after it are not (it only
 * adds facts). A split is evaluated lazily: first only until two of its cases are open, which
 * finds the literal whose split leaves at most one case open, if any, without evaluating the
 * others in full; else each split only until it has as many open cases as the best before it
 * (it could not be taken). The split chosen is the one evaluating every split in full would
 * choose; only the `closes` calls of splits not taken are saved (most of checkersTiny's lifted
 * proof was splits evaluated in full and not taken).
 */
function bestSplit(n: CaseNode, goal: readonly [Term[], Term[]], ctx: UnfoldContext): CaseNode[] | undefined {
  // An atom identical to one unfolded already (two `does` of one role, forced equal) adds nothing.
  const unfolded = new Set([...n.done].map((i) => atomText((n.body[i] as { atom: Atom }).atom, n.s)));
  const groups: Split[][] = [];
  for (let i = 0; i < n.body.length; i++) {
    const l = n.body[i]!;
    if (l.kind !== 'pos') continue;
    const group: Split[] = [];
    if (l.atom.rel === 'true' && n.deep.has(i)) group.push(...valueSplits(n, l.atom, ctx));
    if (l.atom.rel === 'does') group.push(...roleSplits(n, l.atom, ctx));
    if (l.atom.rel !== 'true' && !n.done.has(i) && !unfolded.has(atomText(l.atom, n.s))) group.push(...unfoldSplits(n, i, l.atom, ctx));
    if (group.length === 0) continue;
    groups.push(group);
    // This literal's splits leave at most one case open: the first with the fewest is taken.
    if (group.map((sp) => advance(sp, 2, goal, ctx)).includes(true)) return fewestOpen(group, goal, ctx);
  }
  return fewestOpen(groups.flat(), goal, ctx);
}

/** The open cases of the first split with the fewest (undefined: none can be taken), each split looked at only while it could still be fewer. */
function fewestOpen(splits: readonly Split[], goal: readonly [Term[], Term[]], ctx: UnfoldContext): CaseNode[] | undefined {
  let best: Split | undefined;
  for (const sp of splits) if (advance(sp, best?.open.length ?? Infinity, goal, ctx)) best = sp;
  return best?.open;
}

/** The split of unfolding atom `i` by its relation's rules (none: not unfoldable here). */
function unfoldSplits(n: CaseNode, i: number, atom: Atom, ctx: UnfoldContext): Split[] {
  const rules = ctx.base.rules.get(relKey(atom.rel, atom.args.length));
  if (rules === undefined) return [];
  const deep = n.deep.has(i);
  const fitting = rules.flatMap((rule) => {
    const r = renameRule(rule, `u${ctx.counter.tag++}`);
    const t = new Map(n.s);
    return atom.args.every((a, j) => unify(a, r.head.args[j]!, t)) ? [{ r, t }] : [];
  });
  if (!deep && fitting.length > MAX_SHALLOW_RULES) return [];
  const done = new Set([...n.done, i]);
  const candidates = fitting.map(({ r, t }): CaseNode => {
    // A move's legality is read, but what its `legal` rule reads is unfolded only when that is cheap.
    const more = deep && atom.rel !== 'does' ? r.body.map((_, j) => n.body.length + j) : [];
    return { body: [...n.body, ...r.body], s: t, done, deep: new Set([...n.deep, ...more]), depth: n.depth + 1 };
  });
  return [split(candidates, deep ? Infinity : 2)];
}

/**
 * The split of a `does` atom whose role is a variable, one case per role of the game (only roles
 * move), so that one move per role can meet the pair's other `does` atoms; none otherwise.
 */
function roleSplits(n: CaseNode, atom: Atom, ctx: UnfoldContext): Split[] {
  const r = walk(atom.args[0]!, n.s);
  const roles = ctx.base.facts.get('role/1');
  if (r.kind !== 'var' || roles === undefined) return [];
  return [split(roles.flatMap(([role]): CaseNode[] => {
    const t = new Map(n.s);
    return unify(r, role!, t) ? [{ ...n, s: t, depth: n.depth + 1 }] : [];
  }))];
}

/**
 * The splits of a `true` atom's open arguments (of a pair's body or an unfolded derived rule,
 * not of a `legal` rule: cost), one per argument with at most {@link MAX_VALUE_CASES} values: a
 * case per value the game's fluents of its relation have there (among those agreeing with its
 * ground arguments), since the state holds only fluents of the game.
 */
function valueSplits(n: CaseNode, atom: Atom, ctx: UnfoldContext): Split[] {
  const f = walk(atom.args[0]!, n.s);
  if (f.kind !== 'fn') return [];
  const args = f.args.map((a) => walk(a, n.s));
  const all = ctx.base.fluents.get(relKey(f.name, args.length));
  if (all === undefined) return [];
  const rows = all.filter((row) => args.every((a, j) => a.kind !== 'const' || (row[j]!.kind === 'const' && row[j]!.name === a.name)));
  return args.flatMap((a, j): Split[] => {
    if (a.kind !== 'var') return [];
    const values = new Map(rows.map((row) => [key(row[j]!, new Map()), row[j]!]));
    if (values.size > MAX_VALUE_CASES) return [];
    return [split([...values.values()].flatMap((v): CaseNode[] => {
      const t = new Map(n.s);
      return unify(a, v, t) ? [{ ...n, s: t, depth: n.depth + 1 }] : [];
    }))];
  });
}
