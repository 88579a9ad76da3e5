// The fast simulator's net optimization passes (src/play/fast/specialize.ts, goals.ts,
// factor.ts; docs/play.md "Specialized nets"): each must keep the game. The simulator with its
// passes on is held against the simulator of `verify` and against itself with the passes off,
// on a small game made to exercise all of them and on corpus games where each is in effect.
import { describe, expect, it } from 'vitest';
import { defaultPipelineOptions, runGrounding } from '../src/pipeline/stages.js';
import { createFastSimulator } from '../src/play/fast/simulator.js';
import { controlCycle, simplifyRules } from '../src/play/fast/specialize.js';
import { factorRules } from '../src/play/fast/factor.js';
import { fluentsOf, createGroundSimulator } from '../src/play/ground-sim.js';
import { verifyGame } from '../src/play/verify.js';
import { HAVE_CORPUS, readGame } from './corpus.js';
import { StageTimer } from '../src/timer.js';
import { Deadline } from '../src/deadline.js';

/** Turn-taking marks with a step counter, a tally whose rules share the step literal, goals read by nothing else. */
const GAME = `
(role a) (role b)
(init (control a)) (init (step 1))
(succ 1 2) (succ 2 3) (succ 3 4) (succ 4 5) (succ 5 6)
(pos 1) (pos 2) (pos 3) (pos 4)
(<= (legal ?r (mark ?p)) (true (control ?r)) (pos ?p) (not (true (marked ?p))))
(<= (legal a noop) (true (control b)))
(<= (legal b noop) (true (control a)))
(<= (next (marked ?p)) (does ?r (mark ?p)))
(<= (next (marked ?p)) (true (marked ?p)))
(<= (next (owner ?p ?r)) (does ?r (mark ?p)))
(<= (next (owner ?p ?r)) (true (owner ?p ?r)))
(<= (next (control a)) (true (control b)))
(<= (next (control b)) (true (control a)))
(<= (next (step ?n)) (true (step ?m)) (succ ?m ?n))
(<= (next (tally ?k)) (true (step ?k)) (true (marked ?p)))
(<= (next (tally ?k)) (true (tally ?k)))
(<= open (pos ?p) (not (true (marked ?p))))
(<= terminal (true (step 6)))
(<= terminal (not open))
(<= (wins a) (true (owner 1 a)) (true (owner 2 a)))
(<= (wins b) (true (owner 3 b)))
(<= (goal ?r 100) (wins ?r))
(<= (goal ?r 0) (role ?r) (not (wins ?r)))
`;

const OFF = { passes: { constants: false, control: false, goals: false, factor: false, frames: false } };

function ground(text: string, file: string): ReturnType<typeof runGrounding>['ground'] {
  return runGrounding(text, file, defaultPipelineOptions(), new StageTimer()).ground;
}

describe('net optimization passes on a small game', () => {
  const game = ground(GAME, 'passes.kif');

  it('all take effect: a net per control fluent, goals on demand, a factored tally', () => {
    const nets = createFastSimulator(game, Deadline.never()).nets();
    expect(nets.control).toEqual(['(control a)', '(control b)']);
    expect(nets.goalsOnDemand).toBe(true);
    expect(nets.factoredAtoms).toBeGreaterThan(0);
    expect(createFastSimulator(game, Deadline.never(), OFF).nets()).toEqual({ control: [], goalsOnDemand: false, factoredAtoms: 0, framedFluents: 0 });
  });

  it('keep the game: same as the simulator of verify and as the fast one without passes', () => {
    const fast = createFastSimulator(game, Deadline.never());
    const same = (other: Parameters<typeof verifyGame>[1]): void => {
      const result = verifyGame(other, createFastSimulator(game, Deadline.never()), { playouts: 40, seed: 7, maxSteps: 20 });
      if (result.kind !== 'same') expect(result.difference).toBeUndefined();
    };
    same(createGroundSimulator(game, Deadline.never()));
    same(createFastSimulator(game, Deadline.never(), OFF));
    // Goals come from the goal part: a won state reads 100 for a.
    const s0 = fast.initialState();
    const legalA = (s: Uint32Array): number => fast.info(s).legal[0]!.find((m) => fast.text.move(m) === '(mark 1)' || fast.text.move(m) === '(mark 2)')!;
    const noop = (s: Uint32Array, r: number): number => fast.info(s).legal[r]![0]!;
    const s1 = fast.successor(s0, [legalA(s0), noop(s0, 1)]);
    const s2 = fast.successor(s1, [noop(s1, 0), fast.info(s1).legal[1]!.find((m) => fast.text.move(m) === '(mark 4)')!]);
    const s3 = fast.successor(s2, [legalA(s2), noop(s2, 1)]);
    expect(fast.info(s3).goals[0]!.map((v) => fast.text.value(v))).toEqual(['100']);
    expect(fast.info(s2).goals[0]!.map((v) => fast.text.value(v))).toEqual(['0']);
  });

  it('the control cycle is refused when a control fluent has another next rule', () => {
    const fluents = fluentsOf(game);
    expect(controlCycle(game, fluents)?.length).toBe(2);
    const broken = ground(`${GAME}\n(<= (next (control a)) (true (marked 1)))`, 'broken.kif');
    expect(controlCycle(broken, fluentsOf(broken))).toBeUndefined();
  });

  it('constants: a rule on a false fixed atom goes, a true fixed literal is dropped', () => {
    const fluents = fluentsOf(game);
    const control = controlCycle(game, fluents)!;
    const [ca, cb] = control.map((f) => fluents.trueAtom[f]!);
    const rules = simplifyRules(game, new Map([[ca!, 1], [cb!, 0]]));
    const reads = (a: number): boolean => rules.some((r) => r.pos.includes(a) || r.neg.includes(a));
    expect(reads(ca!) || reads(cb!)).toBe(false);
    expect(rules.length).toBeLessThan(game.rules.length);
  });

  it('factoring: the step literal is read once per tally head', () => {
    const { rules, atoms } = factorRules(game, game.rules);
    expect(atoms.length).toBeGreaterThan(game.atoms.length);
    const stepReaders = (rs: readonly (typeof rules)[number][]): number => rs.filter((r) => r.pos.some((a) => game.terms.text(game.atoms[a]?.term ?? -1).startsWith('(true (step'))).length;
    expect(stepReaders(rules)).toBeLessThan(stepReaders(game.rules));
  });
});

