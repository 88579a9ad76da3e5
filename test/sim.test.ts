// The ground simulator on hand-made ground games (negation, positive cycles among ground
// atoms, does-dependent axioms) and the seeded random generator.
import { describe, expect, it } from 'vitest';
import { parseGdl } from '../src/gdl/parser.js';
import { GdlError } from '../src/gdl/diagnostics.js';
import type { GroundAtom, GroundGame } from '../src/ground/types.js';
import { createGroundSimulator } from '../src/sim/ground-sim.js';
import { createRandom } from '../src/sim/random.js';
import type { GameState, GroundItem } from '../src/sim/types.js';

/** Builds a ground game from rules written as [head, positive body, negative body] texts. */
function groundGame(roles: string[], init: string[], rules: [string, string[], string[]][]): GroundGame {
  const texts = new Set<string>([...init.map((f) => `(true ${f})`)]);
  for (const [h, p, n] of rules) for (const t of [h, ...p, ...n]) texts.add(t);
  const sorted = [...texts].sort();
  const atoms: GroundAtom[] = sorted.map((text) => {
    const head = parseGdl(text).game.rules[0]!.head;
    return { text, rel: head.rel, args: head.args };
  });
  const ids = new Map(sorted.map((t, i) => [t, i]));
  const id = (t: string): number => ids.get(t)!;
  return {
    file: 'hand-made',
    roles: roles.map((r) => ({ kind: 'const', name: r, pos: { line: 0, col: 0 } })),
    atoms,
    init: init.map((f) => id(`(true ${f})`)),
    rules: rules.map(([h, p, n]) => ({ head: id(h), pos: p.map(id), neg: n.map(id) })),
  };
}

const texts = (items: readonly GroundItem[]): string[] => items.map((i) => i.text);
const item = (text: string): GroundItem => ({ text, term: parseGdl(`(x ${text})`).game.rules[0]!.head.args[0]! });
const stateOf = (...fluents: string[]): GameState => fluents.sort().map(item);

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
    const sim = createGroundSimulator(ring);
    const s0 = sim.initialState();
    expect(texts(s0)).toEqual(['(at a)', '(edge a b)', '(edge b c)', '(edge c a)']);
    const info = sim.info(s0);
    expect(texts(info.legal[0]!)).toEqual(['(cut a b)', '(cut b c)', 'wait']);
    expect(info.terminal).toBe(false);
    expect(info.goals).toEqual([['100']]);
    // Without (at a) nothing is reachable although the cycle's edges all hold.
    const cut = sim.info(stateOf('(edge a b)', '(edge b c)', '(edge c a)'));
    expect(cut.terminal).toBe(true);
    expect(cut.goals).toEqual([['0']]);
  });

  it('applies the joint move to does-dependent rules only, and forgets the previous move', () => {
    const sim = createGroundSimulator(ring);
    const s0 = sim.initialState();
    const s1 = sim.successor(s0, [item('(cut b c)')]);
    expect(texts(s1)).toEqual(['(at a)', '(edge a b)', '(edge c a)']);
    expect(sim.info(s1).terminal).toBe(true);
    // Same state object again, another move: the old (does r (cut b c)) must not linger.
    expect(texts(sim.successor(s0, [item('wait')]))).toEqual(texts(s0));
    expect(texts(sim.successor(s0, [item('(cut a b)')]))).toEqual(['(at a)', '(edge b c)', '(edge c a)']);
  });

  it('ignores moves and fluents the ground game has no atom for', () => {
    const sim = createGroundSimulator(ring);
    const s = stateOf('(at a)', '(edge a b)', '(edge b c)', '(edge c a)', '(unused 1)');
    expect(texts(sim.successor(s, [item('(jump 3)')]))).toEqual(['(at a)', '(edge a b)', '(edge b c)', '(edge c a)']);
  });

  it('refuses a ground game with negation inside a cycle', () => {
    const bad = groundGame(['r'], [], [
      ['p', ['q'], []],
      ['q', [], ['p']],
    ]);
    expect(() => createGroundSimulator(bad)).toThrow(GdlError);
  });

  it('evaluates a long chain of ground atoms without recursion', () => {
    const n = 50_000;
    const rules: [string, string[], string[]][] = [['(c 0)', ['(true s)'], []]];
    for (let i = 1; i < n; i++) rules.push([`(c ${i})`, [`(c ${i - 1})`], []]);
    rules.push(['terminal', [`(c ${n - 1})`], []]);
    const sim = createGroundSimulator(groundGame(['r'], ['s'], rules));
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
