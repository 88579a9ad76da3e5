// The targeted search that refutes the false groups the walks miss (src/mutex/refute-search.ts,
// docs/mutex.md "Deep false groups refuted by a targeted search"), through the pipeline's mutex
// stage with a sample of the initial state alone (no playouts, no search of every state):
// games/mutex-deep-refute.kif's groups {(q K)}, {(r K)}, {(s K)} are false only after 4, 6 and 8
// moves; each is refuted, and each witness is replayed from the initial state by the reasoner of
// the original game (legal moves, non-terminal states, both members true at the end).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Deadline } from '../src/deadline.js';
import { createReasoner } from '../src/play/reasoner.js';
import { defaultPipelineOptions } from '../src/pipeline/options.js';
import { DEFAULT_MUTEX_SETTINGS, runGrounding } from '../src/pipeline/stages.js';
import { mutexGroups } from '../src/pipeline/stages-play.js';
import { StageTimer } from '../src/timer.js';
import { EXAMPLES_DIR } from './corpus.js';
import { expectWitnessesReplay } from './support/witness.js';

const NAME = 'mutex-deep-refute.kif';

/** The mutex stage on the game with the initial state as its only sampled state, and the game's reasoner. */
function initialOnly() {
  const options = defaultPipelineOptions();
  const { loaded, ground } = runGrounding(readFileSync(join(EXAMPLES_DIR, NAME), 'utf8'), NAME, options, new StageTimer());
  const result = mutexGroups(ground, loaded.normal, options, { ...DEFAULT_MUTEX_SETTINGS, playouts: 0, maxStates: 0 }, new StageTimer());
  return { result, reasoner: createReasoner(loaded.normal, { deadline: Deadline.never() }) };
}

describe('deep false groups refuted by a targeted search', () => {
  const { result, reasoner } = initialOnly();

  it('refutes q, r and s, which the walks from the initial state leave', () => {
    expect(result.stats.sampledStates).toBe(1);
    expect(result.groups.map((g) => g.relation)).toEqual(['step']);
    expect(result.stats.walks?.refuted).toBe(1);
    expect(result.stats.search?.refuted).toBe(3);
    expect(result.stats.refutedByState).toBe(4);
    expect(result.stats.failures).toEqual([]);
    expect(result.stats.search!.witnesses.map((w) => [w.members[0]!.slice(1, 2), w.moves.length])).toEqual([['q', 4], ['r', 6], ['s', 8]]);
  });

  it('every witness replays from the initial state in the original game', () => {
    expectWitnessesReplay(reasoner, result.stats.search!.witnesses);
  });
});
