// Functional relations in the lifted "at most one" proof (src/mutex/lifted-functional.ts,
// docs/mutex.md 2a "Functional relations"): games/mutex-functional.kif, where a score grows by a
// recursive derived plus (one sum per pair of summands, read off its bound), a marker hops by a
// static relation that two positions determine, and a tally is kept only when both roles pass (a
// move by a role named by a variable, split over the roles); all three proven lifted. Its twin
// games/mutex-nonfunctional.kif breaks each, and each must be refused. Then the bound of a plus
// over 151 numbers, which the join finds only when the rows new in a round are joined first (and,
// for racer's form, the atom they bind looked up by its row).
import { describe, expect, it } from 'vitest';
import { provenLifted } from './support/lifted-proofs.js';
import { loadGame } from '../src/pipeline/stages.js';
import { Deadline } from '../src/deadline.js';
import type { Term } from '../src/gdl/ast.js';
import { relaxedBounds } from '../src/mutex/lifted-bounds.js';
import { defaultPipelineOptions } from '../src/pipeline/options.js';
import { StageTimer } from '../src/timer.js';

describe('functional relations, lifted', () => {
  it('mutex-functional: score by a derived plus, the hop by role and square, the tally kept when both pass: all proven', () => {
    expect(provenLifted('mutex-functional.kif')).toMatchObject({ 'score/2 [0]': true, 'at/2 [0]': true, 'tally/1 []': true });
  });

  it('mutex-nonfunctional: two sums, two hops, a tally kept beside a move: all three (false) refused', () => {
    expect(provenLifted('mutex-nonfunctional.kif')).toMatchObject({ 'score/2 [0]': false, 'at/2 [0]': false, 'tally/1 []': false });
  });

  it.each([
    ['(succ ?y1 ?y) (succ ?x ?x1) (plus ?x1 ?y1 ?z)', 'plus last'],
    // racer's add: the atom before the succ that binds ?y is looked up only once ?y is bound.
    ['(lt 0 ?y) (succ ?y1 ?y) (succ ?x ?x1) (plus ?x1 ?y1 ?z)', 'a recursive lt first'],
  ])('a recursive plus over 151 numbers (%s: %s) gets its bound (11,476 rows) within the join steps', (body) => {
    const n = 150;
    const facts = [...Array(n + 1).keys()].map((i) => `(num ${i})`).concat([...Array(n).keys()].map((i) => `(succ ${i} ${i + 1})`));
    const text = `(role r) (init (p 0)) (<= (legal r noop)) (<= (next (p ?x)) (true (p ?x)))
      (<= (plus ?x 0 ?x) (num ?x)) (<= (plus ?x ?y ?z) ${body})
      (<= (lt ?x ?y) (succ ?x ?y)) (<= (lt ?x ?z) (succ ?y ?z) (lt ?x ?y))
      (<= terminal (true (p 1))) (<= (goal r 0) (true (p 0))) ${facts.join(' ')}`;
    const loaded = loadGame(text, 'plus.kif', defaultPipelineOptions(), new StageTimer());
    const rows = new Map<string, Term[][]>();
    for (const r of loaded.normal.rules) {
      if (r.body.length > 0 || !['num', 'succ'].includes(r.head.rel)) continue;
      const k = `${r.head.rel}/${r.head.args.length}`;
      rows.set(k, [...(rows.get(k) ?? []), [...r.head.args]]);
    }
    const plus = relaxedBounds(loaded.normal, rows, new Map(), Deadline.never()).get('plus/3');
    expect(plus?.keep).toEqual([0, 1, 2]);
    expect(plus?.rows).toHaveLength(((n + 1) * (n + 2)) / 2);
  });
});
