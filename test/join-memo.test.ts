// The join's remembered steps (src/datalog/join-memo.ts, join.ts leadPlan): a step with tests
// read back per value of the earlier variables its tests read gives the bindings the walk gives,
// in the same order, with the tests run once per value.
import { describe, expect, it } from 'vitest';
import { Relation } from '../src/datalog/relation.js';
import { type JoinAtom, type JoinCheck, type JoinPlan, join, leadPlan, planJoin } from '../src/datalog/join.js';

function rel(arity: number, tuples: number[][]): Relation {
  const r = new Relation(arity);
  for (const t of tuples) r.insert(t);
  return r;
}

const whole = (r: Relation, vars: number[]): JoinAtom => ({ rel: r, vars, lo: 0, hi: r.size });

function run(nVars: number, atoms: JoinAtom[], checks: JoinCheck[], outputs: Set<number> | null, plan: JoinPlan): string[] {
  const out: string[] = [];
  join(nVars, atoms, checks, outputs, () => undefined, (b, rows) => out.push(`${Array.from(b).join(',')}|${Array.from(rows).join(',')}`), plan);
  return out;
}

// moves(M, Src): 60 moves from 4 source cells; cells(C): 12 cells; touched: the move's source is the cell.
const moves = rel(2, Array.from({ length: 60 }, (_, m) => [100 + m, m % 4]));
const cells = rel(1, Array.from({ length: 12 }, (_, c) => [c]));

function frameShaped(): { atoms: JoinAtom[]; checks: JoinCheck[]; calls: { n: number } } {
  const calls = { n: 0 };
  // not different(C, Src): variables 2 (C) and 1 (Src).
  const checks: JoinCheck[] = [{ vars: [1, 2], test: (b) => (calls.n++, b[1] === b[2]) }];
  return { atoms: [whole(moves, [0, 1]), whole(cells, [2])], checks, calls };
}

describe('leadPlan', () => {
  it('gives the greedy plan\'s bindings, testing each cell once per source instead of once per move', () => {
    const greedy = frameShaped();
    const expected = run(3, greedy.atoms, greedy.checks, null, planJoin(greedy.atoms, greedy.checks));
    const lead = frameShaped();
    const got = run(3, lead.atoms, lead.checks, null, leadPlan(lead.atoms, lead.checks, 0));
    expect([...got].sort()).toEqual([...expected].sort());
    expect(got).toHaveLength(60);
    expect(greedy.calls.n).toBe(60 * 12);
    expect(lead.calls.n).toBe(4 * 12);
  });

  it('reads the remembered rows back in the order the walk found them', () => {
    const walked = frameShaped();
    const plain = { ...leadPlan(walked.atoms, walked.checks, 0), memo: false };
    const remembered = frameShaped();
    expect(run(3, remembered.atoms, remembered.checks, null, leadPlan(remembered.atoms, remembered.checks, 0)))
      .toEqual(run(3, walked.atoms, walked.checks, null, plain));
  });

  it('keeps no walk cut short by the existential cut-off', () => {
    // x(A) is the output; y(B) and z(C) only have to exist (C = B = A). y's tests read no earlier
    // variable, so all its walks share one key; the first (A = 0) stops at B = 0, and a later
    // A must still find its own B: a kept partial walk would lose every A but 0.
    const six = Array.from({ length: 6 }, (_, v) => [v]);
    const atoms = [whole(rel(1, six), [0]), whole(rel(1, six), [1]), whole(rel(1, six), [2])];
    const checks: JoinCheck[] = [{ vars: [1], test: () => true }, { vars: [0, 1, 2], test: (b) => b[1] === b[0] && b[2] === b[1] }];
    const outputs = new Set([0]);
    const firsts = (plan: JoinPlan): string[] => run(3, atoms, checks, outputs, plan).map((s) => s.split(',')[0]!);
    expect(firsts(leadPlan(atoms, checks, 0))).toEqual(['0', '1', '2', '3', '4', '5']);
    expect(firsts(leadPlan(atoms, checks, 0))).toEqual(firsts(planJoin(atoms, checks)));
  });
});
