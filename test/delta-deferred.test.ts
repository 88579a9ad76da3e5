// The head-first plan with the delta literal deferred into the part that alone reads its own
// variables (src/reach/head-first.ts, deltaDeferred): chess's king-in-check legal rules.
import { describe, expect, it } from 'vitest';
import { shapeOf } from './support/shapes.js';
import { clauseText } from '../src/reach/clauses.js';
import { planVariant } from '../src/reach/plan.js';
import { deltaDeferred } from '../src/reach/head-first.js';
import type { RowEstimate } from '../src/reach/planned.js';

/** Every bound argument divides 1000 rows by 10 (plan.ts's nominal estimate). */
const nominal: RowEstimate = (_r, _t, bound) => 1000 / 10 ** bound.filter((b) => b).length;
const estimates = { order: nominal, cost: nominal };

// A move to ?t is legal when some line from ?t reaches the king's cell ?k through a cell ?c the
// player owns; the delta is the king's cell, whose ?k only the deferred part (line, own) reads.
const LEGAL = '(<= (legal ?p (mv ?t)) (role ?p) (cand ?p ?t) (king ?p ?k) (line ?t ?c ?k) (own ?p ?c))';

describe('deltaDeferred', () => {
  it('starts from the delta projected onto the player and tests the king cells in the deferred part', () => {
    const shape = shapeOf(LEGAL, 'legal');
    const [, , , line, own] = shape.positives;
    const deferred = [[line!, own!]];
    const plan = planVariant(0, shape, { deltaAt: 2, deferred }, estimates);
    // Head first as it was: once per king cell of the delta, every candidate move.
    expect(clauseText(plan)).toMatch(/^'\$v0'\(V0,'mv'\(V1\)\) :- 'D\|king\/2'\(V0,V2\)/);
    const moved = deltaDeferred(0, shape, 2, deferred, plan, estimates)!;
    expect(clauseText(moved)).toBe(
      "'$v0'(V0,'mv'(V1)) :- 'A|D|king/2|0'(V0), 'F|role/1'(V0), 'F|cand/2'(V0,V1), '$gdl_absent'('F|legal/2:mv/1'(V0,V1)), " +
        "once(('D|king/2'(V0,V2), 'F|line/3'(V1,V3,V2), 'F|own/2'(V0,V3))).",
    );
    expect(moved.cost(7)).toBeLessThanOrEqual(plan.cost(7));
  });

  it("runs the parts that read the delta's own variables as one part after the delta", () => {
    // Corpus chess's block-the-threat rule: the delta (blocks ?x ?t ?k) has own variables ?t (the
    // threat, read by check) and ?k (the king's cell, read by king), in two deferred parts.
    const shape = shapeOf('(<= (legal ?p (mv ?x)) (control ?p) (cand ?p ?x) (blocks ?x ?t ?k) (check ?p ?t) (king ?p ?k))', 'legal');
    const [control, , , check, king] = shape.positives;
    const deferred = [[control!], [check!], [king!]];
    const plan = planVariant(0, shape, { deltaAt: 2, deferred }, estimates);
    const moved = deltaDeferred(0, shape, 2, deferred, plan, estimates)!;
    expect(clauseText(moved)).toMatch(/^'\$v0'\(V0,'mv'\(V1\)\) :- 'A\|D\|blocks\/3\|0'\(V1\), 'F\|cand\/2'\(V0,V1\), /);
    expect(clauseText(moved)).toMatch(/once\(\('D\|blocks\/3'\(V1,V\d,V\d\), 'F\|(check|king)\/2'\(V0,V\d\), 'F\|(check|king)\/2'\(V0,V\d\)\)\)\.$/);
  });

  it('keeps the plan when a literal outside the deferred parts reads the delta variable', () => {
    const shape = shapeOf('(<= (legal ?p (mv ?t)) (role ?p) (cand ?p ?t ?k) (king ?p ?k) (line ?t ?c ?k) (own ?p ?c))', 'legal');
    const [, , , line, own] = shape.positives;
    const plan = planVariant(0, shape, { deltaAt: 2, deferred: [[line!, own!]] }, estimates);
    expect(deltaDeferred(0, shape, 2, [[line!, own!]], plan, estimates)).toBeUndefined();
  });
});
