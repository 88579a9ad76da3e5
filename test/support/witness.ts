/**
 * A refutation witness replayed in the original game (the mutex stage's searches, src/mutex/refute-search.ts):
 * from the initial state, each joint move legal and the state not terminal, and both members true at the end.
 */
import { expect } from 'vitest';
import type { createReasoner } from '../../src/play/reasoner.js';

/** The parts of a search witness the replay reads: its two members' texts and its joint moves (`(legal R M)` texts). */
interface Witness {
  readonly members: readonly string[];
  readonly moves: readonly (readonly string[])[];
}

/** Expects every witness of a one-role game to replay from the initial state through `reasoner` to both members true. */
export function expectWitnessesReplay(reasoner: ReturnType<typeof createReasoner>, witnesses: readonly Witness[]): void {
  const role = reasoner.roles[0]!;
  for (const w of witnesses) {
    let state = reasoner.initialState();
    for (const joint of w.moves) {
      const info = reasoner.info(state);
      expect(info.terminal).toBe(false);
      const move = info.legal[0]!.find((m) => `(legal ${role} ${m.text})` === joint[0]);
      expect(move).toBeDefined();
      state = reasoner.successor(state, [move!]);
    }
    const texts = state.map((f) => f.text);
    expect(w.members).toHaveLength(2);
    for (const m of w.members) expect(texts).toContain(m);
  }
}
