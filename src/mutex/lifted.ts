/**
 * "At most one" hypotheses proven on the rules with variables (docs/mutex.md, section 2a), in
 * the spirit of Helmert's invariant synthesis (Fast Downward, translate/invariants.py) adapted
 * to GDL, where `next` defines the whole successor state. A hypothesis (relation f, input
 * positions I) claims: in every reachable state, for every key, at most one `f` fluent with
 * those input arguments is true. A set S of such claims is an invariant when the initial state
 * satisfies it and, for every pair of `next` rule schemas with head `f` (a rule paired with a
 * renamed copy of itself included), the two bodies cannot both hold in one state satisfying S
 * under one joint move when the heads agree on I and differ elsewhere. "Cannot" is shown
 * syntactically, and only then: a `distinct` whose sides become identical, an atom both
 * required and forbidden, two `does` of one role (one move per role: their actions unify), two
 * `true` atoms of a claim of S with identical inputs (their outputs unify). Anything else
 * counts as possible, so the answer is "proven" or "unknown", never wrong.
 */
import type { Deadline } from '../deadline.js';
import type { Atom, Term } from '../gdl/ast.js';
import type { Literal, NormalGame, NormalRule } from '../normalize/types.js';
import type { Hypothesis } from './candidates.js';
import type { MutexView } from './view.js';

/** Variable bindings of one pair check (or one branch of lifted-alo.ts). */
export type Subst = Map<string, Term>;

/** Limits of the lifted proof. */
interface LiftedLimits {
  readonly deadline: Deadline;
  /** Rule pairs checked before the lifted proof gives up (every claim then counts as unknown). */
  readonly maxPairs: number;
}

/**
 * Per hypothesis whether "at most one per key" is proven (for every key, or for the keys of
 * `partial` when the hypothesis was offered only for those), the proven claims as assumptions
 * for lifted-alo.ts, and the rule pairs checked.
 */
interface LiftedResult {
  readonly proven: readonly boolean[];
  readonly assumed: Assumed;
  readonly pairs: number;
}

/** Follows variable bindings to the term a variable stands for. */
export function walk(t: Term, s: Subst): Term {
  let u = t;
  while (u.kind === 'var') {
    const b = s.get(u.name);
    if (b === undefined) return u;
    u = b;
  }
  return u;
}

/** Canonical text of a term under `s`; identical texts mean identical terms. */
export function key(t: Term, s: Subst): string {
  const u = walk(t, s);
  if (u.kind === 'var') return u.name;
  if (u.kind === 'const') return u.name;
  return `(${u.name} ${u.args.map((a) => key(a, s)).join(' ')})`;
}

/** Whether `t` under `s` has no variable. */
function ground(t: Term, s: Subst): boolean {
  const u = walk(t, s);
  return u.kind === 'const' || (u.kind === 'fn' && u.args.every((a) => ground(a, s)));
}

/** Whether variable `v` occurs in `t` under `s`. */
function occurs(v: string, t: Term, s: Subst): boolean {
  const u = walk(t, s);
  if (u.kind === 'var') return u.name === v;
  return u.kind === 'fn' && u.args.some((a) => occurs(v, a, s));
}

/** Every variable may be bound. */
const ANY_VAR = (): boolean => true;

/**
 * Unifies a and b, extending `s`; false when they cannot be made equal (s is then spoiled).
 * Only variables `bindable` accepts are bound (default all): the exactly-one proof matches a
 * rule against a claim whose own variables must stay as they are.
 */
