/**
 * Bounds of the derived relations (docs/mutex.md, section 2a, "Bounds of derived relations"):
 * for each derived relation, a set of ground rows that contains every atom of the relation true
 * in any reachable state under any joint move. They are the least model of the *relaxed* rules:
 * every rule with its negative literals, its `does` atoms and its atoms of unbounded relations
 * dropped, and its `true` atoms read against the ground game's fluents. Dropping body literals
 * only makes more atoms derivable, and in a stratified program every atom of the perfect model
 * has a finite derivation whose positive atoms come first, so each true atom is derived in the
 * relaxed program too. Recursive relations are bounded as well (amazons' `horizontalMove`): what
 * the unfolding of derived relations cannot see through, their rows can rule out (no queen move
 * ends on its own square). A relation whose relaxed rules leave a head variable unbound, or whose
 * rows pass the limits, has no bound.
 */
import type { Deadline } from '../deadline.js';
import type { Term } from '../gdl/ast.js';
import { stronglyConnectedComponents } from '../gdl/scc.js';
import { termEquals } from '../gdl/terms.js';
import type { Literal, NormalGame, NormalRule } from '../normalize/types.js';
import { type Bound, type Bounds, type StaticFacts, key } from './lifted-core.js';

/** Rows one relation's bound may have, rows of all bounds, and rows tried in joins, before giving up (no bound). */
const MAX_RELATION_ROWS = 20_000;
const MAX_TOTAL_ROWS = 200_000;
const MAX_JOIN_STEPS = 3_000_000;
/** Join steps one component may take (so that one hard relation leaves the others theirs). */
const MAX_COMPONENT_STEPS = 500_000;
/** Join steps between two looks at the deadline, less one. */
const CLOCK_MASK = (1 << 16) - 1;

/** Relations never bounded: the state, the move, and what the rules define for the next state. */
const KEYWORDS = new Set(['true', 'does', 'next', 'init', 'base', 'input']);

const relKey = (rel: string, arity: number): string => `${rel}/${arity}`;
const EMPTY = new Map<string, Term>();

/** A bound being built: its rows, their texts (no duplicates) and an index per position. */
interface Table {
  readonly rows: (readonly Term[])[];
  readonly seen: Set<string>;
  readonly index: Map<string, (readonly Term[])[]>[];
}

function newTable(arity: number): Table {
  return { rows: [], seen: new Set(), index: Array.from({ length: arity }, () => new Map()) };
}

/** Adds a row unless present; true when added. */
function addRow(t: Table, row: readonly Term[]): boolean {
  const texts = row.map((x) => key(x, EMPTY));
  const all = texts.join(' ');
  if (t.seen.has(all)) return false;
  t.seen.add(all);
  t.rows.push(row);
  texts.forEach((k, i) => {
    const bucket = t.index[i]!.get(k);
    if (bucket === undefined) t.index[i]!.set(k, [row]);
    else bucket.push(row);
  });
  return true;
}

function tableOf(rows: readonly (readonly Term[])[], arity: number): Table {
  const t = newTable(arity);
  rows.forEach((r) => addRow(t, r));
  return t;
}

/** One body atom of a relaxed rule: its arguments at the kept positions of the relation (key) whose rows it reads. */
interface JoinAtom {
  readonly args: readonly Term[];
  readonly rel: string;
}

/** A relaxed rule: the atoms kept, the `distinct`s whose variables they bind, the head's kept arguments. */
interface Relaxed {
  readonly head: readonly Term[];
  readonly atoms: readonly JoinAtom[];
  readonly distinct: readonly (readonly [Term, Term])[];
}

function varsOf(t: Term, out: Set<string>): Set<string> {
  const stack = [t];
  while (stack.length > 0) {
    const u = stack.pop()!;
    if (u.kind === 'var') out.add(u.name);
    else if (u.kind === 'fn') stack.push(...u.args);
  }
  return out;
}

/** The kept positions of each relation with rows (all positions of static facts and fluents). */
type Kept = (rel: string) => readonly number[] | undefined;

