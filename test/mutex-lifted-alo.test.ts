// Lifted "at least one" proofs (src/mutex/lifted-alo.ts, docs/mutex.md section 2b): proven by
// case analysis on the rules with variables where some next rule always fires for the key,
// never where one legal move leaves a key with no fluent (every hypothesis is offered here, so
// sampling does not hide a false one).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Deadline } from '../src/deadline.js';
import { hypotheses } from '../src/mutex/candidates.js';
import { proveLifted } from '../src/mutex/lifted.js';
import { proveLiftedAlo } from '../src/mutex/lifted-alo.js';
import { mutexView } from '../src/mutex/view.js';
import { defaultPipelineOptions } from '../src/pipeline/options.js';
import { runGrounding, DEFAULT_MUTEX_SETTINGS } from '../src/pipeline/stages.js';
import { mutexGroups } from '../src/pipeline/stages-play.js';
import { StageTimer } from '../src/timer.js';
import { EXAMPLES_DIR } from './corpus.js';

/** Whether "at least one per key" of `relation [input]` is proven lifted (AMO proven lifted assumed). */
function aloLifted(text: string, hypothesis: string): boolean {
  const { loaded, ground } = runGrounding(text, 'game.kif', defaultPipelineOptions(), new StageTimer());
  const view = mutexView(ground);
  const hyps = hypotheses(view);
  const { assumed } = proveLifted(loaded.normal, view, hyps, hyps.map(() => true), { deadline: Deadline.never(), maxPairs: 1e6 });
  const h = hyps.find((x) => `${x.relation} [${x.input.join(',')}]` === hypothesis)!;
  expect(h).toBeDefined();
  const groups = h.groups.map((g) => g.map((f) => ground.terms.toTerm(view.fluents[f]!.term)));
  return proveLiftedAlo(loaded.normal, [{ hypothesis: h, groups }], assumed, Deadline.never())[0]!;
}

/** A counter c that a move `clear` may leave with no value at all (when `clearMakes` is empty). */
function clearGame(clearMakes: string): string {
  return `
(role r)
(init (c a)) (init (s 1))
(<= (legal r go) (true (s ?n)))
(<= (legal r clear) (true (s 1)))
(<= (next (s 2)) (true (s 1)))
(<= (next (s 2)) (true (s 2)))
(<= (next (c b)) (does r go) (true (c a)))
(<= (next (c a)) (does r go) (true (c b)))
(<= (next (c ?x)) (true (c ?x)) (not (does r go)) (not (does r clear)))
${clearMakes}
(<= terminal (true (s 2)) (true (c a)))
(<= (goal r 100) (true (c a)))
`;
}

describe('lifted exactly-one proofs', () => {
  it('tic-tac-toe: every square and the control are proven exactly-one on the rules with variables', () => {
    const text = readFileSync(join(EXAMPLES_DIR, 'tictactoe.kif'), 'utf8');
    expect(aloLifted(text, 'cell/3 [0,1]')).toBe(true);
    expect(aloLifted(text, 'control/1 []')).toBe(true);
  });

  it('a legal move after which no rule makes c true: not proven (the claim is false)', () => {
    expect(aloLifted(clearGame(''), 'c/1 []')).toBe(false);
  });

  it('the same game where clear makes (c e): proven', () => {
    expect(aloLifted(clearGame('(<= (next (c e)) (does r clear)) (<= (next (c e)) (true (c e)))'), 'c/1 []')).toBe(true);
  });

  it('a frame rule guarded by a derived relation: proven only when the change rule reads it too', () => {
    const game = (changeBody: string): string => `
(role r)
(init (c a)) (init (k 1)) (init (k 2))
(<= (legal r (flip ?n)) (true (k ?n)))
(<= (hit ?n) (does r (flip ?n)))
(<= (next (k ?n)) (true (k ?n)))
(<= (next (c ?x)) (true (c ?x)) (not (hit 1)))
(<= (next (c b)) ${changeBody})
(<= terminal (true (c b)))
(<= (goal r 100) (true (c b)))
`;
    expect(aloLifted(game('(hit 1)'), 'c/1 []')).toBe(true);
    // (hit 2) does not cover the case (hit 1): after (flip 1) no c holds.
    expect(aloLifted(game('(hit 2)'), 'c/1 []')).toBe(false);
  });

  it('the mutex stage reports tic-tac-toe\'s groups as proven lifted, with the same groups and bits', () => {
    const text = readFileSync(join(EXAMPLES_DIR, 'tictactoe.kif'), 'utf8');
    const options = defaultPipelineOptions();
    const { loaded, ground } = runGrounding(text, 'tictactoe.kif', options, new StageTimer());
    const r = mutexGroups(ground, loaded.normal, options, DEFAULT_MUTEX_SETTINGS, new StageTimer());
    expect(r.bits).toBe(19);
    expect(r.groups.map((g) => g.proof)).toEqual(Array(10).fill('lifted'));
    expect(r.groups.every((g) => g.exactlyOne)).toBe(true);
    expect(r.stats.satQueries).toBe(0);
  });

  it('a spent time budget makes no groups (the hypotheses obey it too), never failed or observed, and the run goes on', () => {
    const text = readFileSync(join(EXAMPLES_DIR, 'tictactoe.kif'), 'utf8');
    const options = defaultPipelineOptions();
    const { loaded, ground } = runGrounding(text, 'tictactoe.kif', options, new StageTimer());
    const r = mutexGroups(ground, loaded.normal, options, { ...DEFAULT_MUTEX_SETTINGS, seconds: 0 }, new StageTimer());
    expect(r.stats.budgetReached).toBe(true);
    expect(r.stats.candidatesCut).toBe(true);
    expect(r.groups).toEqual([]);
    expect(r.stats.notInductive).toBe(0);
    expect(r.stats.chosen.unproven).toEqual({ groups: 0, fluents: 0 });
    expect(r.bits).toBe(29);
  });
});

