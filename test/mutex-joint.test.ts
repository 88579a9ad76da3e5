// Exactly-one claims proven jointly with the "at most one" claims, and exclusions between two
// relations (src/mutex/lifted-joint.ts, lifted-exactly.ts, lifted-exclusion.ts; docs/mutex.md
// section 2g). games/mutex-pass.kif (control passes by noop, a miniature of connect5) proves
// "exactly one control" and "one mark per square" only jointly; its twin mutex-pass-twice.kif lets a
// role pass with control, where both are false. games/mutex-phases.kif (place and rotate phases in
// two relations, a miniature of pentago) proves "one thing per square" only with the exclusion of
// placeControl and rotateControl; its twin mutex-phases-overlap.kif breaks the exclusion.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Deadline } from '../src/deadline.js';
import { hypotheses } from '../src/mutex/candidates.js';
import { proveLifted } from '../src/mutex/lifted.js';
import { proveLiftedAlo } from '../src/mutex/lifted-alo.js';
import { proveJointly } from '../src/mutex/lifted-joint.js';
import { fluentArgs, mutexView } from '../src/mutex/view.js';
import { defaultPipelineOptions } from '../src/pipeline/options.js';
import { runGrounding } from '../src/pipeline/stages.js';
import { StageTimer } from '../src/timer.js';
import { EXAMPLES_DIR } from './corpus.js';

/** The game's pieces for the lifted proofs, every hypothesis offered. */
function setUp(game: string) {
  const text = readFileSync(join(EXAMPLES_DIR, game), 'utf8');
  const { loaded, ground } = runGrounding(text, game, defaultPipelineOptions(), new StageTimer());
  const view = mutexView(ground);
  const hyps = hypotheses(view);
  const at = (name: string): number => {
    const i = hyps.findIndex((h) => `${h.relation} [${h.input.join(',')}]` === name);
    expect(i).toBeGreaterThanOrEqual(0);
    return i;
  };
  return { normal: loaded.normal, ground, view, hyps, at, fluents: fluentArgs(ground) };
}

/** "At most one" of control (input {}) and of cell by square, proven with control assumed exactly-one (or not). */
function passing(game: string, joint: boolean): { control: boolean; cell: boolean } {
  const { normal, ground, view, hyps, at, fluents } = setUp(game);
  const limits = { deadline: Deadline.never(), maxPairs: 1e6, fluents };
  const all = hyps.map(() => true);
  const control = at('control/1 []');
  const members = hyps[control]!.groups[0]!.map((f) => ground.terms.toTerm(view.fluents[f]!.term));
  const r = joint
    ? proveJointly([{ hypothesis: control, members, candidate: 0 }], (exactly) => proveLifted(normal, view, hyps, all, { ...limits, exactly }),
      (res, tasks) => proveLiftedAlo(normal, tasks, res.assumed, Deadline.never(), res.implied), hyps)?.result
    : proveLifted(normal, view, hyps, all, limits);
  return { control: r?.proven[control] === true, cell: r?.proven[at('cell/3 [0,1]')] === true };
}

/** "One thing per square" (cell, input {n}), with the exclusion of the two control relations offered (or not). */
function phases(game: string, offered: boolean): boolean {
  const { normal, view, hyps, at, fluents } = setUp(game);
  const exclusions = offered ? [{ p: 'placecontrol/1', q: 'rotatecontrol/1' }] : [];
  return proveLifted(normal, view, hyps, hyps.map(() => true), { deadline: Deadline.never(), maxPairs: 1e6, fluents, exclusions }).proven[at('cell/2 [0]')] === true;
}

describe('exactly-one claims proven jointly (2g)', () => {
  it('mutex-pass: neither control nor the squares alone, both with control assumed exactly-one', () => {
    expect(passing('mutex-pass.kif', false)).toEqual({ control: false, cell: false });
    expect(passing('mutex-pass.kif', true)).toEqual({ control: true, cell: true });
  });

  it('mutex-pass-twice: both roles may pass and then mark one square, and nothing is proven', () => {
    expect(passing('mutex-pass-twice.kif', true)).toEqual({ control: false, cell: false });
  });
});

describe('exclusions between two relations (2g)', () => {
  it('mutex-phases: one thing per square needs placeControl and rotateControl apart', () => {
    expect(phases('mutex-phases.kif', false)).toBe(false);
    expect(phases('mutex-phases.kif', true)).toBe(true);
  });

  it('mutex-phases-overlap: black places while red rotates, and neither is proven', () => {
    expect(phases('mutex-phases-overlap.kif', true)).toBe(false);
  });
});
