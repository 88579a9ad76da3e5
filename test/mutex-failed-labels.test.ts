// With lazy axioms a group the lifted proofs leave open says why (find-proofs.ts, lifted.ts,
// lifted-induction.ts' `Failed`; docs/mutex.md, thirty-second session, labels32): "observed only"
// when its own step failed, checked to its end before the budget ran out, even when the budget
// then cut a later check; "unproven for lack of budget" only when its check was cut or never ran.
// The budget is cut at every point in turn: a deadline whose abort flag is raised at its n-th read
// (read counts are the same in every run: no clock is read). Before, a cut induction made every
// open group "unproven for lack of budget".
import { describe, expect, it } from 'vitest';
import { Deadline } from '../src/deadline.js';
import { mkConst } from '../src/gdl/ast.js';
import { DEFAULT_MUTEX_OPTIONS, type MutexResult, findMutexGroups } from '../src/mutex/index.js';
import { type InductionTask, induce } from '../src/mutex/lifted-induction.js';
import { groundNormalGame, loadGame, removeUnusedInstances, resolvePipelineOptions } from '../src/pipeline/stages.js';
import { sampleStates } from '../src/play/sample.js';
import { StageTimer } from '../src/timer.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXAMPLES_DIR } from './corpus.js';

/** The stage on `file` with `lazy` made lazy, its states sampled once; `run` with a deadline. */
function lazyGame(file: string, lazy: string, playouts: number, maxSteps: number) {
  const options = resolvePipelineOptions({ lazyRelations: [lazy] });
  const loaded = loadGame(readFileSync(join(EXAMPLES_DIR, file), 'utf8'), file, options, new StageTimer());
  const ground = removeUnusedInstances(groundNormalGame(loaded.normal, options, new StageTimer()).ground, new StageTimer(), options).game;
  const states = sampleStates(ground, { playouts, seed: 5, maxSteps, deadline: Deadline.never() });
  expect(ground.lazy).toBeDefined();
  return (deadline: Deadline): MutexResult => findMutexGroups(ground, states, { ...DEFAULT_MUTEX_OPTIONS, deadline, lifted: loaded.normal });
}

/** A deadline reached at its (n + 1)-th read; `reads` counts them. */
function afterReads(n: number): { deadline: Deadline; reads: () => number } {
  let count = 0;
  return { deadline: new Deadline(Infinity, Infinity, { get aborted() { return ++count > n; } }), reads: () => count };
}

/** The runs cut at each read of a full run's, from the last read back to the first, until `enough` says stop. */
function cutRuns(run: (d: Deadline) => MutexResult, enough: (r: MutexResult) => boolean): MutexResult[] {
  const full = afterReads(Infinity);
  run(full.deadline);
  const out: MutexResult[] = [];
  for (let n = full.reads() - 1; n >= 0; n--) {
    out.push(run(afterReads(n).deadline));
    if (enough(out[out.length - 1]!)) break;
  }
  return out;
}

const proofOf = (r: MutexResult, relation: string, member?: string): string | undefined =>
  r.groups.find((g) => g.relation === relation && (member === undefined || g.members.includes(member)))?.proof;

describe('labels of open groups when the budget cuts the lifted induction', () => {
  it('mutex-failed-then-cut: a claim whose step failed stays observed only when a later check is cut', () => {
    const run = lazyGame('mutex-failed-then-cut.kif', 'open', 20, 50);
    const whole = run(Deadline.never());
    expect(proofOf(whole, 'cell')).toBe('observed');
    expect(proofOf(whole, 'mark')).toBe('lifted');
    const mixed = (r: MutexResult): boolean => proofOf(r, 'cell') === 'observed' && proofOf(r, 'mark') === 'unproven';
    const runs = cutRuns(run, mixed);
    expect(runs.some(mixed)).toBe(true);
    const cut = runs.find(mixed)!;
    expect(cut.stats.budgetReached).toBe(true);
    expect(cut.stats.chosen.observed.groups).toBe(1);
    expect(cut.stats.chosen.unproven.groups).toBe(1);
    // Whatever the cut: `mark` never failed, so it is never observed only; `cell` never proven.
    for (const r of runs) {
      expect(proofOf(r, 'mark')).not.toBe('observed');
      expect(proofOf(r, 'cell')).not.toBe('lifted');
    }
  });

  it('mutex-partial-keys: the key whose step failed is observed only when the budget was reached', () => {
    const run = lazyGame('mutex-partial-keys.kif', 'onboard', 60, 10);
    const failedKey = (r: MutexResult): boolean => r.stats.budgetReached && proofOf(r, 'at', '(at q 1)') === 'observed';
    const runs = cutRuns(run, failedKey);
    expect(runs.some(failedKey)).toBe(true);
    const cut = runs.find(failedKey)!;
    expect(proofOf(cut, 'at', '(at a 1)')).toBe('lifted');
    expect(proofOf(cut, 'at', '(at b 1)')).toBe('lifted');
  });
});

describe('what the induction records as failed', () => {
  const a = [mkConst('a')];
  const q = [mkConst('q')];
  /** Claim 0 on every key, then claim 1 on keys a and q: scripted checks, a budget stop before check `budget`, `spent` from check `late` on. */
  const scripted = (pass0: boolean, qInTime: boolean, budget: number, late = Infinity): InductionTask => {
    let checks = 0;
    return {
      hyps: [{ relation: 'c/1', input: [], output: [0], groups: [] }, { relation: 'at/2', input: [0], output: [1], groups: [] }],
      keysOf: [undefined, [a, q]],
      statics: new Map(),
      order: [0, 1],
      imps: [],
      check: (i, _assumed, _implied, ks) => {
        checks++;
        if (i === 0) return pass0;
        const open = ks?.find((k) => k === q);
        return open === undefined ? true : { open: new Set([open]), whole: ks!.length === 1, failed: new Set(qInTime ? [open] : []) };
      },
      implicationStep: () => true,
      stop: () => (checks >= budget ? 'deadline' : undefined),
      spent: () => checks >= late,
    };
  };

  it('a step that failed before a later check was cut is recorded; the cut one is not', () => {
    const r = induce(scripted(false, true, 1), [true, true], [], false);
    expect(r.outcome).toBe('deadline');
    expect(r.failed[0]!.every).toBe(true);
    expect(r.failed[1]!.every).toBe(false);
    expect(r.failed[1]!.lost.size).toBe(0);
  });

  it('a step that failed after the budget ran out is not recorded (its open pair may be the budget\'s)', () => {
    const r = induce(scripted(false, true, Infinity, 1), [true, true], [], false);
    expect(r.outcome).toBe('done');
    expect(r.proven).toEqual([false, true]);
    expect(r.failed[0]!.every).toBe(false);
  });

  it('a key lost in time is recorded, one found open after the budget ran out is not', () => {
    const inTime = induce(scripted(true, true, Infinity), [true, true], [], false);
    expect(inTime.proven).toEqual([true, true]);
    expect([...inTime.failed[1]!.lost]).toEqual(['q']);
    const late = induce(scripted(true, false, Infinity), [true, true], [], false);
    expect(late.proven).toEqual([true, true]);
    expect(late.failed[1]!.lost.size).toBe(0);
  });
});
