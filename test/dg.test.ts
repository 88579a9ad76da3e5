// The dependency-graph method: graph (Definition 9.3), domains, products (Algorithm 9.3),
// reduceSupersetsDG (Algorithm 9.4), limits and DOT output, on small games and corpus games.
import { TEST_REACH_LIMITS } from './support/context.js';
import { Deadline } from '../src/deadline.js';
import { describe, expect, it } from 'vitest';
import { GdlError } from '../src/gdl/diagnostics.js';
import { atomToString, termToString } from '../src/gdl/terms.js';
import { defaultPipelineOptions, loadGame } from '../src/pipeline/stages.js';
import { argGraphToDot, argGraphToText } from '../src/reach/dg/dot.js';
import { analyzeDG, computeSupersetsDG, dependencyGraph } from '../src/reach/dg/index.js';
import { findPosition } from '../src/reach/dg/graph.js';
import { computeSupersetsProlog } from '../src/reach/prolog.js';
import type { Supersets } from '../src/reach/types.js';
import { HAVE_CORPUS, readGame } from './corpus.js';
import { StageTimer } from '../src/timer.js';

const LIMITS = { deadline: Deadline.never(), maxAtoms: 2_000_000 };

function normal(text: string, file = 'test.kif') {
  return loadGame(text, file, defaultPipelineOptions(), new StageTimer()).normal;
}

const texts = (s: Supersets) => ({
  fluents: s.fluents.map(termToString),
  moves: s.moves.map((m) => `${termToString(m.role)} ${termToString(m.action)}`),
  axioms: s.axioms.map(atomToString),
});

/** The thesis' running example for Figure 9.1/9.2: a step counter over succ facts. */
const STEP_GAME = `
(role timer)
(init (step 0))
(<= (next (step ?s2)) (true (step ?s1)) (succ ?s1 ?s2))
(succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4) (succ 4 5)
(succ 5 6) (succ 6 7) (succ 7 8) (succ 8 9) (succ 9 10)
(legal timer tick)
(<= terminal (true (step 10)))
(goal timer 100)
`;

/** A robot on a ring of six cells with adjacent facts. */
function ringGame(adjacent: string): string {
  return `
(role robot)
(init (at 1))
${adjacent}
(<= (legal robot (move ?x ?y)) (true (at ?x)) (adjacent ?x ?y))
(<= (next (at ?y)) (does robot (move ?x ?y)))
(<= terminal (true (at 4)))
(goal robot 100)
`;
}
const RING = ringGame([1, 2, 3, 4, 5, 6].map((i) => `(adjacent ${i} ${(i % 6) + 1}) (adjacent ${(i % 6) + 1} ${i})`).join('\n'));

