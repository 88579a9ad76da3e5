// The one S-expression reader (src/gdl/lexer.ts): KIF reads through it folding case and
// recovering; the planner formats (src/formats/sexpr.ts) read through it strictly, keeping case.
import { describe, expect, it } from 'vitest';
import { readStrict } from '../src/gdl/lexer.js';
import { parseSexprs } from '../src/formats/sexpr.js';

describe('readStrict', () => {
  it('keeps case for the planner formats and folds it for KIF', () => {
    const kept = readStrict('(define (Domain G))\r\n; note\n(:Init)', false);
    expect(kept.kind === 'ok' && kept.exprs.map((e) => e.kind === 'list' ? e.items.map((i) => i.kind === 'sym' ? i.text : '()').join(' ') : e.text)).toEqual(['define ()', ':Init']);
    const folded = readStrict('(Domain)', true);
    expect(folded.kind === 'ok' && folded.exprs[0]!.kind === 'list' && folded.exprs[0]!.items[0]).toMatchObject({ kind: 'sym', text: 'domain' });
  });

  it('stops at the first problem with its position (CRLF counts as one line end)', () => {
    expect(readStrict('(a)\r\n  )', false)).toEqual({ kind: 'error', pos: { line: 2, col: 3 }, message: "unbalanced ')': no '(' is open here" });
    expect(readStrict('(a\n (b)', false)).toMatchObject({ kind: 'error', pos: { line: 1, col: 1 } });
    expect(readStrict('(a \u0001)', false)).toMatchObject({ kind: 'error', pos: { line: 1, col: 4 }, message: 'unexpected character U+0001' });
  });

  it('gives the GDDL reader positioned errors', () => {
    expect(() => parseSexprs('(x))', 'd.gddl')).toThrowError("d.gddl:1:4: error: unbalanced ')': no '(' is open here");
  });

  it('reads nesting far deeper than any recursion could', () => {
    const deep = `${'('.repeat(100_000)}x${')'.repeat(100_000)}`;
    expect(readStrict(deep, false).kind).toBe('ok');
  });
});
