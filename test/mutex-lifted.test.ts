// Lifted "at most one" proofs (src/mutex/lifted.ts, docs/mutex.md section 2a): proven on the
// rules with variables where the rule pairs conflict, never where two next rules can both fire
// for one key (every hypothesis is offered as a candidate here, so sampling does not hide it).
// Also the order and passes of proveLifted's inductions (docs/mutex.md, ttcc23 and atari23): an
// every-key claim that failed alone checked first in the whole induction, and one that needs the
// implications proven in a pass of its own before it (games/mutex-failed-first.kif, mutex-extra-pass.kif).
// And a partial claim's keys implied by a smaller claim: not checked while it is assumed, checked
// again when it leaves (keysNotImplied; games/mutex-implied-keys.kif, mutex-implied-keys-leave.kif).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Deadline } from '../src/deadline.js';
import { NO_POS } from '../src/gdl/ast.js';
import { hypotheses } from '../src/mutex/candidates.js';
import type { Implication } from '../src/mutex/implications.js';
import { DEFAULT_MUTEX_OPTIONS, findMutexGroups } from '../src/mutex/index.js';
import { proveLifted } from '../src/mutex/lifted.js';
import { fluentArgs, mutexView } from '../src/mutex/view.js';
import { defaultPipelineOptions } from '../src/pipeline/options.js';
import { runGrounding } from '../src/pipeline/stages.js';
import { sampleStates } from '../src/play/sample.js';
import { StageTimer } from '../src/timer.js';
import { EXAMPLES_DIR } from './corpus.js';

/** Per hypothesis `relation [input]`, whether the lifted proof proves it (all offered). */
function lifted(text: string): Map<string, boolean> {
  const { loaded, ground } = runGrounding(text, 'game.kif', defaultPipelineOptions(), new StageTimer());
  const view = mutexView(ground);
  const hyps = hypotheses(view);
  const r = proveLifted(loaded.normal, view, hyps, hyps.map(() => true), { deadline: Deadline.never(), maxPairs: 1e6 });
  return new Map(hyps.map((h, i) => [`${h.relation} [${h.input.join(',')}]`, r.proven[i]!]));
}

const FALSE_GROUP = `
(role r)
(init (p a))
(init (q))
(<= (legal r go) (true (q)))
(<= (next (q)) (true (q)))
(<= (next (p a)) (true (p a)))
(<= (next (p b)) (true (q)))
(<= terminal (true (p b)))
(<= (goal r 100) (true (p a)))
`;

/** Whether `relation [input]` is proven lifted for the one key `piece` only (the other groups not offered). */
function liftedForKey(text: string, hypothesis: string, piece: string): boolean {
  const { loaded, ground } = runGrounding(text, 'game.kif', defaultPipelineOptions(), new StageTimer());
  const view = mutexView(ground);
  const hyps = hypotheses(view);
  const i = hyps.findIndex((h) => `${h.relation} [${h.input.join(',')}]` === hypothesis);
  expect(i).toBeGreaterThanOrEqual(0);
  const members = hyps[i]!.groups.find((g) => view.fluents[g[0]!]!.args[1] === piece)!;
  const partial = hyps.map((_, j) => (j === i ? [{ key: [{ kind: 'const' as const, name: piece, pos: NO_POS }], members }] : undefined));
  return proveLifted(loaded.normal, view, hyps, hyps.map(() => false), { deadline: Deadline.never(), maxPairs: 1e6 }, partial).proven[i]!;
}

/** A hypothesis (`relation [input]`) offered for one key only (the constants at its input positions). */
interface KeyOffer {
  readonly hypothesis: string;
  readonly key: readonly string[];
}

/** What {@link offered} offers: hypotheses (`relation [input]`) on every key, some for one key only, the implications, a budget. */
interface Offer {
  readonly everyKey: readonly string[];
  readonly partial?: KeyOffer | readonly KeyOffer[];
  readonly implications?: readonly Implication[];
  /** Looks at the budget (the deadline's abort flag read) before it counts as spent: deterministic, no clock. */
  readonly looks?: number;
}