export function unify(a: Term, b: Term, s: Subst, bindable: (name: string) => boolean = ANY_VAR): boolean {
  const stack: [Term, Term][] = [[a, b]];
  while (stack.length > 0) {
    const [x0, y0] = stack.pop()!;
    const x = walk(x0, s);
    const y = walk(y0, s);
    if (x.kind === 'var' && y.kind === 'var' && x.name === y.name) continue;
    const v = x.kind === 'var' && bindable(x.name) ? x : y.kind === 'var' && bindable(y.name) ? y : undefined;
    if (v !== undefined) {
      const t = v === x ? y : x;
      if (occurs(v.name, t, s)) return false;
      s.set(v.name, t);
      continue;
    }
    if (x.kind === 'var' || y.kind === 'var' || x.kind !== y.kind || x.name !== y.name) return false;
    if (x.kind === 'fn' && y.kind === 'fn') {
      if (x.args.length !== y.args.length) return false;
      x.args.forEach((xa, i) => stack.push([xa, y.args[i]!]));
    }
  }
  return true;
}

/** The term with every variable renamed apart by `tag`. */
function renameTerm(t: Term, tag: string): Term {
  if (t.kind === 'var') return { ...t, name: `${t.name}#${tag}` };
  if (t.kind === 'const') return t;
  return { ...t, args: t.args.map((a) => renameTerm(a, tag)) };
}

function renameAtom(a: Atom, tag: string): Atom {
  return { ...a, args: a.args.map((t) => renameTerm(t, tag)) };
}

/** The rule with every variable renamed apart by `tag`. */
export function renameRule(r: NormalRule, tag: string): NormalRule {
  const body = r.body.map((l): Literal => (l.kind === 'distinct' ? { ...l, left: renameTerm(l.left, tag), right: renameTerm(l.right, tag) } : { ...l, atom: renameAtom(l.atom, tag) }));
  return { head: renameAtom(r.head, tag), body, pos: r.pos };
}

/**
 * A claim assumed of the current state: "at most one per key" over the input positions, for
 * every key or only the keys (canonical texts of the ground input arguments) in `keys`.
 */
interface AssumedClaim {
  readonly input: readonly number[];
  readonly keys?: ReadonlySet<string>;
  /** The positions two atoms with equal inputs agree on (default: every other position). */
  readonly output?: readonly number[];
}

/** Key of {@link Assumed} under which a static relation's functional dependencies are kept. */
const staticKey = (rel: string, arity: number): string => `static ${rel}/${arity}`;

/** The claims assumed of the current state, per `name/arity`. */
export type Assumed = ReadonlyMap<string, readonly AssumedClaim[]>;

/**
 * Whether a required fact, a forbidden one or a `distinct` already contradict each other, or
 * the goal's two output lists became identical (no goal: lifted-alo.ts's branches).
 */
function contradicts(body: readonly Literal[], s: Subst, goal: readonly [Term[], Term[]] | undefined): boolean {
  if (goal !== undefined && goal[0].map((t) => key(t, s)).join(' ') === goal[1].map((t) => key(t, s)).join(' ')) return true;
  const pos = new Set<string>();
  for (const l of body) {
    if (l.kind === 'distinct' && key(l.left, s) === key(l.right, s)) return true;
    if (l.kind === 'pos') pos.add(`${l.atom.rel} ${l.atom.args.map((a) => key(a, s)).join(' ')}`);
  }
  return body.some((l) => l.kind === 'neg' && pos.has(`${l.atom.rel} ${l.atom.args.map((a) => key(a, s)).join(' ')}`));
}

/**
 * One forcing step: two facts that can only hold together when some of their arguments are
 * equal (two `does` of one role, two `true` atoms of an assumed claim with identical inputs)
 * get those arguments unified. 'changed', 'same' (nothing to force) or 'conflict'.
 */
function force(body: readonly Literal[], s: Subst, assumed: Assumed): 'changed' | 'same' | 'conflict' {
  const facts = body.filter((l) => l.kind === 'pos' && (l.atom.rel === 'true' || l.atom.rel === 'does' || assumed.has(staticKey(l.atom.rel, l.atom.args.length))));
  for (let i = 0; i < facts.length; i++) {
    for (let j = i + 1; j < facts.length; j++) {
      const a = (facts[i] as { atom: Atom }).atom;
      const b = (facts[j] as { atom: Atom }).atom;
      if (a.rel !== b.rel || a.args.length !== b.args.length) continue;
      const pairs = a.rel === 'does' ? doesPairs(a, b, s) : a.rel === 'true' ? truePairs(a, b, s, assumed) : functionalPairs(a, b, s, assumed);
      for (const [x, y] of pairs) {
        if (key(x, s) === key(y, s)) continue;
        return unify(x, y, s) ? 'changed' : 'conflict';
      }
    }
  }
  return 'same';
}

