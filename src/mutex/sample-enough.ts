/**
 * When the mutex stage's sampling has learnt enough: its states serve only to refute candidate
 * groups (candidates.ts), so once the second half of the states sampled so far refutes no
 * candidate the first half left, sampling stops and its budget goes to the proofs.
 * amazonsTorus_10x10: the 210 candidates its 13,167 sampled states leave are those of its
 * first 2,000 (docs/mutex.md, snake25). Fewer states refute at most fewer candidates, which the
 * proofs then decide: sound either way.
 */
import type { GroundGame } from '../ground/types.js';
import { hypotheses, refute } from './candidates.js';
import { mutexView } from './view.js';

/**
 * A test for `sampleStates`' `enough` (src/play/sample.ts): given the states sampled so far (term
 * ids), true when they leave as many candidates (at-most-one and at-least-one claims not yet
 * refuted) as the states of its previous call did, which were their first half. The first call
 * only counts.
 */
export function sampleEnough(game: GroundGame): (states: readonly (readonly number[])[]) => boolean {
  let made: Made | undefined;
  let before = -1;
  return (states) => {
    // Made at the first call only: a game whose sampling ends before it never pays for it.
    made ??= makeOnce(game);
    const { view, fluentOfTerm, hyps } = made;
    const given = states.map((s) => s.map((t) => fluentOfTerm.get(t) ?? -1).filter((f) => f >= 0));
    const { candidates } = refute(view, hyps, given);
    let left = 0;
    for (let i = 0; i < candidates.hypothesis.length; i++) left += candidates.atMostOne[i]! + candidates.atLeastOne[i]!;
    const same = left === before;
    before = left;
    return same;
  };
}

/** What every call of the test reads: the game's view, its fluents by term id, the hypotheses. */
interface Made {
  readonly view: ReturnType<typeof mutexView>;
  readonly fluentOfTerm: ReadonlyMap<number, number>;
  readonly hyps: ReturnType<typeof hypotheses>;
}

/** {@link Made} of `game`, once per sampling rather than at each doubling. */
function makeOnce(game: GroundGame): Made {
  const view = mutexView(game);
  return { view, fluentOfTerm: new Map(view.fluents.map((f, i) => [f.term, i])), hyps: hypotheses(view, () => false) };
}