/** The lifted proof of example game `file` on what `offer` offers: the hypotheses proven, the rule pairs checked, the looks at the budget. */
function offered(file: string, offer: Offer): { proven: Set<string>; pairs: number; looks: number } {
  const { loaded, ground } = runGrounding(readFileSync(join(EXAMPLES_DIR, file), 'utf8'), file, defaultPipelineOptions(), new StageTimer());
  const view = mutexView(ground);
  const hyps = hypotheses(view);
  const names = hyps.map((h) => `${h.relation} [${h.input.join(',')}]`);
  const offers: readonly KeyOffer[] = offer.partial === undefined ? [] : 'hypothesis' in offer.partial ? [offer.partial] : offer.partial;
  const partial = hyps.map((h, i) => {
    const p = offers.find((o) => o.hypothesis === names[i]);
    if (p === undefined) return undefined;
    const members = h.groups.find((g) => h.input.every((at, k) => view.fluents[g[0]!]!.args[at] === p.key[k]))!;
    return [{ key: p.key.map((name) => ({ kind: 'const' as const, name, pos: NO_POS })), members }];
  });
  let looks = 0;
  const flag = { get aborted(): boolean { return ++looks > (offer.looks ?? Infinity); } };
  const limits = { deadline: new Deadline(Infinity, Infinity, flag), maxPairs: 1e6, fluents: fluentArgs(ground), implications: offer.implications ?? [] };
  const r = proveLifted(loaded.normal, view, hyps, names.map((n) => offer.everyKey.includes(n)), limits, partial);
  return { proven: new Set(names.filter((_, i) => r.proven[i])), pairs: r.pairs, looks };
}

/** A piece wp moving on blank squares; with `copy`, a move that puts a second wp down. */
function pieceGame(copy: boolean): string {
  return `
(role r)
(init (at 1 wp)) (init (at 2 b)) (init (at 3 b))
(<= (legal r (go ?x ?y)) (true (at ?x wp)) (true (at ?y b)))
(<= (next (at ?y wp)) (does r (go ?x ?y)))
(<= (next (at ?x b)) (does r (go ?x ?y)))
(<= (next (at ?z ?p)) (true (at ?z ?p)) (does r (go ?x ?y)) (distinct ?z ?x) (distinct ?z ?y))
${copy ? '(<= (legal r (copy ?y)) (true (at ?y b))) (<= (next (at ?y wp)) (does r (copy ?y))) (<= (next (at ?z ?p)) (true (at ?z ?p)) (does r (copy ?y)) (distinct ?z ?y))' : ''}
(<= terminal (true (at 3 wp)))
(<= (goal r 100) (true (at 3 wp)))
`;
}

