/**
 * The one join of the Datalog core: combine body atoms (relations whose columns stand for rule
 * variables) so that shared variables agree, streaming each complete assignment to a callback
 * instead of materializing partial ones. The plan is greedy (src/datalog/plan.ts): repeatedly
 * the cheapest atom given the variables bound so far, looked up through a hash index on its
 * bound columns; every test (`distinct`, a negated static atom) runs as soon as its
 * variables are bound; once every output variable is bound, one completion of the rest is
 * enough (existential cut-off).
 *
 *   head(X..) <= a1(..), ..., an(..), tests(..)   enumerates every binding with a row per ai
 */
import type { Relation } from './relation.js';
import type { RelationIndex } from './relation-index.js';
import { greedyOrder } from './plan.js';
import { type StepMemo, closeMemo, openMemo, stepMemos } from './join-memo.js';

/** Marks an unbound variable in a binding, and a column that binds no variable. */
export const UNBOUND = -1;

/** One positive body atom as a join input. */
export interface JoinAtom {
  readonly rel: Relation;
  /** The rule variable of each column ({@link UNBOUND}: the column is not joined). */
  readonly vars: readonly number[];
  /** Only rows in `[lo, hi)` may be used (semi-naive rounds restrict one atom to new rows). */
  readonly lo: number;
  readonly hi: number;
}

/** A test on the binding, run as soon as all of `vars` are bound. */
export interface JoinCheck {
  readonly vars: readonly number[];
  readonly test: (binding: Int32Array) => boolean;
}

/** Called once per unit of work; throws to stop an enumeration that exceeds a limit. */
export type Tick = () => void;

/** One step of a plan: which atom, which columns are looked up, bound anew or compared. */
interface Step {
  readonly atom: JoinAtom;
  readonly at: number;
  /** Columns whose variable is bound before this step (the index key), and their variables. */
  readonly keyCols: readonly number[];
  readonly keyVars: Int32Array;
  /** Columns binding a new variable, and those repeating a variable bound in the same row. */
  readonly newCols: Int32Array;
  readonly newVars: Int32Array;
  readonly sameCols: Int32Array;
  readonly sameVars: Int32Array;
  readonly checks: readonly JoinCheck[];
}

/**
 * Estimated rows of `a` once the variables in `bound` are fixed: its rows divided by the
 * distinct values of each bound column (columns taken as independent, as textbook planners do;
 * exact enough to put the selective atoms first, which is what matters).
 */
function estimate(a: JoinAtom, bound: ReadonlySet<number>): number {
  let est = a.hi - a.lo;
  a.vars.forEach((v, c) => {
    if (v !== UNBOUND && bound.has(v)) est /= Math.max(1, a.rel.distinct(c));
  });
  return est;
}

function makeStep(atom: JoinAtom, at: number, bound: Set<number>, checks: JoinCheck[]): Step {
  const keyCols: number[] = [];
  const newCols: number[] = [];
  const sameCols: number[] = [];
  const fresh = new Set<number>();
  atom.vars.forEach((v, c) => {
    if (v === UNBOUND) return;
    if (bound.has(v)) keyCols.push(c);
    else if (fresh.has(v)) sameCols.push(c);
    else (fresh.add(v), newCols.push(c));
  });
  for (const v of fresh) bound.add(v);
  const vars = (cols: number[]): Int32Array => Int32Array.from(cols, (c) => atom.vars[c]!);
  return {
    atom, at, keyCols, keyVars: vars(keyCols), newCols: Int32Array.from(newCols), newVars: vars(newCols),
    sameCols: Int32Array.from(sameCols), sameVars: vars(sameCols), checks,
  };
}

/**
 * The plan: atoms in the core's greedy order (src/datalog/plan.ts: fully bound atoms first, then
 * the fewest estimated rows), each test right after the step that binds its last variable;
 * `first`, when not -1, is the atom taken first whatever the order says.
 */