/** The body atom as a join atom over a relation with rows, or undefined (dropped by the relaxation). */
function joinAtom(l: Literal, kept: Kept): JoinAtom | undefined {
  if (l.kind !== 'pos') return undefined;
  let rel: string;
  let args: readonly Term[];
  if (l.atom.rel === 'true' && l.atom.args.length === 1) {
    const f = l.atom.args[0]!;
    if (f.kind === 'var') return undefined;
    rel = `true ${relKey(f.name, f.kind === 'fn' ? f.args.length : 0)}`;
    args = f.kind === 'fn' ? f.args : [];
  } else {
    if (KEYWORDS.has(l.atom.rel)) return undefined;
    rel = relKey(l.atom.rel, l.atom.args.length);
    args = l.atom.args;
  }
  const keep = kept(rel);
  return keep === undefined ? undefined : { args: keep.map((i) => args[i]!), rel };
}

/**
 * The rule relaxed over the relations with rows, its head cut to the positions `keep`; with the
 * kept head positions whose variables no kept atom binds (then it is no relaxed rule yet).
 */
function relax(r: NormalRule, keep: readonly number[], kept: Kept, filled: (rel: string) => boolean): { readonly rule: Relaxed; readonly unbound: readonly number[] } {
  const all = r.body.flatMap((l) => joinAtom(l, kept) ?? []);
  const bound = new Set<string>();
  all.forEach((a) => a.args.forEach((t) => varsOf(t, bound)));
  const unbound = keep.filter((i) => ![...varsOf(r.head.args[i]!, new Set())].every((v) => bound.has(v)));
  const distinct = r.body.flatMap((l) => (l.kind === 'distinct' && [...varsOf(l.left, new Set()), ...varsOf(l.right, new Set())].every((v) => bound.has(v)) ? [[l.left, l.right] as const] : []));
  // An atom sharing no variable with the kept head, the other atoms or a `distinct` only says its
  // rows are not empty: left out of the join when they are not (it would repeat every row).
  const used = (skip: number): Set<string> => {
    const out = new Set<string>();
    keep.forEach((i) => varsOf(r.head.args[i]!, out));
    distinct.forEach(([a, b]) => varsOf(b, varsOf(a, out)));
    all.forEach((a, j) => (j === skip ? undefined : a.args.forEach((t) => varsOf(t, out))));
    return out;
  };
  const atoms = all.filter((a, j) => {
    if (!filled(a.rel)) return true;
    const others = used(j);
    return a.args.some((t) => [...varsOf(t, new Set())].some((v) => others.has(v)));
  });
  return { rule: { head: keep.map((i) => r.head.args[i]!), atoms, distinct }, unbound };
}

/**
 * The kept head positions of a relaxed rule grouped by the parts of its body that share no
 * variable (none when there is one part): the factors of a cross product, whose rows multiply
 * (amazons' ignored square `cell(?xIg, ?yIg)` beside the move along a line).
 */
function factorGroups(r: NormalRule, rule: Relaxed, keep: readonly number[]): number[][] {
  const parent = new Map<string, string>();
  const find = (v: string): string => {
    let u = v;
    while ((parent.get(u) ?? u) !== u) u = parent.get(u)!;
    return u;
  };
  const join = (vs: readonly string[]): void => vs.slice(1).forEach((v) => parent.set(find(v), find(vs[0]!)));
  rule.atoms.forEach((a) => join([...a.args.reduce((acc, t) => varsOf(t, acc), new Set<string>())]));
  rule.distinct.forEach(([a, b]) => join([...varsOf(b, varsOf(a, new Set()))]));
  const groups = new Map<string, number[]>();
  for (const i of keep) {
    const vs = [...varsOf(r.head.args[i]!, new Set())];
    if (vs.length === 0) continue;
    join(vs);
    groups.set(find(vs[0]!), [...(groups.get(find(vs[0]!)) ?? []), i]);
  }
  const parts = [...groups.entries()].map(([root, ps]) => ({ root: find(root), ps }));
  const merged = new Map<string, number[]>();
  parts.forEach(({ root, ps }) => merged.set(root, [...(merged.get(root) ?? []), ...ps]));
  return merged.size > 1 ? [...merged.values()] : [];
}

/** `t` with the variables of `env` replaced, or undefined when one is unbound. */
function instantiate(t: Term, env: ReadonlyMap<string, Term>): Term | undefined {
  if (t.kind === 'const') return t;
  if (t.kind === 'var') return env.get(t.name);
  const args: Term[] = [];
  for (const a of t.args) {
    const u = instantiate(a, env);
    if (u === undefined) return undefined;
    args.push(u);
  }
  return { ...t, args };
}