describe('lifted mutex proofs', () => {
  it('a hypothesis with a false group is proven for the keys of its true ones (the piece, not the blanks)', () => {
    expect(liftedForKey(pieceGame(false), 'at/2 [1]', 'wp')).toBe(true);
    // Where a move can put a second wp down, the claim for wp is false and not proven.
    expect(liftedForKey(pieceGame(true), 'at/2 [1]', 'wp')).toBe(false);
    // The blanks' group is false in both: never proven.
    expect(liftedForKey(pieceGame(false), 'at/2 [1]', 'b')).toBe(false);
  });

  it('tic-tac-toe: cell by square and control are proven on the rules with variables', () => {
    const r = lifted(readFileSync(join(EXAMPLES_DIR, 'tictactoe.kif'), 'utf8'));
    expect(r.get('cell/3 [0,1]')).toBe(true);
    expect(r.get('control/1 []')).toBe(true);
    // False hypotheses: a row holds several marks, a mark several squares.
    expect(r.get('cell/3 [0]')).toBe(false);
    expect(r.get('cell/3 [2]')).toBe(false);
  });

  it('a step counter through a static successor relation: proven when it is functional, not when a number has two successors', () => {
    const game = (extra: string): string => `
(role r)
(init (step 1))
(<= (legal r tick) (true (step ?n)))
(<= (next (step ?m)) (true (step ?n)) (succ ?n ?m))
(succ 1 2) (succ 2 3) (succ 3 4) ${extra}
(<= terminal (true (step 4)))
(<= (goal r 100) (true (step 4)))
`;
    expect(lifted(game('')).get('step/1 []')).toBe(true);
    // (succ 1 3) too: from step 1 both 2 and 3 hold next.
    expect(lifted(game('(succ 1 3)')).get('step/1 []')).toBe(false);
  });

  it('two next rules that fire together for one key: not proven (the group is false)', () => {
    // From the initial state both (p a) and (p b) hold next.
    expect(lifted(FALSE_GROUP).get('p/1 []')).toBe(false);
  });

  it('does of two roles in one step: not proven without a legal rule that separates them', () => {
    const game = `
(role x) (role y)
(init (c b))
(<= (legal x m) (true (c b)))
(<= (legal y m) (true (c b)))
(<= (next (c x)) (does x m))
(<= (next (c y)) (does y m))
(<= terminal (not (true (c b))))
(<= (goal x 100) (true (c x)))
(<= (goal y 100) (true (c y)))
`;
    expect(lifted(game).get('c/1 []')).toBe(false);
  });

  it('the same game where control separates the roles: proven', () => {
    const game = `
(role x) (role y)
(init (c b)) (init (turn x))
(<= (legal x m) (true (c b)) (true (turn x)))
(<= (legal y m) (true (c b)) (true (turn y)))
(<= (legal x n) (true (turn y)))
(<= (legal y n) (true (turn x)))
(<= (next (turn y)) (true (turn x)))
(<= (next (turn x)) (true (turn y)))
(<= (next (c x)) (does x m))
(<= (next (c y)) (does y m))
(<= terminal (not (true (c b))))
(<= (goal x 100) (true (c x)))
(<= (goal y 100) (true (c y)))
`;
    const r = lifted(game);
    expect(r.get('turn/1 []')).toBe(true);
    expect(r.get('c/1 []')).toBe(true);
  });

  it('findMutexGroups counts groups proven lifted, and without the normal game none', () => {
    const text = readFileSync(join(EXAMPLES_DIR, 'tictactoe.kif'), 'utf8');
    const { loaded, ground } = runGrounding(text, 'tictactoe.kif', defaultPipelineOptions(), new StageTimer());
    const states = sampleStates(ground, { playouts: 20, seed: 3, maxSteps: 200, deadline: Deadline.never() });
    const options = { ...DEFAULT_MUTEX_OPTIONS, deadline: Deadline.never() };
    const withLifted = findMutexGroups(ground, states, { ...options, lifted: loaded.normal });
    const without = findMutexGroups(ground, states, options);
    expect(withLifted.stats.provenLifted).toBe(10);
    expect(without.stats.provenLifted).toBe(0);
    // The same groups; only how they were proven differs.
    const plain = (r: typeof without): unknown[] => r.groups.map(({ proof: _proof, ...g }) => g);
    expect(plain(withLifted)).toEqual(plain(without));
    expect(withLifted.groups.every((g) => g.proof === 'lifted')).toBe(true);
    expect(without.groups.every((g) => g.proof === 'ground')).toBe(true);
    expect(withLifted.stats.satQueries).toBeLessThan(without.stats.satQueries);
  });
});

