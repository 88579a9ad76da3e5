/**
 * "At least one per key" proven on the rules with variables (docs/mutex.md, section 2b). A
 * hypothesis (relation f, input positions I) whose groups are all exactly-one candidates claims:
 * in every reachable state, every group (every key k of its ground fluents) has a true member.
 * The initial state is checked on the ground groups; for the step, each member g = f(k, o) of
 * each group is taken in turn as the fluent that holds now (the induction hypothesis says one
 * does), and the successor must hold a member of the same group: some `next` rule of f with key
 * k must fire. That is shown by a case analysis (a small tableau) over one transition:
 *
 * - a *branch* is a set of literals over variables that all hold, for some values of the
 *   variables, in the current state under the joint move: at first only `(true g)`;
 * - a branch is *closed* (impossible) when forcing equalities reaches a contradiction, exactly
 *   as the lifted "at most one" proof does (lifted.ts), with the proven AMO claims assumed;
 * - a branch is *covered* when some `next` rule of f, its head's key unified with k, has every
 *   body literal entailed by the branch: a positive literal matched (binding only the rule's
 *   variables) by one of the branch, a `distinct` between different ground terms or present,
 *   a negative literal present;
 * - otherwise the branch splits, and both or all cases must close or be covered: on a role's
 *   move (one case per `legal` rule of that role: the joint move is legal, one move per role),
 *   on a `distinct` of a rule body (its sides differ, or are unified), or on a literal of a rule
 *   body (it holds, or its negation holds).
 *
 * Each split is a complete case distinction, so some case holds in every real transition; a
 * covered case makes the rule fire with key k, whose head is then a fluent of the game with
 * key k, a member of the group when every fluent of f has a `true` atom in the view (checked
 * by the caller). Node and depth limits make the search give up ("unknown"), never conclude.
 */
import type { Deadline } from '../deadline.js';
import { type Term, NO_POS } from '../gdl/ast.js';
import type { Literal, NormalGame, NormalRule } from '../normalize/types.js';
import type { Hypothesis } from './candidates.js';
import { type Existence, type Implication, existenceAtoms, impliedAtoms } from './implications.js';
import { type Assumed, type StaticFacts, closes } from './lifted-core.js';
import { type FactRows, factRows } from './lifted-fact-rows.js';
import { literalWays } from './lifted-match.js';
import { type Subst, renameRule, unify, walk } from './lifted-terms.js';
import { termRel } from './lifted-relax.js';
import { ruleBase } from './lifted-unfold.js';
import { unfoldCases, unfoldTarget, wantedRelations } from './lifted-alo-unfold.js';

/** One branch of the case analysis: literals that hold together, and the equalities known. */
interface Branch {
  readonly lits: readonly Literal[];
  readonly s: Subst;
  /** Roles whose move has been split on. */
  readonly moved: ReadonlySet<string>;
  readonly depth: number;
  /** Indexes of the derived atoms of `lits` read backwards already (lifted-alo-unfold.ts). */
  readonly unfolded?: ReadonlySet<number>;
}

/** Limits of one member's search. */
const MAX_DEPTH = 12;
const MAX_NODES = 2000;
/** Nodes of a search per read of the budget's clock (a member's search reads it before its first node too). */
const NODES_PER_LOOK = 8;

/** What the search reads: f's `next` rules, the roles and their `legal` rules (the rules an implication's step reads too), the assumed AMO claims. */
interface AloContext extends ImplicationRules {
  readonly assumed: Assumed;
  /** Implications proven (or assumed in the induction): their atoms are added beside every `true` atom of a branch. */
  readonly implied: readonly Implication[];
  readonly mentionsDoes: boolean;
  readonly deadline: Deadline;
  /** Fresh tags for renaming rules apart; nodes visited for the node limit. */
  counter: { tag: number; nodes: number };
  /** The derived relations `nexts` read (lifted-alo-unfold.ts). */
  readonly wanted: ReadonlySet<string>;
}

/** Whether variable names belong to a rule renamed with the tag (`X#r12`). */
const ofTag = (tag: string) => (name: string): boolean => name.endsWith(`#${tag}`);

