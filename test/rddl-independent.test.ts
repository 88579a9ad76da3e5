// RDDL read by a second reader that shares no code with the writer (test/support/rddl-reader.ts,
// written from docs/rddl.md alone; issue 31) and played as an episode against the original
// game's reasoner: legal moves, terminal, the state, and at terminal states the total reward
// against the goal value as docs/rddl.md defines it where the original has none or several.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_AXIOM_OPTIONS, defaultPipelineOptions } from '../src/pipeline/stages.js';
import { formatDifference } from '../src/pipeline/stages-play.js';
import { loadRun } from '../src/pipeline/recipes/index.js';
import { rddlRecipe } from '../src/pipeline/recipes/rddl.js';
import { createReasoner } from '../src/play/reasoner.js';
import { asEpisode } from '../src/formats/rddl/sim.js';
import { verifyGame } from '../src/play/verify.js';
import { decodeRddlName, independentRddlSimulator, readIndependentRddl } from './support/rddl-reader.js';
import { testContext } from './support/context.js';
import { EXAMPLES_DIR, HAVE_CORPUS, readGame } from './corpus.js';

/** Writes the RDDL of a game, reads it with the independent reader, plays it against the reasoner. */
function playIndependently(text: string, file: string, playouts: number): number {
  const ctx = testContext(file);
  const loaded = loadRun(ctx, text);
  const { files } = rddlRecipe(ctx, loaded, { keepUnused: false, axioms: DEFAULT_AXIOM_OPTIONS, base: file.replace(/\.kif$/, ''), rddl: {} });
  const game = readIndependentRddl(files.domain, files.instance);
  const original = asEpisode(createReasoner(loaded.normal, { deadline: defaultPipelineOptions().deadline }));
  const result = verifyGame(original, independentRddlSimulator(game, original.roles[0]!), { playouts, seed: 13, maxSteps: 60, oneGoalValue: true });
  if (result.kind === 'different') expect.fail(`${file}: ${formatDifference(result.difference)}`);
  expect(result.stats.transitions).toBeGreaterThan(0);
  return result.stats.states;
}

const example = (name: string): string => readFileSync(join(EXAMPLES_DIR, name), 'utf8');

describe('the independent RDDL reader', () => {
  it('decodes names as docs/rddl.md says', () => {
    expect(decodeRddlName('f-cell-1-1-x')).toBe('(cell 1 1 x)');
    expect(decodeRddlName('a-link-_oa-b_c')).toBe('(link (a b))');
    expect(decodeRddlName('f-step_u_d1')).toBe('step_-1');
  });

  it('finds a reward paid where docs/rddl.md says none is (a tampered reward)', () => {
    const ctx = testContext('rddl-goal-partial.kif');
    const loaded = loadRun(ctx, example('rddl-goal-partial.kif'));
    const { files } = rddlRecipe(ctx, loaded, { keepUnused: false, axioms: DEFAULT_AXIOM_OPTIONS, base: 'rddl-goal-partial', rddl: {} });
    const tampered = files.domain.replace(/else 0\) else 0;/, 'else 7) else 0;');
    expect(tampered).not.toBe(files.domain);
    const original = asEpisode(createReasoner(loaded.normal, { deadline: defaultPipelineOptions().deadline }));
    const result = verifyGame(original, independentRddlSimulator(readIndependentRddl(tampered, files.instance), 'robot'), { playouts: 10, seed: 13, maxSteps: 5, oneGoalValue: true });
    expect(result.kind).toBe('different');
  });
});

describe('RDDL of example games played by the independent reader', () => {
  for (const name of ['buttons.kif', 'linkpath.kif', 'rddl-chain.kif', 'rddl-interm.kif', 'gddl-goal-read.kif', 'rddl-goal-partial.kif']) {
    it(name, () => {
      expect(playIndependently(example(name), name, 8)).toBeGreaterThan(8);
    }, 60_000);
  }
});

describe.skipIf(!HAVE_CORPUS)('RDDL of corpus games played by the independent reader', () => {
  it('hanoi, chineseCheckers1 (goal and legal read in bodies), snake_2008', () => {
    for (const g of ['hanoi.kif', 'chineseCheckers1.kif', 'snake_2008.kif']) playIndependently(readGame(`ggp-repository-base/${g}`), g, 2);
  }, 300_000);
});