function orderedPlan(atoms: readonly JoinAtom[], checks: readonly JoinCheck[], first: number): { pre: JoinCheck[]; steps: Step[]; work: number } {
  const bound = new Set<number>();
  const steps: Step[] = [];
  let pending = [...checks];
  const ready = (): JoinCheck[] => {
    const now = pending.filter((c) => c.vars.every((v) => bound.has(v)));
    if (now.length > 0) pending = pending.filter((c) => !now.includes(c));
    return now;
  };
  const pre = ready();
  // The rows the plan reads: per step, the bindings before it times the rows it walks per probe.
  let work = 0;
  let prefix = 1;
  const take = (i: { atom: JoinAtom; at: number }): void => {
    work += prefix * walked(i.atom, bound);
    prefix *= Math.max(1, estimate(i.atom, bound));
    const step = makeStep(i.atom, i.at, bound, []);
    steps.push({ ...step, checks: ready() });
  };
  const items = atoms.map((atom, at) => ({ atom, at, vars: atom.vars.filter((v) => v !== UNBOUND) }));
  if (first >= 0) take(items.splice(first, 1)[0]!);
  greedyOrder(items, bound, (i) => estimate(i.atom, bound), take);
  // Checks whose variables are never bound cannot be decided here; callers reject unsafe rules.
  return { pre, steps, work };
}

/**
 * Rows a probe of `a` walks once the variables in `bound` are fixed: an index chain holds the
 * rows of a key from the first on, so an atom restricted to its newest rows (a semi-naive
 * delta) still walks its older ones when it is looked up by key.
 */
function walked(a: JoinAtom, bound: ReadonlySet<number>): number {
  const keyed = a.vars.some((v) => v !== UNBOUND && bound.has(v));
  return keyed ? estimate({ ...a, lo: 0 }, bound) : a.hi - a.lo;
}

/** The plan of a join: the tests decided before any atom, and the steps in order. */
export interface JoinPlan {
  readonly pre: readonly JoinCheck[];
  readonly steps: readonly Step[];
  /** Whether the steps with tests remember the rows that passed them (join-memo.ts). */
  readonly memo?: boolean;
}

/**
 * The plan that reads atom `first` first and the rest in the greedy order, its later steps with
 * tests remembering the rows that passed them (join-memo.ts): for joins whose first atom is
 * large and whose later steps test each of its rows against a small domain through a few of its
 * variables (the frame rewrite's touched rules). Same bindings as {@link planJoin}'s plan, in
 * another order.
 */
export function leadPlan(atoms: readonly JoinAtom[], checks: readonly JoinCheck[], first: number): JoinPlan {
  const { pre, steps } = orderedPlan(atoms, checks, first);
  return { pre, steps, memo: true };
}

/**
 * The plan of {@link orderedPlan}; when an atom is restricted to its newest rows (a semi-naive
 * delta, `lo` > 0), also the plan that reads it first, and the one that reads fewer rows by
 * {@link walked} wins. The greedy order alone put a delta after an atom only half its size and
 * then walked the delta's whole index chains (gt_two_thirds_6p: 47 M rows read for 180,300
 * bindings of its `absDiff` rules). A caller that both estimates and runs a join plans it once
 * and hands the plan to both (a semi-naive round plans every rule again: 600 rounds there).
 */
export function planJoin(atoms: readonly JoinAtom[], checks: readonly JoinCheck[]): JoinPlan {
  const greedy = orderedPlan(atoms, checks, -1);
  const delta = atoms.findIndex((a) => a.lo > 0);
  if (delta < 0 || greedy.steps[0]?.at === delta) return greedy;
  const deltaFirst = orderedPlan(atoms, checks, delta);
  return deltaFirst.work < greedy.work ? deltaFirst : greedy;
}

/** The index of the last step that binds an output variable (-1: none); `outputs` null: all are. */
function lastOutputStep(steps: readonly Step[], outputs: ReadonlySet<number> | null): number {
  let last = -1;
  steps.forEach((s, i) => {
    if (outputs === null ? s.newVars.length > 0 : s.newVars.some((v) => outputs.has(v))) last = i;
  });
  return last;
}

/**
 * Estimated number of complete assignments {@link join} would report for the same inputs, from
 * its own plan before any row is enumerated: per step the rows in range divided by the distinct
 * keys of the index it probes (the average rows per key), multiplied along the plan; a step
 * after the last one binding an output adds at most one completion (the existential cut-off).
 * Tests are ignored, so it errs on the large side, as a guard against enumerating should.
 * `plan`: the inputs' {@link planJoin}, when the caller has it.
 */
export function estimateJoin(atoms: readonly JoinAtom[], checks: readonly JoinCheck[], outputs: ReadonlySet<number> | null, plan?: JoinPlan): number {
  for (const a of atoms) if (a.hi <= a.lo) return 0;
  const { steps } = plan ?? planJoin(atoms, checks);
  const last = lastOutputStep(steps, outputs);
  let total = 1;
  steps.forEach((s, i) => {
    const range = s.atom.hi - s.atom.lo;
    const perKey = s.keyCols.length === 0 ? range : range / Math.max(1, s.atom.rel.index(s.keyCols).keys);
    total *= i <= last ? perKey : Math.min(1, perKey);
  });
  return total;
}

