/** A game file loaded and normalized, and the game `ground` writes from given supersets. */
import { readFileSync } from 'node:fs';
import { Deadline } from '../../src/deadline.js';
import { type GdlEmitOptions, emitGdlBytes } from '../../src/formats/gdl/write.js';
import type { GroundGame } from '../../src/ground/types.js';
import type { NormalGame } from '../../src/normalize/types.js';
import { emitGround, groundGame, loadGame, removeUnusedInstances, resolvePipelineOptions } from '../../src/pipeline/stages.js';
import type { Supersets } from '../../src/reach/types.js';
import { StageTimer } from '../../src/timer.js';

/** The normalized game of `file`, with the default options. */
export function loadNormal(file: string): NormalGame {
  return loadGame(readFileSync(file, 'utf8'), file, resolvePipelineOptions(), new StageTimer()).normal;
}

/** The game `ground` writes from `supersets` (unused instances removed). */
export function written(normal: NormalGame, supersets: Supersets): string {
  const options = resolvePipelineOptions();
  const ground = groundGame(normal, supersets, options, new StageTimer());
  return emitGround(removeUnusedInstances(ground, new StageTimer(), options).game, 'gdl', { baseInput: false }, new StageTimer(), options);
}

/**
 * The GDL writer's chunks (emitGdlBytes, what the command line writes) as strings, each decoded
 * before the next reuses the buffer; chunks are whole lines, so no character is split.
 */
export function gdlChunks(game: GroundGame, options: GdlEmitOptions, chunkBytes: number): string[] {
  const decoder = new TextDecoder();
  const out: string[] = [];
  for (const bytes of emitGdlBytes(game, options, Deadline.never(), chunkBytes)) out.push(decoder.decode(bytes));
  return out;
}
