// The lazy rounds (src/ground/lazy-rounds.ts, lazy-scan.ts): the later keyword rules of a
// component refused alike are made lazy in the same round, with the same plan and output as
// when every seed is given at once; a stopped round's data is not kept alive by its error; and
// the caller's `reclaim` runs between two rounds, when that data is garbage.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { type PipelineOptions, emitGround, groundNormalGame, loadGame, resolvePipelineOptions } from '../src/pipeline/stages.js';
import { StageTimer } from '../src/timer.js';
import { planLazy } from '../src/ground/lazy.js';
import { lazyRounds } from '../src/ground/lazy-rounds.js';
import { relationLimitError } from '../src/gdl/diagnostics.js';
import { EXAMPLES_DIR } from './examples.js';

const FILE = 'lazy-rounds.kif';
const TEXT = readFileSync(join(EXAMPLES_DIR, FILE), 'utf8');

function ground(options: PipelineOptions): { text: string; instantiations: number; lazyRules: string[] } {
  const timer = new StageTimer();
  const { ground: game } = groundNormalGame(loadGame(TEXT, FILE, options, new StageTimer()).normal, options, timer);
  const text = emitGround(game, 'gdl', { baseInput: true }, new StageTimer(), options);
  const lazyRules = (game.lazy?.rules ?? []).filter((r) => r.head.rel === 'legal').map((r) => `@${r.pos.line}:${r.pos.col}`);
  return { text, instantiations: timer.list().filter((s) => s.stage === 'instantiate').length, lazyRules };
}

describe('a keyword component with three rules refused by the lazy-rule estimate', () => {
  it('takes the two later ones with the first: two instantiations, not four', () => {
    const { instantiations, lazyRules } = ground(resolvePipelineOptions({ lazyRelations: ['blocked'], lazyAxioms: true }));
    expect(lazyRules).toEqual(['@12:1', '@13:1', '@14:1']);
    expect(instantiations).toBe(2);
  });

  it('drops far from the ground game with the rule at line 13, which alone reads it', () => {
    const normal = loadGame(TEXT, FILE, resolvePipelineOptions({}), new StageTimer()).normal;
    const grounds = (seeds: string[]): boolean => planLazy(normal, seeds).ground.rules.some((r) => r.head.rel === 'far');
    expect(grounds(['blocked', '@12:1'])).toBe(true);
    expect(grounds(['blocked', '@12:1', '@13:1'])).toBe(false);
  });

  it('writes what the plan with every seed given makes, in one instantiation', () => {
    const rounds = ground(resolvePipelineOptions({ lazyRelations: ['blocked'], lazyAxioms: true }));
    const given = ground(resolvePipelineOptions({ lazyRelations: ['blocked', '@12:1', '@13:1', '@14:1'] }));
    expect(given.instantiations).toBe(1);
    expect(given.lazyRules).toEqual(rounds.lazyRules);
    expect(rounds.text).toBe(given.text);
  });
});

// Full collections on demand (the flag is read when the context is made: a new one is).
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

/** Heap used after a full collection, in bytes. */
function liveHeap(): number {
  collect();
  return getHeapStatistics().used_heap_size;
}

/** Throws a limit naming `blocked` from a closure that holds `big`, as a stage's frames hold its data. */
function stopHoldingData(big: number[]): never {
  const deep = (): never => {
    if (big.length === 0) throw new Error('unreachable');
    throw relationLimitError(FILE, { line: 10, col: 1 }, 'blocked', 'too large', { kind: 'rules' });
  };
  return deep();
}

describe('the lazy rounds and the limit error of a round', () => {
  it('keep nothing of the stopped round alive in the next: its error frames held its data', () => {
    const normal = loadGame(TEXT, FILE, resolvePipelineOptions({}), new StageTimer()).normal;
    const before = liveHeap();
    let during = 0;
    const out = lazyRounds(normal, [], true, resolvePipelineOptions({}).deadline, (plan) => {
      // About 32 MiB of heap that only the stopped round's frames reach.
      if (plan === undefined) stopHoldingData(new Array<number>(4_000_000).fill(0.5));
      during = liveHeap();
      return plan.relations;
    });
    expect(out).toEqual(['blocked']);
    expect(during - before).toBeLessThan(8 * 2 ** 20);
  });

  it('call reclaim once between two rounds, when the stopped round holds nothing any more', () => {
    const normal = loadGame(TEXT, FILE, resolvePipelineOptions({}), new StageTimer()).normal;
    const before = liveHeap();
    const calls: string[] = [];
    let between = Infinity;
    const reclaim = (): void => {
      calls.push('reclaim');
      between = liveHeap();
    };
    lazyRounds(
      normal,
      [],
      true,
      resolvePipelineOptions({}).deadline,
      (plan) => {
        calls.push(plan === undefined ? 'round 0' : 'round 1');
        if (plan === undefined) stopHoldingData(new Array<number>(4_000_000).fill(0.5));
        return plan.relations;
      },
      reclaim,
    );
    expect(calls).toEqual(['round 0', 'reclaim', 'round 1']);
    expect(between - before).toBeLessThan(8 * 2 ** 20);
  });
});
