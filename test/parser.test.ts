// Parser: positions, case folding, line ends, comments, deep terms and bracket errors.
import { describe, expect, it } from 'vitest';
import { parseGdl } from '../src/gdl/parser.js';
import { formulaToString, termToString, atomToString } from '../src/gdl/terms.js';
import { Deadline } from '../src/deadline.js';

describe('parseGdl', () => {
  it('folds case, skips comments and counts CR, LF and CRLF as line ends', () => {
    const r = parseGdl('; c\r\n(ROLE Xplayer)\r(<= (Legal ?R NoOp)\n  (role ?r))', 'g.kif', Deadline.never());
    expect(r.diagnostics).toEqual([]);
    expect(r.game.rules.map((x) => atomToString(x.head))).toEqual(['(role xplayer)', '(legal ?r noop)']);
    expect(r.game.rules[1]!.pos).toEqual({ line: 3, col: 1 });
    expect(r.game.rules[1]!.body[0]!.pos).toEqual({ line: 4, col: 3 });
  });

  it('reads odd symbols as constants and nested function terms', () => {
    const r = parseGdl('(init (f + - 1a a.b (g (h 0))))', undefined, Deadline.never());
    expect(r.diagnostics).toEqual([]);
    expect(termToString(r.game.rules[0]!.head.args[0]!)).toBe('(f + - 1a a.b (g (h 0)))');
  });

  it('reads not, and, or and distinct in bodies', () => {
    const r = parseGdl('(<= p (or (not (q ?x)) (and (r ?x) (distinct ?x 1))) (s ?x))', undefined, Deadline.never());
    expect(r.diagnostics).toEqual([]);
    expect(r.game.rules[0]!.body.map(formulaToString)).toEqual(['(or (not (q ?x)) (and (r ?x) (distinct ?x 1)))', '(s ?x)']);
  });

  it('parses a term nested 200000 deep without exhausting the stack', () => {
    const n = 200_000;
    const r = parseGdl(`(init ${'(s '.repeat(n)}0${')'.repeat(n)})`, undefined, Deadline.never());
    expect(r.diagnostics).toEqual([]);
    expect(termToString(r.game.rules[0]!.head.args[0]!).length).toBe(4 * n + 1);
  });

  it('reports a stray ) and an unclosed ( at their positions', () => {
    const r = parseGdl('(role a))\n(init (p 1)\n', 'bad.kif', Deadline.never());
    expect(r.diagnostics.map((d) => `${d.line}:${d.col} ${d.message}`)).toEqual([
      "1:9 unbalanced ')': no '(' is open here",
      "2:1 unbalanced '(': not closed before the end of the file",
    ]);
  });

  it('reports binary garbage with a bounded number of errors', () => {
    const r = parseGdl('\u0000\u0001\u0002'.repeat(100), 'bin.kif', Deadline.never());
    expect(r.diagnostics.length).toBeLessThanOrEqual(21);
    expect(r.diagnostics[0]).toMatchObject({ line: 1, col: 1, message: 'unexpected character U+0000' });
  });

  it('reads a function term without arguments as a constant, with a warning', () => {
    const r = parseGdl('(<= (next (gameOver)) (true (gameOver)))', 'g.kif', Deadline.never());
    expect(r.diagnostics.map((d) => `${d.severity} ${d.line}:${d.col}`)).toEqual(['warning 1:11', 'warning 1:29']);
    expect(formulaToString(r.game.rules[0]!.body[0]!)).toBe('(true gameover)');
  });

  it('rejects variables as relation names and malformed connectives', () => {
    const r = parseGdl('(?r a)\n(<= p (not a b))\n(<= (or a b) c)\n(<= p (distinct ?x))', undefined, Deadline.never());
    expect(r.diagnostics.map((d) => d.line)).toEqual([1, 2, 3, 4]);
  });
});
