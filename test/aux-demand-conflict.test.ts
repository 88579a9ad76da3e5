// The restart of src/ground/aux-demand.ts: an auxiliary relation made for one head rule's
// demand and reused by name for a second head rule that reads aux atoms the first did not ask
// for (games/aux-demand-conflict.kif at --split-above 100: split-1, the projection of
// (true (a ?x ?y)) on ?x, made for `tall` with ?x in 2..3 and reused by `wide` with ?x in 1..2).
// Instantiation must start again without demands and give exactly the game made without them;
// the same game with nested demands (`wide` over 2..3 too) keeps its demand and makes fewer rules.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadGame, reachForGrounding, resolvePipelineOptions } from '../src/pipeline/stages.js';
import { instantiateLimits } from '../src/pipeline/options.js';
import { instantiateGame } from '../src/ground/instantiate.js';
import { removeUnused } from '../src/axioms/unused.js';
import { emitGdl } from '../src/formats/gdl/write.js';
import { StageTimer } from '../src/timer.js';
import { Deadline } from '../src/deadline.js';
import { EXAMPLES_DIR } from './examples.js';

const file = join(EXAMPLES_DIR, 'aux-demand-conflict.kif');
const options = resolvePipelineOptions({ splitAbove: 100 });

/** The game's ground games with and without demands on auxiliary relations. */
function groundBoth(text: string) {
  const normal = loadGame(text, file, options, new StageTimer()).normal;
  const supersets = reachForGrounding(normal, options, new StageTimer(), 'auto').supersets;
  const ground = (auxDemand: boolean) => instantiateGame(normal, supersets, { ...instantiateLimits(options), auxDemand });
  return { off: ground(false), on: ground(true) };
}

const gdl = (g: ReturnType<typeof instantiateGame>): string => emitGdl(g, undefined, Deadline.never());

describe('a reused auxiliary relation read with another demand', () => {
  const text = readFileSync(file, 'utf8');

  it('restarts without demands: the same ground game, every rule made', () => {
    const { off, on } = groundBoth(text);
    expect(gdl(off)).toMatch(/\(<= \(wide 1\) \(split-1 1\) \(split-\d+ 1\)\)/);
    expect(gdl(off)).toMatch(/\(<= \(tall 3\) \(split-1 3\) \(split-\d+ 3\)\)/);
    // Were the conflict missed, split-1's rules for ?x = 1 (`wide` only) would be left out.
    expect(on.rules.length).toBe(off.rules.length);
    expect(gdl(on)).toBe(gdl(off));
    expect(gdl(removeUnused(on, Deadline.never()).game)).toBe(gdl(removeUnused(off, Deadline.never()).game));
  }, 60_000);

  it('keeps the demand when the second reader asks nothing new (the control)', () => {
    // `wide` over (xb 2) (xb 3): its demand is `tall`'s, so the reuse is no conflict.
    const nested = text.replace('(xb 1) (xb 2)', '(xb 2) (xb 3)');
    expect(nested).not.toBe(text);
    const { off, on } = groundBoth(nested);
    expect(on.rules.length).toBeLessThan(off.rules.length);
    expect(gdl(removeUnused(on, Deadline.never()).game)).toBe(gdl(removeUnused(off, Deadline.never()).game));
  }, 60_000);
});