/** One move per role: two `does` of an identical role name the same action. */
function doesPairs(a: Atom, b: Atom, s: Subst): [Term, Term][] {
  if (a.args.length !== 2 || key(a.args[0]!, s) !== key(b.args[0]!, s)) return [];
  return [[a.args[1]!, b.args[1]!]];
}

/** A static relation functional from one position to another: two facts with identical inputs have equal outputs. */
function functionalPairs(a: Atom, b: Atom, s: Subst, assumed: Assumed): [Term, Term][] {
  for (const { input, output } of assumed.get(staticKey(a.rel, a.args.length)) ?? []) {
    if (input.every((i) => key(a.args[i]!, s) === key(b.args[i]!, s))) return (output ?? []).map((j) => [a.args[j]!, b.args[j]!]);
  }
  return [];
}

/**
 * The functional dependencies of the static relations (defined by ground facts only): position
 * i determines position j when no two facts agree at i and differ at j (`succ`: the successor
 * of a number is one number). Such relations mean the same in every state, so two of their
 * atoms with equal inputs have equal outputs in any state, as forcing assumes.
 */
function functionalStatics(normal: NormalGame): Map<string, AssumedClaim[]> {
  const facts = new Map<string, Term[][]>();
  const derived = new Set<string>();
  for (const r of normal.rules) {
    const k = staticKey(r.head.rel, r.head.args.length);
    const isFact = r.body.length === 0 && r.head.args.every((t) => ground(t, new Map()));
    if (!isFact || ['true', 'does', 'next', 'init', 'legal', 'goal', 'terminal', 'role'].includes(r.head.rel)) derived.add(k);
    else facts.set(k, [...(facts.get(k) ?? []), [...r.head.args]]);
  }
  const out = new Map<string, AssumedClaim[]>();
  for (const [k, rows] of facts) {
    if (derived.has(k) || rows[0]!.length < 2) continue;
    const n = rows[0]!.length;
    const texts = rows.map((row) => row.map((t) => key(t, new Map())));
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        if (i === j) continue;
        const seen = new Map<string, string>();
        if (texts.every((row) => seen.get(row[i]!) === undefined ? (seen.set(row[i]!, row[j]!), true) : seen.get(row[i]!) === row[j]!)) {
          out.set(k, [...(out.get(k) ?? []), { input: [i], output: [j] }]);
        }
      }
    }
  }
  return out;
}

/** An assumed claim: two `true` fluents of its relation with identical inputs have equal outputs. */
function truePairs(a: Atom, b: Atom, s: Subst, assumed: Assumed): [Term, Term][] {
  const x = walk(a.args[0]!, s);
  const y = walk(b.args[0]!, s);
  if (x.kind !== 'fn' || y.kind !== 'fn' || x.name !== y.name || x.args.length !== y.args.length) return [];
  for (const { input, keys } of assumed.get(`${x.name}/${x.args.length}`) ?? []) {
    if (!input.every((i) => key(x.args[i]!, s) === key(y.args[i]!, s))) continue;
    // A claim on some keys only: the key must be ground and one of them.
    if (keys !== undefined && !(input.every((i) => ground(x.args[i]!, s)) && keys.has(input.map((i) => key(x.args[i]!, s)).join(' ')))) continue;
    const out: [Term, Term][] = [];
    x.args.forEach((xa, i) => (input.includes(i) ? undefined : out.push([xa, y.args[i]!])));
    return out;
  }
  return [];
}

/** What a pair check reads besides the two rules. */
interface Context {
  readonly assumed: Assumed;
  /** The `legal` rules of the game, each `legal(R, A)` with its body. */
  readonly legal: readonly NormalRule[];
}

