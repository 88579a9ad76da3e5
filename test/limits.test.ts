// Limit errors (issue 17): the relation a limit names travels as data (Diagnostic.relation),
// and a stop on the clock during a superset query names that query and its plan's estimate.
// Which limit stopped a run travels as data too (GdlError.limit, issue 25): the corpus runner,
// the demand fallback and the corpus table read it, never the message.
import { TEST_REACH_LIMITS } from './support/context.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Deadline, type LimitKind } from '../src/deadline.js';
import { GdlError } from '../src/gdl/diagnostics.js';
import { defaultPipelineOptions, groundGame, groundNormalGame, loadGame, reachGame, resolvePipelineOptions } from '../src/pipeline/stages.js';
import { computeSupersetsDG } from '../src/reach/dg/index.js';
import { isAtomBudget } from '../src/reach/magic.js';
import { computeSupersetsProlog } from '../src/reach/prolog.js';

import { EXAMPLES_DIR } from './examples.js';
import { StageTimer } from '../src/timer.js';

/** A deadline that passes after `limit` ticks of work, wherever they happen (no clock). */
class TickDeadline extends Deadline {
  private count = 0;
  constructor(private readonly limit: number) {
    super(Infinity);
  }
  override tick(): boolean {
    return ++this.count > this.limit;
  }
  override exceeded(): LimitKind | undefined {
    return this.count > this.limit ? 'time' : undefined;
  }
}

function load(file: string) {
  return loadGame(readFileSync(join(EXAMPLES_DIR, file), 'utf8'), file, defaultPipelineOptions(), new StageTimer()).normal;
}

function limitOf(run: () => unknown): GdlError {
  try {
    run();
  } catch (err) {
    if (err instanceof GdlError && err.code === 'limit') return err;
    throw err;
  }
  return expect.fail('no limit error');
}

describe('limit errors of the superset stage', () => {
  it('carry the relation they name as data', () => {
    const err = limitOf(() => computeSupersetsProlog(load('tictactoe.kif'), { ...TEST_REACH_LIMITS, maxAtoms: 20 }));
    const first = err.diagnostics[0]!;
    expect(first.message).toMatch(/^relation '(\w+)' grew to/);
    expect(first.relation).toBe(/^relation '(\w+)'/.exec(first.message)![1]);
  });

  it('name the query running when the clock stops it, with its estimate', () => {
    const normal = load('slow-query.kif');
    // The whole run takes more than 20,000 ticks (12^4 = 20,736 quad facts alone).
    const err = limitOf(() => computeSupersetsProlog(normal, { ...TEST_REACH_LIMITS, deadline: new TickDeadline(20_000) }));
    expect(err.message).toMatch(/time limit reached, in the query for 'quad' \(rule at line 7\), estimated at about \d+ join states$/);
  });

  it('do not name a query when the clock stops the run between queries', () => {
    // Deadline(0) has passed before anything runs: the first check is outside any query.
    const err = limitOf(() => computeSupersetsProlog(load('slow-query.kif'), { ...TEST_REACH_LIMITS, deadline: new Deadline(0) }));
    expect(err.message).toMatch(/time limit reached$/);
  });
});

describe('limit errors carry which limit as data', () => {
  it('the superset stage: its atom budget (the case demand may rescue), the clock in a query with its estimate, the clock between queries', () => {
    const atoms = limitOf(() => computeSupersetsProlog(load('tictactoe.kif'), { ...TEST_REACH_LIMITS, maxAtoms: 20 }));
    expect(atoms.limit).toEqual({ kind: 'atoms' });
    expect(isAtomBudget(atoms)).toBe(true);
    const query = limitOf(() => computeSupersetsProlog(load('slow-query.kif'), { ...TEST_REACH_LIMITS, deadline: new TickDeadline(20_000) }));
    expect(query.limit?.kind).toBe('time');
    expect(query.limit?.estimate).toBeGreaterThan(0);
    expect(isAtomBudget(query)).toBe(false);
    const between = limitOf(() => computeSupersetsProlog(load('slow-query.kif'), { ...TEST_REACH_LIMITS, deadline: new Deadline(0) }));
    expect(between.limit).toEqual({ kind: 'time' });
  });

  it('the dependency-graph method: its atom budget and the clock', () => {
    expect(limitOf(() => computeSupersetsDG(load('tictactoe.kif'), { ...TEST_REACH_LIMITS, maxAtoms: 1 })).limit).toEqual({ kind: 'atoms' });
    expect(limitOf(() => computeSupersetsDG(load('tictactoe.kif'), { ...TEST_REACH_LIMITS, deadline: new TickDeadline(0) })).limit).toEqual({ kind: 'time' });
  });

  it('a heap limit says memory, not time', () => {
    // A 1 MB heap limit is passed before anything runs.
    const err = limitOf(() => computeSupersetsProlog(load('tictactoe.kif'), { ...TEST_REACH_LIMITS, deadline: Deadline.in(Infinity, 1) }));
    expect(err.message).toMatch(/memory limit of 1 MB reached/);
    expect(err.limit).toEqual({ kind: 'memory' });
  });

  it('instantiation: the rule budget, and a refusal with its estimate', () => {
    const normal = load('tictactoe.kif');
    const options = resolvePipelineOptions({ maxGroundRules: 10 });
    const supersets = reachGame(normal, options, new StageTimer()).supersets;
    const rules = limitOf(() => groundGame(normal, supersets, options, new StageTimer()));
    expect(['rules', 'ground-atoms']).toContain(rules.limit?.kind);
    const explode = load('explode.kif');
    const refused = limitOf(() => groundNormalGame(explode, resolvePipelineOptions({}), new StageTimer()));
    expect(refused.message).toMatch(/would make about/);
    expect(refused.limit?.estimate).toBeGreaterThan(0);
  });
});
