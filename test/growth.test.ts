// Refusing a relaxed model early, with an estimate that names the relation (issue 33,
// src/reach/growth.ts): test/fixtures/estimate.kif's relaxed `triple` is every combination of
// three counter values, 81³ = 531,441 fluents, past a budget of 100,000 atoms: the run stops
// when it has an eighth of the budget (12,500), with an estimate and the atom budget's kind;
// the same game with the counter cut to 0..30 (29,791 fluents) stays under the budget and is not
// refused, although it passes the same evidence threshold.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Deadline } from '../src/deadline.js';
import { computeSupersetsProlog } from '../src/reach/prolog.js';
import { supersetsForGrounding } from '../src/reach/demand.js';
import { loadGame, resolvePipelineOptions } from '../src/pipeline/stages.js';
import type { NormalGame } from '../src/normalize/types.js';
import { StageTimer } from '../src/timer.js';
import { ROOT } from './support/cli.js';
import { limitError } from './support/limits.js';

const FILE = join(ROOT, 'test/fixtures/estimate.kif');
const TEXT = readFileSync(FILE, 'utf8');
const limits = { deadline: Deadline.never(), maxAtoms: 100_000 };

function load(text: string): NormalGame {
  return loadGame(text, FILE, resolvePipelineOptions(), new StageTimer()).normal;
}


/** The game with the counter's `succ` facts cut to 0..n. */
function cut(n: number): string {
  return TEXT.split('\n').filter((l) => !/^\(succ (\d+) /.test(l) || Number(/^\(succ (\d+) /.exec(l)![1]) < n).join('\n').replace('(true (c 80))', `(true (c ${n}))`).replace('(true (c 80))', `(true (c ${n}))`);
}

describe('early refusal with an estimate', () => {
  it('stops a relation on its way past the budget early, naming it, its rule and an estimate', () => {
    const err = limitError(() => computeSupersetsProlog(load(TEXT), limits, { relevantOnly: true }));
    expect(err.code).toBe('limit');
    expect(err.limit?.kind).toBe('atoms');
    const estimate = err.limit?.estimate ?? 0;
    // 81³ = 531,441 (the relaxed model's triple fluents), within a factor of two.
    expect(estimate).toBeGreaterThan(265_000);
    expect(estimate).toBeLessThan(1_100_000);
    const d = err.diagnostics[0]!;
    expect(d.message).toMatch(/^relation '(next|true)' would grow to about \d+ instances \(an estimate from its \d+ instances/);
    expect(d.relation).toMatch(/^(next|true)$/);
    // The first next rule: where the message points for next and for true, which it feeds.
    expect(d.line).toBe(7);
    // Early: far below the budget.
    const found = Number(/from its (\d+) instances/.exec(d.message)![1]);
    expect(found).toBeLessThan(50_000);
  });

  it('stops the grounding path the same way (the refined run finds nothing to keep)', () => {
    const err = limitError(() => supersetsForGrounding(load(TEXT), limits));
    expect(err.limit?.kind).toBe('atoms');
    expect(err.limit?.estimate).toBeGreaterThan(265_000);
  });

  it('does not refuse a relation that stays under the budget', () => {
    const r = computeSupersetsProlog(load(cut(30)), limits, { relevantOnly: true });
    expect(r.supersets.fluents.length).toBe(31 + 31 ** 3);
    expect(r.stats.kept).toBeGreaterThan(10_000);
  });
});