/**
 * Matches a rule argument against a ground term, binding variables in `env` and naming each
 * variable bound in `bound` (the caller unbinds them, matched or not).
 */
function match(x: Term, g: Term, env: Map<string, Term>, bound: string[]): boolean {
  const stack: [Term, Term][] = [[x, g]];
  while (stack.length > 0) {
    const [u, h] = stack.pop()!;
    if (u.kind === 'var') {
      const b = env.get(u.name);
      if (b === undefined) {
        env.set(u.name, h);
        bound.push(u.name);
      } else if (!termEquals(b, h)) return false;
      continue;
    }
    if (u.kind !== h.kind || u.name !== h.name) return false;
    if (u.kind === 'fn' && h.kind === 'fn') {
      if (u.args.length !== h.args.length) return false;
      u.args.forEach((ua, i) => stack.push([ua, h.args[i]!]));
    }
  }
  return true;
}

/** The rows of `t` an atom can match under `env`: the smallest bucket of a ground argument, else all. */
function candidates(t: Table, args: readonly Term[], env: ReadonlyMap<string, Term>): readonly (readonly Term[])[] {
  let best: readonly (readonly Term[])[] = t.rows;
  args.forEach((a, i) => {
    const g = instantiate(a, env);
    if (g !== undefined) best = [t.index[i]!.get(key(g, EMPTY)) ?? [], best].reduce((x, y) => (x.length <= y.length ? x : y));
  });
  return best;
}

/** The work of one computation: join steps left, and the deadline. */
interface Budget {
  steps: number;
  readonly deadline: Deadline;
}

/** One atom's place in the depth-first join: its candidate rows, the next to try, the variables the last one bound. */
interface Frame {
  readonly rows: readonly (readonly Term[])[];
  next: number;
  readonly bound: string[];
}

/**
 * Every head row of the relaxed rule, the atom at `deltaAt` (if any) reading `delta` instead of
 * its table; false when the budget ran out. Depth first over one binding map, each atom's
 * bindings undone before its next row.
 */
function joinRule(r: Relaxed, tables: ReadonlyMap<string, Table>, delta: Table | undefined, deltaAt: number, emit: (row: readonly Term[]) => void, budget: Budget): boolean {
  const env = new Map<string, Term>();
  const frameAt = (i: number): Frame => ({ rows: candidates(i === deltaAt ? delta! : tables.get(r.atoms[i]!.rel)!, r.atoms[i]!.args, env), next: 0, bound: [] });
  if (r.atoms.length === 0) {
    if (r.distinct.every(([a, b]) => !termEquals(instantiate(a, env)!, instantiate(b, env)!))) emit(r.head.map((t) => instantiate(t, env)!));
    return true;
  }
  const frames: Frame[] = [frameAt(0)];
  while (frames.length > 0) {
    const f = frames[frames.length - 1]!;
    f.bound.forEach((v) => env.delete(v));
    f.bound.length = 0;
    if (f.next >= f.rows.length) {
      frames.pop();
      continue;
    }
    // The clock is read rarely: reading the processor time costs a system call.
    if (--budget.steps < 0 || ((budget.steps & CLOCK_MASK) === 0 && budget.deadline.passed())) return false;
    const row = f.rows[f.next++]!;
    const args = r.atoms[frames.length - 1]!.args;
    if (!args.every((x, j) => match(x, row[j]!, env, f.bound))) continue;
    if (frames.length < r.atoms.length) frames.push(frameAt(frames.length));
    else if (r.distinct.every(([a, b]) => !termEquals(instantiate(a, env)!, instantiate(b, env)!))) emit(r.head.map((t) => instantiate(t, env)!));
  }
  return true;
}

/**
 * The bounds of the game's derived relations (see the module comment); `facts` are the static
 * relations' rows, `fluents` the ground game's fluents' arguments per relation. `does/2` gets the
 * bound of `legal/2`: a move made is legal.
 */
