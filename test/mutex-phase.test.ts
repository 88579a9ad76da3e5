// A fluent that holds only in a phase (docs/mutex.md 2l). games/mutex-phase-reset.kif, a miniature of
// ticblock: "one value per square" of the second board holds only with "a mark => some score" (an
// implication with no position mapped), whose step reads the `reset` move's legality backwards
// (over <= result); its twin mutex-phase-reset-again.kif (reset again once square 1 is full) must
// not prove square 1. games/mutex-phase-moves.kif, a miniature of crissrace: "one first" holds
// because a finished race leaves every role only `reset`, which the pair's (not reseted) forbids
// (every role moves; fin entailed through finished); its twin mutex-phase-moves-wait.kif (a role
// may wait) must refuse it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Deadline } from '../src/deadline.js';
import { NO_POS } from '../src/gdl/ast.js';
import { hypotheses } from '../src/mutex/candidates.js';
import { someFluentCandidates } from '../src/mutex/implications-some.js';
import { proveLifted } from '../src/mutex/lifted.js';
import { fluentArgs, mutexView } from '../src/mutex/view.js';
import { sampleStates } from '../src/play/sample.js';
import { defaultPipelineOptions } from '../src/pipeline/options.js';
import { runGrounding } from '../src/pipeline/stages.js';
import { StageTimer } from '../src/timer.js';
import { EXAMPLES_DIR } from './corpus.js';
import { provenLifted } from './support/lifted-proofs.js';

/** The implications to some fluent held by sampled states, those proven, and per key of `mark` (input {x}) whether it is proven. */
function phaseProofs(game: string): { candidates: string[]; implied: string[]; squares: Record<string, boolean> } {
  const text = readFileSync(join(EXAMPLES_DIR, game), 'utf8');
  const { loaded, ground } = runGrounding(text, game, defaultPipelineOptions(), new StageTimer());
  const view = mutexView(ground);
  const hyps = hypotheses(view);
  const index = new Map(view.fluents.map((f, i) => [f.term, i]));
  const states = sampleStates(ground, { playouts: 20, seed: 1, maxSteps: 20, deadline: Deadline.never() }).map((s) => s.map((t) => index.get(t)!));
  const implications = someFluentCandidates(view, loaded.normal, new Set(['mark/2']), new Set(), states, []);
  const text2 = (i: { from: string; to: string }): string => `${i.from} => ${i.to}`;
  const h = hyps.findIndex((x) => x.relation === 'mark/2' && x.input.join() === '0');
  // The squares one by one (as sampling offers them when a group is refuted), every other hypothesis offered whole.
  const keyed = ['1', '2'].map((x) => ({ key: [{ kind: 'const' as const, name: x, pos: NO_POS }], members: view.fluents.flatMap((f, i) => (f.name === 'mark' && f.args[0] === x ? [i] : [])) }));
  const squares: Record<string, boolean> = {};
  for (const k of keyed) {
    const partial = hyps.map((_, i) => (i === h ? [k] : undefined));
    const r = proveLifted(loaded.normal, view, hyps, hyps.map((_, i) => i !== h), { deadline: Deadline.never(), maxPairs: 1e6, fluents: fluentArgs(ground), implications }, partial);
    squares[k.key[0]!.name] = r.proven[h]!;
    if (k.key[0]!.name === '2') return { candidates: implications.map(text2), implied: r.implied.map(text2), squares };
  }
  throw new Error('unreachable');
}

describe('a fluent that holds only in a phase', () => {
  it('mutex-phase-reset: mark => some score is held and proven, and both squares are proven', () => {
    const r = phaseProofs('mutex-phase-reset.kif');
    expect(r.candidates).toEqual(['mark/2 => score/1']);
    expect(r.implied).toEqual(['mark/2 => score/1']);
    expect(r.squares).toEqual({ 1: true, 2: true });
  });

  it('mutex-phase-reset-again: reset blanks a full square 1 later: square 1 refused', () => {
    const r = phaseProofs('mutex-phase-reset-again.kif');
    expect(r.implied).toEqual(['mark/2 => score/1']);
    expect(r.squares[1]).toBe(false);
  });

  it('mutex-phase-moves: a finished race leaves only reset, so one first is proven', () => {
    expect(provenLifted('mutex-phase-moves.kif')).toMatchObject({ 'first/1 []': true });
  });

  it('mutex-phase-moves-wait: both may wait when the race is finished: one first refused', () => {
    expect(provenLifted('mutex-phase-moves-wait.kif')).toMatchObject({ 'first/1 []': false });
  });
});
