/**
 * Many lifted-proven groups (docs/mutex.md, "eighth run"): a relation of permutations, like
 * pancakes88's `porder`, has a hypothesis per proper input subset and a group per key of each,
 * all proven on the rules with variables. The stage judges and chooses among them in typed
 * arrays; the finer splits' claims, implied by the coarsest proven one, are not assumed again by
 * the ground SAT's queries; and the choice of the encoding stops at the end of the stage's
 * budget (looking once per stride of candidates weighed) with the hypotheses weighed so far:
 * more bits, never an unproven group counted.
 */
import { describe, expect, it } from 'vitest';
import { Deadline } from '../src/deadline.js';
import type { GroundGame } from '../src/ground/types.js';
import { hypotheses, refute } from '../src/mutex/candidates.js';
import { chooseEncoding } from '../src/mutex/choose.js';
import { DEFAULT_MUTEX_OPTIONS, findMutexGroups } from '../src/mutex/index.js';
import { mutexView } from '../src/mutex/view.js';
import { defaultPipelineOptions } from '../src/pipeline/options.js';
import { runGrounding } from '../src/pipeline/stages.js';
import { sampleStates } from '../src/play/sample.js';
import { StageTimer } from '../src/timer.js';

/** Permutations of 1..n in `(ord ...)`, one move per adjacent swap; `(step ...)` counts to 3. */
function permutations(n: number): string {
  const vars = Array.from({ length: n }, (_, i) => `?x${i}`);
  const swaps = Array.from({ length: n - 1 }, (_, i) => {
    const next = [...vars];
    [next[i], next[i + 1]] = [next[i + 1]!, next[i]!];
    return `(<= (legal r (s${i})) (true (ord ${vars.join(' ')})))
(<= (next (ord ${next.join(' ')})) (does r (s${i})) (true (ord ${vars.join(' ')})))`;
  });
  return `
(role r)
(init (ord ${Array.from({ length: n }, (_, i) => i + 1).join(' ')}))
(init (step 0))
${swaps.join('\n')}
(succ 0 1) (succ 1 2) (succ 2 3)
(<= (next (step ?y)) (true (step ?x)) (succ ?x ?y))
(<= terminal (true (step 3)))
(<= (goal r 100) terminal)
(<= (goal r 0) (not terminal))
`;
}

function ground(n: number): { game: GroundGame; states: number[][]; normal: ReturnType<typeof runGrounding>['loaded']['normal'] } {
  const { loaded, ground } = runGrounding(permutations(n), 'perm.kif', defaultPipelineOptions(), new StageTimer());
  const states = sampleStates(ground, { playouts: 20, seed: 3, maxSteps: 10, deadline: Deadline.never() });
  return { game: ground, states, normal: loaded.normal };
}

describe('many groups proven lifted', () => {
  const perm = ground(5);
  const run = (): ReturnType<typeof findMutexGroups> => findMutexGroups(perm.game, perm.states, { ...DEFAULT_MUTEX_OPTIONS, deadline: Deadline.never(), lifted: perm.normal });

  it('proves every group of every split of the permutations lifted, and encodes them in one group', () => {
    const r = run();
    // 120 permutations of (ord ...), 4 of (step ...); 31 splits of ord, each a partition of the 120.
    expect(r.fluents).toBe(124);
    expect(r.stats.budgetReached).toBe(false);
    expect(r.stats.refutedBySimulation).toBe(0);
    expect(r.stats.surviving.lifted.groups).toBe(r.stats.proven);
    expect(r.stats.provenLifted).toBeGreaterThan(300);
    // ceil(log2(121)) = 7 bits for ord, 2 or 3 for step.
    expect(r.bits).toBeLessThanOrEqual(10);
    const ord = r.groups.find((g) => g.relation === 'ord')!;
    expect(ord.members).toHaveLength(120);
    expect(ord.input).toEqual([]);
    expect(ord.proof).toBe('lifted');
  });

  it('stops weighing hypotheses at the end of the budget, looking once per stride of candidates', () => {
    const view = mutexView(perm.game);
    const fluentOf = new Map(view.fluents.map((f, i) => [f.term, i]));
    const held = refute(view, hypotheses(view), perm.states.map((s) => s.map((t) => fluentOf.get(t)!)));
    const cands = held.candidates;
    const n = cands.hypothesis.length;
    expect(n).toBeGreaterThan(500);
    // Every surviving group proven lifted (as the stage finds on this game), none exactly-one.
    const judged = { proven: cands.atMostOne.slice(), exactlyOne: new Uint8Array(n), proof: new Uint8Array(n) };
    const full = chooseEncoding(view, held.hypotheses, cands, judged);
    expect(full.complete).toBe(true);
    // ceil(log2(121)) = 7 bits for the permutations, ceil(log2(5)) = 3 for step (its one split, input []).
    expect(full.bits).toBe(7 + 3);
    expect(full.groups.find((g) => g.relation === 'ord')!.input).toEqual([]);
    const spent = new Deadline(Infinity, Infinity, undefined, 0);
    // The end passed before the choice: with a look per candidate, one hypothesis (the first, ord []) is weighed.
    const one = chooseEncoding(view, held.hypotheses, cands, judged, { end: spent, stride: 1 });
    expect(one.complete).toBe(false);
    expect(one.groups.map((g) => [g.relation, g.input])).toEqual([['ord', []]]);
    expect(one.bits).toBe(7 + 4);
    // Weighed in another order, the first weighed is the one kept: more bits, nothing unproven counted.
    const last = held.hypotheses.length - 1;
    const other = chooseEncoding(view, held.hypotheses, cands, judged, { end: spent, stride: 1, order: [last - 1, ...held.hypotheses.keys()] });
    expect(other.complete).toBe(false);
    expect(other.bits).toBeGreaterThan(full.bits);
    // The last split of ord (three inputs): 60 proven pairs of 2 bits each (three codes), 120 bits against 7.
    expect(held.hypotheses[last - 1]!.input).toHaveLength(3);
    expect(other.groups).toHaveLength(60);
    expect(other.groups.every((g) => g.relation === 'ord' && g.input.length === 3 && g.proven)).toBe(true);
    expect(other.bits).toBe(120 + 4);
    // With the default stride, a game of this size is weighed whole even past the end.
    expect(chooseEncoding(view, held.hypotheses, cands, judged, { end: spent })).toEqual(full);
  });
});
