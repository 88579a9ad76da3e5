// The superset stage hands its facts to instantiation as term ids (src/reach/handover.ts, issue
// 27): grounding's runs give supersets whose arrays are made only when read, instantiation reads
// the ids alone, and the game written is the one the arrays give. tictactoe's `open` and `line`
// (read by terminal and goal only) are relations the relevant run leaves empty: they must get no
// head filter, as when the axioms come as a list. The axioms are handed over as rows only, at
// their size (peak20): the store's relations, their indexes and room, are left behind.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadNormal as load, written } from './support/written.js';
import { Deadline } from '../src/deadline.js';
import { computeSupersetsProlog } from '../src/reach/prolog.js';
import { supersetsForGrounding } from '../src/reach/demand.js';
import { handedIds, supersetSizes } from '../src/reach/handover.js';
import { supersetSentences } from '../src/pipeline/stages.js';
import type { Supersets } from '../src/reach/types.js';
import { EXAMPLES_DIR } from './corpus.js';

const limits = { deadline: Deadline.never(), maxAtoms: 2_000_000 };

/** `s` with every array read refused (`s` must come from `handedSupersets`, whose getters are configurable). */
function trapped(s: Supersets): Supersets {
  for (const name of ['fluents', 'moves', 'axioms']) {
    Object.defineProperty(s, name, { get: () => { throw new Error(`${name} read`); } });
  }
  return s;
}

const GAMES = ['tictactoe.kif', 'nim.kif', 'demand-seeds.kif', 'static-demand.kif', 'split.kif', 'frame.kif'].map((g) => join(EXAMPLES_DIR, g));

describe('the hand-over of term ids', () => {
  it('grounding runs hand over ids; the arrays made from them are the sorted run\'s sets; a copy carries no ids', () => {
    for (const file of GAMES) {
      const normal = load(file);
      const found = computeSupersetsProlog(normal, limits, { relevantOnly: true, axiomOrder: 'found' }).supersets;
      const sorted = computeSupersetsProlog(normal, limits, { relevantOnly: true }).supersets;
      expect(handedIds(found), file).toBeDefined();
      expect(handedIds(sorted), file).toBeUndefined();
      expect(supersetSizes(found), file).toEqual({ fluents: sorted.fluents.length, moves: sorted.moves.length, axioms: sorted.axioms.length });
      expect(supersetSentences(found), file).toEqual(supersetSentences(sorted));
      const copy = { ...found };
      expect(handedIds(copy), file).toBeUndefined();
      expect(copy.axioms.length, file).toBe(sorted.axioms.length);
    }
  }, 120_000);

  it('instantiation reads the ids alone, and writes the game the arrays give', () => {
    for (const file of GAMES) {
      const normal = load(file);
      const arrays = { ...supersetsForGrounding(normal, limits, 'auto').supersets };
      const want = written(normal, arrays);
      expect(written(normal, trapped(supersetsForGrounding(normal, limits, 'auto').supersets)), file).toBe(want);
    }
  }, 120_000);

  it('hands the axioms over as rows at their size, not the store\'s relations', () => {
    let rows = 0;
    for (const file of GAMES) {
      const ids = handedIds(supersetsForGrounding(load(file), limits, 'auto').supersets)!;
      let count = 0;
      for (const g of ids.axioms) {
        expect(g.rows, `${file} ${g.rel}`).toBeInstanceOf(Int32Array);
        expect(g.rows.length, `${file} ${g.rel}`).toBe(g.size * g.arity);
        count += g.size;
      }
      expect(count, file).toBe(ids.axiomCount);
      rows += count;
    }
    expect(rows).toBeGreaterThan(0);
  }, 120_000);
});
