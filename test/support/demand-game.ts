// A game of games/ loaded, and grounded as `ground` writes it under one of the superset stage's
// demand modes: what the demand tests (choice, seeds) compare byte for byte.
import { readFileSync } from 'node:fs';
import { emitGround, groundNormalGame, loadGame, removeUnusedInstances, resolvePipelineOptions } from '../../src/pipeline/stages.js';
import type { NormalGame } from '../../src/normalize/types.js';
import type { Supersets } from '../../src/reach/types.js';
import { StageTimer } from '../../src/timer.js';

/** The normalized game of `file`, with the default options. */
export function load(file: string): NormalGame {
  return loadGame(readFileSync(file, 'utf8'), file, resolvePipelineOptions(), new StageTimer()).normal;
}

/** The game `ground` writes (unused instances removed), grounded with the stage's `demand` mode. */
export function written(normal: NormalGame, demand: 'auto' | 'accumulator'): { text: string; supersets: Supersets } {
  const options = resolvePipelineOptions();
  const { reach, ground } = groundNormalGame(normal, options, new StageTimer(), demand);
  const game = removeUnusedInstances(ground, new StageTimer(), options).game;
  return { text: emitGround(game, 'gdl', { baseInput: false }, new StageTimer(), options), supersets: reach.supersets };
}
