// A complete search's states handed packed (src/play/packed.ts, src/play/reachable.ts `pack`;
// docs/mutex.md 2f, "Packed states"): snake_2008's 512,693 states came to more term ids than the
// search's array cap and counted as capped. Packed, the same states are not capped at that count,
// and the stage's groups from them are those from the arrays.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Deadline } from '../src/deadline.js';
import { DEFAULT_MUTEX_OPTIONS, findMutexGroups } from '../src/mutex/index.js';
import { unpackFirst } from '../src/play/packed.js';
import { reachableStates } from '../src/play/reachable.js';
import { defaultPipelineOptions } from '../src/pipeline/options.js';
import { runGrounding } from '../src/pipeline/stages.js';
import { StageTimer } from '../src/timer.js';
import { EXAMPLES_DIR } from './corpus.js';

describe('packed reachable states', () => {
  it('keeps a complete search complete past the array cap, with the same states and groups', () => {
    const { ground, loaded } = runGrounding(readFileSync(join(EXAMPLES_DIR, 'tictactoe.kif'), 'utf8'), 'tictactoe.kif', defaultPipelineOptions(), new StageTimer());
    const all = reachableStates(ground, { maxStates: 1e6, seconds: 1e6, deadline: Deadline.never() });
    const total = all.states.reduce((n, s) => n + s.length, 0);
    // Below the arrays' cap the search counts as capped; packed it does not.
    const packed = reachableStates(ground, { maxStates: 1e6, seconds: 1e6, deadline: Deadline.never(), maxFluents: total - 1, pack: true });
    expect(packed.end).toBe('complete');
    expect(packed.states).toEqual([]);
    expect(packed.packed?.count).toBe(5478);
    expect(unpackFirst(packed.packed!, Infinity)).toEqual(all.states);
    const options = { ...DEFAULT_MUTEX_OPTIONS, deadline: Deadline.never(), lifted: loaded.normal, reachable: true };
    const fromArrays = findMutexGroups(ground, all.states, options);
    const fromPacked = findMutexGroups(ground, packed.packed!, options);
    expect(fromPacked.groups).toEqual(fromArrays.groups);
    expect(fromPacked.bits).toBe(fromArrays.bits);
    expect(fromPacked.stats.sampledStates).toBe(5478);
  });
});
