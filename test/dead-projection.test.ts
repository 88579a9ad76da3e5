// Dead projections (src/reach/plan.ts, `projectDead`): a literal with variables found nowhere
// else in its rule reads its table's projection onto the other arguments, so each tuple of those
// is joined once instead of once per value of the dead variables. Plans change speed, never
// answers: the least model is checked against the plan switched off and against the Datalog
// core's (test/support/relaxed-model.ts), and the plan must save answers on the game built for
// it (racer4's position rules in small), else it would not be running at all.
import { describe, expect, it } from 'vitest';
import { TEST_REACH_LIMITS } from './support/context.js';
import { game, shapeOf } from './support/shapes.js';
import { clauseText } from '../src/reach/clauses.js';
import { planVariant } from '../src/reach/plan.js';
import { computeSupersetsProlog } from '../src/reach/prolog.js';
import { supersetSentences } from '../src/reach/format.js';
import { relevantSupersets } from './support/relaxed-model.js';

/**
 * racer4 in small: a player on a line of cells 0..n moves by a speed (dx, dy) of -2..2 each; the
 * position rule reads the move's dy nowhere, so it ran once per dy before.
 */
function racer(n: number): string {
  let t = '(role p) (init (pos p 0)) (init (vel p 0))';
  for (let i = 0; i <= n; i++) t += ` (cell ${i})`;
  for (let d = -2; d <= 2; d++) t += ` (speed ${d})`;
  for (let i = 0; i <= n; i++) for (let d = -2; d <= 2; d++) if (i + d >= 0 && i + d <= n) t += ` (add ${i} ${d} ${i + d})`;
  return `${t}
    (<= (legal ?p (move ?dx ?dy)) (true (vel ?p ?v)) (speed ?dx) (speed ?dy))
    (<= (next (pos ?p ?nx)) (does ?p (move ?dx ?dy)) (true (pos ?p ?x)) (add ?x ?dx ?nx))
    (<= (next (vel ?p ?dx)) (does ?p (move ?dx ?dy)))
    (<= terminal (true (pos p ${n})))
    (<= (goal p 100) (true (pos p ${n})))`;
}

describe('projectDead', () => {
  it('reads a literal with a variable found nowhere else through the projection onto the others', () => {
    const shape = shapeOf('(<= (h ?x ?z) (p ?x ?d) (q ?x ?z))', 'h');
    expect(clauseText(planVariant(0, shape, { deltaAt: null }))).toBe("'$v0'(V1,V2) :- 'Q|F|p/2|0'(V1), 'F|q/2'(V1,V2).");
    // The delta table too, by its own projection.
    expect(clauseText(planVariant(0, shape, { deltaAt: 0 }))).toBe("'$v0'(V1,V2) :- 'Q|D|p/2|0'(V1), 'F|q/2'(V1,V2).");
  });

  it('keeps a variable that occurs twice in the literal, in the head, or is bound before', () => {
    expect(clauseText(planVariant(0, shapeOf('(<= (h ?x ?z) (p ?x ?d ?d) (q ?x ?z))', 'h'), { deltaAt: null }))).not.toContain('Q|');
    expect(clauseText(planVariant(0, shapeOf('(<= (h ?x ?d) (p ?x ?d) (q ?x))', 'h'), { deltaAt: null }))).not.toContain('Q|');
    expect(clauseText(planVariant(0, shapeOf('(<= (h ?x ?z) (q ?x ?z) (p ?x ?d) (r ?d))', 'h'), { deltaAt: null }))).not.toContain('Q|');
  });
});

describe('dead projections leave the least model unchanged', () => {
  const g = game(racer(30));
  const run = (off: readonly 'dead-projection'[]) => {
    const r = computeSupersetsProlog(g, TEST_REACH_LIMITS, { off });
    return { lines: supersetSentences(r.supersets), answers: r.stats.answers };
  };

  it('on the racer game: the same supersets with the plan off, and fewer answers with it on', () => {
    const on = run([]);
    const off = run(['dead-projection']);
    expect(on.lines).toEqual(off.lines);
    expect(on.lines.fluents).toContain('(base (pos p 30))');
    expect(on.answers).toBeLessThan(off.answers);
  });

  it("on the racer game: the relevant supersets are the Datalog core's", () => {
    const want = supersetSentences(relevantSupersets(g).supersets);
    expect(supersetSentences(computeSupersetsProlog(g, TEST_REACH_LIMITS, { relevantOnly: true }).supersets)).toEqual(want);
  });
});
