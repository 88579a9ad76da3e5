// The walks that refute the claims the proofs leave unproven (src/mutex/refute-walks.ts,
// docs/mutex.md "False observed groups refuted by walks"), through the pipeline's mutex stage with
// a sample of the initial state alone (no playouts, no search): games/mutex-walk-split.kif's
// false group {(slot 1 x), (slot 1 y)} is refuted; its twin games/mutex-walk-armed.kif's true one
// (not inductive) stays observed, though the walks ran.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultPipelineOptions } from '../src/pipeline/options.js';
import { DEFAULT_MUTEX_SETTINGS, runGrounding } from '../src/pipeline/stages.js';
import { mutexGroups } from '../src/pipeline/stages-play.js';
import { StageTimer } from '../src/timer.js';
import { EXAMPLES_DIR } from './corpus.js';

/** The mutex stage on an example game with the initial state as its only sampled state. */
function initialOnly(name: string) {
  const options = defaultPipelineOptions();
  const { loaded, ground } = runGrounding(readFileSync(join(EXAMPLES_DIR, name), 'utf8'), name, options, new StageTimer());
  return mutexGroups(ground, loaded.normal, options, { ...DEFAULT_MUTEX_SETTINGS, playouts: 0, maxStates: 0 }, new StageTimer());
}

const slot = (r: ReturnType<typeof initialOnly>) => r.groups.filter((g) => g.relation === 'slot').map((g) => ({ members: g.members, proof: g.proof }));

describe('false observed groups refuted by walks', () => {
  it('mutex-walk-split: a walk from the initial state reaches (slot 1 x) and (slot 1 y) together', () => {
    const r = initialOnly('mutex-walk-split.kif');
    expect(r.stats.sampledStates).toBe(1);
    expect(slot(r)).toEqual([]);
    expect(r.stats.walks?.refuted).toBe(2);
    expect(r.stats.failures).toEqual([]);
  });

  it('mutex-walk-armed: the true group is walked but not refuted', () => {
    const r = initialOnly('mutex-walk-armed.kif');
    // Left observed by the walks; the projection search (docs/mutex.md 2m) proves it after them.
    expect(slot(r)).toEqual([{ members: ['(slot 1 x)', '(slot 1 y)'], proof: 'ground' }]);
    expect(r.stats.walks?.refuted).toBe(0);
    expect(r.stats.walks!.evaluations).toBeGreaterThan(0);
  });

  it('the same groups run to run', () => {
    expect(JSON.stringify(initialOnly('mutex-walk-split.kif').groups)).toBe(JSON.stringify(initialOnly('mutex-walk-split.kif').groups));
  });
});
