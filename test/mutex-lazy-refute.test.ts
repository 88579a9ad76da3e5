// The refuters of the mutex stage on a game with lazy axioms (src/pipeline/mutex-explorer.ts: the
// fast simulator, its lazy queries counted; docs/mutex.md, thirty-second session, lazyref32), through
// the pipeline's mutex stage with a sample of the initial state alone: games/mutex-lazy-refute.kif
// with `jammed` lazy. Its groups {(q K)}, {(r K)}, {(s K)} are false only after 4, 6 and 8 moves;
// the searches refute them, and each witness is replayed from the initial state by the reasoner of
// the original game (legal moves, non-terminal states, both members true at the end).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Deadline } from '../src/deadline.js';
import { sampleStates } from '../src/play/sample.js';
import { resolvePipelineOptions } from '../src/pipeline/options.js';
import { groundNormalGame, loadGame, removeUnusedInstances } from '../src/pipeline/stages.js';
import { mutexExplorer } from '../src/pipeline/mutex-explorer.js';
import { StageTimer } from '../src/timer.js';
import { EXAMPLES_DIR } from './corpus.js';
import { mutexFromInitialOnly } from './support/lazy-mutex.js';
import { expectWitnessesReplay } from './support/witness.js';

const NAME = 'mutex-lazy-refute.kif';

/** `name` of games/ ground with the relations `lazy` made lazy. */
function groundWith(name: string, lazy: string[]) {
  const options = resolvePipelineOptions({ lazyRelations: lazy });
  const loaded = loadGame(readFileSync(join(EXAMPLES_DIR, name), 'utf8'), name, options, new StageTimer());
  return removeUnusedInstances(groundNormalGame(loaded.normal, options, new StageTimer()).ground, new StageTimer(), options).game;
}

describe('false groups of a lazy-axiom game refuted on the fast simulator', () => {
  const { ground, result, reasoner } = mutexFromInitialOnly(NAME, ['jammed']);

  it('refutes q, r and s, which a sample of the initial state leaves', () => {
    expect(ground.lazy).toBeDefined();
    expect(result.stats.sampledStates).toBe(1);
    expect(result.groups.map((g) => g.relation)).toEqual(['step']);
    expect(result.stats.search?.refuted).toBe(3);
    expect(result.stats.failures).toEqual([]);
    expect(result.stats.search!.witnesses.map((w) => [w.members[0]!.slice(1, 2), w.moves.length])).toEqual([['q', 4], ['r', 6], ['s', 8]]);
  });

  it('every witness replays from the initial state in the original game', () => {
    expectWitnessesReplay(reasoner, result.stats.search!.witnesses);
  });

  it("the explorer counts the lazy part's queries as work, the same on every run", () => {
    const play = () => {
      const explorer = mutexExplorer(ground, Deadline.never(), 1);
      expect(explorer.work!()).toBe(0);
      const { terms } = ground;
      const init = explorer.state([terms.find(terms.findSymbol('step'), [terms.find(terms.findSymbol('1'))])])!;
      const legal = explorer.legal(init)!;
      expect(legal[0]!.length).toBe(32);
      const after = explorer.work!();
      explorer.successor(init, [legal[0]![0]!]);
      return [after, explorer.work!()];
    };
    const [legalWork, successorWork] = play();
    // Each of the 8 keys' `jammed` asked: work beyond the ground rules.
    expect(legalWork).toBeGreaterThan(0);
    expect(successorWork).toBeGreaterThanOrEqual(legalWork!);
    expect(play()).toEqual([legalWork, successorWork]);
  });

  it('seeds made whole when the lazy part reads a fluent the mutex states leave out (mutex-lazy-unviewed: `flag`)', () => {
    const unviewed = groundWith('mutex-lazy-unviewed.kif', ['blocked']);
    expect(unviewed.lazy).toBeDefined();
    expect(unviewed.vocabulary.fluents.filter((f) => f.trueId < 0).map((f) => unviewed.terms.text(f.term))).toEqual(['flag']);
    const { terms } = unviewed;
    const text = (ids: readonly number[]) => ids.map((t) => terms.text(t)).sort();
    // The sampled states keep `flag`, which the lazy part reads.
    const sampled = sampleStates(unviewed, { playouts: 8, seed: 1, maxSteps: 3, deadline: Deadline.never(), readOnly: true });
    const flagged = sampled.find((s) => text(s).includes('flag'));
    expect(flagged).toBeDefined();
    // Seeded from the stage's view of that state (its `step` alone), the explorer plays the whole
    // one: `blocked` holds, so `go` is not legal there (`wait` alone).
    const viewed = new Set(unviewed.vocabulary.fluents.filter((f) => f.trueId >= 0).map((f) => f.term));
    const explorer = mutexExplorer(unviewed, Deadline.never(), 1, undefined, [flagged!]);
    const seed = explorer.state(flagged!.filter((t) => viewed.has(t)))!;
    expect(text(explorer.terms(seed))).toEqual(text(flagged!));
    expect(explorer.legal(seed)![0]!).toHaveLength(1);
    // A state of the stage no sampled or given state was seen as: not made up.
    expect(explorer.state([])).toBeUndefined();
  });
});
