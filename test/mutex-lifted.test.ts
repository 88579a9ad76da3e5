// Lifted "at most one" proofs (src/mutex/lifted.ts, docs/mutex.md section 2a): proven on the
// rules with variables where the rule pairs conflict, never where two next rules can both fire
// for one key (every hypothesis is offered as a candidate here, so sampling does not hide it).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Deadline } from '../src/deadline.js';
import { NO_POS } from '../src/gdl/ast.js';
import { hypotheses } from '../src/mutex/candidates.js';
import { DEFAULT_MUTEX_OPTIONS, findMutexGroups } from '../src/mutex/index.js';
import { proveLifted } from '../src/mutex/lifted.js';
import { mutexView } from '../src/mutex/view.js';
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
