// The last join of an existence part stays in its rule (src/reach/eliminate.ts): on
// games/last-join.kif (racer4's legal_speed in small) the relaxed rule keeps the join over ?y1
// instead of reading a relation of its own, the least model is clingo's, and the superset stage
// needs fewer answers than when that join was a relation (1,451 answers then, 873 now: every
// witness ?y1 of every velocity pair the positions allow, against one per pair the rule asks).
import { TEST_REACH_LIMITS } from './support/context.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clingoSupersets, supersetLines } from './support/clingo.js';
import { planRelaxedGame } from '../src/reach/relaxed.js';
import { computeSupersetsProlog } from '../src/reach/prolog.js';
import { loadGame, resolvePipelineOptions } from '../src/pipeline/stages.js';
import { StageTimer } from '../src/timer.js';

const file = join(import.meta.dirname, '..', 'games', 'last-join.kif');
const normal = loadGame(readFileSync(file, 'utf8'), file, resolvePipelineOptions({}), new StageTimer()).normal;

describe('the last join of an existence part', () => {
  it('stays in the rule: the rule reads the two relations joined on ?y1, and no relation over the head', () => {
    const plan = planRelaxedGame(normal, false, true);
    const ls = plan.components.flatMap((c) => c.rules).filter((r) => r.head.rel === 'ls');
    expect(ls).toHaveLength(1);
    const parts = ls[0]!.body.flatMap((l) => (l.kind === 'pos' && l.atom.rel.startsWith('ls part') ? [l.atom] : []));
    expect(parts).toHaveLength(2);
    const vars = (a: (typeof parts)[number]): string[] => a.args.flatMap((t) => (t.kind === 'var' ? [t.name] : []));
    const head = new Set(vars(ls[0]!.head));
    expect(vars(parts[0]!).filter((v) => !head.has(v) && vars(parts[1]!).includes(v))).toEqual(['?y1']);
    expect([...plan.auxiliary].filter((k) => k.startsWith('ls part')).sort()).toEqual(['ls part1/3', 'ls part2/3', 'ls part3/3']);
  });

  it("gives clingo's supersets in fewer answers than the relation did", async () => {
    const fromClingo = await clingoSupersets(normal, 20000);
    expect(fromClingo.kind).toBe('model');
    if (fromClingo.kind !== 'model') return;
    const run = computeSupersetsProlog(normal, TEST_REACH_LIMITS);
    expect(supersetLines(run.supersets)).toEqual(supersetLines(fromClingo.supersets));
    expect(run.stats.answers).toBeLessThan(1000);
  });
});
