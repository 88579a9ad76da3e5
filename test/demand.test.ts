// Demand-driven axioms (issue 17; src/reach/magic.ts, src/reach/demand.ts): the magic-sets
// rewrite keeps the fluents and the moves, derives a subset of the axioms (the same on the
// Datalog core, the test-side second engine), gives the byte-identical ground game, and lets
// a game with an accumulator relation (games/demand.kif, like merrills) ground under an atom
// budget the plain relaxed model passes, playing like the original.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Deadline } from '../src/deadline.js';
import { GdlError } from '../src/gdl/diagnostics.js';
import { supersetSentences } from '../src/reach/format.js';
import { supersetsForGrounding } from '../src/reach/demand.js';
import { accumulatorRelations, demandableRelations, isAtomBudget, magicGame, undemand } from '../src/reach/magic.js';
import { computeSupersetsProlog } from '../src/reach/prolog.js';
import { type PipelineOptions, emitGround, groundGame, groundNormalGame, loadGame, removeUnusedInstances, resolvePipelineOptions } from '../src/pipeline/stages.js';
import { verifyGrounding } from '../src/pipeline/stages-play.js';
import type { NormalGame } from '../src/normalize/types.js';
import type { Supersets } from '../src/reach/types.js';
import { EXAMPLES_DIR, HAVE_CORPUS, readGame } from './corpus.js';
import { relevantSupersets } from './support/relaxed-model.js';
import { ensureBuilt, runCli } from './support/cli.js';
import { StageTimer } from '../src/timer.js';
import { defaultPipelineOptions } from '../src/pipeline/options.js';

const limits = (maxAtoms = 2_000_000) => ({ deadline: Deadline.never(), maxAtoms });

function load(file: string, text = readFileSync(file, 'utf8'), options: PipelineOptions = resolvePipelineOptions()): NormalGame {
  return loadGame(text, file, options, new StageTimer()).normal;
}

/** The ground game as `ground` writes it (unused instances removed), from `sets`. */
function groundText(normal: NormalGame, sets: Supersets): string {
  const options = resolvePipelineOptions();
  return emitGround(removeUnusedInstances(groundGame(normal, sets, options, new StageTimer()), new StageTimer(), options).game, 'gdl', { baseInput: false }, new StageTimer(), options);
}

/** Plain and demand-driven supersets agree on fluents and moves; demand's axioms are a subset; the ground game is the same. */
function checkBothWays(normal: NormalGame, ground = true): { plain: Supersets; demand: Supersets } {
  const plain = supersetsForGrounding(normal, limits(), 'never').supersets;
  const demand = supersetsForGrounding(normal, limits(), 'always').supersets;
  const text = (s: Supersets) => supersetSentences({ ...s, axioms: [] });
  expect(text(demand)).toEqual(text(plain));
  const all = new Set(supersetSentences(plain).axioms);
  for (const a of supersetSentences(demand).axioms) expect(all.has(a), a).toBe(true);
  if (ground) expect(groundText(normal, demand)).toBe(groundText(normal, plain));
  return { plain, demand };
}

const DEMAND = join(EXAMPLES_DIR, 'demand.kif');

