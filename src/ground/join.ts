/**
 * The join of the matrix method (section 9.1.3): combine the blocks of a rule's positive atoms
 * so that shared variables agree, streaming each complete assignment to a callback instead of
 * materializing partial ones. Atoms are joined most selective first, each through a hash index
 * on the variables already bound, and every test (`distinct`, negated static atoms) runs as
 * soon as its variables are bound.
 */
import { type Block, type BlockIndex, blockIndex, tupleKey } from './block.js';

/** One positive body atom as a join input. */
export interface JoinAtom {
  readonly block: Block;
  /** The rule variable of each block column. */
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

/** One step of a join plan: which atom, which of its columns are looked up, which are new. */
interface Step {
  readonly atom: number;
  readonly keyCols: readonly number[];
  readonly newCols: readonly number[];
  readonly checks: readonly JoinCheck[];
}

/** Estimated rows of `a` once the variables in `bound` are fixed. */
function estimate(a: JoinAtom, bound: ReadonlySet<number>): number {
  let est = a.hi - a.lo;
  a.vars.forEach((v, c) => {
    if (bound.has(v)) est /= Math.max(1, a.block.distinct[c]!.size);
  });
  return est;
}

/** Greedy plan: repeatedly the atom with the fewest estimated rows given the bound variables. */
function plan(atoms: readonly JoinAtom[], checks: readonly JoinCheck[]): { pre: JoinCheck[]; steps: Step[] } {
  const bound = new Set<number>();
  const left = atoms.map((_, i) => i);
  const steps: Step[] = [];
  let pending = [...checks];
  const ready = (): JoinCheck[] => {
    const now = pending.filter((c) => c.vars.every((v) => bound.has(v)));
    pending = pending.filter((c) => !now.includes(c));
    return now;
  };
  const pre = ready();
  while (left.length > 0) {
    let best = 0;
    for (let i = 1; i < left.length; i++) {
      if (estimate(atoms[left[i]!]!, bound) < estimate(atoms[left[best]!]!, bound)) best = i;
    }
    const atom = left.splice(best, 1)[0]!;
    const a = atoms[atom]!;
    const keyCols: number[] = [];
    const newCols: number[] = [];
    a.vars.forEach((v, c) => (bound.has(v) ? keyCols : newCols).push(c));
    for (const c of newCols) bound.add(a.vars[c]!);
    steps.push({ atom, keyCols, newCols, checks: ready() });
  }
  // Checks whose variables are never bound cannot be decided here; the caller rejects unsafe rules.
  return { pre, steps };
}

/**
 * Enumerates every assignment of the rule variables that picks one row of each atom (within
 * its range) with shared variables equal and every check true. `onMatch` gets the binding and
 * the chosen row per atom (by position in `atoms`); both arrays are reused between calls.
 * Variables outside `outputs` only need to exist: once the last step that binds an output
 * variable has matched, one completion of the rest is enough (the others would repeat it).
 */
export function joinRule(
  nVars: number,
  atoms: readonly JoinAtom[],
  checks: readonly JoinCheck[],
  outputs: ReadonlySet<number>,
  tick: Tick,
  onMatch: (binding: Int32Array, rows: Int32Array) => void,
): void {
  if (atoms.some((a) => a.hi <= a.lo)) return;
  const binding = new Int32Array(nVars).fill(-1);
  const rows = new Int32Array(atoms.length);
  const { pre, steps } = plan(atoms, checks);
  if (!pre.every((c) => c.test(binding))) return;
  if (steps.length === 0) {
    onMatch(binding, rows);
    return;
  }
  // Per depth: candidate rows (an index list, or null for the whole range) and a cursor.
  const lists: (readonly number[] | null)[] = new Array(steps.length).fill(null);
  const EMPTY: readonly number[] = [];
  // Indexes and key readers per step, resolved once: stores do not change during a join.
  const indexes: (BlockIndex | null)[] = steps.map((s) => (s.keyCols.length === 0 ? null : blockIndex(atoms[s.atom]!.block, s.keyCols)));
  const keyVars = steps.map((s) => s.keyCols.map((c) => atoms[s.atom]!.vars[c]!));
  const cursor = new Int32Array(steps.length);
  const open = (d: number): void => {
    const s = steps[d]!;
    const a = atoms[s.atom]!;
    if (s.keyCols.length === 0) {
      lists[d] = null;
      cursor[d] = a.lo;
      return;
    }
    const vars = keyVars[d]!;
    lists[d] = indexes[d]!.get(tupleKey(binding, vars.length, (i) => vars[i]!)) ?? EMPTY;
    cursor[d] = 0;
  };
  // Moves depth d to its next row that passes the step's checks; false when exhausted.
  const advance = (d: number): boolean => {
    const s = steps[d]!;
    const a = atoms[s.atom]!;
    const list = lists[d];
    const width = a.block.width;
    for (;;) {
      tick();
      let row: number;
      if (list === null) {
        if (cursor[d]! >= a.hi) return false;
        row = cursor[d]!++;
      } else {
        if (cursor[d]! >= list.length) return false;
        row = list[cursor[d]!++]!;
        if (row < a.lo) continue;
        if (row >= a.hi) return false; // index lists are ascending
      }
      for (const c of s.newCols) binding[a.vars[c]!] = a.block.rows[row * width + c]!;
      if (s.checks.every((c) => c.test(binding))) {
        rows[s.atom] = row;
        return true;
      }
    }
  };
  let lastOutput = -1;
  steps.forEach((s, i) => {
    if (s.newCols.some((c) => outputs.has(atoms[s.atom]!.vars[c]!))) lastOutput = i;
  });
  let d = 0;
  open(0);
  while (d >= 0) {
    if (!advance(d)) {
      d--;
    } else if (d === steps.length - 1) {
      onMatch(binding, rows);
      // Deeper steps only bound existential variables: resume where an output can change.
      d = Math.min(d, lastOutput === -1 ? -1 : lastOutput);
    } else {
      d++;
      open(d);
    }
  }
}
