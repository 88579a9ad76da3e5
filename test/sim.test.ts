// The ground simulator on hand-made ground games (negation, positive cycles among ground
// atoms, does-dependent axioms) and the seeded random generator.
import { describe, expect, it } from 'vitest';
import { GdlError } from '../src/gdl/diagnostics.js';
import { type GroundSimulator, type GroundState, createGroundSimulator } from '../src/play/ground-sim.js';
import { createRandom } from '../src/play/random.js';
import { type RuleTexts, handMadeGame } from './support/ground-game.js';
import { Deadline } from '../src/deadline.js';

const groundGame = (roles: string[], init: string[], rules: RuleTexts[]) => handMadeGame(roles, init, rules);

/** The moves of role 0 legal in `state`, by text. */
function movesByText(sim: GroundSimulator, state: GroundState): Map<string, number> {
  return new Map(sim.info(state).legal[0]!.map((m) => [sim.text.move(m), m]));
}

/** The move of role 0 with text `text` legal in `state`. */
function move(sim: GroundSimulator, state: GroundState, text: string): number {
  const m = movesByText(sim, state).get(text);
  if (m === undefined) throw new Error(`no legal move ${text}`);
  return m;
}

describe('ground simulator', () => {
  // A path over a ring a -> b -> c -> a, with edges as fluents: reach is a positive cycle.
  const ring = groundGame(['r'], ['(edge a b)', '(edge b c)', '(edge c a)', '(at a)'], [
    ['(reach a)', ['(true (at a))'], []],
    ['(reach b)', ['(reach a)', '(true (edge a b))'], []],
    ['(reach c)', ['(reach b)', '(true (edge b c))'], []],
    ['(reach a)', ['(reach c)', '(true (edge c a))'], []],
    ['(legal r (cut a b))', ['(true (edge a b))'], []],
    ['(legal r (cut b c))', ['(true (edge b c))'], []],
    ['(legal r wait)', [], []],
    ['(next (edge a b))', ['(true (edge a b))'], ['(does r (cut a b))']],
    ['(next (edge b c))', ['(true (edge b c))'], ['(does r (cut b c))']],
    ['(next (edge c a))', ['(true (edge c a))'], []],
    ['(next (at a))', ['(true (at a))'], []],
    ['terminal', [], ['(reach c)']],
    ['(goal r 100)', ['(reach c)'], []],
    ['(goal r 0)', [], ['(reach c)']],
  ]);

  it('evaluates positive cycles to their least fixpoint and negation after it', () => {
    const sim = createGroundSimulator(ring, Deadline.never());
    const s0 = sim.initialState();
    expect(sim.text.state(s0)).toEqual(['(at a)', '(edge a b)', '(edge b c)', '(edge c a)']);
    const info = sim.info(s0);
    expect(info.legal[0]!.map(sim.text.move)).toEqual(['(cut a b)', '(cut b c)', 'wait']);
    expect(info.terminal).toBe(false);
    expect(info.goals.map((vs) => vs.map(sim.text.value))).toEqual([['100']]);
    // Without (at a) nothing is reachable although the cycle's edges all hold.
    const s1 = sim.successor(s0, [move(sim, s0, 'wait')]);
    expect(sim.text.state(s1)).toEqual(sim.text.state(s0));
    // Fluents are numbered in text order, so (at a) is bit 0.
    const noAt = s1.map((w, i) => (i === 0 ? w & ~1 : w));
    expect(sim.text.state(noAt)).toEqual(['(edge a b)', '(edge b c)', '(edge c a)']);
    const cut = sim.info(noAt);
    expect(cut.terminal).toBe(true);
    expect(cut.goals.map((vs) => vs.map(sim.text.value))).toEqual([['0']]);
  });

  it('applies the joint move to does-dependent rules only, and forgets the previous move', () => {
    const sim = createGroundSimulator(ring, Deadline.never());
    const s0 = sim.initialState();
    const s1 = sim.successor(s0, [move(sim, s0, '(cut b c)')]);
    expect(sim.text.state(s1)).toEqual(['(at a)', '(edge a b)', '(edge c a)']);
    expect(sim.info(s1).terminal).toBe(true);
    // Same state object again, another move: the old (does r (cut b c)) must not linger.
    expect(sim.text.state(sim.successor(s0, [move(sim, s0, 'wait')]))).toEqual(sim.text.state(s0));
    expect(sim.text.state(sim.successor(s0, [move(sim, s0, '(cut a b)')]))).toEqual(['(at a)', '(edge b c)', '(edge c a)']);
  });

  it('plays a legal move no rule reads (no does atom) and keeps fluents only next makes', () => {
    const sim = createGroundSimulator(
      groundGame(['r'], ['(n 0)'], [
        ['(legal r idle)', [], []],
        ['(legal r (go 1))', ['(true (n 0))'], []],
        ['(next (n 1))', ['(does r (go 1))'], []],
        ['(next (seen 0))', ['(true (n 0))'], []],
        ['terminal', ['(true (n 1))'], []],
      ]),
      Deadline.never(),
    );
    const s0 = sim.initialState();
    const idle = sim.successor(s0, [move(sim, s0, 'idle')]);
    expect(sim.text.state(idle)).toEqual(['(seen 0)']);
    expect(sim.info(idle).legal[0]!.map(sim.text.move)).toEqual(['idle']);
    const go = sim.successor(s0, [move(sim, s0, '(go 1)')]);
    expect(sim.text.state(go)).toEqual(['(n 1)', '(seen 0)']);
    expect(sim.info(go).terminal).toBe(true);
  });

  it('evaluates the rules both roles\' moves trigger in dependency order', () => {
    const sim = createGroundSimulator(
      groundGame(['a', 'b'], ['s'], [
        ['(legal a y)', [], []],
        ['(legal a z)', [], []],
        ['(legal b x)', [], []],
        ['(next (p 1))', ['(does b x)'], []],
        ['(next (p 2))', ['(does a y)'], []],
        ['(next (p 3))', ['(does b x)', '(true s)'], []],
        // q is derived from a's move; (p 4) needs it and b's move, (p 5) needs it not to hold.
        ['q', ['(does a y)'], []],
        ['(next (p 4))', ['(does b x)', 'q'], []],
        ['(next (p 5))', ['(does b x)'], ['q']],
        // And the other way round: r is derived from b's move, (p 0) needs it and a's move.
        ['r', ['(does b x)'], []],
        ['(next (p 0))', ['(does a y)', 'r'], []],
      ]),
      Deadline.never(),
    );
    const s0 = sim.initialState();
    const [moveA, moveB] = sim.info(s0).legal;
    const pick = (ms: readonly number[], text: string): number => ms.find((m) => sim.text.move(m) === text)!;
    expect(sim.text.state(sim.successor(s0, [pick(moveA!, 'y'), pick(moveB!, 'x')]))).toEqual(['(p 0)', '(p 1)', '(p 2)', '(p 3)', '(p 4)']);
    expect(sim.text.state(sim.successor(s0, [pick(moveA!, 'z'), pick(moveB!, 'x')]))).toEqual(['(p 1)', '(p 3)', '(p 5)']);
  });

  it('refuses a ground game with negation inside a cycle', () => {
    const bad = groundGame(['r'], [], [
      ['p', ['q'], []],
      ['q', [], ['p']],
    ]);
    expect(() => createGroundSimulator(bad, Deadline.never())).toThrow(GdlError);
  });

  it('evaluates a long chain of ground atoms without recursion', () => {
    const n = 50_000;
    const rules: [string, string[], string[]][] = [['(c 0)', ['(true s)'], []]];
    for (let i = 1; i < n; i++) rules.push([`(c ${i})`, [`(c ${i - 1})`], []]);
    rules.push(['terminal', [`(c ${n - 1})`], []]);
    const sim = createGroundSimulator(groundGame(['r'], ['s'], rules), Deadline.never());
    expect(sim.info(sim.initialState()).terminal).toBe(true);
  });
});

describe('seeded random generator', () => {
  it('replays the same sequence for the same seed and stays below the bound', () => {
    const a = createRandom(42);
    const b = createRandom(42);
    const xs = Array.from({ length: 1000 }, () => a.below(7));
    expect(xs).toEqual(Array.from({ length: 1000 }, () => b.below(7)));
    expect(new Set(xs)).toEqual(new Set([0, 1, 2, 3, 4, 5, 6]));
    const c = createRandom(43);
    expect(Array.from({ length: 1000 }, () => c.below(7))).not.toEqual(xs);
  });
});
