// What the tests of the mutex stage's budget share (mutex-budget, mutex-cone-cost): a budget that
// passes at a chosen look, synthetic fluents for hand-made views, the ground proof's limits, and
// tictactoe's fluents with sampled states.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Deadline } from '../../src/deadline.js';
import type { GroundGame } from '../../src/ground/types.js';
import { type MutexView, mutexView } from '../../src/mutex/view.js';
import { defaultPipelineOptions } from '../../src/pipeline/options.js';
import { runGrounding } from '../../src/pipeline/stages.js';
import { sampleStates } from '../../src/play/sample.js';
import { StageTimer } from '../../src/timer.js';
import { EXAMPLES_DIR } from '../examples.js';

/**
 * A budget that passes at its third look: the checks before a batch and before a claim are the
 * first two, so the third is the first look inside the proof (the rule index or the encoding).
 */
export class PassingAtThirdLook extends Deadline {
  looks = 0;
  override passed(): boolean {
    return ++this.looks > 2;
  }
}

/** Fluent `(f i)` of relation f/1 with the given true and next atoms (next -1: nothing makes it true). */
export function syntheticFluent(i: number, trueAtom: number, nextAtom: number): MutexView['fluents'][number] {
  return { term: i, text: `(f ${i})`, trueAtom, nextAtom, relation: 'f/1', name: 'f', args: [String(i)] };
}

/** The ground proof's limits in these tests: no pair queries, conflicts and work far from binding. */
export const PROOF_LIMITS = { maxConflicts: 20_000, maxPairQueries: 0, maxWork: 100_000_000 };

/** tictactoe (examples) grounded with the default options. */
export function tictactoe(): GroundGame {
  return runGrounding(readFileSync(join(EXAMPLES_DIR, 'tictactoe.kif'), 'utf8'), 'tictactoe.kif', defaultPipelineOptions(), new StageTimer()).ground;
}

/** tictactoe's view and the states of 20 playouts (seed 5), as fluent indexes of the view. */
export function sampledTictactoe(): { readonly ground: GroundGame; readonly view: MutexView; readonly states: number[][] } {
  const ground = tictactoe();
  const view = mutexView(ground);
  const fluentOf = new Map(view.fluents.map((f, i) => [f.term, i]));
  const states = sampleStates(ground, { playouts: 20, seed: 5, maxSteps: 50, deadline: Deadline.never() }).map((s) => s.map((t) => fluentOf.get(t)!));
  return { ground, view, states };
}