/** Most cases (one `legal` rule per `does` fact of the pair) a pair check splits into. */
const MAX_LEGAL_CASES = 256;

/**
 * Whether two `next` rules with head relation f cannot both fire for one key with different
 * outputs in a state satisfying the assumed claims (true: refuted; false: unknown).
 */
function pairRefuted(r1: NormalRule, r2: NormalRule, input: readonly number[], ctx: Context, at?: readonly Term[]): boolean {
  const a = renameRule(r1, '1');
  const b = renameRule(r2, '2');
  const t1 = a.head.args[0]!;
  const t2 = b.head.args[0]!;
  if (t1.kind !== 'fn' || t2.kind !== 'fn') return false;
  const s: Subst = new Map();
  if (!input.every((i) => unify(t1.args[i]!, t2.args[i]!, s))) return true;
  // A claim on one key only: both heads have that key.
  if (at !== undefined && !input.every((i, j) => unify(t1.args[i]!, at[j]!, s))) return true;
  const outputs = [...t1.args.keys()].filter((i) => !input.includes(i));
  const goal: [Term[], Term[]] = [outputs.map((i) => t1.args[i]!), outputs.map((i) => t2.args[i]!)];
  const body = [...a.body, ...b.body];
  return closes(body, s, goal, ctx.assumed) || legalCasesClose(body, s, goal, ctx);
}

/** Forces equalities until a contradiction (true) or nothing more to force (false); extends `s`. */
export function closes(body: readonly Literal[], s: Subst, goal: readonly [Term[], Term[]] | undefined, assumed: Assumed): boolean {
  for (;;) {
    if (contradicts(body, s, goal)) return true;
    const step = force(body, s, assumed);
    if (step === 'conflict') return true;
    if (step === 'same') return false;
  }
}

/**
 * A joint move is legal: every `does(R, A)` of the bodies needs some `legal` rule with a head
 * unifying with `legal(R, A)` whose body holds in the same state. Splits into one case per
 * choice of such rules (renamed apart); the pair is refuted when every case closes.
 */
function legalCasesClose(body: readonly Literal[], s: Subst, goal: readonly [Term[], Term[]], ctx: Context): boolean {
  const does = body.flatMap((l) => (l.kind === 'pos' && l.atom.rel === 'does' && l.atom.args.length === 2 ? [l.atom] : []));
  if (does.length === 0) return false;
  const cases = does.reduce((n) => n * ctx.legal.length, 1);
  if (cases > MAX_LEGAL_CASES) return false;
  for (let c = 0; c < cases; c++) {
    const t: Subst = new Map(s);
    const extra: Literal[] = [];
    let possible = true;
    for (let k = 0, rest = c; k < does.length && possible; k++, rest = Math.floor(rest / ctx.legal.length)) {
      const r = renameRule(ctx.legal[rest % ctx.legal.length]!, `L${k}`);
      possible = unify(does[k]!.args[0]!, r.head.args[0]!, t) && unify(does[k]!.args[1]!, r.head.args[1]!, t);
      extra.push(...r.body);
    }
    // A choice whose heads do not fit the moves is no case at all.
    if (possible && !closes([...body, ...extra], t, goal, ctx.assumed)) return false;
  }
  return true;
}

/** Per hypothesis, whether the initial state has at most one member in each of its groups. */
function initiallyAmo(view: MutexView, hyps: readonly Hypothesis[]): boolean[] {
  const init = new Set(view.init);
  return hyps.map((h) => h.groups.every((g) => g.filter((f) => init.has(f)).length <= 1));
}

/** One group offered alone: its key (the input arguments as terms) and its members (fluent indexes). */
export interface KeyedGroup {
  readonly key: readonly Term[];
  readonly members: readonly number[];
}

/**
 * Proves "at most one per key" for the hypotheses marked `candidate` (those no sampled state
 * refuted): the greatest subset whose every rule pair is refuted assuming the subset. A
 * hypothesis not a candidate but with `partial` keys (the input arguments of its groups that
 * survived the sampling) is tried for those keys only, each pair with the heads' key fixed.
 */
