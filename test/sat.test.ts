// The SAT solver behind the mutex proofs: answers agree with brute force on random formulas,
// models satisfy every clause, assumptions are honoured, and hard unsatisfiable cases finish.
import { describe, expect, it } from 'vitest';
import { SatSolver } from '../src/mutex/sat.js';
import { bruteForce, rng } from './support/sat-brute.js';

describe('SatSolver', () => {
  it('agrees with brute force on 600 random 3-SAT formulas, with and without assumptions', () => {
    const r = rng(42);
    let sat = 0;
    for (let round = 0; round < 600; round++) {
      const n = 3 + r(10);
      const m = Math.floor(n * (2 + r(30) / 10));
      const clauses = Array.from({ length: m }, () => Array.from({ length: 1 + r(3) }, () => (1 + r(n)) * (r(2) === 0 ? 1 : -1)));
      const solver = new SatSolver();
      for (let i = 0; i < n; i++) solver.newVar();
      for (const c of clauses) solver.addClause(c);
      for (const assumptions of [[], [(1 + r(n)) * (r(2) ? 1 : -1), (1 + r(n)) * (r(2) ? 1 : -1)]]) {
        const expected = bruteForce(n, clauses, assumptions);
        const got = solver.solve(assumptions);
        expect(got).toBe(expected ? 'sat' : 'unsat');
        if (got === 'sat') {
          sat++;
          const val = (l: number): boolean => solver.value(Math.abs(l)) === l > 0;
          expect(clauses.every((c) => c.some(val))).toBe(true);
          expect(assumptions.every(val)).toBe(true);
        }
      }
    }
    expect(sat).toBeGreaterThan(100);
  });

  it('proves the pigeonhole principle for 7 pigeons in 6 holes unsatisfiable', () => {
    const solver = new SatSolver();
    const p = 7;
    const h = 6;
    const x = (i: number, j: number): number => i * h + j + 1;
    for (let k = 0; k < p * h; k++) solver.newVar();
    for (let i = 0; i < p; i++) solver.addClause(Array.from({ length: h }, (_, j) => x(i, j)));
    for (let j = 0; j < h; j++) for (let a = 0; a < p; a++) for (let b = a + 1; b < p; b++) solver.addClause([-x(a, j), -x(b, j)]);
    expect(solver.solve()).toBe('unsat');
  });

  it('stops at its conflict budget with unknown', () => {
    const solver = new SatSolver();
    const p = 9;
    const h = 8;
    const x = (i: number, j: number): number => i * h + j + 1;
    for (let k = 0; k < p * h; k++) solver.newVar();
    for (let i = 0; i < p; i++) solver.addClause(Array.from({ length: h }, (_, j) => x(i, j)));
    for (let j = 0; j < h; j++) for (let a = 0; a < p; a++) for (let b = a + 1; b < p; b++) solver.addClause([-x(a, j), -x(b, j)]);
    expect(solver.solve([], 50)).toBe('unknown');
  });

  it('asks its stop test after a long propagation, not only every 1024 decisions and conflicts', () => {
    // x1 -> x2 -> ... -> xN, and a free y: assuming x1 propagates the whole chain in one step
    // (N clause visits), then y is one more decision. Two decisions in all: a stop test asked only
    // every 1024 of them is never asked, and the search answers 'sat' whatever the test says.
    const solver = new SatSolver();
    const n = 140_000; // well above VISITS_PER_LOOK visits
    for (let v = 0; v <= n; v++) solver.newVar();
    for (let v = 1; v < n; v++) solver.addClause([-v, v + 1]);
    let asked = 0;
    const answer = solver.solve([1], Infinity, () => ++asked > 0);
    expect(asked).toBeGreaterThan(0);
    expect(answer).toBe('unknown');
    // Unstopped, the same query is satisfiable.
    expect(solver.solve([1])).toBe('sat');
  });
});
