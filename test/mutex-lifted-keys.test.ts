// A lifted claim on some keys keeps the keys whose step holds when others fail (lifted.ts,
// lifted-induction.ts; docs/mutex.md, thirty-first session, alex31). games/mutex-partial-keys.kif:
// "one cell per piece" is refuted for `d` by the sampled states and offered on the keys a, b and
// q; q's step fails, a's and b's are proven lifted (before, q's failure failed all three; eager
// games keep that: find-proofs.ts passes `perKey` for lazy axioms only). The
// induction itself: a scripted check that leaves one key open keeps the hypothesis on the others.
import { describe, expect, it } from 'vitest';
import { Deadline } from '../src/deadline.js';
import { type Term, mkConst } from '../src/gdl/ast.js';
import type { Assumed } from '../src/mutex/lifted-core.js';
import { DEFAULT_MUTEX_OPTIONS, findMutexGroups } from '../src/mutex/index.js';
import { type InductionTask, induce } from '../src/mutex/lifted-induction.js';
import { groundNormalGame, loadGame, removeUnusedInstances, resolvePipelineOptions } from '../src/pipeline/stages.js';
import { sampleStates } from '../src/play/sample.js';
import { StageTimer } from '../src/timer.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXAMPLES_DIR } from './corpus.js';

describe('a lifted claim on some keys', () => {
  it('mutex-partial-keys: the keys whose step holds are proven lifted, the failed one is not', () => {
    // Lazy axioms (`onboard` evaluated per state): where claims on some keys keep their keys, and no ground SAT proves what they leave.
    const options = resolvePipelineOptions({ lazyRelations: ['onboard'] });
    const loaded = loadGame(readFileSync(join(EXAMPLES_DIR, 'mutex-partial-keys.kif'), 'utf8'), 'mutex-partial-keys.kif', options, new StageTimer());
    const ground = removeUnusedInstances(groundNormalGame(loaded.normal, options, new StageTimer()).ground, new StageTimer(), options).game;
    const states = sampleStates(ground, { playouts: 60, seed: 5, maxSteps: 10, deadline: Deadline.never() });
    expect(ground.lazy).toBeDefined();
    const r = findMutexGroups(ground, states, { ...DEFAULT_MUTEX_OPTIONS, deadline: Deadline.never(), lifted: loaded.normal });
    const of = (piece: string) => r.groups.find((g) => g.relation === 'at' && g.input.length === 1 && g.input[0] === 0 && g.members.includes(`(at ${piece} 1)`));
    // d's group was refuted by the sample: the hypothesis is a claim on some keys.
    expect(of('d')).toBeUndefined();
    for (const piece of ['a', 'b']) expect(of(piece)?.proof).toBe('lifted');
    expect(of('q')?.proof).not.toBe('lifted');
  });

  it('the induction keeps a claim on the keys left when its check leaves one open', () => {
    const keys = [[mkConst('a')], [mkConst('b')], [mkConst('q')]];
    const checks: (number | undefined)[] = [];
    const task = keyedTask(keys, (_assumed, ks) => {
      checks.push(ks?.length);
      return openAtQ(ks);
    });
    const r = induce(task, [true], [], false);
    expect(r.outcome).toBe('done');
    expect(r.proven).toEqual([true]);
    expect(r.keys[0]?.map((k) => (k[0]!.kind === 'const' ? k[0]!.name : '?'))).toEqual(['a', 'b']);
    // Checked once: the check took nothing from its own claim at q, so a and b stand without it.
    expect(checks).toEqual([3]);
  });

  it('a claim that lost keys is checked again only when a kept key took equalities from one that left', () => {
    const keys = [[mkConst('a')], [mkConst('b')], [mkConst('q')]];
    const run = (took: string): number[] => {
      const checks: number[] = [];
      const task = keyedTask(keys, (assumed, ks) => {
        checks.push(ks?.length ?? 0);
        const claim = assumed.get('at/2')?.find((c) => c.hypothesis === 0);
        if (claim !== undefined) assumed.use?.(claim, took);
        return openAtQ(ks);
      });
      const r = induce(task, [true], [], false);
      expect(r.proven).toEqual([true]);
      return checks;
    };
    // Its own claim at a: a stays, nothing to check again.
    expect(run('a')).toEqual([3]);
    // At q, which left: checked again on a and b.
    expect(run('q')).toEqual([3, 2]);
  });
});

/** One claim `at/2` [0] on `keys`, its check scripted (the assumed claims, the keys checked). */
function keyedTask(keys: Term[][], check: (assumed: Assumed, ks: readonly (readonly Term[])[] | undefined) => ReturnType<InductionTask['check']>): InductionTask {
  return {
    hyps: [{ relation: 'at/2', input: [0], output: [1], groups: [] }],
    keysOf: [keys],
    statics: new Map(),
    order: [0],
    imps: [],
    check: (_i, assumed, _implied, ks) => check(assumed, ks),
    implicationStep: () => true,
    stop: () => undefined,
    spent: () => false,
  };
}

/** A check that leaves the key `q` open and shows the others. */
function openAtQ(ks: readonly (readonly Term[])[] | undefined): ReturnType<InductionTask['check']> {
  const q = ks?.find((k) => k[0]!.kind === 'const' && k[0]!.name === 'q');
  return q === undefined ? true : { open: new Set([q]), whole: ks!.length === 1, failed: new Set([q]) };
}