export function proveLifted(
  normal: NormalGame, view: MutexView, hyps: readonly Hypothesis[], candidate: readonly boolean[], limits: LiftedLimits,
  partial: readonly (readonly KeyedGroup[] | undefined)[] = [],
): LiftedResult {
  const nexts = normal.rules.filter((r) => r.head.rel === 'next' && r.head.args.length === 1);
  const none = { proven: hyps.map(() => false), assumed: new Map(), pairs: 0 };
  // A `next` rule whose fluent is not a compound term could make any relation true: give up.
  if (nexts.some((r) => r.head.args[0]!.kind !== 'fn' && r.head.args[0]!.kind !== 'const')) return none;
  const byRelation = new Map<string, NormalRule[]>();
  for (const r of nexts) {
    const t = r.head.args[0]!;
    const rel = `${t.name}/${t.kind === 'fn' ? t.args.length : 0}`;
    byRelation.set(rel, [...(byRelation.get(rel) ?? []), r]);
  }
  const legal = normal.rules.filter((r) => r.head.rel === 'legal' && r.head.args.length === 2);
  const init = initiallyAmo(view, hyps);
  // Keys of a partial claim: the sampled states (the initial one included) had at most one member.
  // The base case of a partial claim: the initial state has at most one member of each group.
  const initSet = new Set(view.init);
  const keysOf = hyps.map((h, i) => (candidate[i] === true || h.relation.endsWith('/0') ? undefined
    : partial[i]?.filter((g) => g.members.filter((f) => initSet.has(f)).length <= 1).map((g) => g.key)));
  const active = hyps.map((h, i) => ((candidate[i] === true && init[i] === true) || (keysOf[i]?.length ?? 0) > 0) && !h.relation.endsWith('/0'));
  let pairs = 0;
  const statics = functionalStatics(normal);
  let assumed = assumedOf(hyps, active, keysOf, statics);
  for (let changed = true; changed; assumed = assumedOf(hyps, active, keysOf, statics)) {
    changed = false;
    for (let i = 0; i < hyps.length; i++) {
      if (!active[i]) continue;
      const rules = byRelation.get(hyps[i]!.relation) ?? [];
      pairs += ((rules.length * (rules.length + 1)) / 2) * (keysOf[i]?.length ?? 1);
      if (pairs > limits.maxPairs || limits.deadline.passed()) return { ...none, pairs };
      if (!allPairsRefuted(rules, hyps[i]!.input, { assumed, legal }, keysOf[i])) {
        active[i] = false;
        changed = true;
      }
    }
  }
  return { proven: active, assumed, pairs };
}

/** The active claims as assumptions: per relation, input positions and the keys of partial ones. */
function assumedOf(
  hyps: readonly Hypothesis[], active: readonly boolean[], keysOf: readonly (readonly (readonly Term[])[] | undefined)[], statics: ReadonlyMap<string, AssumedClaim[]>,
): Assumed {
  const out = new Map<string, AssumedClaim[]>(statics);
  const empty: Subst = new Map();
  hyps.forEach((h, i) => {
    if (!active[i]) return;
    const ks = keysOf[i];
    const claim = ks === undefined ? { input: h.input } : { input: h.input, keys: new Set(ks.map((k) => k.map((t) => key(t, empty)).join(' '))) };
    out.set(h.relation, [...(out.get(h.relation) ?? []), claim]);
  });
  return out;
}

/** Whether every unordered pair of the rules (a rule with itself included) is refuted, for every key of `keys` when given. */
function allPairsRefuted(rules: readonly NormalRule[], input: readonly number[], ctx: Context, keys?: readonly (readonly Term[])[]): boolean {
  for (const at of keys ?? [undefined]) {
    for (let x = 0; x < rules.length; x++) {
      for (let y = x; y < rules.length; y++) if (!pairRefuted(rules[x]!, rules[y]!, input, ctx, at)) return false;
    }
  }
  return true;
}
