// The ground simulator's state rules filed under a (true F) atom of their positive body
// (src/play/ground-plan.ts), on games/tictactoe.kif: `(legal ?w (mark ?x ?y))` reads
// `(true (cell ?x ?y b))` and `(true (control ?w))`, and is filed under the cell, which fewer
// state rules read; the moves the simulator then finds are the ones the rules give.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Deadline } from '../src/deadline.js';
import { atomText } from '../src/ground/atoms.js';
import { createGroundSimulator } from '../src/play/ground-sim.js';
import { compileRules } from '../src/play/ground-plan.js';
import { defaultPipelineOptions } from '../src/pipeline/options.js';
import { runGrounding } from '../src/pipeline/stages.js';
import { StageTimer } from '../src/timer.js';
import { EXAMPLES_DIR } from './corpus.js';

const ground = (): ReturnType<typeof runGrounding>['ground'] => {
  const name = 'tictactoe.kif';
  return runGrounding(readFileSync(join(EXAMPLES_DIR, name), 'utf8'), name, defaultPipelineOptions(), new StageTimer()).ground;
};

describe('state rules filed under a true atom', () => {
  it('files a mark rule under its cell, not under whose turn it is', () => {
    const game = ground();
    const p = compileRules(game, Deadline.never());
    const filedUnder = new Map<string, string>();
    for (let a = 0; a < p.atoms; a++) {
      for (let i = p.stateTriggerStart[a]!; i < p.stateTriggerStart[a + 1]!; i++) filedUnder.set(atomText(game, p.head[p.stateTriggers[i]!]!), atomText(game, a));
    }
    expect(filedUnder.get('(legal xplayer (mark 1 2))')).toBe('(true (cell 1 2 b))');
    expect(filedUnder.get('(legal xplayer noop)')).toBe('(true (control oplayer))');
  });

  it('finds the moves the rules give, in the initial state and the next', () => {
    const game = ground();
    const sim = createGroundSimulator(game, Deadline.never());
    const moves = (state: Uint32Array): string[][] => sim.info(state).legal.map((ids) => ids.map((id) => sim.text.move(id)).sort());
    const first = moves(sim.initialState());
    expect(first[0]).toHaveLength(9);
    expect(first[1]).toEqual(['noop']);
    const markId = sim.info(sim.initialState()).legal[0]!.find((id) => sim.text.move(id) === '(mark 1 1)')!;
    const noopId = sim.info(sim.initialState()).legal[1]![0]!;
    const next = moves(sim.successor(sim.initialState(), [markId, noopId]));
    expect(next[0]).toEqual(['noop']);
    expect(next[1]).toHaveLength(8);
    expect(next[1]).not.toContain('(mark 1 1)');
  });
});

const groundOf = (name: string): ReturnType<typeof runGrounding>['ground'] =>
  runGrounding(readFileSync(join(EXAMPLES_DIR, name), 'utf8'), name, defaultPipelineOptions(), new StageTimer()).ground;

describe('state ranges joined, state rules filed only when most can be (docs/mutex.md, merr26)', () => {
  it('joins consecutive acyclic ranges, the state ranges before the move ranges', () => {
    const p = compileRules(groundOf('tictactoe.kif'), Deadline.never());
    for (const ranges of [p.stateRanges, p.moveRanges]) {
      // Undone (a range per component), tictactoe has dozens of adjacent acyclic state ranges.
      for (let r = 5; r < ranges.length; r += 5) expect(ranges[r - 3]! < 0 && ranges[r + 2]! < 0 && ranges[r - 4] === ranges[r]).toBe(false);
    }
    expect(p.stateRanges.length).toBe(5);
    expect(p.stateRanges[p.stateRanges.length - 4]).toBeLessThanOrEqual(p.moveRanges[0]!);
  });

  it('files no state rule when fewer than half read a fluent positively, and plays as the rules say', () => {
    const game = groundOf('plain-state.kif');
    const p = compileRules(game, Deadline.never());
    const trueIds = new Set(game.vocabulary.fluents.map((f) => f.trueId));
    let readers = 0;
    for (let k = p.stateRanges[0]!; k < p.stateRanges[p.stateRanges.length - 4]!; k++) {
      if (p.pos.subarray(p.posStart[k]!, p.posStart[k + 1]!).some((a) => trueIds.has(a))) readers++;
    }
    expect(readers).toBe(4);
    expect(p.stateTriggers).toHaveLength(0);
    const sim = createGroundSimulator(game, Deadline.never());
    const moves = (state: Uint32Array): string[] => sim.info(state).legal[0]!.map((id) => sim.text.move(id)).sort();
    expect(moves(sim.initialState())).toEqual(['(flip 1)', '(flip 2)', '(flip 3)', '(flip 4)']);
    const flip1 = sim.info(sim.initialState()).legal[0]!.find((id) => sim.text.move(id) === '(flip 1)')!;
    expect(moves(sim.successor(sim.initialState(), [flip1]))).toEqual(['(flip 2)', '(flip 3)', '(flip 4)', 'wait']);
  });
});
