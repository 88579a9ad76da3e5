/**
 * First-UIP conflict analysis for the SAT solver (sat.ts): from a clause that unit propagation
 * found false, the clause learned (resolved back through the reason clauses of the current
 * level to its first unique implication point, then minimized by sat-minimize.ts) and the
 * decision level the solver returns to. Called once per conflict, outside propagation; kept
 * apart from the search so that each file reads on its own.
 */
import { minimizeLearnt } from './sat-minimize.js';
import type { VarOrder } from './sat-order.js';

/**
 * What the analysis reads of the solver: the trail and where its levels start, per variable
 * (0-based) its level, reason clause (-1: a decision) and a scratch mark (zero on entry and on
 * return), the clauses (a reason clause gets its implied literal moved first), and the
 * decision order, whose activities it bumps, over `variables` variables.
 */
interface ConflictGraph {
  readonly trail: readonly number[];
  readonly trailLim: readonly number[];
  readonly level: Int32Array;
  readonly reason: Int32Array;
  readonly clauses: readonly number[][];
  readonly seen: Uint8Array;
  readonly order: VarOrder;
  readonly variables: number;
}

/**
 * The learnt clause of conflict clause `confl` (internal literal codes, the asserting literal
 * first, the literal of the highest remaining level second, so that it is watched) and the
 * level to return to, where it asserts its first literal.
 */
export function analyzeConflict(confl: number, s: ConflictGraph): { learnt: number[]; back: number } {
  let learnt: number[] = [-1];
  const current = s.trailLim.length;
  let pathCount = 0;
  let p = -1;
  let index = s.trail.length - 1;
  let clause: number[] | null = s.clauses[confl]!;
  const touched: number[] = [];
  do {
    for (let k = p < 0 ? 0 : 1; k < clause!.length; k++) {
      const q = clause![k]!;
      const v = q >> 1;
      if (s.seen[v] === 0 && s.level[v]! > 0) {
        s.seen[v] = 1;
        touched.push(v);
        s.order.bump(v, s.variables);
        if (s.level[v]! >= current) pathCount++;
        else learnt.push(q);
      }
    }
    while (s.seen[s.trail[index]! >> 1] === 0) index--;
    p = s.trail[index--]!;
    s.seen[p >> 1] = 0; // so that `seen` marks the learnt clause's variables only, for minimizeLearnt
    const r = s.reason[p >> 1]!;
    clause = r >= 0 ? s.clauses[r]! : null;
    pathCount--;
    // The reason clause keeps its implied literal first (sat.ts's propagate), so k starts at 1.
    if (clause !== null && clause[0] !== p) {
      const pos = clause.indexOf(p);
      clause[pos] = clause[0]!;
      clause[0] = p;
    }
  } while (pathCount > 0);
  learnt[0] = p ^ 1;
  learnt = minimizeLearnt(learnt, s, touched);
  for (const v of touched) s.seen[v] = 0;
  let back = 0;
  let maxAt = 1;
  for (let i = 1; i < learnt.length; i++) {
    const l = s.level[learnt[i]! >> 1]!;
    if (l > back) {
      back = l;
      maxAt = i;
    }
  }
  // The literal of the highest remaining level is watched second, so the clause is asserting.
  if (learnt.length > 1) [learnt[1], learnt[maxAt]] = [learnt[maxAt]!, learnt[1]!];
  return { learnt, back };
}