describe('argument dependency graph and domains (Algorithm 9.3)', () => {
  it('builds the edges of Figure 9.2 for the step example', () => {
    const { graph, domains } = dependencyGraph(normal(STEP_GAME), TEST_REACH_LIMITS);
    // Positions are structured values: found by their parts, shown by their text.
    const at = (kind: 'rel' | 'fn', name: string, arity: number, index: number): number => findPosition(graph, { kind, name, arity, index })!;
    const text = (pos: number): string => graph.byId[pos]!.text;
    const step = at('fn', 'step', 1, 1);
    expect(text(step)).toBe('fn:step/1[1]');
    expect(graph.byId[step]).toMatchObject({ kind: 'fn', name: 'step', arity: 1, index: 1, symbol: graph.functions.find('step', 1) });
    expect([...graph.edges.get(step)!].map(text)).toEqual(['succ/2[2]']);
    expect([...graph.constants.get(step)!]).toEqual(['0']);
    expect([...graph.functors.get(at('rel', 'next', 1, 1))!].map((f) => graph.functions.key(f))).toEqual(['step/1']);
    expect(domains.constants(step)).toEqual(['0', '1', '10', '2', '3', '4', '5', '6', '7', '8', '9']);
    expect(domains.count(at('rel', 'true', 1, 1))).toBe(11);
    expect(domains.count(at('rel', 'succ', 2, 1))).toBe(10);
    expect(findPosition(graph, { kind: 'rel', name: 'succ', arity: 3, index: 1 })).toBeUndefined();
  });

  it('keeps the exact instances of relations given by facts, products elsewhere', () => {
    const a = analyzeDG(normal(STEP_GAME), LIMITS);
    // succ has 10 facts: the 10 x 10 product of its argument domains is not used.
    expect(a.productByRelation.find((r) => r.rel === 'succ/2')!.size).toBe(10);
    expect(a.productSizes).toEqual({ fluents: 11, moves: 1, axioms: 10 });
    expect(texts(a.supersets).fluents).toHaveLength(11);
  });

  it('reduces the products of the ring: moves only between adjacent cells', () => {
    const a = analyzeDG(normal(RING), LIMITS);
    expect(a.productSizes.moves).toBe(36);
    const moves = texts(a.supersets).moves;
    expect(moves).toHaveLength(12);
    expect(moves).toContain('robot (move 6 1)');
    expect(moves).not.toContain('robot (move 1 3)');
  });

  it('keeps self-supporting instances (a greatest fixpoint), a superset of the exact model', () => {
    // 1 -> 2 -> 3 is reachable; 5 <-> 6 support each other but are never reached.
    const game = normal(ringGame('(adjacent 1 2) (adjacent 2 3) (adjacent 5 6) (adjacent 6 5)'));
    const dg = texts(computeSupersetsDG(game, LIMITS).supersets);
    const exact = texts(computeSupersetsProlog(game, LIMITS).supersets);
    expect(exact.fluents).toEqual(['(at 1)', '(at 2)', '(at 3)']);
    expect(dg.fluents).toEqual(['(at 1)', '(at 2)', '(at 3)', '(at 5)', '(at 6)']);
    expect(dg.moves).toEqual(['robot (move 1 2)', 'robot (move 2 3)', 'robot (move 5 6)', 'robot (move 6 5)']);
    expect(dg.axioms).toEqual(exact.axioms);
  });

  it('evaluates static rules exactly (negation relaxed away), like the Prolog method', () => {
    const game = normal(`
      (role r) (init (c 0)) (num 0) (num 1) (num 2)
      (<= (lt ?x ?y) (succ ?x ?y)) (<= (lt ?x ?z) (lt ?x ?y) (succ ?y ?z))
      (succ 0 1) (succ 1 2)
      (<= (big ?x) (num ?x) (not (lt ?x 1)))
      (<= (legal r (go ?x)) (true (c ?y)) (lt ?y ?x))
      (<= (next (c ?x)) (does r (go ?x)))
      (<= terminal (true (c 2))) (goal r 100)`);
    const dg = texts(computeSupersetsDG(game, LIMITS).supersets);
    const exact = texts(computeSupersetsProlog(game, LIMITS).supersets);
    expect(dg.axioms).toEqual(exact.axioms);
    expect(dg.axioms).toContain('(lt 0 2)');
    expect(dg.axioms).toContain('(big 0)');
  });
});

describe('goal and terminal', () => {
  it('are computed when another rule uses them positively, as in the Prolog method', () => {
    const game = normal(`
      (role r) (init (c 0)) (succ 0 1) (succ 1 2)
      (<= (legal r (go ?y)) (true (c ?x)) (succ ?x ?y))
      (<= (legal r reset) terminal (goal r 100))
      (<= (next (c ?y)) (does r (go ?y)))
      (<= (next (c 0)) (does r reset))
      (<= terminal (true (c 2))) (<= (goal r 100) (true (c 2)))`);
    const dg = texts(computeSupersetsDG(game, LIMITS).supersets);
    expect(dg.moves).toEqual(['r (go 1)', 'r (go 2)', 'r reset']);
    expect(dg).toEqual(texts(computeSupersetsProlog(game, LIMITS).supersets));
  });
});