describe('demand: which relations', () => {
  it('demands relevant relations called only positively by relevant rules', () => {
    const normal = load(DEMAND);
    // count is read by goal, open under negation (and only by terminal): both stay plain.
    expect([...demandableRelations(normal)].sort()).toEqual(['count_loop/5', 'count_one/5']);
    expect(accumulatorRelations(normal)).toEqual(['count_loop/5']);
  });

  it('finds no accumulator in tic-tac-toe, and demands nothing read by goal or terminal only', () => {
    const normal = load(join(EXAMPLES_DIR, 'tictactoe.kif'));
    expect(accumulatorRelations(normal)).toEqual([]);
    for (const k of demandableRelations(normal)) expect(k).not.toMatch(/^(line|row|column|diagonal|open)\//);
  });

  it('names adorned and magic relations with a space, and maps them back', () => {
    const rules = magicGame(load(DEMAND)).rules;
    expect(rules.some((r) => r.head.rel === 'count_loop bbbff')).toBe(true);
    expect(rules.some((r) => r.head.rel === 'magic count_loop bbbff')).toBe(true);
    expect(rules.every((r) => r.body.every((l) => l.kind !== 'neg'))).toBe(true);
  });
});

describe('demand: the same game, fewer axioms', () => {
  it('games/demand.kif: same fluents, moves and ground game; count_loop shrinks more than tenfold', () => {
    const { plain, demand } = checkBothWays(load(DEMAND));
    const loops = (s: Supersets) => s.axioms.filter((a) => a.rel === 'count_loop').length;
    expect(loops(demand) * 10).toBeLessThan(loops(plain));
  });

  it('the Datalog core computes the same demand-driven supersets as Tau-Prolog', () => {
    const magic = magicGame(load(DEMAND));
    const tau = computeSupersetsProlog(magic, limits(), { relevantOnly: true }).supersets;
    expect(supersetSentences(undemand(relevantSupersets(magic).supersets))).toEqual(supersetSentences(undemand(tau)));
  });

  for (const name of readdirSync(EXAMPLES_DIR).filter((f) => f.endsWith('.kif')).sort()) {
    it(`games/${name}`, () => {
      // explode.kif's goal cannot be instantiated (that is its point): supersets only.
      checkBothWays(load(join(EXAMPLES_DIR, name)), name !== 'explode.kif');
    });
  }

  it.skipIf(!HAVE_CORPUS)('corpus games: ad_game_2x2 (accumulators), mummyMaze2p_2007', () => {
    for (const g of ['ggp-repository-base/ad_game_2x2.kif', 'ggp-repository-base/mummyMaze2p_2007.kif']) {
      checkBothWays(load(g, readGame(g)));
    }
  }, 120_000);
});

describe('demand: grounding under an atom budget', () => {
  it('the plain run passes 3,000 atoms; the fallback grounds, and the game plays like the original', () => {
    const normal = load(DEMAND);
    let plainError: unknown;
    try {
      supersetsForGrounding(normal, limits(3000), 'never');
    } catch (err) {
      plainError = err;
    }
    expect(plainError).toBeInstanceOf(GdlError);
    expect(isAtomBudget(plainError)).toBe(true);
    const full = supersetsForGrounding(normal, limits(), 'never').supersets;
    for (const mode of ['fallback', 'auto'] as const) {
      const r = supersetsForGrounding(normal, limits(3000), mode);
      expect(supersetSentences({ ...r.supersets, axioms: [] })).toEqual(supersetSentences({ ...full, axioms: [] }));
    }
    const options = resolvePipelineOptions({ maxReachAtoms: 3000 });
    const ground = groundNormalGame(load(DEMAND, undefined, options), options, new StageTimer()).ground;
    const written = emitGround(removeUnusedInstances(ground, new StageTimer(), options).game, 'gdl', { baseInput: false }, new StageTimer(), defaultPipelineOptions());
    expect(written).toBe(groundText(normal, full));
    const verdict = verifyGrounding(normal, ground, options, { playouts: 20, seed: 3, maxSteps: 20 });
    expect(verdict.kind).toBe('same');
    expect(verdict.stats.terminals).toBe(20);
  });

  it('gdl-ground ground --max-atoms 3000 grounds games/demand.kif (exit 0)', () => {
    ensureBuilt();
    const r = runCli(['ground', DEMAND, '--max-atoms', '3000']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('(<= (count 0 0) (count_loop c1 0 0 0 0))');
  });

  it('auto leaves a game without an accumulator to the plain run: the very same supersets', () => {
    const normal = load(join(EXAMPLES_DIR, 'nim.kif'));
    const plain = supersetsForGrounding(normal, limits(), 'never').supersets;
    expect(supersetSentences(supersetsForGrounding(normal, limits(), 'auto').supersets)).toEqual(supersetSentences(plain));
  });

  it('a time limit is not a reason to retry', () => {
    const normal = load(DEMAND);
    expect(() => supersetsForGrounding(normal, { deadline: new Deadline(0), maxAtoms: 3000 }, 'fallback')).toThrow(/time|deadline|limit/);
    let err: unknown;
    try {
      supersetsForGrounding(normal, { deadline: new Deadline(0), maxAtoms: 3000 }, 'fallback');
    } catch (e) {
      err = e;
    }
    expect(isAtomBudget(err)).toBe(false);
  });
});
