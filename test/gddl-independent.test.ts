// GDDL read by a second reader that shares no code with the writer (test/support/gddl-reader.ts,
// written from docs/gddl.md alone; issue 31) and played against the original game's reasoner
// state by state: the example games (goal, terminal and legal atoms read in other rules; goals
// of non-roles; a goal that is no function of the state) and corpus games (multi-player,
// simultaneous, recursive with kept axioms). The reader refuses what the grammar excludes, so
// the empty `()` this issue found is caught by reading alone.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_AXIOM_OPTIONS, DEFAULT_MUTEX_SETTINGS, defaultPipelineOptions } from '../src/pipeline/stages.js';
import { formatDifference } from '../src/pipeline/stages-play.js';
import { DEFAULT_GDDL_OPTIONS } from '../src/pipeline/formats.js';
import { loadRun } from '../src/pipeline/recipes/index.js';
import { gddlRecipe } from '../src/pipeline/recipes/gddl.js';
import { createReasoner } from '../src/play/reasoner.js';
import { verifyGame } from '../src/play/verify.js';
import { decodeName, independentSimulator, readIndependentGddl } from './support/gddl-reader.js';
import { testContext } from './support/context.js';
import { EXAMPLES_DIR, HAVE_CORPUS, readGame } from './corpus.js';

const SETTINGS = { gddl: DEFAULT_GDDL_OPTIONS, axioms: DEFAULT_AXIOM_OPTIONS, mutex: DEFAULT_MUTEX_SETTINGS };

/** Writes the GDDL of a game, reads it with the independent reader, plays it against the reasoner. */
function playIndependently(text: string, file: string, playouts: number): { states: number; roles: number } {
  const ctx = testContext(file);
  const loaded = loadRun(ctx, text);
  const { files } = gddlRecipe(ctx, loaded, { keepUnused: false, ...SETTINGS }).output;
  const game = readIndependentGddl(files);
  const result = verifyGame(createReasoner(loaded.normal, { deadline: defaultPipelineOptions().deadline }), independentSimulator(game), { playouts, seed: 11, maxSteps: 60, jointMovesOnly: true });
  if (result.kind === 'different') expect.fail(`${file}: ${formatDifference(result.difference)}`);
  expect(result.stats.transitions).toBeGreaterThan(0);
  return { states: result.stats.states, roles: game.roles.length };
}

const example = (name: string): string => readFileSync(join(EXAMPLES_DIR, name), 'utf8');

describe('the independent GDDL reader', () => {
  it('decodes names as docs/gddl.md says', () => {
    expect(decodeName('cell-1-1-x')).toBe('(cell 1 1 x)');
    expect(decodeName('cell-_o-pos-1-2-_c-x')).toBe('(cell (pos 1 2) x)');
    expect(decodeName('a_db-c_x2e_-__u')).toBe('(a-b c. _u)');
    expect(decodeName('noop')).toBe('noop');
  });

  it('refuses an empty formula, a reward of no role, and an and without arguments (a predicate named and, undeclared)', () => {
    const domain = (extra: string): string => `(define (domain d) (:roles r) (:predicates (_true) (p)) (:multi-action :player r :action m :global-precondition (_true) :precondition (p) :effect (p)) ${extra})`;
    const problem = (terminal: string): string => `(define (problem d) (:domain d) (:init (p)) (:terminal ${terminal}))`;
    const partition = '(define (partition d) (:domain d) (:group :singleton (p)))';
    const read = (d: string, p: string): unknown => readIndependentGddl({ domain: d, problem: p, partition });
    expect(() => read(domain(''), problem('(p)'))).not.toThrow();
    expect(() => read(domain(''), problem('(or () (p))'))).toThrow(/not a formula/);
    expect(() => read(domain(''), problem('(and)'))).toThrow(/undeclared predicate and/);
    expect(() => read(domain('(:reward :player b :value 100 :condition (p))'), problem('(p)'))).toThrow(/no role/);
  });
});

describe('GDDL of example games played by the independent reader', () => {
  for (const name of ['tictactoe.kif', 'nim.kif', 'buttons.kif', 'linkpath.kif', 'gddl-does-axiom.kif', 'arities.kif', 'gddl-goal-read.kif', 'gddl-nonrole-goal.kif', 'rddl-goal-partial.kif']) {
    it(name, () => {
      expect(playIndependently(example(name), name, 8).states).toBeGreaterThan(8);
    }, 60_000);
  }
});

describe.skipIf(!HAVE_CORPUS)('GDDL of corpus games played by the independent reader', () => {
  it('multi-player, simultaneous and recursive games', () => {
    const games = ['gt_prisoner.kif', 'blocker.kif', 'cubicup_3player.kif', 'biddingTicTacToe_10coins.kif'];
    for (const g of games) playIndependently(readGame(`ggp-repository-base/${g}`), g, 3);
  }, 300_000);
});
