// The moves that make two members true, played before the proofs (src/mutex/refute-moves.ts,
// docs/mutex.md "Moves that make two members true, before the proofs"), through the pipeline's
// mutex stage with a sample of the initial state alone: games/mutex-moves-both.kif's false group
// {(slot a), (slot b), (slot c)} is refuted by `both` from the initial state, which the walks after
// the proofs (one walk, four of 61 moves drawn) miss; games/mutex-moves-follow.kif's marked group,
// which no single move breaks, is refuted by a move that makes one member true, followed up.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultPipelineOptions } from '../src/pipeline/options.js';
import { DEFAULT_MUTEX_SETTINGS, runGrounding } from '../src/pipeline/stages.js';
import { mutexGroups } from '../src/pipeline/stages-play.js';
import { StageTimer } from '../src/timer.js';
import { EXAMPLES_DIR } from './corpus.js';

/** The mutex stage on an example game with the initial state as its only sampled state (or `steps` of one playout). */
function initialOnly(name: string, steps = 0) {
  const options = defaultPipelineOptions();
  const { loaded, ground } = runGrounding(readFileSync(join(EXAMPLES_DIR, name), 'utf8'), name, options, new StageTimer());
  return mutexGroups(ground, loaded.normal, options, { ...DEFAULT_MUTEX_SETTINGS, playouts: steps > 0 ? 1 : 0, maxSteps: steps, maxStates: 0 }, new StageTimer());
}

describe('false groups refuted by the moves that make two members true', () => {
  it('mutex-moves-both: `both` from the initial state refutes {(slot a), (slot b), (slot c)} before the proofs', () => {
    const r = initialOnly('mutex-moves-both.kif');
    expect(r.stats.sampledStates).toBe(1);
    expect(r.groups.filter((g) => g.relation === 'slot')).toEqual([]);
    expect(r.stats.moves).toEqual({ refuting: 1, seeds: 1, evaluations: expect.any(Number) });
    expect(r.stats.failures).toEqual([]);
  });

  it('the same groups run to run', () => {
    expect(JSON.stringify(initialOnly('mutex-moves-both.kif').groups)).toBe(JSON.stringify(initialOnly('mutex-moves-both.kif').groups));
  });

  it('mutex-moves-follow: (mark 1) followed up, o\'s first move, then (mark 2) refutes the marked group before the proofs', () => {
    // Three sampled states: the initial one, after x's move, after o's. Without the follow-ups only
    // `both` refutes (1 refuting state) and the marked group is left to the walks after the proofs.
    const r = initialOnly('mutex-moves-follow.kif', 2);
    expect(r.stats.sampledStates).toBe(3);
    expect(r.stats.moves).toEqual({ refuting: 2, seeds: 2, evaluations: expect.any(Number) });
    expect(r.groups.filter((g) => g.relation === 'marked' || g.relation === 'slot')).toEqual([]);
    expect(r.stats.walks?.refuted ?? 0).toBe(0);
  });
});
