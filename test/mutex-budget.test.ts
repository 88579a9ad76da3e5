/**
 * The mutex stage's default time budget (docs/mutex.md, 2c): the run's time before the stage,
 * T, plus 10 seconds, both counted in processor time, so that time spent waiting (a loaded
 * machine) does not enlarge the budget; and the stage's steps that look at it (refutation).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MUTEX_SETTINGS, MUTEX_EXTRA_SECONDS, runGrounding } from '../src/pipeline/stages.js';
import { mutexGroups } from '../src/pipeline/stages-play.js';
import { defaultPipelineOptions } from '../src/pipeline/options.js';
import { StageTimer } from '../src/timer.js';
import { Deadline } from '../src/deadline.js';
import { type Candidates, candidateMembers, hypotheses, refute } from '../src/mutex/candidates.js';
import { DEFAULT_MUTEX_OPTIONS, findMutexGroups } from '../src/mutex/index.js';
import { proveClaims } from '../src/mutex/prove.js';
import { EncodingStopped, encodeCone, ruleIndex } from '../src/mutex/encode.js';
import { type MutexView, mutexView } from '../src/mutex/view.js';
import { sampleStates } from '../src/play/sample.js';
import { PROOF_LIMITS, PassingAtThirdLook, sampledTictactoe, syntheticFluent, tictactoe } from './support/mutex-budget.js';
import { EXAMPLES_DIR } from './examples.js';

describe("the mutex stage's default budget", () => {
  it('counts the run before it in processor time, not the wall-clock time a stage spent waiting', () => {
    const options = defaultPipelineOptions();
    const { loaded, ground } = runGrounding(readFileSync(join(EXAMPLES_DIR, 'tictactoe.kif'), 'utf8'), 'tictactoe.kif', options, new StageTimer());
    const timer = new StageTimer();
    // A stage that waits 300 ms without computing: wall-clock time, next to no processor time.
    timer.run('wait', () => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300));
    const r = mutexGroups(ground, loaded.normal, options, DEFAULT_MUTEX_SETTINGS, timer);
    expect(timer.list()[0]!.ms).toBeGreaterThanOrEqual(290);
    const time = r.stats.time!;
    expect(time.beforeSeconds).toBeLessThan(0.2);
    expect(time.budgetSeconds).toBeCloseTo(time.beforeSeconds + MUTEX_EXTRA_SECONDS, 6);
    expect(time.sampleSeconds).toBeGreaterThanOrEqual(0);
    expect(r.bits).toBeLessThan(r.fluents);
  });
});

describe('the mutex stage past its budget', () => {
  it('refutes candidates as a count of every group per state does, one hypothesis a pass or several', () => {
    const { view, states } = sampledTictactoe();
    const hyps = hypotheses(view);
    // 300 copies of the first state first: the groups the later states refute are still open at
    // the looks after 256 states, where groups nothing more can change are dropped.
    const all = [...Array<number[]>(300).fill(states[0]!), ...states];
    // The reference: per state, how many members of each group are true.
    const expected = hyps.flatMap((h, hypothesis) => h.groups.map((members) => {
      const counts = all.map((s) => members.filter((f) => s.includes(f)).length);
      return { hypothesis, members, atMostOne: counts.every((n) => n <= 1), atLeastOne: counts.every((n) => n >= 1) };
    }));
    const found = (c: Candidates) => [...c.hypothesis.keys()].map((i) => ({
      hypothesis: c.hypothesis[i]!, members: candidateMembers(hyps, c, i), atMostOne: c.atMostOne[i] === 1, atLeastOne: c.atLeastOne[i] === 1,
    }));
    const held = refute(view, hyps, all);
    expect(held.hypotheses).toHaveLength(hyps.length);
    expect(found(held.candidates)).toEqual(expected);
    expect(held.candidates.start[hyps.length]).toBe(expected.length);
    // Groups whose "at least one" the first state refutes and whose "at most one" only the states
    // after the copies refute (they stay open at the looks), and groups the settled pass reads otherwise.
    const first = new Set(states[0]);
    expect(expected.some((x) => !x.atMostOne && !x.atLeastOne && x.members.filter((f) => first.has(f)).length <= 1)).toBe(true);
    expect(expected.some((x) => !x.atMostOne && x.atLeastOne)).toBe(true);
    expect(found(refute(view, hyps, all, undefined, { perPass: 1 }).candidates)).toEqual(expected);
    // Groups not followed once their "at most one" is refuted: their "at least one" reads 0.
    const settled = expected.map((x) => ({ ...x, atLeastOne: x.atLeastOne && x.atMostOne }));
    expect(found(refute(view, hyps, all, undefined, { settleRefuted: true }).candidates)).toEqual(settled);
  });

  it('stops refuting when told to, keeping the hypotheses it held against every state', () => {
    const { view, states } = sampledTictactoe();
    const hyps = hypotheses(view);
    let looks = 0;
    // One look per pass here (fewer states than a look's stride), one hypothesis a pass: stop at the third.
    const held = refute(view, hyps, states, () => ++looks > 2, { perPass: 1 });
    expect(held.hypotheses).toEqual(hyps.slice(0, 2));
    expect(held.candidates).toEqual(refute(view, hyps.slice(0, 2), states).candidates);
    // By default every hypothesis of tic-tac-toe is held in one pass: a stop at its look leaves none.
    expect(refute(view, hyps, states, () => true).hypotheses).toEqual([]);
  });

  it("past the run's own deadline, or only past the stage's budget, makes no candidates and says so", () => {
    const ground = tictactoe();
    const states = sampleStates(ground, { playouts: 20, seed: 5, maxSteps: 50, deadline: Deadline.never() });
    // The run's wall-clock deadline long past: the run fails after the stage, which stops at once.
    const over = findMutexGroups(ground, states, { ...DEFAULT_MUTEX_OPTIONS, deadline: new Deadline(1), lifted: undefined });
    expect(over.stats.budgetReached).toBe(true);
    expect(over.stats.hypotheses).toBe(0);
    expect(over.groups).toEqual([]);
    expect(over.bits).toBe(over.fluents);
    expect(over.stats.candidatesCut).toBe(true);
    // Only the stage's processor-time budget spent: the hypotheses obey it like the proofs
    // (docs/mutex.md, 2c), none is made, every fluent a singleton, and the stats say why.
    const spent = findMutexGroups(ground, states, { ...DEFAULT_MUTEX_OPTIONS, deadline: new Deadline(Infinity, Infinity, undefined, 0), lifted: undefined });
    expect(spent.stats.budgetReached).toBe(true);
    expect(spent.stats.candidatesCut).toBe(true);
    expect(spent.stats.hypotheses).toBe(0);
    expect(spent.groups).toEqual([]);
    expect(spent.bits).toBe(spent.fluents);
    // With budget to spare nothing is cut.
    const free = findMutexGroups(ground, states, { ...DEFAULT_MUTEX_OPTIONS, deadline: Deadline.never(), lifted: undefined });
    expect(free.stats.candidatesCut).toBe(false);
    expect(free.stats.hypotheses).toBeGreaterThan(0);
  });
});

describe('the ground proof past its budget', () => {
  it('stops inside the encoding of a query, not after it (the cone has far fewer atoms than a tick reads the clock)', () => {
    const view = mutexView(tictactoe());
    const members = view.fluents.flatMap((f, i) => (f.text.startsWith('(cell 1 1 ') ? [i] : []));
    expect(members).toHaveLength(3);
    const claims = [{ kind: 'amo' as const, batch: 0, members }];
    const unbounded = proveClaims(view, claims, { ...PROOF_LIMITS, deadline: Deadline.never() });
    // Alone (without the other squares and the control) the claim is not inductive: queries decide it.
    expect(unbounded.verdicts).toEqual(['not-inductive']);
    expect(unbounded.queries).toBeGreaterThan(0);
    // The third look is inside the encoding.
    const stopped = proveClaims(view, claims, { ...PROOF_LIMITS, deadline: new PassingAtThirdLook(Infinity) });
    expect(stopped.verdicts).toEqual(['unproven']);
    expect(stopped.queries).toBe(0);
    expect(stopped.complete).toBe(false);
  });
});

describe('the encoding of a query', () => {
  it('asks its stop test per rule, not only per atom: one atom with a thousand rules over three fluents', () => {
    // Atom 0 (next (f 0), say) has 1,000 rules, each reading one of the fluents' true atoms 1-3.
    const fluent = (i: number): MutexView['fluents'][number] => syntheticFluent(i, i + 1, i === 0 ? 0 : -1);
    const view: MutexView = {
      atoms: 4,
      rules: Array.from({ length: 1000 }, (_, r) => ({ head: 0, pos: [1 + (r % 3)], neg: [] })),
      fluents: [fluent(0), fluent(1), fluent(2)],
      moves: [],
      terminal: -1,
      init: [0],
      opaque: [],
    };
    let asked = 0;
    encodeCone(view, ruleIndex(view), [0], false, () => (asked++, false));
    // Four atoms in the cone: a look per atom alone is 8 looks (the cone, then the encoding).
    expect(asked).toBeGreaterThanOrEqual(2000);
    let stopAt = 0;
    expect(() => encodeCone(view, ruleIndex(view), [0], false, () => ++stopAt > 100)).toThrow(EncodingStopped);
  });
});

describe('the explanation of failed claims', () => {
  it('explains at most 16 claims shown not inductive: it proves nothing and only feeds --stats', () => {
    // 20 pairs of fluents, each made true by a rule with an empty body: every "at most one" fails.
    const fluents = Array.from({ length: 40 }, (_, i) => syntheticFluent(i, 2 * i, 2 * i + 1));
    const view: MutexView = { atoms: 80, rules: fluents.map((f) => ({ head: f.nextAtom, pos: [], neg: [] })), fluents, moves: [], terminal: -1, init: [], opaque: [] };
    const claims = Array.from({ length: 20 }, (_, j) => ({ kind: 'amo' as const, batch: j, members: [2 * j, 2 * j + 1] }));
    const r = proveClaims(view, claims, { maxConflicts: 20_000, maxPairQueries: 64, maxWork: 100_000_000, deadline: Deadline.never() });
    expect(r.verdicts.every((v) => v === 'not-inductive')).toBe(true);
    expect(r.budgetSpent).toBe(false);
    expect([...r.unrefutedPairs.keys()]).toEqual([...Array(16).keys()]);
    expect([...r.unrefutedPairs.values()].every((u) => u.pairs === 1 && !u.capped)).toBe(true);
  });
});
