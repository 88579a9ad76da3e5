// Move mutexes for frame rules (issue 17, docs/ground.md "Frame rules"): the rewrite on rule
// shapes (chess's frame rule, distinct, negated atoms, the conditions that leave a rule alone),
// the threshold that keeps small rules as written, and games/frame.kif rewritten and played
// against the original.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { frameRule } from '../src/ground/frame.js';
import { defaultPipelineOptions, emitGround, runGrounding } from '../src/pipeline/stages.js';
import { expectSameGdl, groundAndCheck, groundGdl, ruleOf, show } from './support/rewrite.js';
import { EXAMPLES_DIR } from './examples.js';
import { StageTimer } from '../src/timer.js';

/** The rewrite with `static*` relations static, `lazy*` lazy, and names aux1, aux2, ...: dom, moved, touched..., head. */
function frame(text: string): string[] | null {
  let n = 0;
  const ctx = { isStatic: (a: { rel: string }) => a.rel.startsWith('static'), isLazy: (a: { rel: string }) => a.rel.startsWith('lazy'), fresh: () => `aux${++n}` };
  const r = frameRule(ruleOf(text), ctx);
  return r === null ? null : [...(r.dom === null ? [] : [r.dom]), r.moved, ...r.touched, r.head].map(show);
}

/** Rule, then its rewrite: dom, moved, touched..., head (see {@link frame}). */
const REWRITES: [string, string, string[]][] = [
  ['the chess frame rule: a static domain, moved, touched per cell test, and the head rule',
    `(<= (next (cell ?x ?y ?p)) (does ?player (move ?piece ?x1 ?y1 ?x2 ?y2)) (true (cell ?x ?y ?p))
      (not (castle ?piece ?x1 ?y1 ?x2 ?y2)) (staticdiff ?x ?y ?x1 ?y1) (staticdiff ?x ?y ?x2 ?y2))`, [
      '(aux1 ?x ?y) <= (staticdiff ?x ?y ?frame1 ?frame2)',
      '(aux2 ?player) <= (does ?player (move ?piece ?x1 ?y1 ?x2 ?y2)) (not (castle ?piece ?x1 ?y1 ?x2 ?y2))',
      '(aux3 ?player ?x ?y) <= (does ?player (move ?piece ?x1 ?y1 ?x2 ?y2)) (aux1 ?x ?y) (not (staticdiff ?x ?y ?x1 ?y1))',
      '(aux3 ?player ?x ?y) <= (does ?player (move ?piece ?x1 ?y1 ?x2 ?y2)) (aux1 ?x ?y) (not (staticdiff ?x ?y ?x2 ?y2))',
      '(next (cell ?x ?y ?p)) <= (true (cell ?x ?y ?p)) (aux2 ?player) (aux1 ?x ?y) (not (aux3 ?player ?x ?y))',
    ]],
  ['the cell bound through the unifier of a negated distinct, and the domain for the rest',
    '(<= (next (c ?x ?y)) (true (c ?x ?y)) (does ?r (m ?a ?b)) (staticcell ?x ?y ?a ?b) (distinct ?x ?a))', [
      '(aux1 ?x ?y) <= (staticcell ?x ?y ?frame1 ?frame2)',
      '(aux2 ?r) <= (does ?r (m ?a ?b))',
      '(aux3 ?r ?a ?y) <= (does ?r (m ?a ?b)) (aux1 ?a ?y)',
      '(aux3 ?r ?x ?y) <= (does ?r (m ?a ?b)) (aux1 ?x ?y) (not (staticcell ?x ?y ?a ?b))',
      '(next (c ?x ?y)) <= (true (c ?x ?y)) (aux2 ?r) (aux1 ?x ?y) (not (aux3 ?r ?x ?y))',
    ]],
  ['a negated test turned positive, for a constant role, without a domain',
    '(<= (next (mark ?x)) (true (mark ?x)) (does white (m ?a)) (not (hit ?a ?x)) (not (staticbad ?a)))', [
      'aux1 <= (does white (m ?a)) (not (staticbad ?a))',
      '(aux2 ?x) <= (does white (m ?a)) (hit ?a ?x) (not (staticbad ?a))',
      '(next (mark ?x)) <= (true (mark ?x)) aux1 (not (aux2 ?x))',
    ]],
];

describe('frameRule on rule shapes', () => {
  it.each(REWRITES)('rewrites %s', (_what, rule, expected) => expect(frame(rule)).toEqual(expected));
});