/** Per hypothesis `relation [input]` of `wanted`, whether "at least one per key" is proven lifted, all offered in one call. */
function aloLiftedAll(text: string, wanted: readonly string[]): boolean[] {
  const { loaded, ground } = runGrounding(text, 'game.kif', defaultPipelineOptions(), new StageTimer());
  const view = mutexView(ground);
  const hyps = hypotheses(view);
  const { assumed } = proveLifted(loaded.normal, view, hyps, hyps.map(() => true), { deadline: Deadline.never(), maxPairs: 1e6 });
  const tasks = wanted.map((w) => {
    const h = hyps.find((x) => `${x.relation} [${x.input.join(',')}]` === w)!;
    expect(h).toBeDefined();
    return { hypothesis: h, groups: h.groups.map((g) => g.map((f) => ground.terms.toTerm(view.fluents[f]!.term))) };
  });
  return proveLiftedAlo(loaded.normal, tasks, assumed, Deadline.never());
}

/** A step counter along static `succ` facts; the game ends at (s 3), or (with `end` 4) never. */
const counterGame = (end: number): string => `
(role r)
(init (s 1))
(<= (legal r go) (true (s ?n)))
(<= (next (s ?m)) (true (s ?n)) (succ ?n ?m))
(succ 1 2) (succ 2 3)
(<= terminal (true (s ${end})))
(<= (goal r 100) (true (s 3)))
`;

/** Both roles may always pass; the role in control keeps c by passing, or flips it. */
const PASS_GAME = `
(role a) (role b)
(init (control a)) (init (c x))
(<= (legal ?p noop) (role ?p))
(<= (legal ?p flip) (true (control ?p)))
(<= (next (control a)) (true (control b)))
(<= (next (control b)) (true (control a)))
(<= (next (c ?v)) (true (c ?v)) (true (control ?p)) (does ?p noop))
(<= (next (c y)) (true (c x)) (does ?p flip))
(<= (next (c x)) (true (c y)) (does ?p flip))
(<= terminal (true (c z)))
(<= (goal a 100) (true (c x)))
(<= (goal b 100) (true (c y)))
`;

describe('lifted exactly-one proofs: static facts, terminal states, relations with one member always', () => {
  it('a counter along succ facts that ends the game at its last value: proven; one that does not end it: not', () => {
    expect(aloLifted(counterGame(3), 's/1 []')).toBe(true);
    expect(aloLifted(counterGame(4), 's/1 []')).toBe(false);
  });

  it('c kept when the role in control passes: proven once control is proven exactly-one in the same call', () => {
    expect(aloLiftedAll(PASS_GAME, ['control/1 []', 'c/1 []'])).toEqual([true, true]);
    expect(aloLiftedAll(PASS_GAME, ['c/1 []'])).toEqual([false]);
  });
});