/** The term with every bound variable replaced by its value. */
function resolve(t: Term, s: Subst): Term {
  const u = walk(t, s);
  return u.kind === 'fn' ? { ...u, args: u.args.map((a) => resolve(a, s)) } : u;
}

function resolveLit(l: Literal, s: Subst): Literal {
  if (l.kind === 'distinct') return { ...l, left: resolve(l.left, s), right: resolve(l.right, s) };
  return { ...l, atom: { ...l.atom, args: l.atom.args.map((a) => resolve(a, s)) } };
}


/** Rank of an open literal for splitting: equalities first, then negations, then facts. */
const rank = (l: Literal): number => (l.kind === 'distinct' ? 0 : l.kind === 'neg' ? 1 : 2);

/** A rule body matched against a branch: the literals left unmatched (resolved), if any. */
type Match = { readonly kind: 'covered' } | { readonly kind: 'partial'; readonly open: readonly Literal[] };

/**
 * Matches the body literals from `i` on against the branch, extending `s` (binding only the
 * rule's variables; lifted-match.ts); reports every way through to `found` (stops early once covered).
 */
function matchBody(body: readonly Literal[], i: number, br: Branch, s: Subst, bindable: (n: string) => boolean, open: Literal[], found: Match[], ctx: AloContext): void {
  if (found.some((m) => m.kind === 'covered') || found.length > 16) return;
  if (i === body.length) {
    found.push(open.length === 0 ? { kind: 'covered' } : { kind: 'partial', open: open.map((l) => resolveLit(l, s)) });
    return;
  }
  const l = body[i]!;
  for (const way of literalWays(l, br.lits, s, bindable, ctx.facts, false, ctx.rows)) matchBody(body, i + 1, br, way.s, bindable, way.open ? [...open, l] : open, found, ctx);
}

/** The ways each `next` rule of f with key `k` (the input arguments) meets the branch. */
function matches(br: Branch, input: readonly number[], k: readonly Term[], ctx: AloContext): Match[] {
  const out: Match[] = [];
  for (const rule of ctx.nexts) {
    const tag = `r${ctx.counter.tag++}`;
    const r = renameRule(rule, tag);
    const head = r.head.args[0]!;
    const bindable = ofTag(tag);
    const s: Subst = new Map(br.s);
    if (head.kind !== 'fn' || !input.every((i, j) => unify(head.args[i]!, k[j]!, s, bindable))) continue;
    // Positive literals first: they bind the variables the others read.
    matchBody([...r.body].sort((a, b) => rank(b) - rank(a)), 0, br, s, bindable, [], out, ctx);
    if (out.some((m) => m.kind === 'covered')) return out;
  }
  return out;
}

/** A branch with more literals (and equalities in `s`), or undefined when it closes. */
function extend(br: Branch, lits: readonly Literal[], s: Subst, moved: ReadonlySet<string>, ctx: AloContext): Branch | undefined {
  const all = [...br.lits, ...lits, ...impliedAtoms(lits, s, ctx.implied, ctx.counter)];
  const t = new Map(s);
  if (closes(all, t, undefined, ctx.assumed)) return undefined;
  return { lits: all, s: t, moved, depth: br.depth + 1, unfolded: br.unfolded };
}

/** The cases of one role's move: one per `legal` rule whose head can name the role. */
function moveCases(br: Branch, role: string, ctx: AloContext): (Branch | undefined)[] {
  const moved = new Set([...br.moved, role]);
  const roleTerm: Term = { kind: 'const', name: role, pos: NO_POS };
  return ctx.legal.flatMap((rule) => {
    const r = renameRule(rule, `l${ctx.counter.tag++}`);
    const s: Subst = new Map(br.s);
    if (!unify(r.head.args[0]!, roleTerm, s)) return [];
    const does: Literal = { kind: 'pos', atom: { kind: 'atom', rel: 'does', args: [roleTerm, r.head.args[1]!], pos: r.head.pos } };
    return [extend(br, [does, ...r.body], s, moved, ctx)];
  });
}

/** The role of a `does` literal of the branch that is still a variable, if any. */
function roleVariable(br: Branch): Term | undefined {
  for (const l of br.lits) {
    if (l.kind !== 'pos' || l.atom.rel !== 'does' || l.atom.args.length !== 2) continue;
    const r = walk(l.atom.args[0]!, br.s);
    if (r.kind === 'var') return r;
  }
  return undefined;
}