describe('frameRule conditions', () => {
  it('leaves alone rules that are not frame rules', () => {
    // The move names the cell (an effect rule).
    expect(frame('(<= (next (c ?x)) (true (c ?x)) (does ?r (m ?x ?a)) (staticok ?a ?x))')).toBeNull();
    // Two moves in one part: each role moves once, but the pair is not one move.
    expect(frame('(<= (next (c ?x)) (true (c ?x)) (does ?r (m ?a)) (does ?s (m ?b)) (staticok ?a ?b) (distinct ?x ?a))')).toBeNull();
    // A positive state-dependent test of the cell cannot be negated into a rule.
    expect(frame('(<= (next (c ?x)) (true (c ?x)) (does ?r (m ?a)) (near ?a ?x))')).toBeNull();
    // A lazy relation stays negated (docs/lazy.md).
    expect(frame('(<= (next (c ?x)) (true (c ?x)) (does ?r (m ?a)) (not (lazyhit ?a ?x)))')).toBeNull();
    // The cell comes only from the test, not from the rest of the rule.
    expect(frame('(<= (next (c ?x)) (does ?r (m ?a)) (staticnear ?a ?x))')).toBeNull();
    // A test with a variable of neither the move nor the cell.
    expect(frame('(<= (next (c ?x)) (true (c ?x)) (does ?r (m ?a)) (staticp ?a ?z) (not (staticq ?z ?x)))')).toBeNull();
    // No does, or no test of the cell.
    expect(frame('(<= (next (c ?x)) (true (c ?x)) (true (d ?a)) (distinct ?a ?x))')).toBeNull();
    expect(frame('(<= (next (c ?x)) (true (c ?x)) (does ?r (m ?a)))')).toBeNull();
  });
});

describe('frame rules while grounding', () => {
  const file = join(EXAMPLES_DIR, 'frame.kif');
  const text = readFileSync(file, 'utf8');
  const off = { ...defaultPipelineOptions(), frameAbove: Infinity };
  const plain = groundGdl(text, file, off).ground;

  it('leaves games whose rules stay under the threshold as they were', () => expectSameGdl(text, file, off, defaultPipelineOptions()));

  it('rewrites the frame rules, with far fewer ground rules, into a game that plays like the original', () => {
    const options = { ...defaultPipelineOptions(), frameAbove: 100 };
    const { ground, gdl } = groundAndCheck(text, file, options, { playouts: 12, seed: 3, maxSteps: 12 });
    // The cell (2, 2) keeps its piece when the move made does not touch it.
    expect(gdl).toMatch(/\n\(<= \(next \(cell 2 2 black\)\) \(split-\d+ white\) \(true \(cell 2 2 black\)\) \(not \(split-\d+ white 2 2\)\)\)\n/);
    expect(ground.rules.length * 3).toBeLessThan(plain.rules.length);
  });
});


describe('a rewrite that does not pay', () => {
  // The cell test holds for one move per cell: 6 rules as written, 30 `touched` rules rewritten.
  // The rewrite is tried and rolled back; the split that follows (the `next (e ?x)` rule, tried
  // after it: candidates go in the order of their text) must get the names it had.
  const text = `(role p) (index 1) (index 2) (index 3) (index 4) (index 5) (index 6)
    (<= (init (c ?x)) (index ?x)) (<= (init (d ?y ?z)) (index ?y) (index ?z)) (<= (legal p (m ?a)) (index ?a))
    (<= (same ?x ?x) (index ?x))
    (<= (next (c ?x)) (true (c ?x)) (does ?r (m ?a)) (same ?x ?a))
    (<= (next (d ?y ?z)) (true (d ?y ?z)))
    (<= (next (e ?x)) (true (c ?x)) (true (d ?y ?z)))
    (<= (goal p 100) (true (e 1))) (<= terminal (true (e 2)))`;
  it('leaves the output as it is without the rewrite, auxiliary names included', () => {
    const ground = (frameAbove: number): string =>
      emitGround(runGrounding(text, 't.kif', { ...defaultPipelineOptions(), frameAbove, splitAbove: 1 }, new StageTimer()).ground, 'gdl', { baseInput: true }, new StageTimer(), defaultPipelineOptions());
    const tried = ground(1);
    expect(tried).toBe(ground(Infinity));
    expect(tried).toContain('(<= split-1 (true (d 1 1)))');
  });
});
