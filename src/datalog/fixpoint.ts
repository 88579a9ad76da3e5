/**
 * The one semi-naive fixpoint of the Datalog core, for one strongly connected component of a
 * program. With R the facts known, Δ the facts new in the last round and T the rules:
 *
 *   Δ₀     = T(R)                                         every rule over the full relations
 *   Δᵢ₊₁   = ⋃ { r(b₁ ← R, …, bⱼ ← Δᵢ, …, bₙ ← R) | r ∈ T, bⱼ in the component } \ R
 *   R     := R ∪ Δᵢ₊₁ after each round;   stop when Δ = ∅
 *
 * A rule fires again only with one of its component atoms read from the last round's delta: a
 * derivation that uses no new fact was already made. The driver owns the rounds; what a rule
 * is, how it is evaluated and where facts go belong to the caller.
 */

/** A component to saturate. */
interface SemiNaiveComponent<R> {
  readonly rules: readonly R[];
  /** Positions of the body atoms of `rule` that read relations of the component. */
  recursiveAtoms(rule: R): readonly number[];
  /** Evaluates `rule`; body atom `delta` (unless -1) reads only the last round's new facts. */
  fire(rule: R, delta: number): void;
  /**
   * Adds the facts derived since the last call to R; true when some were new. Those become Δ
   * for the next round (each relation's {@link Relation.markRound} range, for instance).
   */
  commit(): boolean;
}

/** Runs the rounds of a component to its fixpoint; returns the number of rounds after the first. */
export function semiNaive<R>(c: SemiNaiveComponent<R>): number {
  for (const rule of c.rules) c.fire(rule, -1);
  let rounds = 0;
  while (c.commit()) {
    rounds++;
    for (const rule of c.rules) for (const j of c.recursiveAtoms(rule)) c.fire(rule, j);
  }
  return rounds;
}
