/**
 * What a ground SAT query's cone costs, known before it is encoded (docs/mutex.md, "Cones the
 * budget cannot pay for"). The cone's atoms are found by a walk over the rule index that is cheap
 * next to encoding them: attritionWar's exactly-one claims (no bit to gain) have the whole game
 * of 4.2 million ground rules as their cone, whose encoding took the last 6 processor seconds of
 * the budget, was cut short every time, and left a heap of clauses whose collection carried the
 * stage past T + 10. A cone that the budget left cannot encode even at the fastest rate measured
 * is not started: the proof goes on with the next batch.
 */
import type { Deadline } from '../deadline.js';
import type { RuleIndex } from './encode.js';
import type { MutexView } from './view.js';

/**
 * The literals the cone's completion is taken to cost: per rule of a derived atom of the cone,
 * three per body literal and three more (its conjunction's clauses, `defineAnd`, and its place in
 * the disjunction of the head, `defineOr`). An estimate of what the solver's `literalCount`
 * reaches, read off the rules without building a clause.
 */
export function coneLiterals(view: MutexView, index: RuleIndex, atoms: readonly number[]): number {
  let n = 0;
  for (const a of atoms) {
    if (index.free[a] === 1) continue;
    for (const r of index.byHead[a]!) {
      const rule = view.rules[r]!;
      n += 3 * (rule.pos.length + rule.neg.length) + 3;
    }
  }
  return n;
}

/**
 * Estimated literals ({@link coneLiterals}) per processor second of what is left that a query
 * may take: the fastest encoding measured went at 3.3 million a second (chess_200, a cone of 2
 * million; pancakes88's 2.9 million and amazonsTorus' 13.5 million at 1.5, attritionWar's 31
 * million cut short after 6.4 s), and the search needs time after it (pancakes88's as long as its
 * encoding): a cone is refused when even the fastest encoding would leave the search less than
 * about as long again, so what is refused would have been cut short by the budget anyway.
 */
const CONE_LITERALS_PER_SECOND = 2_000_000;

/**
 * The `fits` test of `encodeCone` under `deadline`: a cone whose estimated literals could not be
 * encoded in the seconds left at `rate` ({@link CONE_LITERALS_PER_SECOND} unless told) is refused.
 */
export function affordable(view: MutexView, index: RuleIndex, deadline: Deadline, rate = CONE_LITERALS_PER_SECOND): (atoms: readonly number[]) => boolean {
  return (atoms) => {
    const left = deadline.secondsLeft();
    return left === Infinity || coneLiterals(view, index, atoms) <= left * rate;
  };
}
