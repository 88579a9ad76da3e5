// The ground simulator's atom graph read from the compact rules (src/play/ground-graph.ts): its
// components are gdl/scc.ts's over per-atom arrays made from the rule objects, in the same order
// with the members in the same order, so the compiled rules did not change (docs/mutex.md, torus22).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { stronglyConnectedComponents } from '../src/gdl/scc.js';
import { defaultPipelineOptions, runGrounding } from '../src/pipeline/stages.js';
import { atomComponents, atomGraph, dependOnDoesGraph } from '../src/play/ground-graph.js';
import { StageTimer } from '../src/timer.js';
import { keywordSymbols } from '../src/ground/atoms.js';
import type { GroundGame } from '../src/ground/types.js';
import { handMadeGame } from './support/ground-game.js';

/** The components of `game`'s atom graph as lists, and its successor arrays, from the rule objects. */
function reference(game: GroundGame): { comps: number[][]; succ: number[][] } {
  const succ: number[][] = game.atoms.map((): number[] => []);
  for (const r of game.rules) for (const b of [...r.pos, ...r.neg]) succ[b]!.push(r.head);
  return { comps: stronglyConnectedComponents(game.atoms.length, (v) => succ[v]!), succ };
}

/** The atoms that depend on a does atom, by a naive fixpoint over the rule objects (1: does or depends on one). */
function referenceOnDoes(game: GroundGame): number[] {
  const does = keywordSymbols(game.terms).does;
  const on = game.atoms.map((a) => (a.rel === does ? 1 : 0));
  for (let changed = true; changed;) {
    changed = false;
    for (const r of game.rules) if (on[r.head] === 0 && [...r.pos, ...r.neg].some((b) => on[b] === 1)) (on[r.head] = 1), (changed = true);
  }
  return on;
}

/** The components of the flat graph as lists. */
function flat(game: GroundGame): number[][] {
  const c = atomComponents(atomGraph(game, () => {}), () => {});
  return Array.from({ length: c.count }, (_, t) => Array.from(c.atoms.subarray(c.start[t]!, c.start[t + 1]!)));
}

// Two rings (p, q) joined one way, a self-loop (s) and a negation outside the cycles.
const rings = handMadeGame(['r'], ['(e 1)'], [
  ['(p a)', ['(p b)', '(true (e 1))'], []],
  ['(p b)', ['(p a)'], []],
  ['(p a)', ['(true (e 1))'], []],
  ['(q a)', ['(q b)', '(p a)'], []],
  ['(q b)', ['(q a)'], ['(p b)']],
  ['(s)', ['(s)'], []],
  ['(s)', ['(does r go)'], []],
  ['(legal r go)', [], ['(q a)']],
  ['(next (e 1))', ['(s)'], []],
]);

describe('the atom graph from the compact rules', () => {
  it('has the components of scc.ts, in its order, on a hand-made game with cycles', () => {
    const ref = reference(rings);
    expect(flat(rings)).toEqual(ref.comps);
    expect(ref.comps.filter((c) => c.length > 1)).toHaveLength(2);
  });

  it('finds the atoms that depend on a does atom as a naive fixpoint does', () => {
    const g = atomGraph(rings, () => {});
    expect(Array.from(dependOnDoesGraph(g))).toEqual(referenceOnDoes(rings));
    expect(Array.from(dependOnDoesGraph(g)).filter((x) => x === 1)).toHaveLength(3);
  });

  it('has the components of scc.ts on a ground game with recursion (games/linkpath.kif)', () => {
    const game = runGrounding(readFileSync('games/linkpath.kif', 'utf8'), 'linkpath.kif', defaultPipelineOptions(), new StageTimer()).ground;
    expect(flat(game)).toEqual(reference(game).comps);
  });
});
