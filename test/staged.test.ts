// Staged variants (src/reach/staged.ts): a body cut where variables die, the prefix's distinct
// bindings of the variables that survive run once each through the rest. Plans change speed,
// never answers: the least model is checked against the variant with the plan switched off and
// against the Datalog core's (test/support/relaxed-model.ts), and the plan must save answers on
// the game built for it (attritionWar in small), else it would not be running at all.
import { describe, expect, it } from 'vitest';
import { TEST_REACH_LIMITS } from './support/context.js';
import { game, shapeOf } from './support/shapes.js';
import { clauseText } from '../src/reach/clauses.js';
import { planStaged } from '../src/reach/staged.js';
import { computeSupersetsProlog } from '../src/reach/prolog.js';
import { supersetSentences } from '../src/reach/format.js';
import { relevantSupersets } from './support/relaxed-model.js';

const NOMINAL = { order: () => 10, cost: () => 10 };

/**
 * attritionWar's bidding in small (numbers 0..n, scores from n/2): the score rules read the two
 * bids only through their minimum, then fan out over the round's bonus and two sums.
 */
function bids(n: number): string {
  let t = `(role white) (role black) (init (whiteScore ${n / 2})) (init (blackScore ${n / 2}))`;
  for (let i = 0; i <= n; i++) t += ` (index ${i})${i < n ? ` (succ ${i} ${i + 1})` : ''}`;
  return `${t}
    (<= (legal white (bid ?x1)) (true (whiteScore ?x2)) (gte ?x2 ?x1))
    (<= (legal black (bid ?x1)) (true (blackScore ?x2)) (gte ?x2 ?x1))
    (<= (next (whiteScore ?xNext)) (true (whiteScore ?x)) (does white (bid ?x1)) (does black (bid ?y1))
        (min ?x1 ?y1 ?minBid) (w1 ?score) (sum ?x2 ?minBid ?x) (sum ?x2 ?score ?xNext))
    (<= (next (blackScore ?xNext)) (true (blackScore ?x)) (does white (bid ?x1)) (does black (bid ?y1))
        (min ?x1 ?y1 ?minBid) (b1 ?score) (sum ?x2 ?minBid ?x) (sum ?x2 ?score ?xNext))
    (<= terminal (true (whiteScore 0)))
    (<= (goal white ?x) (true (whiteScore ?x)))
    (<= (goal black ?x) (true (blackScore ?x)))
    (<= (min ?a ?a ?a) (index ?a))
    (<= (min ?a ?b ?a) (gt ?b ?a))
    (<= (min ?b ?a ?a) (gt ?b ?a))
    (<= (w1 10) (does white (bid ?x1)) (does black (bid ?y1)) (gt ?x1 ?y1))
    (<= (b1 0) (does white (bid ?x1)) (does black (bid ?y1)) (gt ?x1 ?y1))
    (<= (w1 0) (does black (bid ?x1)) (does white (bid ?y1)) (gt ?x1 ?y1))
    (<= (b1 10) (does black (bid ?x1)) (does white (bid ?y1)) (gt ?x1 ?y1))
    (<= (w1 5) (does white (bid ?x1)) (does black (bid ?x1)))
    (<= (b1 5) (does white (bid ?x1)) (does black (bid ?x1)))
    (<= (sum ?x 0 ?x) (index ?x))
    (<= (sum ?x ?y ?z) (succ ?y0 ?y) (succ ?z0 ?z) (sum ?x ?y0 ?z0))
    (<= (gt ?a ?b) (index ?x) (not (succ ?x 1)) (sum ?b ?x ?a))
    (<= (gte ?a ?b) (index ?x) (sum ?b ?x ?a))`;
}

describe('planStaged', () => {
  it('cuts where variables die and passes the live ones through a table', () => {
    const shape = shapeOf('(<= (h ?x ?n) (p ?x ?a) (q ?b) (m ?a ?b ?c) (r ?c ?x ?n))', 'h');
    const s = planStaged(shape, null, 0, 'T|9', NOMINAL)!;
    // After p, q, m the variables a and b die; x and c live on.
    expect(s.shared).toEqual(['?c', '?x']);
    expect(clauseText({ ...s.part, name: '$v1' })).toBe("'$v1'(V0,V1) :- 'F|p/2'(V1,V2), 'F|q/1'(V3), 'F|m/3'(V2,V3,V0).");
    expect(clauseText({ ...s.rest, name: '$v2' })).toBe("'$v2'(V0,V1) :- 'T|9'(V2,V0), 'F|r/3'(V2,V0,V1).");
  });

  it('does not apply when no variable dies, or only one literal comes before the cut', () => {
    expect(planStaged(shapeOf('(<= (h ?x ?y) (p ?x) (q ?x ?y))', 'h'), null, 0, 'T|0', NOMINAL)).toBeUndefined();
    expect(planStaged(shapeOf('(<= (h ?x) (p ?x ?z) (q ?x))', 'h'), null, 0, 'T|0', NOMINAL)).toBeUndefined();
  });
});

describe('staged variants leave the least model unchanged', () => {
  const g = game(bids(20));
  // Elimination off in both runs: src/reach/eliminate-local.ts rewrites the bids rule the plan is built for.
  const lines = (off: readonly ('staged' | 'elimination')[]) => {
    const r = computeSupersetsProlog(g, TEST_REACH_LIMITS, { off });
    return { lines: supersetSentences(r.supersets), answers: r.stats.answers };
  };

  it('on the bids game: the same supersets with the plan off, and fewer answers with it on', () => {
    const on = lines(['elimination']);
    const off = lines(['staged', 'elimination']);
    expect(on.lines).toEqual(off.lines);
    expect(on.lines.fluents).toContain('(base (whitescore 0))');
    // Measured 6,249 against 28,637: each (score, minimum) pair once through the rest, not each pair of bids.
    expect(on.answers).toBeLessThan(off.answers / 2);
  });

  it("on the bids game: the relevant supersets are the Datalog core's", () => {
    const want = supersetSentences(relevantSupersets(g).supersets);
    expect(supersetSentences(computeSupersetsProlog(g, TEST_REACH_LIMITS, { relevantOnly: true }).supersets)).toEqual(want);
  });
});