export function relaxedBounds(normal: NormalGame, facts: StaticFacts, fluents: StaticFacts, deadline: Deadline): Bounds {
  const tables = new Map<string, Table>();
  const keeps = new Map<string, readonly number[]>();
  const add = (k: string, rows: readonly (readonly Term[])[], arity: number): void => {
    tables.set(k, tableOf(rows, arity));
    keeps.set(k, [...Array(arity).keys()]);
  };
  for (const [k, rows] of facts) add(k, rows, arityOf(k));
  for (const [k, rows] of fluents) add(`true ${k}`, rows, arityOf(k));
  const byHead = new Map<string, NormalRule[]>();
  for (const r of normal.rules) {
    const k = relKey(r.head.rel, r.head.args.length);
    if (!KEYWORDS.has(r.head.rel) && !facts.has(k)) byHead.set(k, [...(byHead.get(k) ?? []), r]);
  }
  const derived = [...byHead.keys()];
  const index = new Map(derived.map((k, i) => [k, i]));
  const succ = derived.map((k) => [...new Set(byHead.get(k)!.flatMap((r) => r.body.flatMap((l) => (l.kind === 'distinct' ? [] : index.get(relKey(l.atom.rel, l.atom.args.length)) ?? []))))]);
  const out = new Map<string, Bound>();
  const budget: Budget = { steps: MAX_JOIN_STEPS, deadline };
  let total = 0;
  for (const comp of stronglyConnectedComponents(derived.length, (v) => succ[v]!)) {
    if (budget.steps <= 0) break;
    const local: Budget = { steps: Math.min(budget.steps, MAX_COMPONENT_STEPS), deadline };
    const before = local.steps;
    const built = boundComponent(comp.map((v) => derived[v]!), byHead, { tables, keeps }, local, MAX_TOTAL_ROWS - total);
    budget.steps -= before - Math.max(local.steps, 0);
    for (const [k, { table, keep }] of built ?? []) {
      tables.set(k, table);
      keeps.set(k, keep);
      if (keep.length > 0) out.set(k, { keep, rows: table.rows, index: table.index, memo: new Map() });
      total += table.rows.length;
    }
  }
  const legal = out.get('legal/2');
  if (legal !== undefined) out.set('does/2', legal);
  return out;
}

const arityOf = (k: string): number => Number(k.slice(k.lastIndexOf('/') + 1));

/** The rows known so far and the positions of each relation they keep. */
interface Known {
  readonly tables: ReadonlyMap<string, Table>;
  readonly keeps: ReadonlyMap<string, readonly number[]>;
}

/** A bound built: its rows, and the positions of the relation they keep. */
interface Built {
  readonly table: Table;
  readonly keep: readonly number[];
}

/** One relaxed rule of a component, with the rule it came from and its head relation. */
interface ComponentRule {
  readonly rel: string;
  readonly source: NormalRule;
  readonly rule: Relaxed;
}

/**
 * The relaxed rules of a component, each relation's positions in `dropped` left out; a kept head
 * position some rule leaves unbound is dropped too, until every rule binds its kept head.
 */
function relaxedRules(rels: readonly string[], byHead: ReadonlyMap<string, readonly NormalRule[]>, known: Known, dropped: ReadonlyMap<string, Set<number>>): ComponentRule[] {
  const keepOf = (rel: string): number[] => [...Array(arityOf(rel)).keys()].filter((i) => !dropped.get(rel)!.has(i));
  const kept: Kept = (rel) => (dropped.has(rel) ? keepOf(rel) : known.keeps.get(rel));
  const filled = (rel: string): boolean => !dropped.has(rel) && (known.tables.get(rel)?.rows.length ?? 0) > 0;
  for (;;) {
    const out: ComponentRule[] = [];
    let changed = false;
    for (const rel of rels) {
      for (const source of byHead.get(rel)!) {
        const { rule, unbound } = relax(source, keepOf(rel), kept, filled);
        unbound.forEach((i) => dropped.get(rel)!.add(i));
        changed ||= unbound.length > 0;
        out.push({ rel, source, rule });
      }
    }
    if (!changed) return out;
  }
}

/**
 * The bounds of one component: its least relaxed model, or when that passes the row limits, the
 * same with one factor of a cross product left out (factorGroups): of those within the limits,
 * the one keeping the most positions, then the fewest rows (the most precise); undefined when
 * none is.
 */
