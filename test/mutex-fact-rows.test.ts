// The index of static facts the exactly-one tableau matches through (lifted-fact-rows.ts,
// docs/mutex.md "Proofs that finish inside the budget"): a literal meets a static relation's
// rows in the same ways, in the same order, with the index as without it.
import { describe, expect, it } from 'vitest';
import { NO_POS, type Term, mkConst, mkFn } from '../src/gdl/ast.js';
import type { Literal } from '../src/normalize/types.js';
import { factRows } from '../src/mutex/lifted-fact-rows.js';
import { literalWays } from '../src/mutex/lifted-match.js';
import type { Subst } from '../src/mutex/lifted-terms.js';

const v = (name: string): Term => ({ kind: 'var', name, pos: NO_POS });
const c = (name: string): Term => mkConst(name);

/** `adj/3` over a 6 x 6 board, rows in an order that is not sorted by any one place; one row with a compound. */
function facts(): Map<string, (readonly Term[])[]> {
  const rows: (readonly Term[])[] = [];
  for (let i = 0; i < 36; i++) {
    const x = (i + 2 * Math.floor(i / 6)) % 6;
    const y = (5 * Math.floor(i / 6) + 1) % 6;
    rows.push([c(`x${x}`), c(`y${y}`), c(`d${(x + y) % 3}`)]);
  }
  rows.push([mkFn('pair', [c('x1'), c('x2')]), c('y1'), c('d0')]);
  return new Map([['adj/3', rows]]);
}

const lit = (args: Term[]): Literal => ({ kind: 'pos', atom: { kind: 'atom', rel: 'adj', args, pos: NO_POS } });
const ruleVar = (name: string): boolean => name.endsWith('#r');
/** The ways as texts of their bindings, in order. */
const text = (ways: ReturnType<typeof literalWays>): string[] => ways.map((w) => [...w.s].map(([k, t]) => `${k}=${t.kind === 'fn' ? `(${t.name} ...)` : t.name}`).join(','));

describe('the index of static facts', () => {
  const f = facts();
  const rows = factRows(f);
  const cases: [string, Term[], Subst][] = [
    ['first place bound', [c('x3'), v('Y#r'), v('D#r')], new Map()],
    ['second place bound through the case', [v('X#r'), v('Y#r'), v('D#r')], new Map([['Y#r', c('y4')]])],
    ['last place bound', [v('X#r'), v('Y#r'), c('d2')], new Map()],
    ['two places bound', [c('x1'), v('Y#r'), c('d0')], new Map()],
    ['nothing bound', [v('X#r'), v('Y#r'), v('D#r')], new Map()],
    ['no row matches', [c('x9'), v('Y#r'), v('D#r')], new Map()],
  ];
  for (const [name, args, s] of cases) {
    it(`gives the same ways in the same order: ${name}`, () => {
      const plain = literalWays(lit(args), [], s, ruleVar, f, true);
      const indexed = literalWays(lit(args), [], s, ruleVar, f, true, rows);
      expect(text(indexed)).toEqual(text(plain));
    });
  }

  it('narrows the rows by the first bound place, keeping their order', () => {
    const all = f.get('adj/3')!;
    const picked = rows('adj/3', [c('x2'), v('Y'), v('D')]);
    expect(picked).toEqual(all.filter((r) => r[0]!.kind === 'const' && (r[0] as { name: string }).name === 'x2'));
    expect(picked.length).toBe(6);
    expect(rows('adj/3', [v('X'), v('Y'), v('D')])).toBe(all);
    expect(rows('none/1', [c('a')])).toEqual([]);
  });
});
