/**
 * couldBeChosen (choose.ts): which hypotheses' claims could still change the chosen encoding,
 * given the claims proven so far. The ground proof asks the others last (prove.ts, `later`).
 */
import { describe, expect, it } from 'vitest';
import type { Candidates, Hypothesis } from '../src/mutex/candidates.js';
import { type Judged, couldBeChosen } from '../src/mutex/choose.js';
import type { MutexView } from '../src/mutex/view.js';

// Fluents 0-3 of relation r/2 (a 2x2 grid), 4-6 of s/1. couldBeChosen reads only their relations.
const view = { fluents: ['r/2', 'r/2', 'r/2', 'r/2', 's/1', 's/1', 's/1'].map((relation) => ({ relation })) } as unknown as MutexView;
const hyps: Hypothesis[] = [
  { relation: 'r/2', input: [0], output: [1], groups: [[0, 1], [2, 3]] },
  { relation: 'r/2', input: [1], output: [0], groups: [[0, 2], [1, 3]] },
  { relation: 's/1', input: [], output: [0], groups: [[4, 5, 6]] },
];
// One candidate per group; none refuted; every state had a member of h0's groups and of h2's, not of h1's.
const cands: Candidates = {
  start: Int32Array.from([0, 2, 4, 5]),
  hypothesis: Int32Array.from([0, 0, 1, 1, 2]),
  atMostOne: Uint8Array.from([1, 1, 1, 1, 1]),
  atLeastOne: Uint8Array.from([1, 1, 0, 0, 1]),
};
const judged = (proven: number[]): Judged => ({ proven: Uint8Array.from(proven), exactlyOne: new Uint8Array(5), proof: new Uint8Array(5) });

describe('couldBeChosen', () => {
  it('keeps a hypothesis whose exactly-one would save bits, drops those that could not beat what is proven', () => {
    // h0 and h2 proven "at most one": r takes 2 + 2 bits, s 2 bits.
    // h0 exactly-one: 1 + 1 bits (better); h1 at best 2 + 2 bits, no more members (not better);
    // h2 exactly-one over 3 members: still 2 bits (not better).
    expect(couldBeChosen(view, hyps, cands, judged([1, 1, 0, 0, 1]))).toEqual([true, false, false]);
  });

  it('keeps every hypothesis that beats the singletons when nothing is proven', () => {
    // Nothing proven: r is 4 singleton bits, s 3. h1 proven: 4 bits, but 4 members proven (better).
    expect(couldBeChosen(view, hyps, cands, judged([0, 0, 0, 0, 0]))).toEqual([true, true, true]);
  });
});
