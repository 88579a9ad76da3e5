/**
 * The join of relaxed rules over tables of ground rows (docs/mutex.md, section 2a, "Bounds of
 * derived relations"): the tables a bound is built in, and one rule's head rows found depth first
 * over one binding map. lifted-bounds.ts computes the least models with it; lifted-relax.ts says
 * which atoms a relaxed rule keeps.
 */
import type { Term } from '../gdl/ast.js';
import { termEquals } from '../gdl/terms.js';
import type { Deadline } from '../deadline.js';
import { key } from './lifted-terms.js';

/** Join steps between two looks at the deadline, less one. */
const CLOCK_MASK = (1 << 16) - 1;

const EMPTY = new Map<string, Term>();

/**
 * A bound being built: its rows, their texts (no duplicates), an index per position, and indexes
 * on sets of positions made when a join first looks rows up by two or more (see {@link combined}).
 */
export interface Table {
  readonly rows: (readonly Term[])[];
  readonly seen: Set<string>;
  readonly index: Map<string, (readonly Term[])[]>[];
  readonly combined: Map<string, CombinedIndex>;
}

/** The rows per texts of some positions, made from the table's first `upTo` rows (rows are only appended). */
interface CombinedIndex {
  upTo: number;
  readonly buckets: Map<string, (readonly Term[])[]>;
}

/** An empty table of `arity` positions. */
export function newTable(arity: number): Table {
  return { rows: [], seen: new Set(), index: Array.from({ length: arity }, () => new Map()), combined: new Map() };
}

/** A row's text, as a table's `seen` holds it. */
export function rowText(row: readonly Term[]): string {
  return row.map((x) => key(x, EMPTY)).join(' ');
}

/**
 * Adds a row unless present; true when added. `text`: the row's {@link rowText} when the caller
 * has it (a least model adds each new row to two tables: its text is made once).
 */
export function addRow(t: Table, row: readonly Term[], text = rowText(row)): boolean {
  if (t.seen.has(text)) return false;
  t.seen.add(text);
  t.rows.push(row);
  for (let i = 0; i < row.length; i++) {
    const k = key(row[i]!, EMPTY);
    const bucket = t.index[i]!.get(k);
    if (bucket === undefined) t.index[i]!.set(k, [row]);
    else bucket.push(row);
  }
  return true;
}

export function tableOf(rows: readonly (readonly Term[])[], arity: number): Table {
  const t = newTable(arity);
  rows.forEach((r) => addRow(t, r));
  return t;
}

/** One body atom of a relaxed rule: its arguments at the kept positions of the relation (key) whose rows it reads. */
export interface JoinAtom {
  readonly args: readonly Term[];
  readonly rel: string;
}

/**
 * A relaxed rule: the atoms kept, the `distinct`s whose variables they bind, the head's kept
 * arguments, and its negative atoms of static relations whose variables they bind (`absent`: a
 * row of the static facts there makes no head row).
 */
export interface Relaxed {
  readonly head: readonly Term[];
  readonly atoms: readonly JoinAtom[];
  readonly distinct: readonly (readonly [Term, Term])[];
  readonly absent?: readonly JoinAtom[];
}

