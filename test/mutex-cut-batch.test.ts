// A batch of the ground proof cut short reports every claim of it unproven (docs/mutex.md 2c,
// "Where the cut lands"): a claim that had already left it (its query satisfiable, with
// batch-mates assumed) used to be reported not inductive, so the output changed with where the
// processor time ran out inside the batch (crossers3).
import { describe, expect, it } from 'vitest';
import { Deadline } from '../src/deadline.js';
import { proveClaims } from '../src/mutex/prove.js';
import type { MutexView } from '../src/mutex/view.js';

/**
 * Four fluents f0..f3 (true atoms 0..3, next atoms 4..7): (next f0) and (next f1) hold after
 * every move, so "at most one of f0, f1" is not inductive; (next f2) reads (true f0) and f3 is
 * never made true, so "at most one of f2, f3" holds. Both claims are one batch.
 */
function oneBatch(): MutexView {
  const fluent = (i: number): MutexView['fluents'][number] => (
    { term: i, text: `(f ${i})`, trueAtom: i, nextAtom: i === 3 ? -1 : 4 + i, relation: 'f/1', name: 'f', args: [String(i)] });
  const rules = [{ head: 4, pos: [], neg: [] }, { head: 5, pos: [], neg: [] }, { head: 6, pos: [0], neg: [] }];
  return { atoms: 8, rules, fluents: [0, 1, 2, 3].map(fluent), moves: [], terminal: -1, init: [], opaque: [] };
}

const claims = [
  { kind: 'amo' as const, batch: 0, members: [0, 1] },
  { kind: 'amo' as const, batch: 0, members: [2, 3] },
];
const limits = { maxConflicts: 20_000, maxPairQueries: 0, deadline: Deadline.never() };

describe('a ground batch cut short', () => {
  it('finishes with one claim not inductive and the other proven when the budget suffices', () => {
    const r = proveClaims(oneBatch(), claims, { ...limits, maxWork: 100_000_000 });
    expect(r.verdicts).toEqual(['not-inductive', 'proven']);
    expect(r.complete).toBe(true);
  });

  it('reports both claims unproven when the work budget stops it after the first query', () => {
    // The budget is looked at before each query: the first runs, the second is not asked.
    const r = proveClaims(oneBatch(), claims, { ...limits, maxWork: 0 });
    expect(r.queries).toBe(1);
    expect(r.complete).toBe(false);
    expect(r.verdicts).toEqual(['unproven', 'unproven']);
  });
});
