// Move complements (src/play/fast/complement.ts, docs/play.md "Specialized nets"): frame rules
// that list most moves of a role become one rule on the role's other moves, negated. The pass
// must take effect where it should and keep the game: the fast simulator with it is held
// against the simulator of `verify` on a small game and on pegEuro, whose frame it rewrites.
import { describe, expect, it } from 'vitest';
import { defaultPipelineOptions, runGrounding } from '../src/pipeline/stages.js';
import { createFastSimulator } from '../src/play/fast/simulator.js';
import { complementMoves } from '../src/play/fast/complement.js';
import { createGroundSimulator, fluentsOf } from '../src/play/ground-sim.js';
import { controlCycle, simplifyRules } from '../src/play/fast/specialize.js';
import { verifyGame } from '../src/play/verify.js';
import { HAVE_CORPUS, readGame } from './corpus.js';
import { StageTimer } from '../src/timer.js';
import { Deadline } from '../src/deadline.js';

/**
 * Two roles, five lamps: a moves (flip ?l) or (wait); a lamp stays as it is unless a flips it
 * (a frame over five of a's six moves), and b's (tick ?n) moves all keep the counter's lamp.
 */
const GAME = `
(role a) (role b)
(lamp 1) (lamp 2) (lamp 3) (lamp 4) (lamp 5)
(init (on 1)) (init (on 3)) (init (count 0))
(succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4) (succ 4 5) (succ 5 6) (succ 6 7)
(tick 1) (tick 2) (tick 3) (tick 4)
(<= (legal a (flip ?l)) (lamp ?l))
(legal a wait)
(<= (legal b (tick ?t)) (tick ?t))
(<= (next (on ?l)) (does a (flip ?l)) (not (true (on ?l))))
(<= (next (on ?l)) (true (on ?l)) (does a (flip ?m)) (lamp ?m) (distinct ?l ?m))
(<= (next (on ?l)) (true (on ?l)) (does a wait))
(<= (next (count ?n)) (true (count ?m)) (succ ?m ?n) (does b (tick ?t)))
(<= (next seen) (does b (tick 1)))
(<= terminal (true (count 7)))
(<= (goal a 100) (true (on 1)) (true (on 2)))
(<= (goal a 0) (not (true (on 1))))
(<= (goal a 0) (true (on 1)) (not (true (on 2))))
(goal b 50)
`;

function ground(text: string, file: string): ReturnType<typeof runGrounding>['ground'] {
  return runGrounding(text, file, defaultPipelineOptions(), new StageTimer()).ground;
}

const text = (game: ReturnType<typeof ground>, a: number): string => (a < game.atoms.length ? game.terms.text(game.atoms[a]!.term) : `y${a}`);

describe('move complements', () => {
  const game = ground(GAME, 'complement.kif');

  it('rewrite the frames over most moves of a role, and only those', () => {
    const { rules, added } = complementMoves(game, game.rules, game.atoms.length);
    expect(added).toBeGreaterThan(0);
    const shown = rules.map((r) => `${text(game, r.head)} <= ${r.pos.map((a) => text(game, a)).join(' ')} | ${r.neg.map((a) => text(game, a)).join(' ')}`);
    // (on 1) stays on unless a flips lamp 1: its one other move.
    expect(shown).toContain(`(next (on 1)) <= (true (on 1)) | y${game.atoms.length}`);
    expect(shown.filter((s) => s.startsWith(`y${game.atoms.length} <= `))).toEqual([`y${game.atoms.length} <= (does a (flip 1)) | `]);
    // Every move of b keeps the counter going: its rule no longer reads b's move.
    expect(shown).toContain('(next (count 1)) <= (true (count 0)) | ');
    // A rule on one move alone is left as it is.
    expect(shown).toContain('(next seen) <= (does b (tick 1)) | ');
    expect(rules.some((r) => r.pos.some((a) => text(game, a) === '(does a wait)') && text(game, r.head).startsWith('(next (on'))).toBe(false);
  });

  it('keep the game: same as the simulator of verify', () => {
    const result = verifyGame(createGroundSimulator(game, Deadline.never()), createFastSimulator(game, Deadline.never()), { playouts: 40, seed: 3, maxSteps: 10 });
    if (result.kind !== 'same') expect(result.difference).toBeUndefined();
    const off = createFastSimulator(game, Deadline.never(), { passes: { factor: false } });
    const again = verifyGame(off, createFastSimulator(game, Deadline.never()), { playouts: 40, seed: 4, maxSteps: 10 });
    if (again.kind !== 'same') expect(again.difference).toBeUndefined();
  });

  it.skipIf(!HAVE_CORPUS)('pegEuro: its frame complemented, same as the simulator of verify', () => {
    const rel = 'ggp-repository-base/pegEuro.kif';
    const peg = ground(readGame(rel), rel);
    expect(complementMoves(peg, peg.rules, peg.atoms.length).added).toBeGreaterThan(0);
    const result = verifyGame(createGroundSimulator(peg, Deadline.never()), createFastSimulator(peg, Deadline.never()), { playouts: 5, seed: 9, maxSteps: 40 });
    if (result.kind !== 'same') expect(result.difference).toBeUndefined();
  }, 120_000);
});

describe.skipIf(!HAVE_CORPUS)('never-legal moves in a net per control fluent', () => {
  it('breakthrough: the mover\'s "some move was made" becomes a fact, the other role\'s moves go', () => {
    const rel = 'ggp-repository-base/breakthrough.kif';
    const game = ground(readGame(rel), rel);
    const fluents = fluentsOf(game);
    const control = controlCycle(game, fluents)!;
    const fixed = new Map(control.map((f, i) => [fluents.trueAtom[f]!, i === 0 ? 1 : 0] as [number, 0 | 1]));
    const rules = simplifyRules(game, fixed);
    const isDoesOf = (a: number, role: string): boolean => game.terms.text(game.atoms[a]!.term).startsWith(`(does ${role} (move`);
    const other = game.terms.text(game.atoms[fluents.trueAtom[control[1]!]!]!.args[0]!).match(/\(control (\w+)\)/)![1]!;
    const mover = other === 'white' ? 'black' : 'white';
    expect(rules.some((r) => r.pos.some((a) => isDoesOf(a, other)))).toBe(false);
    const done = complementMoves(game, rules, game.atoms.length).rules;
    expect(done.some((r) => r.pos.some((a) => isDoesOf(a, mover)) && game.terms.text(game.atoms[r.head]!.term).startsWith('(split-2'))).toBe(false);
    const result = verifyGame(createGroundSimulator(game, Deadline.never()), createFastSimulator(game, Deadline.never()), { playouts: 3, seed: 11, maxSteps: 80 });
    if (result.kind !== 'same') expect(result.difference).toBeUndefined();
  }, 120_000);
});
