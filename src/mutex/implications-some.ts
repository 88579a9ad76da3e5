/**
 * Implications to *some* fluent of another relation (docs/mutex.md, section 2k): "whenever a P
 * fluent holds, some Q fluent holds", no position mapped. ticblock plays tic-tac-toe, then a
 * `reset` move (legal only while no `ticscores` fluent holds) writes the scores and sets every
 * square of a second board, `cellb`, to blank while their frame rules keep the marks: the board's
 * groups hold only because a marked `cellb` square exists only once `ticscores` is set, a fact of
 * the phase, not of a key. These candidates are tried by the same induction as those of 2d
 * (implications.ts), after all of them: the pairs of relations for which no map with a position
 * holds on the sampled states (one that does implies this one), at most {@link MAX_SOME}.
 */
import { type Implication, holdsOnStates, implicationPairs } from './implications.js';
import type { NormalGame } from '../normalize/types.js';
import { arityOf } from './lifted-relax.js';
import type { MutexView } from './view.js';

/** Most implications to some fluent kept (each costs a case analysis per `next` rule of P). */
const MAX_SOME = 4;

/**
 * The implications P => some Q that every sampled state (the initial one included) satisfies,
 * over the pairs of relations implications.ts tries, for the pairs none of `taken` (the mapped
 * candidates) joins. `stop`: the stage's budget, asked before each pair's pass over the states.
 */
export function someFluentCandidates(
  view: MutexView, normal: NormalGame, from: ReadonlySet<string>, hidden: ReadonlySet<string>, states: readonly (readonly number[])[],
  taken: readonly Implication[], stop: () => boolean = () => false,
): Implication[] {
  const joined = new Set(taken.map((i) => `${i.from} ${i.to}`));
  const all = [view.init, ...states];
  const out: Implication[] = [];
  for (const [p, q] of implicationPairs(normal, from, hidden)) {
    if (out.length >= MAX_SOME || stop()) break;
    if (p === q || joined.has(`${p} ${q}`)) continue;
    const map = Array<undefined>(arityOf(q)).fill(undefined);
    if (holdsOnStates(view, p, q, map, all)) out.push({ from: p, to: q, map });
  }
  return out;
}