/**
 * The cases of a `does` whose role is a variable: one per role of the game (only roles move), so
 * that the moves split on per role, and the facts of 2e given per role, can meet it.
 */
function roleCases(br: Branch, v: Term, ctx: AloContext): (Branch | undefined)[] {
  return ctx.roles.map((role) => {
    const s: Subst = new Map(br.s);
    return unify(v, { kind: 'const', name: role, pos: NO_POS }, s) ? extend(br, [], s, br.moved, ctx) : undefined;
  });
}

/** The two cases of an open literal: it holds, or it does not (a `distinct`: its sides are equal). */
function literalCases(br: Branch, l: Literal, ctx: AloContext): (Branch | undefined)[] {
  if (l.kind === 'distinct') {
    const s = new Map(br.s);
    const equal = unify(l.left, l.right, s) ? extend(br, [], s, br.moved, ctx) : undefined;
    return [extend(br, [l], br.s, br.moved, ctx), equal];
  }
  const other: Literal = { kind: l.kind === 'pos' ? 'neg' : 'pos', atom: l.atom };
  return [extend(br, [l], br.s, br.moved, ctx), extend(br, [other], br.s, br.moved, ctx)];
}


/** Whether some `terminal` rule's body is entailed by the branch: its state is terminal, so no transition leaves it. */
function isTerminal(br: Branch, ctx: AloContext): boolean {
  return ctx.terminal.some((rule) => {
    const tag = `t${ctx.counter.tag++}`;
    const out: Match[] = [];
    matchBody([...renameRule(rule, tag).body].sort((a, b) => rank(b) - rank(a)), 0, br, new Map(br.s), ofTag(tag), [], out, ctx);
    return out.some((m) => m.kind === 'covered');
  });
}

/**
 * Whether every real transition of the branch makes a `next` rule of f fire with key `k`: searched
 * as before, then, when that fails where a derived atom of a branch could be read backwards, again
 * with those atoms unfolded (2l), so that what the first search proves stays proven.
 */
function covered(root: Branch, input: readonly number[], k: readonly Term[], ctx: AloContext): boolean {
  const seen = { unfoldable: false };
  if (search(root, input, k, ctx, seen, false)) return true;
  if (!seen.unfoldable) return false;
  ctx.counter.nodes = 0;
  return search(root, input, k, ctx, seen, true);
}

/** The cases of reading the derived atom at `i` of the branch backwards: one per rule of its relation. */
function unfoldedCases(br: Branch, i: number, ctx: AloContext): (Branch | undefined)[] {
  const unfolded = new Set([...(br.unfolded ?? []), i]);
  return unfoldCases(br.lits[i]!, br.s, ctx.derived, () => `u${ctx.counter.tag++}`).map((c) => {
    const b = extend({ ...br, unfolded }, c.body, c.s, br.moved, ctx);
    return b === undefined ? undefined : { ...b, unfolded };
  });
}

/** The search of {@link covered}; `unfold`: read derived atoms backwards, else only note in `seen` that some could be. */
function search(root: Branch, input: readonly number[], k: readonly Term[], ctx: AloContext, seen: { unfoldable: boolean }, unfold: boolean): boolean {
  const todo: Branch[] = [root];
  let looked = 0;
  while (todo.length > 0) {
    const br = todo.pop()!;
    // The budget is read every NODES_PER_LOOK nodes: at every one, the read took a sixth of
    // mineClearingSmall's searches (most of its 11,358 members' searches are a node or two).
    if (++ctx.counter.nodes > MAX_NODES || br.depth > MAX_DEPTH || (++looked % NODES_PER_LOOK === 0 && ctx.deadline.passed())) return false;
    const found = matches(br, input, k, ctx);
    if (found.some((m) => m.kind === 'covered') || isTerminal(br, ctx)) continue;
    const role = ctx.mentionsDoes ? ctx.roles.find((r) => !br.moved.has(r)) : undefined;
    const unnamed = roleVariable(br);
    let cases: (Branch | undefined)[];
    const target = role === undefined && unnamed === undefined ? unfoldTarget(br.lits, br.unfolded ?? new Set(), ctx.derived, ctx.wanted) : undefined;
    if (target !== undefined) seen.unfoldable = true;
    if (unnamed !== undefined) cases = roleCases(br, unnamed, ctx);
    else if (role !== undefined) cases = moveCases(br, role, ctx);
    else if (unfold && target !== undefined) cases = unfoldedCases(br, target, ctx);
    else {
      const open = found.flatMap((m) => (m.kind === 'partial' ? [m.open] : [])).sort((a, b) => a.length - b.length)[0];
      if (open === undefined) return false;
      const l = [...open].sort((a, b) => rank(a) - rank(b))[0]!;
      cases = literalCases(br, l, ctx);
    }
    for (const c of cases) if (c !== undefined) todo.push(c);
  }
  return true;
}