describe('limits', () => {
  it('computes a component upward when its domain is infinite, and stops at maxAtoms if the model is', () => {
    // count nests (s ...) without end in the graph; the small facts bound the real game.
    const bounded = normal(`
      (role r) (init (count 0)) (legal r tick) (small (s 0)) (small (s (s 0)))
      (<= (next (count (s ?x))) (true (count ?x)) (small (s ?x)))
      (<= terminal (true (count 0))) (goal r 100)`);
    const a = analyzeDG(bounded, LIMITS);
    expect(a.upwardComponents).toBe(1);
    expect(a.productSizes.fluents).toBe(Infinity);
    expect(texts(a.supersets).fluents).toEqual(['(count (s (s 0)))', '(count (s 0))', '(count 0)']);
    const unbounded = normal(`
      (role r) (init (count 0)) (legal r tick)
      (<= (next (count (s ?x))) (true (count ?x)))
      (<= terminal (true (count 0))) (goal r 100)`);
    let error: unknown;
    try {
      computeSupersetsDG(unbounded, { deadline: Deadline.never(), maxAtoms: 500 });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(GdlError);
    expect((error as GdlError).code).toBe('limit');
    expect((error as GdlError).message).toMatch(/more than 500 ground atoms while computing '(true|next)\/1'/);
  });

  it('stops with a limit error beyond maxAtoms and at the deadline', () => {
    const game = normal(RING);
    expect(() => computeSupersetsDG(game, { deadline: Deadline.never(), maxAtoms: 10 })).toThrow(/more than 10 ground atoms/);
    expect(() => computeSupersetsDG(game, { deadline: Deadline.never(), maxAtoms: 10 })).toThrow(GdlError);
  });
});

describe('DOT output (Figure 9.2)', () => {
  it('prints positions with domain sizes, constants and function symbols, sorted', () => {
    const { graph, domains } = dependencyGraph(normal(STEP_GAME), TEST_REACH_LIMITS);
    const dot = argGraphToDot(graph, domains)!;
    expect(dot.startsWith('digraph argument_dependencies {')).toBe(true);
    expect(dot).toContain('"fn:step/1[1]" [shape=ellipse, label="step/1[1]\\n|D|=11"];');
    expect(dot).toContain('"fn:step/1[1]" -> "succ/2[2]";');
    expect(dot).toContain('"next/1[1]" -> "f:step/1";');
    expect(dot).toContain('"f:step/1" -> "fn:step/1[1]" [style=dashed];');
    expect(argGraphToDot(graph, domains)).toBe(dot);
  });

  it('restricts to what one relation depends on, and reports unknown relations', () => {
    const { graph, domains } = dependencyGraph(normal(RING), TEST_REACH_LIMITS);
    const dot = argGraphToDot(graph, domains, { relation: 'legal' })!;
    expect(dot).toContain('"legal/2[2]"');
    expect(dot).toContain('"adjacent/2[2]"');
    expect(dot).not.toContain('"goal/2[1]"');
    expect(argGraphToDot(graph, domains, { relation: 'nosuch' })).toBeUndefined();
    expect(argGraphToText(graph, domains, { relation: 'adjacent/2' })).toBe('adjacent/2[1]\t6\t1 2 3 4 5 6\nadjacent/2[2]\t6\t1 2 3 4 5 6\n');
  });
});

/** Corpus games that both methods handle in seconds, of varied kinds. */
const CORPUS = [
  'ggp-repository-base/buttons.kif',
  'ggp-repository-base/connectFour.kif',
  'ggp-repository-base/blocks.kif',
  'ggp-repository-base/hodgepodge.kif',
  'ggp-repository-base/2pffa.kif',
  'ggp-repository-base/aipsrovers01.kif',
  'ggp-base-test/test_case_5d.kif',
  'ggp-base-test/test_case_5e.kif',
  'ggp-base-test/test_distinct_beginning_rule.kif',
];

describe.skipIf(!HAVE_CORPUS)('corpus: DG supersets contain the exact relaxed model', () => {
  for (const rel of CORPUS) {
    it(rel, () => {
      const game = normal(readGame(rel), rel);
      const a = analyzeDG(game, LIMITS);
      const dg = texts(a.supersets);
      const exact = texts(computeSupersetsProlog(game, LIMITS).supersets);
      for (const k of ['fluents', 'moves', 'axioms'] as const) {
        const have = new Set(dg[k]);
        expect(exact[k].filter((x) => !have.has(x))).toEqual([]);
        // The products of Algorithm 9.3 bound the reduced sets from above.
        expect(dg[k].length).toBeLessThanOrEqual(a.productSizes[k]);
      }
    });
  }
});
