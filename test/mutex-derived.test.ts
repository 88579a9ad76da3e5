// Derived relations functional within one transition and `next` rules whose fluent is a variable
// (src/mutex/lifted-derived.ts, lifted-expand.ts; docs/mutex.md 2i). games/mutex-intended.kif:
// (pos ?o ?y) by object is proven lifted only with "dest gives one square per object and move",
// a recursive derived relation that reads the state; its twin games/mutex-unintended.kif (the
// chaser may also stay) must be refused. games/mutex-restart.kif: a restart by (next ?x) over
// static facts no longer makes the lifted proof give up; its twin restarts with two cells.
import { describe, expect, it } from 'vitest';
import { provenLifted } from './support/lifted-proofs.js';

describe('derived relations per transition, lifted', () => {
  it('mutex-intended: one position per object, through the recursive dest, proven', () => {
    expect(provenLifted('mutex-intended.kif')).toMatchObject({ 'pos/2 [0]': true, 'step/1 []': true });
  });

  it('mutex-unintended: the chaser may go and stay at once: one position per object refused', () => {
    expect(provenLifted('mutex-unintended.kif')).toMatchObject({ 'pos/2 [0]': false, 'step/1 []': true });
  });

  it('mutex-restart: the restart rule read over its facts, one cell and one score proven', () => {
    expect(provenLifted('mutex-restart.kif')).toMatchObject({ 'cell/1 []': true, 'score/1 []': true });
  });

  it('mutex-restart-twice: two cells after the restart: the cell group refused, the score proven', () => {
    expect(provenLifted('mutex-restart-twice.kif')).toMatchObject({ 'cell/1 []': false, 'score/1 []': true });
  });
});
