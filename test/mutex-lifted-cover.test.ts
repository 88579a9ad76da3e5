// The lifted proofs' closing rule of src/mutex/lifted-cover.ts (docs/mutex.md, thirtieth session,
// sudoku30): a positive `true` atom each of whose fluent rows a negative `true` atom of the same
// case forbids. games/mutex-cover-values.kif's `mark` per cell is proven "at most one" lifted only
// with the game's fluent rows given (the rule reads them); `negativesCover` on its own cases.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Deadline } from '../src/deadline.js';
import type { Term } from '../src/gdl/ast.js';
import { NO_POS } from '../src/gdl/ast.js';
import type { Literal } from '../src/normalize/types.js';
import { hypotheses } from '../src/mutex/candidates.js';
import { negativesCover } from '../src/mutex/lifted-cover.js';
import { proveLifted } from '../src/mutex/lifted.js';
import { fluentArgs, mutexView } from '../src/mutex/view.js';
import { defaultPipelineOptions } from '../src/pipeline/options.js';
import { runGrounding } from '../src/pipeline/stages.js';
import { StageTimer } from '../src/timer.js';
import { EXAMPLES_DIR } from './corpus.js';

/** Whether `mark [0]` (one mark per cell) is proven lifted, with the game's fluent rows or without. */
function markPerCell(withFluents: boolean): boolean {
  const text = readFileSync(join(EXAMPLES_DIR, 'mutex-cover-values.kif'), 'utf8');
  const { loaded, ground } = runGrounding(text, 'mutex-cover-values.kif', defaultPipelineOptions(), new StageTimer());
  const view = mutexView(ground);
  const hyps = hypotheses(view);
  const i = hyps.findIndex((h) => h.relation === 'mark/2' && h.input.join(',') === '0');
  expect(i).toBeGreaterThanOrEqual(0);
  const limits = { deadline: Deadline.never(), maxPairs: 1e6, ...(withFluents ? { fluents: fluentArgs(ground) } : {}) };
  return proveLifted(loaded.normal, view, hyps, hyps.map(() => true), limits).proven[i]!;
}

const c = (name: string): Term => ({ kind: 'const', name, pos: NO_POS });
const v = (name: string): Term => ({ kind: 'var', name, pos: NO_POS });
const mark = (cell: Term, value: Term): Term => ({ kind: 'fn', name: 'mark', args: [cell, value], pos: NO_POS });
const lit = (kind: 'pos' | 'neg', fluent: Term): Literal => ({ kind, atom: { kind: 'atom', rel: 'true', args: [fluent], pos: NO_POS } });
const ROWS = new Map([['mark/2', ['a', 'b'].flatMap((x) => ['1', '2', '3'].map((y) => [c(x), c(y)]))]]);

describe('a true atom every fluent row of which a negative atom forbids', () => {
  it('mutex-cover-values: one mark per cell proven lifted with the fluent rows, not without', () => {
    expect(markPerCell(true)).toBe(true);
    expect(markPerCell(false)).toBe(false);
  });

  it('closes a case only when every value the rows give is forbidden, on the same other arguments', () => {
    const negs = (cell: Term, values: string[]): Literal[] => values.map((x) => lit('neg', mark(cell, c(x))));
    const s = new Map<string, Term>();
    expect(negativesCover([lit('pos', mark(v('C'), v('W'))), ...negs(v('C'), ['1', '2', '3'])], s, ROWS)).toBe(true);
    // One value left: the case stays open.
    expect(negativesCover([lit('pos', mark(v('C'), v('W'))), ...negs(v('C'), ['1', '2'])], s, ROWS)).toBe(false);
    // The negative atoms on another cell forbid nothing of this one.
    expect(negativesCover([lit('pos', mark(v('C'), v('W'))), ...negs(v('D'), ['1', '2', '3'])], s, ROWS)).toBe(false);
    expect(negativesCover([lit('pos', mark(c('a'), v('W'))), ...negs(c('b'), ['1', '2', '3'])], s, ROWS)).toBe(false);
    expect(negativesCover([lit('pos', mark(c('a'), v('W'))), ...negs(c('a'), ['1', '2', '3'])], s, ROWS)).toBe(true);
    // No rows of the relation given: never closed this way.
    expect(negativesCover([lit('pos', mark(v('C'), v('W'))), ...negs(v('C'), ['1', '2', '3'])], s, new Map())).toBe(false);
  });
});
