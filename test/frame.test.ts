// Move mutexes for frame rules (issue 17, docs/ground.md "Frame rules"): the rewrite on rule
// shapes (chess's and checkers' frame rules, distinct, negated atoms, the conditions that leave
// a rule alone).
import { describe, expect, it } from 'vitest';
import { parseGdl } from '../src/gdl/parser.js';
import { atomToString, formulaToString } from '../src/gdl/terms.js';
import { normalizeGame } from '../src/normalize/normalize.js';
import { asRule, type NormalRule } from '../src/normalize/types.js';
import { frameRule } from '../src/ground/frame.js';

/** The first rule of `text`, normalized. */
function ruleOf(text: string): NormalRule {
  return normalizeGame(parseGdl(text, 't.kif').game).rules[0]!;
}

function show(r: NormalRule): string {
  const plain = asRule(r);
  return `${atomToString(plain.head)} <= ${plain.body.map(formulaToString).join(' ')}`;
}

/** The rewrite with `static*` relations static, `lazy*` lazy, and names aux1, aux2, ...: dom, moved, touched..., head. */
function frame(text: string): string[] | null {
  let n = 0;
  const ctx = { isStatic: (a: { rel: string }) => a.rel.startsWith('static'), isLazy: (a: { rel: string }) => a.rel.startsWith('lazy'), fresh: () => `aux${++n}` };
  const r = frameRule(ruleOf(text), ctx);
  return r === null ? null : [...(r.dom === null ? [] : [r.dom]), r.moved, ...r.touched, r.head].map(show);
}

describe('frameRule on rule shapes', () => {
  it('rewrites the chess frame rule into a static domain, moved, touched per cell test, and the head rule', () => {
    const chess = `(<= (next (cell ?x ?y ?p)) (does ?player (move ?piece ?x1 ?y1 ?x2 ?y2)) (true (cell ?x ?y ?p))
      (not (castle ?piece ?x1 ?y1 ?x2 ?y2)) (staticdiff ?x ?y ?x1 ?y1) (staticdiff ?x ?y ?x2 ?y2))`;
    expect(frame(chess)).toEqual([
      '(aux1 ?x ?y) <= (staticdiff ?x ?y ?frame1 ?frame2)',
      '(aux2 ?player) <= (does ?player (move ?piece ?x1 ?y1 ?x2 ?y2)) (not (castle ?piece ?x1 ?y1 ?x2 ?y2))',
      '(aux3 ?player ?x ?y) <= (does ?player (move ?piece ?x1 ?y1 ?x2 ?y2)) (aux1 ?x ?y) (not (staticdiff ?x ?y ?x1 ?y1))',
      '(aux3 ?player ?x ?y) <= (does ?player (move ?piece ?x1 ?y1 ?x2 ?y2)) (aux1 ?x ?y) (not (staticdiff ?x ?y ?x2 ?y2))',
      '(next (cell ?x ?y ?p)) <= (true (cell ?x ?y ?p)) (aux2 ?player) (aux1 ?x ?y) (not (aux3 ?player ?x ?y))',
    ]);
  });
});
