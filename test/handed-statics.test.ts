// Static relations handed from the superset stage to instantiation (src/reach/exact-statics.ts,
// src/ground/handed-statics.ts; issue 27, docs/corpus.md stat26). games/handed-statics.kif:
// `plus` and `number` are negation-free and named exact; `odd` (negates `even`) and `oddsum`
// (reads `odd`) are not. Instantiation takes the named relations' rows: the game written is the
// one written without the hand-over, and a row taken out of `plus` changes it (so they are read).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadNormal as load, written } from './support/written.js';
import { Deadline } from '../src/deadline.js';
import { computeSupersetsProlog } from '../src/reach/prolog.js';
import { handedIds, handedSupersets } from '../src/reach/handover.js';
import { negationFree } from '../src/reach/exact-statics.js';
import type { NormalGame } from '../src/normalize/types.js';
import type { Supersets } from '../src/reach/types.js';
import { EXAMPLES_DIR } from './corpus.js';

const limits = { deadline: Deadline.never(), maxAtoms: 2_000_000 };
const GAME = join(EXAMPLES_DIR, 'handed-statics.kif');

/** The plain grounding run of `normal`, with the exact static relations named. */
function handedRun(normal: NormalGame): Supersets {
  return computeSupersetsProlog(normal, limits, { relevantOnly: true, axiomOrder: 'found', exactStatics: true }).supersets;
}

describe('static relations handed to instantiation', () => {
  it('names the negation-free static relations only', () => {
    const normal = load(GAME);
    expect([...negationFree(normal)].filter((k) => ['plus/3', 'odd/1', 'oddsum/1', 'succ/2'].includes(k)).sort()).toEqual(['plus/3', 'succ/2']);
    const ids = handedIds(handedRun(normal))!;
    expect(ids.exactStatics).toEqual(['number/1', 'plus/3', 'succ/2']);
    // 7 numbers: x + y = z with z <= 6, 28 facts.
    expect(ids.axioms.find((g) => g.rel === 'plus')!.size).toBe(28);
  });

  it('writes the game written without the hand-over; a row less of plus changes it', () => {
    const normal = load(GAME);
    const ids = handedIds(handedRun(normal))!;
    const without = written(normal, handedSupersets({ ...ids, exactStatics: undefined }));
    expect(written(normal, handedSupersets(ids))).toBe(without);
    // The last fact of plus found dropped: instantiation takes the rows as they are handed over,
    // so the rules that read that fact are not made.
    const axioms = ids.axioms.map((g) => (g.rel === 'plus' ? { ...g, size: g.size - 1 } : g));
    expect(written(normal, handedSupersets({ ...ids, axioms }))).not.toBe(without);
  });
});
