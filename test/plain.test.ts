// `--method prolog-plain`: Algorithm 9.2 as the thesis writes it (prolog/alg92.pl on
// Tau-Prolog). Its text is embedded from the .pl file; its supersets are the relaxed game's least
// model, held here against the optimized method's and clingo's on examples and corpus games.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without types
import { embeddedModule } from '../scripts/embed-prolog.mjs';
import { ALG92_PROLOG } from '../src/reach/alg92-text.js';
import { computeSupersetsPlain } from '../src/reach/plain.js';
import { computeSupersetsProlog } from '../src/reach/prolog.js';
import { loadGame, resolvePipelineOptions } from '../src/pipeline/stages.js';
import { GdlError } from '../src/gdl/diagnostics.js';
import { StageTimer } from '../src/timer.js';
import { TEST_REACH_LIMITS } from './support/context.js';
import { clingoSupersets, supersetLines } from './support/clingo.js';
import { HAVE_CORPUS, readGame } from './corpus.js';

const ROOT = join(import.meta.dirname, '..');
const load = (text: string, file: string) => loadGame(text, file, resolvePipelineOptions({}), new StageTimer()).normal;

describe('prolog/alg92.pl embedded', () => {
  it('src/reach/alg92-text.ts is what scripts/embed-prolog.mjs makes of the .pl file', () => {
    const pl = readFileSync(join(ROOT, 'prolog', 'alg92.pl'), 'utf8');
    expect(ALG92_PROLOG).toBe(pl);
    expect(readFileSync(join(ROOT, 'src', 'reach', 'alg92-text.ts'), 'utf8')).toBe((embeddedModule as (t: string) => string)(pl));
  });
});

describe('computeSupersetsPlain', () => {
  it('closes a left-recursive relation bottom-up (top-down it would loop) and counts the loop', () => {
    const normal = load(`(role p) (init (at a))
      (edge a b) (edge b c) (edge c d)
      (<= (conn ?x ?y) (edge ?x ?y))
      (<= (conn ?x ?z) (conn ?x ?y) (edge ?y ?z))
      (<= (legal p (go ?y)) (true (at ?x)) (conn ?x ?y))
      (<= (next (at ?y)) (does p (go ?y)))
      (<= terminal (true (at d))) (<= (goal p 100) (true (at d)))`, 'walk.kif');
    const plain = computeSupersetsPlain(normal, TEST_REACH_LIMITS);
    const optimized = computeSupersetsProlog(normal, TEST_REACH_LIMITS);
    expect(supersetLines(plain.supersets)).toEqual(supersetLines(optimized.supersets));
    expect(plain.supersets.fluents).toHaveLength(4);
    expect(plain.stats.plain).toMatchObject({ moves: 3, fluents: 4, axioms: 9 });
    expect(plain.stats.plain!.iterations).toBeGreaterThanOrEqual(2);
    expect(plain.stats.plain!.closureRounds).toBeGreaterThan(0);
  });

  it('stops an infinite counter with the depth limit (exit 3), naming the relation', () => {
    const normal = load(`(role p) (init (c z)) (<= (legal p n)) (<= (next (c (s ?x))) (true (c ?x)))
      (<= terminal (true (c z))) (<= (goal p 0) (true (c z)))`, 'count.kif');
    let caught: unknown;
    try {
      computeSupersetsPlain(normal, { ...TEST_REACH_LIMITS, maxTermDepth: 20 });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(GdlError);
    expect((caught as GdlError).code).toBe('limit');
    expect((caught as GdlError).message).toMatch(/relation 'true' has a term nested deeper than 20 levels/);
  });

  it('stops at the atom budget', () => {
    const normal = load(`(role p) (init (c 0)) (succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4) (<= (legal p n))
      (<= (next (c ?y)) (true (c ?x)) (succ ?x ?y)) (<= terminal (true (c 4))) (<= (goal p 0) (true (c 4)))`, 'budget.kif');
    expect(() => computeSupersetsPlain(normal, { ...TEST_REACH_LIMITS, maxAtoms: 3 })).toThrow(/budget of 3 ground atoms/);
  });
});

/**
 * Corpus games where the plain method finishes in a few seconds (docs/reach.md has the times);
 * chomp and nim3 did not finish within 40 s (wall, loaded machine) before the closure of
 * recursive relations was made semi-naive and lists of answers were walked by forall.
 */
const CORPUS = [
  'ggp-repository-base/blocks.kif',
  'ggp-repository-base/ticTacToe.kif',
  'ggp-repository-base/maze.kif',
  'ggp-repository-base/pearls.kif',
  'ggp-repository-base/sum15.kif',
  'ggp-repository-base/blocker.kif',
  'ggp-repository-base/chomp.kif',
  'ggp-repository-base/nim3.kif',
];

describe.skipIf(!HAVE_CORPUS)('prolog-plain = prolog = clingo on corpus games', () => {
  for (const rel of CORPUS) {
    it(rel, async () => {
      const normal = load(readGame(rel), rel);
      const plain = supersetLines(computeSupersetsPlain(normal, TEST_REACH_LIMITS).supersets);
      expect(plain).toEqual(supersetLines(computeSupersetsProlog(normal, TEST_REACH_LIMITS).supersets));
      const asp = await clingoSupersets(normal, 20_000);
      expect(asp.kind).toBe('model');
      if (asp.kind === 'model') expect(plain).toEqual(supersetLines(asp.supersets));
    }, 60_000);
  }
});
