// The switches of src/reach/ablation.ts: each optimization of the prolog method switched off in
// turn gives the same supersets (the least model of the relaxed game), and the switches that
// the games below exercise do change the work done (else a switch that did nothing would pass).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OPTIMIZATIONS, type Optimization } from '../src/reach/ablation.js';
import { computeSupersetsProlog } from '../src/reach/prolog.js';
import { loadGame, resolvePipelineOptions } from '../src/pipeline/stages.js';
import { StageTimer } from '../src/timer.js';
import { TEST_REACH_LIMITS } from './support/context.js';
import { supersetLines } from './support/clingo.js';

const GAMES = join(import.meta.dirname, '..', 'games');
const load = (name: string) => loadGame(readFileSync(join(GAMES, name), 'utf8'), name, resolvePipelineOptions({}), new StageTimer()).normal;

/**
 * Games of games/ with the switches tried there: every one on three small games, and on the
 * two built for a plan (slower with it off) that plan's switch and semi-naive rounds.
 */
const CASES: readonly [string, readonly Optimization[]][] = [
  ['linkpath.kif', OPTIMIZATIONS],
  ['relaxed-subsume.kif', OPTIMIZATIONS],
  ['tictactoe.kif', OPTIMIZATIONS],
  ['head-first.kif', ['head-first', 'semi-naive', 'elimination', 'fresh-projection']],
  ['projection.kif', ['projected', 'existence']],
];

describe('each optimization switched off gives the same supersets', () => {
  for (const [name, switches] of CASES) {
    it(name, () => {
      const normal = load(name);
      const want = supersetLines(computeSupersetsProlog(normal, TEST_REACH_LIMITS).supersets);
      for (const o of switches) {
        expect({ off: o, lines: supersetLines(computeSupersetsProlog(normal, TEST_REACH_LIMITS, { off: [o] }).supersets) }).toEqual({ off: o, lines: want });
      }
    }, 60_000);
  }
});

/**
 * A game and an optimization whose switch changes the answers the queries return there, with the
 * switches off in both runs (the local buckets of src/reach/eliminate-local.ts rewrite the rule
 * head-first.kif's plan is built for, so that plan is measured on the rule as written).
 */
const EFFECTIVE: readonly [string, Optimization, Optimization[]?][] = [
  ['linkpath.kif', 'semi-naive'],
  ['relaxed-subsume.kif', 'subsumption'],
  ['head-first.kif', 'head-first', ['elimination']],
  ['head-first.kif', 'elimination'],
  ['head-first.kif', 'fresh-projection'],
  ['tictactoe.kif', 'existence'],
];

describe('the switches change the work', () => {
  for (const [name, o, both = []] of EFFECTIVE) {
    it(`${o} off in ${name}: more answers`, () => {
      const normal = load(name);
      const on = computeSupersetsProlog(normal, TEST_REACH_LIMITS, { off: both }).stats.answers;
      const off = computeSupersetsProlog(normal, TEST_REACH_LIMITS, { off: [o, ...both] }).stats.answers;
      expect(off).toBeGreaterThan(on);
    });
  }
});
