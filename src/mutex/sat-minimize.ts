/**
 * Learned-clause minimization for the SAT solver (sat.ts): MiniSat's recursive minimization
 * (Sörensson and Biere 2009), with an explicit stack instead of recursion. A literal of a learnt
 * clause is left out when its reason's other literals are, transitively through their reasons,
 * all in the clause (or fixed at level 0): the shorter clause follows from the same resolutions.
 * On ttcc4_2player's hard claims the first-UIP clauses were long and the searches took 11 to 32 M
 * clause visits each (docs/mutex.md, det16); shorter clauses prune more per conflict.
 */

/** What minimization reads of the solver's trail: per variable (0-based) its level, reason clause (-1: decision or assumption), and a scratch mark. */
interface ImplicationGraph {
  readonly level: Int32Array;
  readonly reason: Int32Array;
  readonly clauses: readonly (readonly number[])[];
  /** 1 for the variables of the learnt clause on entry; cleared by the caller afterwards (the variables added are pushed on `marked`). */
  readonly seen: Uint8Array;
}

/** One bit per decision level (mod 32): a cheap test that a literal's level is among the clause's. */
function levelBit(level: number): number {
  return 1 << (level & 31);
}

/**
 * `learnt` (internal literal codes, the asserting literal first) without its redundant literals.
 * Variables marked during the search are pushed on `marked`, for the caller to clear.
 */
export function minimizeLearnt(learnt: readonly number[], g: ImplicationGraph, marked: number[]): number[] {
  let levels = 0;
  for (let i = 1; i < learnt.length; i++) levels |= levelBit(g.level[learnt[i]! >> 1]!);
  const out = [learnt[0]!];
  for (let i = 1; i < learnt.length; i++) {
    const v = learnt[i]! >> 1;
    if (g.reason[v]! < 0 || !redundant(v, levels, g, marked)) out.push(learnt[i]!);
  }
  return out;
}

/**
 * Whether variable `v` (in the clause, implied by reason) follows from the clause's other
 * literals. Variables found redundant stay marked (so later tests reuse them); on failure the
 * marks made by this test are undone.
 */
function redundant(v: number, levels: number, g: ImplicationGraph, marked: number[]): boolean {
  const stack = [v];
  const top = marked.length;
  while (stack.length > 0) {
    const u = stack.pop()!;
    const clause = g.clauses[g.reason[u]!]!;
    for (const q of clause) {
      const w = q >> 1;
      if (w === u || g.seen[w] !== 0 || g.level[w] === 0) continue;
      if (g.reason[w]! < 0 || (levelBit(g.level[w]!) & levels) === 0) {
        for (let k = top; k < marked.length; k++) g.seen[marked[k]!] = 0;
        marked.length = top;
        return false;
      }
      g.seen[w] = 1;
      marked.push(w);
      stack.push(w);
    }
  }
  return true;
}