describe.skipIf(!HAVE_CORPUS)('net optimization passes on corpus games', () => {
  const cases: { rel: string; expect: (n: ReturnType<ReturnType<typeof createFastSimulator>['nets']>) => void }[] = [
    { rel: 'ggp-repository-base/breakthrough.kif', expect: (n) => expect(n.control.length).toBe(2) },
    { rel: 'ggp-repository-base/reversi.kif', expect: (n) => expect(n.goalsOnDemand).toBe(true) },
    { rel: 'ggp-repository-base/pancakes6.kif', expect: () => undefined },
  ];
  for (const c of cases) {
    it(`${c.rel}: passes in effect, same as the simulator of verify`, () => {
      const game = ground(readGame(c.rel), c.rel);
      const fast = createFastSimulator(game, Deadline.never());
      c.expect(fast.nets());
      const result = verifyGame(createGroundSimulator(game, Deadline.never()), fast, { playouts: 3, seed: 5, maxSteps: 80 });
      if (result.kind !== 'same') expect(result.difference).toBeUndefined();
    }, 120_000);
  }
});

/**
 * hex's shape in small: a move next to a cell the mover owns scores (every other cell is next), the mover's `bonus` fluent
 * shared by every rule of the head, each with a does literal. Factoring takes the shared
 * does-free literal out of the rules with a does literal (one reader instead of one per rule),
 * and goes no deeper: the rests keep their does literal.
 */
const SCORING = `
(role a) (role b)
(init (control a)) (init (bonus a)) (init (bonus b))
(pos 1) (pos 2) (pos 3) (pos 4) (pos 5)
(<= (adj ?p ?q) (pos ?p) (pos ?q) (distinct ?p ?q))
(<= (legal ?r (mark ?p)) (true (control ?r)) (pos ?p) (not (true (marked ?p))))
(<= (legal a noop) (true (control b)))
(<= (legal b noop) (true (control a)))
(<= (next (marked ?p)) (does ?r (mark ?p)))
(<= (next (marked ?p)) (true (marked ?p)))
(<= (next (owner ?p ?r)) (does ?r (mark ?p)))
(<= (next (owner ?p ?r)) (true (owner ?p ?r)))
(<= (next (control a)) (true (control b)))
(<= (next (control b)) (true (control a)))
(<= (next (bonus ?r)) (true (bonus ?r)) (not (scores ?r)))
(<= (scores ?r) (does ?r (mark ?p)) (true (bonus ?r)) (true (owner ?q ?r)) (adj ?p ?q))
(<= (next (score ?r)) (scores ?r))
(<= (next (score ?r)) (true (score ?r)))
(<= open (pos ?p) (not (true (marked ?p))))
(<= terminal (not open))
(<= (goal ?r 100) (true (score ?r)))
(<= (goal ?r 0) (role ?r) (not (true (score ?r))))
`;

describe('factoring rules with a does literal', () => {
  const game = ground(SCORING, 'scoring.kif');
  const does = game.terms.findSymbol('does');
  const text = (a: number): string => game.terms.text(game.atoms[a]?.term ?? -1);
  const bonusA = game.atoms.findIndex((a) => game.terms.text(a.term) === '(true (bonus a))');
  const readers = (rules: readonly { pos: readonly number[]; neg: readonly number[] }[], a: number): number => rules.filter((r) => r.pos.includes(a) || r.neg.includes(a)).length;

  it('takes the shared does-free literal out, one level deep', () => {
    const { rules } = factorRules(game, game.rules);
    expect(bonusA).toBeGreaterThanOrEqual(0);
    expect(readers(game.rules, bonusA)).toBeGreaterThanOrEqual(4);
    expect(readers(rules, bonusA)).toBeLessThan(readers(game.rules, bonusA));
    // Every rule of a new atom made from rules with a does literal keeps its does literal.
    const scores = rules.filter((r) => text(r.head).startsWith('(scores'));
    const made = new Set(scores.flatMap((r) => r.pos.filter((a) => a >= game.atoms.length)));
    expect(made.size).toBeGreaterThan(0);
    for (const x of made) for (const r of rules.filter((q) => q.head === x)) expect(r.pos.some((a) => game.atoms[a]?.rel === does)).toBe(true);
  });

  it('keeps the game: same as the simulator of verify and as the fast one without passes', () => {
    for (const other of [createGroundSimulator(game, Deadline.never()), createFastSimulator(game, Deadline.never(), OFF)]) {
      const result = verifyGame(other, createFastSimulator(game, Deadline.never()), { playouts: 60, seed: 3, maxSteps: 12 });
      if (result.kind !== 'same') expect(result.difference).toBeUndefined();
    }
  });
});
