/**
 * Remembered steps of a join (join.ts, a plan made by `leadPlan`): a step with tests passes the
 * same rows every time the earlier variables its index key and its tests read have the same
 * values, so those rows are kept per value and read back instead of walked and tested again.
 * The frame rewrite's touched rules (src/ground/frame-run.ts) test every move against every
 * cell of a small domain: chess's made 3.9 million tests of a negated static atom per rule for
 * 7,620 moves over 256 cells, though the tests read only the move's source square (64 values).
 *
 * Rows come back in the order they were first found, so the join reports the same bindings in
 * the same order. Tests must be pure functions of the binding (they are: `distinct` and
 * negated static atoms over stores that no join changes).
 */

/** What one step remembers, and where a read-back of it is. */
export interface StepMemo {
  /** The variables bound before the step that its index key and its tests read. */
  readonly vars: Int32Array;
  /** The rows that passed, per key of `vars`' values. */
  readonly seen: Map<string, Int32Array>;
  /** The rows read back, or null while the step is walked (and recorded). */
  replay: Int32Array | null;
  /** The next position in `replay`. */
  at: number;
  /** The rows passed so far in this walk, or null when it is not recorded. */
  recording: number[] | null;
  key: string;
}

/** The part of a join step a memo is made from. */
interface MemoStep {
  readonly keyVars: Int32Array;
  readonly newVars: Int32Array;
  readonly sameVars: Int32Array;
  readonly checks: readonly { readonly vars: readonly number[] }[];
}

/**
 * A memo for each step after the first that has tests (null for the others: the first is
 * walked once, and a step without tests passes what its index gives).
 */
export function stepMemos(steps: readonly MemoStep[]): (StepMemo | null)[] {
  return steps.map((s, d) => {
    if (d === 0 || s.checks.length === 0) return null;
    const own = new Set([...s.newVars, ...s.sameVars]);
    const vars = new Set<number>(s.keyVars);
    for (const c of s.checks) for (const v of c.vars) if (!own.has(v)) vars.add(v);
    return { vars: Int32Array.from([...vars].sort((a, b) => a - b)), seen: new Map(), replay: null, at: 0, recording: null, key: '' };
  });
}

/**
 * Opens `memo` for a new walk of its step under `binding`: true when the rows are known (they
 * are then read back), false when the step must be walked (its passing rows are then recorded).
 */
export function openMemo(memo: StepMemo, binding: Int32Array): boolean {
  let key = '';
  for (let i = 0; i < memo.vars.length; i++) key += `${binding[memo.vars[i]!]!},`;
  const known = memo.seen.get(key);
  memo.at = 0;
  memo.replay = known ?? null;
  // A walk left before its end (the join's existential cut-off) is opened again: only complete walks are kept.
  memo.recording = known === undefined ? [] : null;
  memo.key = key;
  return known !== undefined;
}

/** The walk of `memo`'s step has ended: its rows, if recorded, are kept for its key. */
export function closeMemo(memo: StepMemo): void {
  if (memo.recording !== null) memo.seen.set(memo.key, Int32Array.from(memo.recording));
  memo.recording = null;
}
