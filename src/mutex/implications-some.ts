/**
 * Implications to *some* fluent of another relation (docs/mutex.md, section 2l): "whenever a P
 * fluent holds, some Q fluent holds", no position mapped. ticblock plays tic-tac-toe, then a
 * `reset` move (legal only while no `ticscores` fluent holds) writes the scores and sets every
 * square of a second board, `cellb`, to blank while their frame rules keep the marks: the board's
 * groups hold only because a marked `cellb` square exists only once `ticscores` is set, a fact of
 * the phase, not of a key. These candidates are tried by the same induction as those of 2d
 * (implications.ts), after all of them: the pairs of relations for which no map with a position
 * holds on the sampled states (one that does implies this one) and Q is missing from some sampled
 * state (else "some Q" holds everywhere it was seen and marks no phase), at most {@link MAX_SOME}.
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
  const pairs = implicationPairs(normal, from, hidden);
  const phased = missingSomewhere(view, new Set(pairs.map(([, q]) => q)), all);
  const out: Implication[] = [];
  for (const [p, q] of pairs) {
    if (out.length >= MAX_SOME || stop()) break;
    if (p === q || joined.has(`${p} ${q}`) || !phased.has(q)) continue;
    const map = Array<undefined>(arityOf(q)).fill(undefined);
    if (holdsOnStates(view, p, q, map, all)) out.push({ from: p, to: q, map });
  }
  return out;
}

/**
 * The relations of `qs` that some state holds no fluent of. A Q some fluent of which every state
 * holds (`control`) says nothing of a phase: "P => some Q" then adds nothing worth its proof.
 */
function missingSomewhere(view: MutexView, qs: ReadonlySet<string>, states: readonly (readonly number[])[]): Set<string> {
  const out = new Set<string>();
  for (const st of states) {
    if (out.size === qs.size) break;
    const present = new Set(st.map((f) => view.fluents[f]!.relation));
    for (const q of qs) if (!present.has(q)) out.add(q);
  }
  return out;
}
