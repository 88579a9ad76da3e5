// The reachable-states search (src/play/reachable.ts) asks each state's moves without its goal
// values (FastSimulator.moves) and packs states from their bits (fluentTermIds): snake_2009's
// search took 4.8 processor seconds with the goals, 2.3 without (docs/mutex.md, snake17). Both
// must give what info() and fluentTerms() give, on every reachable state of tic-tac-toe; its
// successors written into one array (successorInto) and its set of states (StateSet, hashes kept
// per state since snake26) as well.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Deadline } from '../src/deadline.js';
import { createFastSimulator } from '../src/play/fast/simulator.js';
import type { GroundState } from '../src/play/ground-sim.js';
import { StateSet } from '../src/play/state-set.js';
import { defaultPipelineOptions } from '../src/pipeline/options.js';
import { runGrounding } from '../src/pipeline/stages.js';
import { StageTimer } from '../src/timer.js';
import { EXAMPLES_DIR } from './corpus.js';

describe('the search moves, its successors and its set of states', () => {
  it('moves() is info() without goals, and fluentTermIds maps each bit as fluentTerms does', () => {
    const { ground } = runGrounding(readFileSync(join(EXAMPLES_DIR, 'tictactoe.kif'), 'utf8'), 'tictactoe.kif', defaultPipelineOptions(), new StageTimer());
    const sim = createFastSimulator(ground, Deadline.never());
    const seen = new Set<string>();
    const queue: GroundState[] = [sim.initialState()];
    const scratch = new Uint32Array(queue[0]!.length).fill(~0);
    let terminals = 0;
    for (let head = 0; head < queue.length; head++) {
      const state = queue[head]!;
      const info = sim.info(state);
      expect(sim.moves(state)).toEqual({ legal: info.legal, terminal: info.terminal });
      // Ascending (the search's order of successors), as sorted by insertion for a few moves.
      for (const moves of info.legal) expect(moves).toEqual([...moves].sort((x, y) => x - y));
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
          // Into an array of the search's: the same words.
          expect([...sim.successorInto(state, [a, b], scratch)]).toEqual([...next]);
          const key = next.join(',');
          if (!seen.has(key)) seen.add(key), queue.push(next);
        }
      }
    }
    expect(queue.length).toBe(5478);
    expect(terminals).toBeGreaterThan(0);
  });

  it('StateSet keeps each state once through its table doublings, by number, copied out whole', () => {
    // 3 words a state, 5,000 states: the table doubles from 2,048 slots several times.
    const state = (i: number): Uint32Array => Uint32Array.of(i % 7, i, i * 2654435761 >>> 0);
    const set = new StateSet(state(0));
    for (let i = 1; i < 5000; i++) expect(set.add(state(i))).toBe(true);
    for (let i = 0; i < 5000; i += 7) expect(set.add(state(i))).toBe(false);
    expect(set.size).toBe(5000);
    const into = new Uint32Array(3);
    for (let i = 0; i < 5000; i += 499) expect([...set.copyState(i, into)]).toEqual([...state(i)]);
  });
});