/** The ground members, as syntax-tree terms, of the hypothesis to prove, with its groups. */
interface AloTask {
  readonly hypothesis: Hypothesis;
  /** The members of each group as terms (`f(k, o)`), every group with a member initially true. */
  readonly groups: readonly (readonly Term[])[];
}

/** Most cases the root of a member's search is split into by the exactly-one claims proven over whole relations. */
const MAX_EXIST_CASES = 16;

/**
 * Per task, whether "at least one per key" is proven lifted. `assumed`: the AMO claims proven
 * already (per relation, input positions), used to close branches. The tasks over a whole relation
 * (no input) come first: once one is proven, some member of it holds in every reachable state, so
 * the later tasks' first branch is split over which one (a complete case distinction).
 */
export function proveLiftedAlo(normal: NormalGame, tasks: readonly AloTask[], assumed: Assumed, deadline: Deadline, implied: readonly Implication[] = []): boolean[] {
  const rules = implicationRules(normal);
  // A `next` rule whose fluent is a variable could make any fluent true: nothing is proven.
  if (rules.nexts.some((r) => r.head.args[0]!.kind === 'var')) return tasks.map(() => false);
  const out = tasks.map(() => false);
  const exists: (readonly Term[])[] = [];
  const order = [...tasks.keys()].sort((a, b) => Number(tasks[a]!.hypothesis.input.length > 0) - Number(tasks[b]!.hypothesis.input.length > 0) || a - b);
  for (const i of order) {
    const task = tasks[i]!;
    out[i] = taskProven(rules, task, assumed, implied, exists, deadline);
    if (out[i] && task.hypothesis.input.length === 0 && task.groups.length === 1) exists.push(task.groups[0]!);
  }
  return out;
}

/** Whether every member of every group of the task makes some `next` rule of its relation fire with its key. */
function taskProven(
  rules: ImplicationRules, task: AloTask, assumed: Assumed, implied: readonly Implication[], exists: readonly (readonly Term[])[], deadline: Deadline,
): boolean {
  const own = nextsOf(rules.nexts, task.hypothesis.relation);
  const mentionsDoes = own.some((r) => r.body.some((l) => l.kind !== 'distinct' && l.atom.rel === 'does'));
  const ctx: AloContext = { ...rules, nexts: own, assumed, implied, mentionsDoes, deadline, counter: { tag: 0, nodes: 0 }, wanted: wantedRelations(own, rules.derived) };
  return task.groups.every((members) => members.every((g) => {
    if (deadline.passed()) return false;
    ctx.counter.nodes = 0;
    const lits: Literal[] = [{ kind: 'pos', atom: { kind: 'atom', rel: 'true', args: [g], pos: g.pos } }];
    let roots: Branch[] = [{ lits: [...lits, ...impliedAtoms(lits, new Map(), implied, ctx.counter)], s: new Map(), moved: new Set(), depth: 0 }];
    for (const one of exists) {
      if (roots.length * one.length > MAX_EXIST_CASES) continue;
      roots = roots.flatMap((r) => one.flatMap((m) => extend(r, [{ kind: 'pos', atom: { kind: 'atom', rel: 'true', args: [m], pos: m.pos } }], r.s, r.moved, ctx) ?? []));
    }
    const k = task.hypothesis.input.map((i) => (g as { args: readonly Term[] }).args[i]!);
    return roots.every((root) => covered(root, task.hypothesis.input, k, ctx));
  }));
}

