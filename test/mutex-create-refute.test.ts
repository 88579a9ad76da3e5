// The mutex stage's walks that try creating moves (src/mutex/refute-create.ts; docs/mutex.md,
// thirty-third session, rook33) on games/mutex-create-refute.kif with `jammed` lazy, through the
// pipeline's mutex stage with a sample of the initial state alone. Its group {(pos 1) ... (pos 9)}
// is false only after 7 advances among 60 idle moves and a jump that writes (pos 9) beside (pos 8):
// the walks and the searches leave it, the creating walks refute it, and the witness replays from
// the initial state in the original game (legal moves, non-terminal states, both members true).
import { describe, expect, it } from 'vitest';
import { mutexFromInitialOnly } from './support/lazy-mutex.js';
import { expectWitnessesReplay } from './support/witness.js';

const NAME = 'mutex-create-refute.kif';

describe('a false group only a creating move breaks, refuted by the creating walks', () => {
  const { ground, result, reasoner } = mutexFromInitialOnly(NAME, ['jammed']);

  it('refutes {(pos K)}, which the walks and the searches leave', () => {
    expect(ground.lazy).toBeDefined();
    expect(result.stats.sampledStates).toBe(1);
    expect(result.stats.search?.refuted ?? 0).toBe(0);
    expect(result.stats.walks?.refuted ?? 0).toBe(0);
    expect(result.stats.creating?.refuted).toBeGreaterThan(0);
    expect(result.groups.filter((g) => g.members.some((m) => m.startsWith('(pos ')) && g.members.length > 1)).toEqual([]);
    expect(result.stats.creating!.witnesses.map((w) => w.members)).toContainEqual(['(pos 8)', '(pos 9)']);
  });

  it('every witness replays from the initial state in the original game, the jump last', () => {
    const witnesses = result.stats.creating!.witnesses;
    expectWitnessesReplay(reasoner, witnesses);
    for (const w of witnesses) expect(w.moves.at(-1)).toEqual(['(legal robot jump)']);
  });
});
