// The rules whose ground rules skip the rule buffer's duplicate test (src/ground/distinct-rules.ts)
// on games/distinct-rules.kif: the proof names exactly the rules that make each ground rule once
// and none of another rule's, and the game grounds within a rule budget of exactly its ground
// rules (a duplicate let through would be counted against it).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { groundNormalGame, loadGame, resolvePipelineOptions } from '../src/pipeline/stages.js';
import { StageTimer } from '../src/timer.js';
import { TermTable } from '../src/datalog/terms.js';
import { compileRule } from '../src/ground/compile.js';
import { distinctRules } from '../src/ground/distinct-rules.js';
import type { Context } from '../src/ground/run-context.js';
import { termToString } from '../src/gdl/terms.js';
import { EXAMPLES_DIR } from './examples.js';

const file = join(EXAMPLES_DIR, 'distinct-rules.kif');
const text = readFileSync(file, 'utf8');

/** The heads (as text, with the first body atom) of the rules the proof lets skip the test, for the call over all of them. */
function skipped(ruleHeads: string[]): string[] {
  const normal = loadGame(text, file, resolvePipelineOptions({}), new StageTimer()).normal;
  const table = new TermTable();
  const rules = normal.rules.filter((r) => r.body.length > 0).map((r) => compileRule(r, file, table));
  const ctx = { statics: new Set(['num']), ruleHeads: new Set(ruleHeads) } as unknown as Context;
  const out = distinctRules(ctx, rules, new Set(), new Set());
  return rules.filter((r) => out.has(r)).map((r) => {
    const first = r.source.body[0]!;
    return `${termToString({ kind: 'fn', name: r.source.head.rel, args: r.source.head.args, pos: r.source.head.pos })} <= ${first.kind === 'pos' ? termToString({ kind: 'fn', name: first.atom.rel, args: first.atom.args, pos: first.atom.pos }) : '?'}`;
  });
}

describe('rules proven distinct', () => {
  it('are those that make each ground rule once and none of another rule', () => {
    expect(skipped([])).toEqual([
      '(legal p (mark ?x)) <= (true (mark ?x))',
      '(next (mark ?x)) <= (does p (mark ?x))',
      '(next (cell ?x)) <= (true (cell ?x))',
      '(terminal) <= (true (pair 1 1))',
      '(goal p 100) <= (true (cell ?x))',
    ]);
  });

  it('are none of a relation whose rules an earlier call made', () => {
    expect(skipped(['next', 'legal', 'terminal', 'goal'])).toEqual([]);
  });

  it('let the game ground within a budget of exactly its ground rules', () => {
    const options = resolvePipelineOptions({ maxGroundRules: 25 });
    const normal = loadGame(text, file, options, new StageTimer()).normal;
    expect(groundNormalGame(normal, options, new StageTimer()).ground.rules.length).toBe(25);
  });
});
