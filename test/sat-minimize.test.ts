// Learned-clause minimization (sat-minimize.ts): a literal implied by the clause's other literals
// is left out, one that rests on a decision outside the clause is kept, and the solver with it
// still agrees with brute force on formulas whose searches learn long clauses.
import { describe, expect, it } from 'vitest';
import { minimizeLearnt } from '../src/mutex/sat-minimize.js';
import { SatSolver } from '../src/mutex/sat.js';
import { bruteForce, rng } from './support/sat-brute.js';

describe('minimizeLearnt', () => {
  it('drops a literal whose reason rests on the clause and keeps one resting on an outside decision', () => {
    // Variables 0..4 (codes 2v true, 2v+1 false): v0 decided at level 1, v1 at level 2;
    // v2 implied by v0 (clause [v2, -v0]); v3 implied by v1 (clause [v3, -v1]); v4 the UIP at level 3.
    const g = {
      level: Int32Array.from([1, 2, 2, 2, 3]),
      reason: Int32Array.from([-1, -1, 0, 1, -1]),
      clauses: [[4, 1], [6, 3]],
      seen: Uint8Array.from([1, 0, 1, 1, 0]),
    };
    const marked: number[] = [];
    // Learnt: -v4 (asserting), -v0, -v2, -v3. -v2 follows from -v0; -v3 needs v1, not in the clause.
    expect(minimizeLearnt([9, 1, 5, 7], g, marked)).toEqual([9, 1, 7]);
    expect(marked).toEqual([]);
  });

  it('walks a chain of reasons: a literal two implications away from the clause is dropped', () => {
    // v0 decided (level 1); v1 implied by v0; v2 implied by v1; v3 the UIP (level 2).
    const g = {
      level: Int32Array.from([1, 1, 1, 2]),
      reason: Int32Array.from([-1, 0, 1, -1]),
      clauses: [[2, 1], [4, 3]],
      seen: Uint8Array.from([1, 0, 1, 0]),
    };
    const marked: number[] = [];
    expect(minimizeLearnt([7, 1, 5], g, marked)).toEqual([7, 1]);
    expect(marked).toEqual([1]);
  });
});

describe('the solver with minimization', () => {
  it('agrees with brute force on 300 random 3-SAT formulas of 16 variables near the threshold, asked incrementally', () => {
    const r = rng(17);
    for (let t = 0; t < 300; t++) {
      const n = 16;
      const m = 60 + r(15);
      const clauses: number[][] = [];
      for (let i = 0; i < m; i++) clauses.push([0, 1, 2].map(() => (r(n) + 1) * (r(2) === 0 ? 1 : -1)));
      const s = new SatSolver();
      for (let i = 0; i < n; i++) s.newVar();
      for (const c of clauses) s.addClause(c);
      for (let q = 0; q < 3; q++) {
        const assumptions = q === 0 ? [] : [(r(n) + 1) * (r(2) === 0 ? 1 : -1), (r(n) + 1) * (r(2) === 0 ? 1 : -1)];
        const answer = s.solve(assumptions);
        expect(answer).toBe(bruteForce(n, clauses, assumptions) ? 'sat' : 'unsat');
        if (answer === 'sat') {
          const val = (l: number): boolean => s.value(Math.abs(l)) === l > 0;
          expect(clauses.every((c) => c.some(val))).toBe(true);
          expect(assumptions.every(val)).toBe(true);
        }
      }
    }
  });

  it('proves pigeonhole 8 into 7 unsatisfiable', () => {
    const s = new SatSolver();
    const p = 8;
    const h = 7;
    const x = (i: number, j: number): number => i * h + j + 1;
    for (let i = 0; i < p * h; i++) s.newVar();
    for (let i = 0; i < p; i++) s.addClause(Array.from({ length: h }, (_, j) => x(i, j)));
    for (let j = 0; j < h; j++) for (let a = 0; a < p; a++) for (let b = a + 1; b < p; b++) s.addClause([-x(a, j), -x(b, j)]);
    expect(s.solve()).toBe('unsat');
  });
});