/** Adds the variables of `t` to `out`, and returns it. */
export function varsOf(t: Term, out: Set<string>): Set<string> {
  const stack = [t];
  while (stack.length > 0) {
    const u = stack.pop()!;
    if (u.kind === 'var') out.add(u.name);
    else if (u.kind === 'fn') stack.push(...u.args);
  }
  return out;
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

/** Matches an atom's arguments against a row's values, as {@link match} does each. */
function matchAll(args: readonly Term[], values: readonly Term[], env: Map<string, Term>, bound: string[]): boolean {
  for (let j = 0; j < args.length; j++) if (!match(args[j]!, values[j]!, env, bound)) return false;
  return true;
}

/**
 * The rows of `t` an atom can match under `env`, and the steps their scan is charged: the row
 * itself when all its arguments are bound, the bucket of the bound positions' texts when two or
 * more are, else the bucket of the one bound argument, else all. A bucket holds its rows in the
 * table's order, exactly the rows a scan of the smallest one-position bucket would match at those
 * positions, so the join finds the same rows in the same order in less time (wargame's
 * `(nSteps 1 ?dir ?x1 ?y1 ?x2 ?y2)`: 1 row instead of 144 scanned). It is charged that scan's
 * steps all the same: which bounds complete within their steps stays as it was (more bounds
 * completing made wargame01's transition claims dearer: intendedlocation's 192 rows, 4.5 s).
 */
function candidates(t: Table, args: readonly Term[], env: ReadonlyMap<string, Term>): { readonly rows: readonly (readonly Term[])[]; readonly charged: number } {
  // Loops, not maps and filters: this runs for every frame of every join (FARMERS_S: 600,000 times).
  const whole: (Term | undefined)[] = [];
  const at: number[] = [];
  for (let i = 0; i < args.length; i++) {
    const g = instantiate(args[i]!, env);
    whole.push(g);
    if (g !== undefined) at.push(i);
  }
  // Every argument bound: one look-up of the row's text instead of a scan of a bucket (racer's `(smaller p0 ?y)`, 50 rows a time).
  if (args.length > 1 && at.length === args.length) {
    const row = whole as Term[];
    const rows = t.seen.has(rowText(row)) ? [row] : NO_ROWS;
    return { rows, charged: rows.length };
  }
  if (at.length === 0) return { rows: t.rows, charged: t.rows.length };
  const texts = at.map((i) => key(whole[i]!, EMPTY));
  let first: readonly (readonly Term[])[] = NO_ROWS;
  let one = Infinity;
  for (let j = 0; j < at.length; j++) {
    const bucket = t.index[at[j]!]!.get(texts[j]!) ?? NO_ROWS;
    if (j === 0) first = bucket;
    one = Math.min(one, bucket.length);
  }
  if (at.length === 1 || one === 0) return { rows: one === 0 ? NO_ROWS : first, charged: one };
  return { rows: combined(t, at).get(texts.join(' ')) ?? NO_ROWS, charged: one };
}

/** No rows (shared: never written to). */
const NO_ROWS: readonly (readonly Term[])[] = [];

/** The table's index on the positions `at`, brought up to its last row. */
function combined(t: Table, at: readonly number[]): ReadonlyMap<string, (readonly Term[])[]> {
  const id = at.join(',');
  let c = t.combined.get(id);
  if (c === undefined) t.combined.set(id, (c = { upTo: 0, buckets: new Map() }));
  for (; c.upTo < t.rows.length; c.upTo++) {
    const row = t.rows[c.upTo]!;
    const text = at.map((i) => key(row[i]!, EMPTY)).join(' ');
    const bucket = c.buckets.get(text);
    if (bucket === undefined) c.buckets.set(text, [row]);
    else bucket.push(row);
  }
  return c.buckets;
}

/** The work of one computation: join steps left, and the deadline. */
export interface Budget {
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
 * bindings undone before its next row. With `known` (whether a head row's text was found
 * already), a binding of the atoms up to the one that binds the head's last variable (headBoundAt)
 * whose head row is known is not extended: every row below it would be that row again (hex's
 * `transfer ?k`, whose `k` its second atom binds and whose other three atoms only say that some
 * move and cell exist for it: 1 M steps without this). A row found then goes to `emit` with its text.
 */
export function joinRule(
  r: Relaxed, tables: ReadonlyMap<string, Table>, delta: Table | undefined, deltaAt: number, emit: (row: readonly Term[], text?: string) => void, budget: Budget,
  known?: (text: string) => boolean,
): boolean {
  const env = new Map<string, Term>();
  // A frame's rows beyond those it holds are charged when it is made (candidates).
  const frameAt = (i: number): Frame => {
    const { rows, charged } = candidates(i === deltaAt ? delta! : tables.get(r.atoms[i]!.rel)!, r.atoms[i]!.args, env);
    budget.steps -= charged - rows.length;
    return { rows, next: 0, bound: [] };
  };
  const head = (): Term[] => r.head.map((t) => instantiate(t, env)!);
  if (r.atoms.length === 0) {
    if (passes(r, tables, env)) emit(head());
    return true;
  }
  const last = r.atoms.length - 1;
  const headAt = known === undefined ? last : headBoundAt(r);
  // The head row and its text, once every head variable is bound (below headAt they stay so).
  let row: readonly Term[] = [];
  let text = '';
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
    const values = f.rows[f.next++]!;
    const at = frames.length - 1;
    if (!matchAll(r.atoms[at]!.args, values, env, f.bound)) continue;
    if (at === headAt && at < last) {
      row = head();
      text = rowText(row);
      if (known!(text)) continue;
    }
    if (at < last) frames.push(frameAt(at + 1));
    else if (passes(r, tables, env)) (headAt < last ? emit(row, text) : emit(head()));
  }
  // A frame charged more than it held may have spent the budget after its last row.
  return budget.steps >= 0;
}

/**
 * Join steps {@link joinRule} takes at least on the rule with no delta (a least model's first
 * round), counted without joining: its first atom's scan, and when a look-up cannot cut below it
 * (the head is not bound by the first atom alone), the second atom's scan for every row of the
 * first that matches, each charged as {@link candidates} charges it. Below the second atom the
 * join may skip known rows; these two levels it takes whole, so the count is exact for them and
 * the join's steps are never fewer. Counting stops once past `atMost` (enough to know the budget
 * is spent: legal/2 of FARMERS_S, about 1,200 `spiciand` fluents times 900 `whaver` ones before
 * its third atom, 1.08 M steps against 500,000, 0.6 s of join for no bound).
 */
export function firstLevelsSteps(r: Relaxed, tables: ReadonlyMap<string, Table>, atMost: number): number {
  if (r.atoms.length === 0) return 0;
  const env = new Map<string, Term>();
  const first = candidates(tables.get(r.atoms[0]!.rel)!, r.atoms[0]!.args, env);
  let steps = first.charged;
  // A head bound by the first atom may be looked up there (joinRule with `known`), skipping the second atom.
  if (r.atoms.length === 1 || headBoundAt(r) === 0) return steps;
  const second = tables.get(r.atoms[1]!.rel)!;
  const bound: string[] = [];
  for (const values of first.rows) {
    if (steps > atMost) break;
    if (matchAll(r.atoms[0]!.args, values, env, bound)) steps += candidates(second, r.atoms[1]!.args, env).charged;
    bound.forEach((v) => env.delete(v));
    bound.length = 0;
  }
  return steps;
}

/**
 * The index of the first atom after which every variable of the head is bound (0 when the head
 * has none): where {@link joinRule} looks its head row up among the known ones. A rule where it is
 * the last atom never looks (there the row is found anyway).
 */
export function headBoundAt(r: Relaxed): number {
  const want = new Set<string>();
  r.head.forEach((t) => varsOf(t, want));
  const bound = new Set<string>();
  for (let i = 0; i < r.atoms.length; i++) {
    r.atoms[i]!.args.forEach((t) => varsOf(t, bound));
    if ([...want].every((v) => bound.has(v))) return i;
  }
  return r.atoms.length;
}

/** Whether a full binding passes the rule's `distinct`s and finds none of its absent atoms among the static facts. */
function passes(r: Relaxed, tables: ReadonlyMap<string, Table>, env: ReadonlyMap<string, Term>): boolean {
  if (!r.distinct.every(([a, b]) => !termEquals(instantiate(a, env)!, instantiate(b, env)!))) return false;
  return (r.absent ?? []).every((a) => !tables.get(a.rel)!.seen.has(a.args.map((x) => key(instantiate(x, env)!, EMPTY)).join(' ')));
}
