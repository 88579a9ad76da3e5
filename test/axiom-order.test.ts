// Grounding's superset runs leave the axioms, fluents and moves in the order found
// (src/reach/prolog.ts, `axiomOrder: 'found'`; docs/reach.md, "Fourth pass"): the same sets as
// the sorted run, not sorted, and the ground game written is the same whatever order
// instantiation reads them in.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Deadline } from '../src/deadline.js';
import { atomToString, compareCodePoints } from '../src/gdl/terms.js';
import { computeSupersetsProlog } from '../src/reach/prolog.js';
import { supersetsForGrounding } from '../src/reach/demand.js';
import { emitGround, groundGame, loadGame, removeUnusedInstances, resolvePipelineOptions, supersetSentences } from '../src/pipeline/stages.js';
import type { NormalGame } from '../src/normalize/types.js';
import type { Supersets } from '../src/reach/types.js';
import { StageTimer } from '../src/timer.js';
import { EXAMPLES_DIR, GAMES_DIR, HAVE_CORPUS } from './corpus.js';

const limits = { deadline: Deadline.never(), maxAtoms: 2_000_000 };

function load(file: string): NormalGame {
  return loadGame(readFileSync(file, 'utf8'), file, resolvePipelineOptions(), new StageTimer()).normal;
}

const texts = (s: Supersets): string[] => s.axioms.map(atomToString);
const isSorted = (xs: readonly string[]): boolean => xs.every((x, i) => i === 0 || compareCodePoints(xs[i - 1]!, x) < 0);

/** The game `ground` writes from `supersets` (unused instances removed). */
function written(normal: NormalGame, supersets: Supersets): string {
  const options = resolvePipelineOptions();
  const ground = groundGame(normal, supersets, options, new StageTimer());
  return emitGround(removeUnusedInstances(ground, new StageTimer(), options).game, 'gdl', { baseInput: false }, new StageTimer(), options);
}

const GAMES = [join(EXAMPLES_DIR, 'tictactoe.kif'), join(EXAMPLES_DIR, 'nim.kif'), join(EXAMPLES_DIR, 'linkpath.kif'), join(EXAMPLES_DIR, 'lazy-board.kif')];
const CORPUS = ['ggp-repository-base/connectFour.kif', 'ggp-repository-base/breakthrough.kif'];

describe('grounding runs: axioms in the order found', () => {
  it('found order: the same set as the sorted run, and on connectFour not sorted (no sort was spent)', () => {
    const games = [...GAMES, ...(HAVE_CORPUS ? CORPUS.map((g) => join(GAMES_DIR, g)) : [])];
    let unsorted = 0;
    for (const file of games) {
      const normal = load(file);
      const sorted = computeSupersetsProlog(normal, limits, { relevantOnly: true });
      const found = computeSupersetsProlog(normal, limits, { relevantOnly: true, axiomOrder: 'found' });
      expect(isSorted(texts(sorted.supersets)), file).toBe(true);
      expect(supersetSentences(found.supersets), file).toEqual(supersetSentences(sorted.supersets));
      // Fluents and moves in the order found too (since reach15): the same sets.
      if (!isSorted(texts(found.supersets))) unsorted++;
    }
    expect(unsorted).toBeGreaterThan(0);
  }, 120_000);

  it('supersetsForGrounding gives the found order, the same set', () => {
    const games = [...GAMES, ...(HAVE_CORPUS ? CORPUS.map((g) => join(GAMES_DIR, g)) : [])];
    let unsorted = 0;
    for (const file of games) {
      const normal = load(file);
      const found = supersetsForGrounding(normal, limits, 'accumulator').supersets;
      const sorted = computeSupersetsProlog(normal, limits, { relevantOnly: true }).supersets;
      expect([...texts(found)].sort(compareCodePoints), file).toEqual(texts(sorted));
      if (!isSorted(texts(found))) unsorted++;
    }
    expect(unsorted).toBeGreaterThan(0);
  }, 120_000);

  it('the ground game written is the same from sorted, found and reversed axioms', () => {
    const games = [...GAMES, ...(HAVE_CORPUS ? CORPUS.map((g) => join(GAMES_DIR, g)) : [])];
    for (const file of games) {
      const normal = load(file);
      const sorted = computeSupersetsProlog(normal, limits, { relevantOnly: true }).supersets;
      const found = computeSupersetsProlog(normal, limits, { relevantOnly: true, axiomOrder: 'found' }).supersets;
      const want = written(normal, sorted);
      expect(written(normal, found), file).toBe(want);
      expect(written(normal, { ...sorted, axioms: [...sorted.axioms].reverse() }), file).toBe(want);
      // Instantiation fills its stores in the order of the fluents and moves, and orders what it writes itself.
      expect(written(normal, { ...sorted, fluents: [...sorted.fluents].reverse(), moves: [...sorted.moves].reverse() }), file).toBe(want);
    }
  }, 300_000);
});
