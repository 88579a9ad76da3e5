// Demand where the callers pass constants (src/reach/demand-choice.ts, docs/reach.md): the
// superset stage as `ground` runs it demands a relation whose every call asks for a sliver of
// its domains (games/demand-calls.kif, like crisscross's `count`), the game written is byte
// for byte the one the plain supersets give, and a run that keeps unused instances gets the
// plain supersets.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { load, written } from './support/demand-game.js';
import { Deadline } from '../src/deadline.js';
import { relationsWorthDemanding } from '../src/reach/demand-choice.js';
import { supersetsForGrounding } from '../src/reach/demand.js';
import { demandableRelations } from '../src/reach/magic.js';
import { loadRun } from '../src/pipeline/recipes/index.js';
import { groundWrittenWhole } from '../src/pipeline/recipes/game.js';
import type { Supersets } from '../src/reach/types.js';
import { EXAMPLES_DIR } from './corpus.js';
import { testContext } from './support/context.js';

const CALLS = join(EXAMPLES_DIR, 'demand-calls.kif');
const limits = { deadline: Deadline.never(), maxAtoms: 2_000_000 };


const tallies = (s: Supersets): number => s.axioms.filter((a) => a.rel === 'tally').length;


describe('demand where the callers pass constants: the choice', () => {
  it('chooses tally/5 in games/demand-calls.kif: 25^3 cells x 3 players x 3 counts, six asked for', () => {
    const normal = load(CALLS);
    const chosen = relationsWorthDemanding(normal, demandableRelations(normal), () => {});
    expect(chosen).toEqual([{ key: 'tally/5', full: 140_625, asked: 6 }]);
  });

  it('chooses nothing where the calls pass variables or the domains are small', () => {
    for (const name of ['tictactoe.kif', 'nim.kif', 'demand.kif', 'lazy-wide.kif']) {
      const normal = load(join(EXAMPLES_DIR, name));
      expect(relationsWorthDemanding(normal, demandableRelations(normal), () => {}), name).toEqual([]);
    }
  });
});

describe('demand where the callers pass constants: the same game', () => {
  it('auto demands tally: the same fluents and moves, a hundredth of the tally instances, the same game written', () => {
    const normal = load(CALLS);
    const plain = written(normal, 'accumulator');
    const demand = written(normal, 'auto');
    expect(demand.supersets.fluents).toEqual(plain.supersets.fluents);
    expect(demand.supersets.moves).toEqual(plain.supersets.moves);
    // The plain run derives the count 0 for every three cells and both players.
    expect(tallies(plain.supersets)).toBeGreaterThan(31_250);
    expect(tallies(demand.supersets) * 100).toBeLessThan(tallies(plain.supersets));
    expect(demand.text).toBe(plain.text);
    expect(demand.text).toContain('(<= (stones red 3) (tally a1 a2 a3 red 3))');
  }, 120_000);

  it('the superset stage alone: auto and accumulator modes differ only in the demanded tally instances', () => {
    const normal = load(CALLS);
    const plain = supersetsForGrounding(normal, limits, 'accumulator').supersets;
    const demand = supersetsForGrounding(normal, limits, 'auto').supersets;
    // Sorted: the plain run gives the axioms in the order found (src/reach/demand.ts), demand's are merged sorted.
    const text = (s: Supersets) => s.axioms.filter((a) => a.rel !== 'tally').map((a) => `${a.rel} ${JSON.stringify(a.args)}`).sort();
    expect(text(demand)).toEqual(text(plain));
    expect(tallies(demand)).toBeLessThan(tallies(plain));
  }, 120_000);

  it('the recipes: ground demands, ground --keep-unused keeps the plain supersets (every tally instance)', () => {
    const ctx = testContext(CALLS);
    const loaded = loadRun(ctx, readFileSync(CALLS, 'utf8'));
    const removed = groundWrittenWhole(ctx, loaded, false);
    const kept = groundWrittenWhole(testContext(CALLS), loaded, true);
    expect(tallies(removed.reach.supersets) * 100).toBeLessThan(tallies(kept.reach.supersets));
    expect(tallies(kept.reach.supersets)).toBe(tallies(supersetsForGrounding(loaded.normal, limits, 'never').supersets));
  }, 120_000);
});