describe('keys of a partial claim implied by a smaller claim (lifted.ts keysNotImplied)', () => {
  const small = { hypothesis: 'cell/3 [2]', key: ['a'] };
  const large = { hypothesis: 'cell/3 [0,2]', key: ['1', 'a'] };

  it('a key implied by a smaller claim assumed with it is not checked: the claim costs its turn in the induction only', () => {
    // games/mutex-implied-keys.kif: one a on the board, so both claims hold.
    const file = 'mutex-implied-keys.kif';
    const alone = offered(file, { everyKey: [], partial: small });
    const both = offered(file, { everyKey: [], partial: [large, small] });
    expect(both.proven).toEqual(new Set(['cell/3 [2]', 'cell/3 [0,2]']));
    // Offered with the smaller claim, the larger one (checked first: larger input) adds one look at
    // the budget, the one before its check, and no rule pair. Checked on its key it would add what
    // it costs alone (its pair's case analysis looks too).
    expect(both.looks).toBe(alone.looks + 1);
    expect(offered(file, { everyKey: [], partial: large }).looks).toBeGreaterThan(1);
  });

  it('a claim that leaned on a smaller one that then fails is checked again on its keys: not proven where false', () => {
    // games/mutex-implied-keys-leave.kif: a second a on (1 2), so both claims are false.
    const file = 'mutex-implied-keys-leave.kif';
    expect(offered(file, { everyKey: [], partial: [large, small] }).proven).toEqual(new Set());
    // Alone, each fails too.
    expect(offered(file, { everyKey: [], partial: large }).proven).toEqual(new Set());
  });

  it('a smaller claim for another key implies nothing of this one: the key is checked, not proven where false', () => {
    // games/mutex-implied-keys-leave.kif: b stays on (2 2), so cell [2] for b holds and stays.
    const file = 'mutex-implied-keys-leave.kif';
    const b = { hypothesis: 'cell/3 [2]', key: ['b'] };
    expect(offered(file, { everyKey: [], partial: [large, b] }).proven).toEqual(new Set(['cell/3 [2]']));
  });
});

describe('the order and the passes of the lifted induction (lifted.ts)', () => {
  it('an every-key claim that failed in the first induction is checked first in the whole one: the partial claim that would lean on it is checked once', () => {
    // games/mutex-failed-first.kif: p [0] is false; q [0] for key a follows from it.
    const file = 'mutex-failed-first.kif';
    const p = offered(file, { everyKey: ['p/2 [0]'] });
    const q = offered(file, { everyKey: [], partial: { hypothesis: 'q/2 [0]', key: ['a'] } });
    const both = offered(file, { everyKey: ['p/2 [0]'], partial: { hypothesis: 'q/2 [0]', key: ['a'] } });
    expect(both.proven).toEqual(new Set());
    // p is checked in the first induction and again (first) in the whole one, q once after it.
    // q first (fewer rules) would pass leaning on p and be checked again when p fails: 2p + 2q.
    expect(both.pairs).toBe(2 * p.pairs + q.pairs);
  });

  it('an every-key claim that needs the implications is proven in a pass of its own, kept when the budget stops the whole induction', () => {
    // games/mutex-extra-pass.kif: connected [1,2] needs connected => cell; cell [0,1] on (a 1) is the partial claim.
    const file = 'mutex-extra-pass.kif';
    const connected = 'connected/3 [1,2]';
    const cell = 'cell/3 [0,1]';
    const everyKey = ['control/1 []', 'step/1 []', 'owner/2 [0]', connected];
    const implications = [{ from: 'connected/3', to: 'cell/3', map: [1, 2, undefined] }];
    const partial = { hypothesis: cell, key: ['a', '1'] };
    expect(offered(file, { everyKey, partial }).proven.has(connected)).toBe(false);
    const whole = offered(file, { everyKey, partial, implications });
    expect([whole.proven.has(connected), whole.proven.has(cell)]).toEqual([true, true]);
    // One look short: the budget stops the whole induction at its end, before the partial claim
    // is settled. connected was proven in the extra pass and is kept; checked only in the whole
    // induction (with the implications assumed), a stop there would lose it.
    const stopped = offered(file, { everyKey, partial, implications, looks: whole.looks - 1 });
    expect([stopped.proven.has(connected), stopped.proven.has(cell)]).toEqual([true, false]);
  });
});