function boundComponent(rels: readonly string[], byHead: ReadonlyMap<string, readonly NormalRule[]>, known: Known, budget: Budget, rowsLeft: number): Map<string, Built> | undefined {
  const whole = attempt(rels, byHead, known, budget, rowsLeft, new Map());
  if (whole.kind !== 'rows') return whole.kind === 'done' ? whole.built : undefined;
  const seen = new Set<string>();
  let best: { readonly built: Map<string, Built>; readonly kept: number; readonly rows: number } | undefined;
  for (const { rel, source, rule } of whole.rules) {
    for (const group of factorGroups(source, rule, whole.keepOf(rel))) {
      const id = `${rel} ${group.join(',')}`;
      if (seen.has(id)) continue;
      seen.add(id);
      const cut = attempt(rels, byHead, known, budget, rowsLeft, new Map([[rel, group]]));
      if (cut.kind === 'steps') return undefined;
      if (cut.kind !== 'done') continue;
      const kept = [...cut.built.values()].reduce((n, b) => n + b.keep.length, 0);
      const rows = [...cut.built.values()].reduce((n, b) => n + b.table.rows.length, 0);
      if (best === undefined || kept > best.kept || (kept === best.kept && rows < best.rows)) best = { built: cut.built, kept, rows };
    }
  }
  return best?.built;
}

/** One try at a component's bounds, with some positions of one relation left out from the start. */
function attempt(
  rels: readonly string[], byHead: ReadonlyMap<string, readonly NormalRule[]>, known: Known, budget: Budget, rowsLeft: number, cut: ReadonlyMap<string, readonly number[]>,
): { readonly kind: 'done'; readonly built: Map<string, Built> } | { readonly kind: 'rows'; readonly rules: readonly ComponentRule[]; readonly keepOf: (rel: string) => number[] } | { readonly kind: 'steps' } {
  const dropped = new Map(rels.map((k) => [k, new Set<number>(cut.get(k) ?? [])]));
  const keepOf = (rel: string): number[] => [...Array(arityOf(rel)).keys()].filter((i) => !dropped.get(rel)!.has(i));
  const rules = relaxedRules(rels, byHead, known, dropped);
  const own = new Map(rels.map((k) => [k, newTable(keepOf(k).length)]));
  const result = leastModel(rules, own, new Map([...known.tables, ...own]), budget, rowsLeft);
  if (result === 'done') return { kind: 'done', built: new Map(rels.map((k) => [k, { table: own.get(k)!, keep: keepOf(k) }])) };
  return result === 'rows' ? { kind: 'rows', rules, keepOf } : { kind: 'steps' };
}

/**
 * Fills the component's tables `own` with the least model of its relaxed rules (semi-naive: after
 * the first round, each rule once per atom of the component, that atom reading the rows new in
 * the round before). 'rows' or 'steps' when a limit was reached.
 */
function leastModel(rules: readonly ComponentRule[], own: ReadonlyMap<string, Table>, all: ReadonlyMap<string, Table>, budget: Budget, rowsLeft: number): 'done' | 'rows' | 'steps' {
  let delta: Map<string, Table> | undefined;
  let rows = 0;
  for (let first = true; first || delta!.size > 0; first = false) {
    const pending: { readonly rel: string; readonly row: readonly Term[] }[] = [];
    for (const { rel, rule } of rules) {
      const emit = (row: readonly Term[]): void => void pending.push({ rel, row });
      const at = rule.atoms.flatMap((a, i) => (own.has(a.rel) ? [i] : []));
      const ok = first ? joinRule(rule, all, undefined, -1, emit, budget)
        : at.every((i) => delta!.get(rule.atoms[i]!.rel) === undefined || joinRule(rule, all, delta!.get(rule.atoms[i]!.rel), i, emit, budget));
      if (!ok) return 'steps';
    }
    delta = new Map();
    for (const { rel, row } of pending) {
      const table = own.get(rel)!;
      if (!addRow(table, row)) continue;
      if (++rows > rowsLeft || table.rows.length > MAX_RELATION_ROWS) return 'rows';
      if (!delta.has(rel)) delta.set(rel, newTable(row.length));
      addRow(delta.get(rel)!, row);
    }
  }
  return 'done';
}
