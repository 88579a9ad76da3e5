/**
 * The mutex stage on a game of games/ with some relations made lazy, sampling the initial state
 * alone: what the refuters of a lazy-axiom game must reach on their own (mutex-lazy-refute,
 * mutex-create-refute), with the original game's reasoner to replay their witnesses.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Deadline } from '../../src/deadline.js';
import { createReasoner } from '../../src/play/reasoner.js';
import { resolvePipelineOptions } from '../../src/pipeline/options.js';
import { DEFAULT_MUTEX_SETTINGS, groundNormalGame, loadGame, removeUnusedInstances } from '../../src/pipeline/stages.js';
import { mutexGroups } from '../../src/pipeline/stages-play.js';
import { StageTimer } from '../../src/timer.js';
import { EXAMPLES_DIR } from '../corpus.js';

/** The ground game of `name` (relations `lazy` lazy), its mutex result from the initial state alone, and the original game's reasoner. */
export function mutexFromInitialOnly(name: string, lazy: string[]) {
  const options = resolvePipelineOptions({ lazyRelations: lazy });
  const loaded = loadGame(readFileSync(join(EXAMPLES_DIR, name), 'utf8'), name, options, new StageTimer());
  const ground = removeUnusedInstances(groundNormalGame(loaded.normal, options, new StageTimer()).ground, new StageTimer(), options).game;
  const result = mutexGroups(ground, loaded.normal, options, { ...DEFAULT_MUTEX_SETTINGS, playouts: 0, maxStates: 0 }, new StageTimer());
  return { ground, result, reasoner: createReasoner(loaded.normal, { deadline: Deadline.never() }) };
}
