// Static relations on demand (docs/corpus.md, demand17): a static relation read only through
// bound columns is evaluated at its reader's component for what the reader asks, with the
// output unchanged; a reader whose rewrite reads the relation's size has it evaluated whole.
// What instantiation derives is read through its atom limit (maxGroundAtoms): it counts every
// static fact, asked tuple and rule head, and the run stops one atom past it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GdlError } from '../src/gdl/diagnostics.js';
import { defaultPipelineOptions, emitGround, groundGame, loadGame, reachGame, resolvePipelineOptions } from '../src/pipeline/stages.js';
import { StageTimer } from '../src/timer.js';
import { EXAMPLES_DIR } from './examples.js';

function grounder(name: string): (maxGroundAtoms?: number) => string {
  const file = join(EXAMPLES_DIR, name);
  const normal = loadGame(readFileSync(file, 'utf8'), file, defaultPipelineOptions(), new StageTimer()).normal;
  const supersets = reachGame(normal, defaultPipelineOptions(), new StageTimer()).supersets;
  return (maxGroundAtoms) => {
    const options = resolvePipelineOptions(maxGroundAtoms === undefined ? {} : { maxGroundAtoms });
    return emitGround(groundGame(normal, supersets, options, new StageTimer()), 'gdl', { baseInput: true }, new StageTimer(), defaultPipelineOptions());
  };
}

/** The fewest atoms under which `ground` succeeds (it must succeed at `from`, fail at 1). */
function atomsNeeded(ground: (max: number) => string, from: number): number {
  let n = from;
  for (;;) {
    try {
      ground(n - 1);
    } catch (err) {
      if (err instanceof GdlError) return n;
      throw err;
    }
    n--;
  }
}

describe('static relations on demand', () => {
  it('evaluates lte only for the positions the legal rule reads, output unchanged', () => {
    const ground = grounder('static-demand.kif');
    const whole = ground();
    // Whole, the run derives 540 atoms (static16's way: lte's 465 facts over 0..29, num's 30).
    // The reader asks y in 0..3: lte's 10 facts with y <= 3, num's 4, and 4 asked tuples each:
    // 540 - 465 - 30 + 10 + 4 + 8 = 67.
    expect(atomsNeeded(ground, 1000)).toBe(67);
    expect(ground(67)).toBe(whole);
    expect(whole).toContain('(legal a (go 3))');
  });

  it('evaluates lte whole when the reader may be projected (its decision reads the size)', () => {
    const ground = grounder('static-demand-whole.kif');
    // All 465 lte facts and all 30 num facts are derived, as without demand (with demand: 67).
    expect(atomsNeeded(ground, 1000)).toBe(540);
  });
});
