// Static relations asked for by a grounding's superset stage (src/reach/demand-statics.ts,
// docs/corpus.md "gt18"): a static relation read by a relevant relation with a constant is
// derived for that call only (games/static-asked.kif: lte for y <= 3, 10 of 465 instances);
// instantiation evaluates it exactly itself, so the ground game is the plain supersets' one.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { load } from './support/demand-game.js';
import { Deadline } from '../src/deadline.js';
import { supersetsForGrounding } from '../src/reach/demand.js';
import { staticDemand } from '../src/reach/demand-statics.js';
import { emitGround, groundGame, groundNormalGame, removeUnusedInstances, resolvePipelineOptions } from '../src/pipeline/stages.js';
import type { NormalGame } from '../src/normalize/types.js';
import type { Supersets } from '../src/reach/types.js';
import { StageTimer } from '../src/timer.js';
import { EXAMPLES_DIR, GAMES_DIR, HAVE_CORPUS } from './corpus.js';

const ASKED = join(EXAMPLES_DIR, 'static-asked.kif');
const limits = { deadline: Deadline.never(), maxAtoms: 2_000_000 };

const count = (s: Supersets, rel: string): number => s.axioms.filter((a) => a.rel === rel).length;

/** The game `ground` writes from `supersets` (unused instances removed). */
function writtenFrom(normal: NormalGame, supersets: Supersets): string {
  const options = resolvePipelineOptions();
  const game = removeUnusedInstances(groundGame(normal, supersets, options, new StageTimer()), new StageTimer(), options).game;
  return emitGround(game, 'gdl', { baseInput: false }, new StageTimer(), options);
}

describe('static relations asked for by the superset stage', () => {
  it('asks lte/2 in games/static-asked.kif for y <= 3 only: 10 instances, not 465', () => {
    const normal = load(ASKED);
    expect(staticDemand(normal)?.relations).toEqual(['lte/2', 'num/1']);
    const plain = supersetsForGrounding(normal, limits, 'auto').supersets;
    const asked = supersetsForGrounding(normal, limits, 'auto', true).supersets;
    expect(count(plain, 'lte')).toBe(465);
    expect(count(asked, 'lte')).toBe(10);
    expect(asked.askedStatics).toEqual(['lte/2', 'num/1']);
    expect(plain.askedStatics).toBeUndefined();
    // The same fluents and moves, and the same game written (lte evaluated by instantiation).
    expect(asked.fluents.length).toBe(plain.fluents.length);
    expect(asked.moves.length).toBe(plain.moves.length);
    expect(writtenFrom(normal, asked)).toBe(writtenFrom(normal, plain));
  });

  it('is what a grounding uses, and a lazy plan gets the plain supersets', () => {
    const normal = load(ASKED);
    const options = resolvePipelineOptions();
    expect(groundNormalGame(normal, options, new StageTimer()).reach.supersets.askedStatics).toEqual(['lte/2', 'num/1']);
    const lazy = resolvePipelineOptions({ lazyRelations: ['far'] });
    expect(groundNormalGame(normal, lazy, new StageTimer()).reach.supersets.askedStatics).toBeUndefined();
  });

  it('asks nothing where callers bind arguments only through literals, or not at all', () => {
    for (const name of ['tictactoe.kif', 'static-demand.kif', 'demand-seeds.kif', 'nim.kif']) {
      expect(staticDemand(load(join(EXAMPLES_DIR, name))), name).toBeUndefined();
    }
  });

  it.skipIf(!HAVE_CORPUS)('gt_two_thirds_6p: lte/2 asked by guessableNumber, 5,151 of 180,901 instances', () => {
    const normal = load(join(GAMES_DIR, 'ggp-repository-base/gt_two_thirds_6p.kif'));
    const asked = supersetsForGrounding(normal, limits, 'auto', true).supersets;
    expect(asked.askedStatics).toEqual(['anynumber/1', 'lte/2']);
    expect(count(asked, 'lte')).toBe(5151);
  }, 60_000);
});
