// Auxiliary relations of a split instantiated for what their head rule can read
// (src/ground/aux-demand.ts), on racer.kif of the corpus (racer4's legal_speed with two players;
// a small game's rule does not pay for its split): fewer ground rules are made with the demand,
// and the game after unused-instance removal is the same byte for byte. (`--keep-unused`
// grounds with reach demand `accumulator`, which makes no demand: its game is the one without.)
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadGame, reachForGrounding, resolvePipelineOptions } from '../src/pipeline/stages.js';
import { instantiateLimits } from '../src/pipeline/options.js';
import { instantiateGame } from '../src/ground/instantiate.js';
import { removeUnused } from '../src/axioms/unused.js';
import { emitGdl } from '../src/formats/gdl/write.js';
import { StageTimer } from '../src/timer.js';
import { Deadline } from '../src/deadline.js';
import { GAMES_DIR, HAVE_CORPUS, readGame } from './corpus.js';

describe.skipIf(!HAVE_CORPUS)('demand on auxiliary relations (racer.kif)', () => {
  const rel = 'ggp-repository-base/racer.kif';
  const file = join(GAMES_DIR, rel);
  const options = resolvePipelineOptions({});
  const normal = HAVE_CORPUS ? loadGame(readGame(rel), file, options, new StageTimer()).normal : undefined;

  it('makes fewer ground rules, and the same game once unused instances are removed', () => {
    const supersets = reachForGrounding(normal!, options, new StageTimer(), 'auto').supersets;
    const ground = (auxDemand: boolean) => instantiateGame(normal!, supersets, { ...instantiateLimits(options), auxDemand });
    const text = (g: ReturnType<typeof ground>) => emitGdl(removeUnused(g, Deadline.never()).game, undefined, Deadline.never());
    const [off, on] = [ground(false), ground(true)];
    // 361,443 rules made without the demand, 179,971 with it: the split-3 rules of heads `legal_speed` never reads.
    expect(on.rules.length).toBeLessThan(off.rules.length * 0.6);
    expect(text(on)).toBe(text(off));
  }, 120_000);
});
