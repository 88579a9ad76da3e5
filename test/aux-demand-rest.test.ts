// A join-tree step's demand from the rule left after it (src/ground/aux-demand.ts, demandRest),
// on games/aux-demand-rest.kif at --split-above 1000: `total` is split by variable elimination,
// and the aux heads whose addend no (true (guessed b ?n2)) holds make no ground rule. Fewer
// rules are made with the demand, and the game after pruning and unused-instance removal (the
// order of the pipeline) is the same byte for byte. A second rule with the same body reuses the
// tested step's relation: instantiation starts again without demands (every rule made).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadGame, reachForGrounding, resolvePipelineOptions } from '../src/pipeline/stages.js';
import { instantiateLimits } from '../src/pipeline/options.js';
import { instantiateGame } from '../src/ground/instantiate.js';
import { pruneUnreachable } from '../src/ground/reachability.js';
import { removeUnused } from '../src/axioms/unused.js';
import { emitGdl } from '../src/formats/gdl/write.js';
import { StageTimer } from '../src/timer.js';
import { Deadline } from '../src/deadline.js';
import { EXAMPLES_DIR } from './examples.js';

const file = join(EXAMPLES_DIR, 'aux-demand-rest.kif');
const options = resolvePipelineOptions({ splitAbove: 1000 });

/** The game's ground games with and without demands on auxiliary relations. */
function groundBoth(text: string) {
  const normal = loadGame(text, file, options, new StageTimer()).normal;
  const supersets = reachForGrounding(normal, options, new StageTimer(), 'auto').supersets;
  const ground = (auxDemand: boolean) => instantiateGame(normal, supersets, { ...instantiateLimits(options), auxDemand });
  return { off: ground(false), on: ground(true) };
}

/** The text the pipeline writes of a ground game: pruned, then unused instances removed. */
const written = (g: ReturnType<typeof instantiateGame>): string =>
  emitGdl(removeUnused(pruneUnreachable(g, Deadline.never()), Deadline.never()).game, undefined, Deadline.never());

describe('a join-tree step demanded by the rest', () => {
  const text = readFileSync(file, 'utf8');

  it('makes fewer ground rules, and the same game once pruned and unused instances removed', () => {
    const { off, on } = groundBoth(text);
    const out = written(on);
    // The split is made: `total` reads aux relations (the test would pass vacuously otherwise).
    expect(out).toMatch(/\(<= \(total \d+\) \(split-\d+/);
    // 3,205 rules made without the demand, 2,930 with it.
    expect(on.rules.length).toBeLessThan(off.rules.length);
    expect(out).toBe(written(off));
  }, 60_000);

  it('starts again without demands when another rule reuses a tested step', () => {
    const twice = text.replace('(<= terminal', `(<= (total2 ?t)
    (true (guessed a ?n1)) (true (guessed b ?n2)) (sum ?n1 ?n2 ?s1)
    (true (guessed c ?n3)) (sum ?s1 ?n3 ?s2)
    (true (guessed d ?n4)) (sum ?s2 ?n4 ?t))
(<= (goal ?p 50) (true (guessed ?p ?n)) (total2 ?n))
(<= terminal`);
    expect(twice).not.toBe(text);
    const { off, on } = groundBoth(twice);
    // Were the reuse not caught, total2 would read split heads that made no rule.
    expect(on.rules.length).toBe(off.rules.length);
    expect(written(on)).toBe(written(off));
  }, 60_000);
});
