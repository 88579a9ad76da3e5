// The reachable-states search (src/play/reachable.ts) asks each state's moves without its goal
// values (FastSimulator.moves) and packs states from their bits (fluentTermIds): snake_2009's
// search took 4.8 processor seconds with the goals, 2.3 without (docs/mutex.md, snake17). Both
// must give what info() and fluentTerms() give, on every reachable state of tic-tac-toe.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Deadline } from '../src/deadline.js';
import { createFastSimulator } from '../src/play/fast/simulator.js';
import type { GroundState } from '../src/play/ground-sim.js';
import { defaultPipelineOptions } from '../src/pipeline/options.js';
import { runGrounding } from '../src/pipeline/stages.js';
import { StageTimer } from '../src/timer.js';
import { EXAMPLES_DIR } from './corpus.js';

describe('the search moves and packed terms', () => {
  it('moves() is info() without goals, and fluentTermIds maps each bit as fluentTerms does', () => {
    const { ground } = runGrounding(readFileSync(join(EXAMPLES_DIR, 'tictactoe.kif'), 'utf8'), 'tictactoe.kif', defaultPipelineOptions(), new StageTimer());
    const sim = createFastSimulator(ground, Deadline.never());
    const seen = new Set<string>();
    const queue: GroundState[] = [sim.initialState()];
    let terminals = 0;
    for (let head = 0; head < queue.length; head++) {
      const state = queue[head]!;
      const info = sim.info(state);
      expect(sim.moves(state)).toEqual({ legal: info.legal, terminal: info.terminal });
      const byBits: number[] = [];
      for (let f = 0; f < sim.fluentTermIds.length; f++) if ((state[f >>> 5]! >>> (f & 31)) & 1) byBits.push(sim.fluentTermIds[f]!);
      expect(sim.fluentTerms(state)).toEqual(byBits);
      if (info.terminal) {
        terminals++;
        continue;
      }
      for (const a of info.legal[0]!) {
        for (const b of info.legal[1]!) {
          const next = sim.successor(state, [a, b]);
          const key = next.join(',');
          if (!seen.has(key)) seen.add(key), queue.push(next);
        }
      }
    }
    expect(queue.length).toBe(5478);
    expect(terminals).toBeGreaterThan(0);
  });
});
