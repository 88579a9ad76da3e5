// The reasoner for the original game: quoting of GDL symbols, left recursion (which loops
// under plain SLD resolution), negation over recursive relations, the example games and a
// recursive corpus game.
import { Deadline } from '../src/deadline.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseGdl } from '../src/gdl/parser.js';
import { GdlError } from '../src/gdl/diagnostics.js';
import { defaultPipelineOptions, loadGame } from '../src/pipeline/stages.js';
import { createReasoner } from '../src/play/reasoner.js';
import type { GameState, GroundItem, ItemSimulator } from '../src/play/types.js';
import { EXAMPLES_DIR, HAVE_CORPUS, readGame } from './corpus.js';
import { StageTimer } from '../src/timer.js';

function reasonerFor(text: string, deadline = Deadline.never()): ItemSimulator {
  return createReasoner(loadGame(text, 'test.kif', defaultPipelineOptions(), new StageTimer()).normal, { deadline });
}

const texts = (items: readonly GroundItem[]): string[] => items.map((i) => i.text);
const item = (text: string): GroundItem => ({ text, term: parseGdl(`(x ${text})`, undefined, Deadline.never()).game.rules[0]!.head.args[0]! });

describe('reasoner', () => {
  it('keeps 1, 01 and + distinct constants and survives relations named like Prolog built-ins', () => {
    const r = reasonerFor(`
      (role p)
      (init (v 1)) (init (v 01)) (init (+ 1 01))
      (<= (is ?x) (true (v ?x)))
      (<= (call ?x ?y) (is ?x) (is ?y) (distinct ?x ?y))
      (<= (legal p (pick ?x ?y)) (call ?x ?y))
      (<= (next (v ?x)) (does p (pick ?x ?y)))
      (<= (next (+ ?x ?y)) (true (+ ?x ?y)))
      (<= terminal (not (true (v 01))))
      (<= (goal p 1) (true (v 1)))
      (<= (goal p 01) (true (v 01)))`);
    const s0 = r.initialState();
    expect(texts(s0)).toEqual(['(+ 1 01)', '(v 01)', '(v 1)']);
    const info = r.info(s0);
    expect(texts(info.legal[0]!)).toEqual(['(pick 01 1)', '(pick 1 01)']);
    expect(info.goals).toEqual([['01', '1']]);
    const s1 = r.successor(s0, [item('(pick 1 01)')]);
    expect(texts(s1)).toEqual(['(+ 1 01)', '(v 1)']);
    expect(r.info(s1).terminal).toBe(true);
  });

  it('evaluates left-recursive rules over cyclic data, and negation over them', () => {
    const r = reasonerFor(`
      (role p)
      (init (edge a b)) (init (edge b c)) (init (edge c a)) (init (edge d d))
      (<= (path ?x ?y) (path ?x ?z) (edge ?z ?y))
      (<= (path ?x ?y) (edge ?x ?y))
      (<= (edge ?x ?y) (true (edge ?x ?y)))
      (node a) (node b) (node c) (node d)
      (<= (legal p (cut ?x ?y)) (true (edge ?x ?y)))
      (<= (next (edge ?x ?y)) (true (edge ?x ?y)) (not (does p (cut ?x ?y))))
      (<= (goal p 100) (node ?x) (not (path a ?x)))
      (<= (goal p 0) (path a d))
      (<= terminal (not (path a a)))`);
    const s0 = r.initialState();
    const info = r.info(s0);
    // a reaches a, b, c but not d: the first goal rule holds, the second does not.
    expect(info.goals).toEqual([['100']]);
    expect(info.terminal).toBe(false);
    const s1 = r.successor(s0, [item('(cut c a)')]);
    expect(texts(s1)).toEqual(['(edge a b)', '(edge b c)', '(edge d d)']);
    expect(r.info(s1).terminal).toBe(true);
  });

  it('resolves negation through the same relation (goal 100 when not goal 0) top-down', () => {
    // As in queens16ug: a negative self-edge of `goal` is no positive cycle, and must not be
    // saturated bottom-up (which would read (goal p 0) before it is derived).
    const r = reasonerFor(`
      (role p)
      (init (bad 1))
      (<= (legal p fix) (true (bad ?x)))
      (<= (next (bad 2)) (true (bad 1)) (does p fix))
      (<= terminal (not (true (bad 1))))
      (<= (goal p 0) (true (bad 1)))
      (<= (goal p 100) (not (goal p 0)))`);
    const s0 = r.initialState();
    expect(r.info(s0).goals).toEqual([['0']]);
    expect(r.info(r.successor(s0, [item('fix')])).goals).toEqual([['100']]);
  });

  it('plays the robot-on-a-ring example as the slides describe', () => {
    const r = reasonerFor(readFileSync(join(EXAMPLES_DIR, 'ring.kif'), 'utf8'));
    expect(r.roles).toEqual(['robot']);
    let s: GameState = r.initialState();
    const cells: string[] = [];
    for (let i = 0; i < 6; i++) {
      expect(r.info(s).terminal).toBe(false);
      s = r.successor(s, [item('move')]);
      cells.push(s.find((f) => f.text.startsWith('(cell'))!.text);
    }
    expect(cells).toEqual(['(cell b)', '(cell c)', '(cell d)', '(cell a)', '(cell b)', '(cell c)']);
    const end = r.info(s);
    expect(end.terminal).toBe(true);
    expect(end.goals).toEqual([['0']]);
  });

  it('finds the winning line of buttons and lights', () => {
    const r = reasonerFor(readFileSync(join(EXAMPLES_DIR, 'buttons.kif'), 'utf8'));
    let s = r.initialState();
    for (const m of ['a', 'b', 'a', 'c', 'b', 'a']) s = r.successor(s, [item(m)]);
    expect(texts(s)).toEqual(['(step 7)', 'p', 'q', 'r']);
    expect(r.info(s).goals).toEqual([['100']]);
  });

  it('turns its deadline into a GdlError with code limit', () => {
    let caught: unknown;
    try {
      // A deadline already past: the first query that runs long enough to check it stops.
      const r = reasonerFor(readFileSync(join(EXAMPLES_DIR, 'nim.kif'), 'utf8'), new Deadline(Date.now() - 1));
      for (let i = 0; i < 1000; i++) r.info(r.successor(r.initialState(), [item('(reduce c 0)'), item('noop')]));
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(GdlError);
    expect((caught as GdlError).code).toBe('limit');
  });

  it.skipIf(!HAVE_CORPUS)('reasons about a recursive corpus game (hanoi: smaller, tower)', () => {
    const r = reasonerFor(readGame('ggp-repository-base/hanoi.kif'));
    const s0 = r.initialState();
    const info = r.info(s0);
    expect(info.terminal).toBe(false);
    // Only the top disc can move, onto either empty pillar (smallerdisc is recursive).
    expect(texts(info.legal[0]!)).toEqual(['(puton disc1 pillar2)', '(puton disc1 pillar3)']);
    // tower (recursive, state-dependent) gives pillar3 height s0, smaller than s2: goal 0.
    expect(info.goals).toEqual([['0']]);
    const s1 = r.successor(s0, [item('(puton disc1 pillar3)')]);
    expect(r.info(s1).goals).toEqual([['0']]);
    expect(texts(r.info(s1).legal[0]!)).toContain('(puton disc2 pillar2)');
  });
});
