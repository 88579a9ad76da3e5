// Projected delta variants (src/reach/project.ts): the part of a delta literal that is linked
// to it only through variables outside the head runs first, its distinct bindings of the head
// variables once each, then the rest of the body. Plans change speed, never answers: the
// least model is checked against the Datalog core's, on a small game and on chess's relaxed
// game with lazy axioms, where the projection takes the fixpoint from about a minute to seconds.
import { TEST_REACH_LIMITS } from './support/context.js';
import { describe, expect, it } from 'vitest';
import { game, shapeOf } from './support/shapes.js';
import { clauseText } from '../src/reach/clauses.js';
import { planProjected } from '../src/reach/project.js';
import { computeSupersetsProlog } from '../src/reach/prolog.js';
import { supersetSentences } from '../src/reach/format.js';
import { planLazy } from '../src/ground/lazy.js';
import { defaultPipelineOptions, loadGame } from '../src/pipeline/stages.js';
import { relevantSupersets } from './support/relaxed-model.js';
import { HAVE_CORPUS, readGame } from './corpus.js';
import { StageTimer } from '../src/timer.js';



const NOMINAL = { order: () => 10, cost: () => 10 };

// Kings stand on many cells; a move is legal for a player that has some king anywhere.
const KINGS = `
  (role w) (role b)
  (init (control w)) (init (at k1 a)) (init (at k2 a))
  (owner k1 w) (owner k2 b)
  (edge a b) (edge b c) (edge c d) (edge d a)
  (<= (legal ?p (go ?x ?y)) (true (control ?p)) (edge ?x ?y) (owner ?k ?p) (true (at ?k ?z)))
  (<= (legal ?p noop) (role ?p))
  (<= (next (at ?k ?y)) (true (at ?k ?x)) (edge ?x ?y))
  (<= (next (control b)) (true (control w)))
  (<= (next (control w)) (true (control b)))
`;

describe('planProjected', () => {
  it("runs the delta literal's part for its bindings of head variables, then the rest over them", () => {
    const shape = shapeOf(KINGS, 'legal');
    // Positive literals: control, edge, owner, at; the delta is `at`, linked to owner by ?k. Its
    // second argument is read nowhere else, so the part reads at's projection on the first.
    const p = planProjected(shape, 3, 'T|9', NOMINAL)!;
    expect(p.shared).toEqual(['?p']);
    expect(p.partKey).toBe(2);
    expect(clauseText({ ...p.part, name: '$v1' })).toBe("'$v1'(V1) :- 'Q|D|true/1:at/2|0'(V2), 'F|owner/2'(V2,V1).");
    expect(clauseText({ ...p.rest, name: '$v2' })).toBe(
      "'$v2'(V1,'go'(V2,V3)) :- 'T|9'(V1), 'F|true/1:control/1'(V1), 'F|edge/2'(V2,V3).",
    );
  });

  it('does not apply when the part has no variables of its own, or a distinct ties them to the rest', () => {
    expect(planProjected(shapeOf('(<= (h ?x ?y) (p ?x) (q ?y))', 'h'), 0, 'T|0', NOMINAL)).toBeUndefined();
    expect(planProjected(shapeOf('(<= (h ?x) (p ?x ?z) (q ?x ?w) (distinct ?z ?w))', 'h'), 0, 'T|0', NOMINAL)).toBeUndefined();
    // Nothing but the part: the ordinary plan's once groups already cover it.
    expect(planProjected(shapeOf('(<= (h ?x) (p ?x ?z) (r ?z))', 'h'), 0, 'T|0', NOMINAL)).toBeUndefined();
  });
});

describe('projected variants leave the least model unchanged', () => {
  it('on a game whose legal rule reads a king on any cell', () => {
    const g = game(KINGS);
    expect(supersetSentences(computeSupersetsProlog(g, TEST_REACH_LIMITS, { relevantOnly: true }).supersets))
      .toEqual(supersetSentences(relevantSupersets(g).supersets));
  });

  it.skipIf(!HAVE_CORPUS)("on chess's relaxed game with its threat relations lazy", () => {
    const file = 'ggp-repository-base/chess.kif';
    const { normal } = loadGame(readGame(file), file, defaultPipelineOptions(), new StageTimer());
    const plan = planLazy(normal, ['queen_threatens']);
    expect(plan.relations).toContain('threatened_with_capture');
    const tau = computeSupersetsProlog(plan.relaxed, TEST_REACH_LIMITS, { relevantOnly: true }).supersets;
    expect(tau.fluents.length).toBe(1617);
    expect(tau.moves.length).toBe(7622);
    expect(supersetSentences(tau)).toEqual(supersetSentences(relevantSupersets(plan.relaxed).supersets));
  }, 240_000);
});