function allPass(checks: readonly JoinCheck[], binding: Int32Array): boolean {
  for (let i = 0; i < checks.length; i++) if (!checks[i]!.test(binding)) return false;
  return true;
}

/**
 * Enumerates every assignment of the variables `0..nVars-1` that picks one row of each atom
 * (within its range) with shared variables equal and every check true. `onMatch` gets the
 * binding and the chosen row per atom (by position in `atoms`); both arrays are reused.
 * Variables outside `outputs` only need to exist: once the last step that binds an output has
 * matched, one completion of the rest is enough (the others would repeat it). `outputs` null:
 * every variable is an output. `plan`: the inputs' {@link planJoin}, when the caller has it.
 */
export function join(
  nVars: number,
  atoms: readonly JoinAtom[],
  checks: readonly JoinCheck[],
  outputs: ReadonlySet<number> | null,
  tick: Tick,
  onMatch: (binding: Int32Array, rows: Int32Array) => void,
  plan?: JoinPlan,
): void {
  for (const a of atoms) if (a.hi <= a.lo) return;
  const binding = new Int32Array(nVars).fill(UNBOUND);
  const rows = new Int32Array(atoms.length);
  const { pre, steps, memo } = plan ?? planJoin(atoms, checks);
  if (!allPass(pre, binding)) return;
  if (steps.length === 0) {
    onMatch(binding, rows);
    return;
  }
  // Indexes per step, resolved once: relations do not change during a join.
  const indexes: (RelationIndex | null)[] = steps.map((s) => (s.keyCols.length === 0 ? null : s.atom.rel.index(s.keyCols)));
  // Per depth the next candidate row: a cursor over the range, or a position in an index chain.
  const cursor = new Int32Array(steps.length);
  const memos = memo === true ? stepMemos(steps) : null;
  const open = (d: number): void => {
    const s = steps[d]!;
    if (memos?.[d] && openMemo(memos[d]!, binding)) return;
    cursor[d] = indexes[d] === null ? s.atom.lo : indexes[d]!.firstFor(binding, s.keyVars);
  };
  // Binds the new variables of step d from `row`, which passed its tests under the same earlier values.
  const replay = (d: number, m: StepMemo): boolean => {
    if (m.at >= m.replay!.length) return false;
    tick();
    const s = steps[d]!;
    const row = m.replay![m.at++]!;
    const data = s.atom.rel.rows;
    const base = row * s.atom.rel.arity;
    for (let i = 0; i < s.newCols.length; i++) binding[s.newVars[i]!] = data[base + s.newCols[i]!]!;
    rows[s.at] = row;
    return true;
  };
  // Moves depth d to its next row that passes the step's tests; false when exhausted.
  const advance = (d: number): boolean => {
    const m = memos?.[d];
    if (m && m.replay !== null) return replay(d, m);
    const s = steps[d]!;
    const a = s.atom;
    const index = indexes[d];
    const data = a.rel.rows;
    const width = a.rel.arity;
    for (;;) {
      tick();
      const row = cursor[d]!;
      if (row < 0 || row >= a.hi) {
        if (m) closeMemo(m);
        return false; // index chains are ascending
      }
      cursor[d] = index === null ? row + 1 : index.nextRow(row);
      if (row < a.lo) continue;
      const base = row * width;
      for (let i = 0; i < s.newCols.length; i++) binding[s.newVars[i]!] = data[base + s.newCols[i]!]!;
      let ok = true;
      for (let i = 0; i < s.sameCols.length && ok; i++) ok = binding[s.sameVars[i]!] === data[base + s.sameCols[i]!];
      if (ok && allPass(s.checks, binding)) {
        rows[s.at] = row;
        m?.recording?.push(row);
        return true;
      }
    }
  };
  const lastOutput = lastOutputStep(steps, outputs);
  let d = 0;
  open(0);
  while (d >= 0) {
    if (!advance(d)) {
      d--;
    } else if (d === steps.length - 1) {
      onMatch(binding, rows);
      // Deeper steps only bound existential variables: resume where an output can change.
      d = Math.min(d, lastOutput);
    } else {
      d++;
      open(d);
    }
  }
}
