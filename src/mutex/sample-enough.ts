/**
 * When the mutex stage's sampling has learnt enough: its states serve only to refute candidate
 * groups (candidates.ts), so once the second half of the states sampled so far refutes no
 * candidate the first half left, sampling stops and its budget goes to the proofs.
 * amazonsTorus_10x10: the 210 candidates its 13,167 sampled states leave are those of its
 * first 2,000 (docs/mutex.md, snake25). Fewer states refute at most fewer candidates, which the
 * proofs then decide: sound either way. What the test held is handed on to the stage
 * (find-early.ts), which holds the hypotheses only against the states sampled after it.
 */
import type { GroundGame } from '../ground/types.js';
import { type Candidates, type Hypothesis, hypotheses, refute } from './candidates.js';
import { type MutexView, fluentIndexByTerm, fluentIndexes, mutexView } from './view.js';

/** What the stopping test held: the first `given.length` states sampled and the candidates they leave. */
export interface HeldSample {
  readonly view: MutexView;
  /** Per term id of a fluent in `view`, its index there. */
  readonly fluentOfTerm: ReadonlyMap<number, number>;
  /** Every hypothesis of `view` (made with no budget). */
  readonly hyps: readonly Hypothesis[];
  /** The states held, as fluent indexes of `view`. */
  readonly given: readonly (readonly number[])[];
  /** The last of those states as sampled (term ids), by identity: the stage checks it has the same states. */
  readonly last: readonly number[];
  /** The candidates of every hypothesis over `given`. */
  readonly candidates: Candidates;
}

/** The stopping test and what it held. */
interface SampleTest {
  /**
   * For `sampleStates`' `enough` (src/play/sample.ts): given the states sampled so far (term ids;
   * each call's states begin with the previous call's), true when they leave as many candidates
   * (at-most-one and at-least-one claims not yet refuted) as the states of its previous call
   * did, which were their first half. The first call only counts.
   */
  readonly enough: (states: readonly (readonly number[])[]) => boolean;
  /** What the last call held; undefined before the first. */
  readonly held: () => HeldSample | undefined;
}

/** The stopping test of `game`'s sampling (made at its first call only: a short sample pays nothing). */
export function sampleEnough(game: GroundGame): SampleTest {
  let made: Made | undefined;
  let last: HeldSample | undefined;
  let before = -1;
  const enough = (states: readonly (readonly number[])[]): boolean => {
    made ??= makeOnce(game);
    const { fluentOfTerm } = made;
    // Fewer states than before are not the same sample: held again from the start.
    const kept = last !== undefined && states.length >= last.given.length ? last : undefined;
    const from = kept?.given.length ?? 0;
    if (states.length === 0) return false;
    const added = states.slice(from).map((s) => fluentIndexes(fluentOfTerm, s));
    // A state refutes the same whether held with the ones before or alone: only the new ones are held.
    const candidates = added.length === 0 ? kept!.candidates : holdMore(kept?.candidates, refute(made.view, made.hyps, added).candidates);
    last = { ...made, given: kept === undefined ? added : [...kept.given, ...added], last: states[states.length - 1]!, candidates };
    let left = 0;
    for (let i = 0; i < candidates.hypothesis.length; i++) left += candidates.atMostOne[i]! + candidates.atLeastOne[i]!;
    const same = left === before;
    before = left;
    return same;
  };
  return { enough, held: () => last };
}

/**
 * The candidates of the states of `before` and `after` together, the same hypotheses held
 * against both (`after` may be a prefix of them, cut by a budget): a group is at most one when
 * it is in both, and at least one when it is in both (each held against states, so neither is
 * the empty set's vacuous "every state").
 */
export function holdMore(before: Candidates | undefined, after: Candidates): Candidates {
  if (before === undefined) return after;
  const n = after.hypothesis.length;
  const atMostOne = new Uint8Array(n);
  const atLeastOne = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    atMostOne[i] = before.atMostOne[i]! & after.atMostOne[i]!;
    atLeastOne[i] = before.atLeastOne[i]! & after.atLeastOne[i]!;
  }
  return { start: after.start, hypothesis: after.hypothesis, atMostOne, atLeastOne };
}

/** What every call of the test reads: the game's view, its fluents by term id, the hypotheses. */
interface Made {
  readonly view: MutexView;
  readonly fluentOfTerm: ReadonlyMap<number, number>;
  readonly hyps: readonly Hypothesis[];
}

/** {@link Made} of `game`, once per sampling rather than at each doubling. */
function makeOnce(game: GroundGame): Made {
  const view = mutexView(game);
  return { view, fluentOfTerm: fluentIndexByTerm(view), hyps: hypotheses(view, () => false) };
}
