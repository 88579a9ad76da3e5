// src/reach/core-rule.ts: the state-free rules the Datalog core joins in the superset stage, and
// the supersets they give against Tau-Prolog's (the `core-joins` switch off) on games/core-joins.kif.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { coreRule } from '../src/reach/core-rule.js';
import { planRelaxedGame } from '../src/reach/relaxed.js';
import { computeSupersetsProlog } from '../src/reach/prolog.js';
import { loadGame, resolvePipelineOptions } from '../src/pipeline/stages.js';
import { StageTimer } from '../src/timer.js';
import { TEST_REACH_LIMITS } from './support/context.js';
import { supersetLines } from './support/clingo.js';

const NAME = 'core-joins.kif';
const normal = loadGame(readFileSync(join(import.meta.dirname, '..', 'games', NAME), 'utf8'), NAME, resolvePipelineOptions({}), new StageTimer()).normal;

describe('coreRule', () => {
  const rules = planRelaxedGame(normal).components.filter((c) => !c.stateDependent).flatMap((c) => c.rules);
  const byHead = (rel: string) => rules.filter((r) => r.head.rel === rel && r.body.length > 0);

  it('takes the state-free rules of variables and constants', () => {
    for (const rel of ['reach', 'loop', 'fromone', 'notghost']) for (const r of byHead(rel)) expect({ rel, core: coreRule(r) !== undefined }).toEqual({ rel, core: true });
  });

  it('turns a repeated variable into an equality and a constant into a test', () => {
    const loop = coreRule(byHead('loop')[0]!)!;
    expect(loop.atoms[0]!.vars).toHaveLength(2);
    expect(new Set(loop.atoms[0]!.vars).size).toBe(2);
    expect(loop.equal).toHaveLength(1);
    const fromOne = coreRule(byHead('fromone')[0]!)!;
    expect(fromOne.constants.map((c) => c.name)).toEqual(['1']);
    expect(fromOne.distinct).toHaveLength(1);
  });

  it('leaves a rule with a function term to Tau-Prolog', () => {
    expect(byHead('pair').map(coreRule)).toEqual([undefined]);
  });
});

describe('the core joins give the supersets of Tau-Prolog', () => {
  it(NAME, () => {
    const on = computeSupersetsProlog(normal, TEST_REACH_LIMITS);
    const off = computeSupersetsProlog(normal, TEST_REACH_LIMITS, { off: ['core-joins'] });
    const lines = supersetLines(on.supersets);
    expect(lines).toEqual(supersetLines(off.supersets));
    // The facts the core's rules derive are there (the recursion closed, the tests applied).
    expect(lines.filter((l) => l.startsWith('(reach 1 '))).toHaveLength(4);
    expect(lines).toContain('(loop 3)');
    expect(lines).not.toContain('(fromone 5)');
    expect(lines).toContain('(fromone 4)');
    expect(lines).toContain('(notghost 5)');
  });
});