/** The `next` rules whose fluent is of relation `name/arity`. */
function nextsOf(nexts: readonly NormalRule[], rel: string): NormalRule[] {
  return nexts.filter((r) => {
    const t = r.head.args[0]!;
    return t.kind !== 'var' && termRel(t) === rel;
  });
}

/** What the step of an implication's proof reads: the game's `next`, `legal` rules and roles. */
interface ImplicationRules {
  readonly nexts: readonly NormalRule[];
  readonly legal: readonly NormalRule[];
  readonly roles: readonly string[];
  /** The static relations' facts (true in every state): a static literal of a rule is matched against them. */
  readonly facts: StaticFacts;
  /** `facts` indexed, built as the searches ask (lifted-fact-rows.ts). */
  readonly rows: FactRows;
  /** The `terminal` rules: a branch where one fires is a terminal state, which has no successor. */
  readonly terminal: readonly NormalRule[];
  /** The rules of the non-recursive derived relations (not `does`), read backwards by 2l (lifted-alo-unfold.ts). */
  readonly derived: ReadonlyMap<string, readonly NormalRule[]>;
}

/** The rules {@link implicationStep} reads, once per game. */
export function implicationRules(normal: NormalGame): ImplicationRules {
  const base = ruleBase(normal, new Map());
  return {
    nexts: normal.rules.filter((r) => r.head.rel === 'next' && r.head.args.length === 1),
    legal: normal.rules.filter((r) => r.head.rel === 'legal' && r.head.args.length === 2),
    roles: normal.rules.flatMap((r) => (r.head.rel === 'role' && r.body.length === 0 && r.head.args[0]?.kind === 'const' ? [r.head.args[0].name] : [])),
    facts: base.facts,
    rows: factRows(base.facts),
    terminal: normal.rules.filter((r) => r.head.rel === 'terminal' && r.head.args.length === 0),
    derived: new Map([...base.rules].filter(([rel]) => rel !== 'does/2')),
  };
}

/**
 * The step of an implication P => Q (docs/mutex.md, 2d): whenever a `next` rule of P fires, with
 * head P(t), some `next` rule of Q fires with Q's mapped arguments those of t. Shown by the case
 * analysis above with the rule's body (and what `implied` adds to it) as the first branch and the
 * mapped arguments of t as the key. `implied` (the claim itself included) is assumed of the
 * current state, as induction allows; the caller checks the initial state.
 */
export function implicationStep(
  rules: ImplicationRules, imp: Implication, assumed: Assumed, implied: readonly Implication[], deadline: Deadline, exists: readonly Existence[] = [],
): boolean {
  if (rules.nexts.some((r) => r.head.args[0]!.kind === 'var')) return false;
  const own = nextsOf(rules.nexts, imp.to);
  const mentionsDoes = own.some((r) => r.body.some((l) => l.kind !== 'distinct' && l.atom.rel === 'does'));
  const ctx: AloContext = { ...rules, nexts: own, assumed, implied, mentionsDoes, deadline, counter: { tag: 0, nodes: 0 }, wanted: wantedRelations(own, rules.derived) };
  const input = imp.map.flatMap((j, i) => (j === undefined ? [] : [i]));
  return nextsOf(rules.nexts, imp.from).every((rule, n) => {
    const r = renameRule(rule, `p${n}`);
    const head = r.head.args[0]!;
    if (head.kind !== 'fn' || deadline.passed()) return false;
    ctx.counter.nodes = 0;
    const s: Subst = new Map();
    // A body that cannot hold at all: the rule never fires.
    if (closes(r.body, s, undefined, assumed)) return true;
    // The facts proven before the induction (lifted-exists.ts) hold in the current state too.
    const root: Branch = { lits: [...r.body, ...impliedAtoms(r.body, s, implied, ctx.counter), ...existenceAtoms(exists, ctx.counter)], s, moved: new Set(), depth: 0 };
    return covered(root, input, imp.map.flatMap((j) => (j === undefined ? [] : [head.args[j]!])), ctx);
  });
}
