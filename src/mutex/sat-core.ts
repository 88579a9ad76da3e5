/**
 * The assumptions an "unsat" answer of the SAT solver (sat.ts) rests on (MiniSat's analyzeFinal):
 * when an assumption is found false, the assumptions its negation was propagated from, read back
 * through the reason clauses of the trail. The clauses with those assumptions alone are
 * unsatisfiable: every literal on the way was implied by them and by clauses (learnt ones follow
 * from the clauses). The lemma pass (lemma-cones.ts) reads it to know which assumed claims a
 * proof used, so that a claim leaving undoes only the proofs that used it (docs/mutex.md, snake21).
 */

/** What the analysis reads of the solver: the trail, where its levels start, and per variable (0-based) its level, reason clause (-1: a decision) and a scratch mark (zero on entry and on return). */
interface Trail {
  readonly trail: readonly number[];
  readonly trailLim: readonly number[];
  readonly level: Int32Array;
  readonly reason: Int32Array;
  readonly clauses: readonly (readonly number[])[];
  readonly seen: Uint8Array;
}

/**
 * The assumptions (internal literal codes, as given) that imply the negation of assumption
 * `failed` (an internal code, included). Called while only assumptions are decided, so every
 * decision on the trail is one; a literal fixed at level 0 needs none.
 */
export function failedAssumptions(failed: number, t: Trail): number[] {
  const out = [failed];
  const v0 = failed >> 1;
  if (t.level[v0] === 0 || t.trailLim.length === 0) return out;
  t.seen[v0] = 1;
  for (let i = t.trail.length - 1; i >= t.trailLim[0]!; i--) {
    const v = t.trail[i]! >> 1;
    if (t.seen[v] === 0) continue;
    // v0's own decision is the assumption of its negation, given too.
    t.seen[v] = 0;
    const r = t.reason[v]!;
    if (r < 0) {
      // A decision: an assumption, true on the trail as given.
      if (t.level[v]! > 0) out.push(t.trail[i]!);
      continue;
    }
    for (const q of t.clauses[r]!) {
      const w = q >> 1;
      if (w !== v && t.level[w]! > 0) t.seen[w] = 1;
    }
  }
  t.seen[v0] = 0;
  return out;
}
