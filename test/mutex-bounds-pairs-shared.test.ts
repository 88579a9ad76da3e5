// Two bounded atoms of two relations held against their rows together (src/mutex/lifted-rows.ts
// boundPairsFit, docs/mutex.md "Bounds in pairs" and the thirty-first session's chess31 section): the
// second atom not ground under the first's bindings (chess's `(legal2 ?o (move ?p ?u ?v ?x ?y))`
// against `(knight_move ?p ?x ?y ?kx ?ky ?o)`), where a row of the first is tried against a bucket of
// the second until the values of the shared variables are collected once. The answer must be the one
// a search over every two rows gives, on both sides of that switch.
import { describe, expect, it } from 'vitest';
import { type Atom, type Term, NO_POS, mkAtom, mkConst, mkFn } from '../src/gdl/ast.js';
import { type Bound, boundPairsFit, matchesGround } from '../src/mutex/lifted-rows.js';
import { type Subst, key } from '../src/mutex/lifted-terms.js';

const v = (name: string): Term => ({ kind: 'var', name, pos: NO_POS });
const c = (name: string | number): Term => mkConst(String(name));

/** A bound over every position of `rows`, indexed as lifted-bounds.ts indexes one. */
function boundOf(rows: readonly (readonly Term[])[]): Bound {
  const none: Subst = new Map();
  const arity = rows[0]?.length ?? 0;
  const index = Array.from({ length: arity }, () => new Map<string, (readonly Term[])[]>());
  for (const row of rows) row.forEach((t, i) => index[i]!.set(key(t, none), [...(index[i]!.get(key(t, none)) ?? []), row]));
  return { keep: [...Array(arity).keys()], rows, index, memo: new Map() };
}

/** Whether two rows, one per atom, fit the atoms together under `s`: every pair tried. */
function bruteForce(a: Atom, ra: Bound, b: Atom, rb: Bound, s: Subst): boolean {
  return ra.rows.some((x) => {
    const local = new Map<string, Term>();
    if (!a.args.every((t, j) => matchesGround(t, x[j]!, s, local))) return false;
    return rb.rows.some((y) => {
      const more = new Map(local);
      return b.args.every((t, j) => matchesGround(t, y[j]!, s, more));
    });
  });
}

/** A seeded generator (the test's rows are the same on every run). */
function lcg(seed: number): () => number {
  let x = seed;
  return () => ((x = (x * 1103515245 + 12345) % 2147483648) / 2147483648);
}

describe('bounded atoms of two relations sharing variables, the second not ground under the first', () => {
  // (p ?a ?b ?d) against (q ?d ?b (f ?a ?e)): three shared variables, ?e the second's own.
  const a = mkAtom('p', [v('?a'), v('?b'), v('?d')]);
  const b = mkAtom('q', [v('?d'), v('?b'), mkFn('f', [v('?a'), v('?e')])]);

  it('agrees with every pair of rows tried, on random rows with and without a fitting pair', () => {
    const answers: boolean[] = [];
    for (let seed = 1; seed <= 60; seed++) {
      const rnd = lcg(seed);
      const pick = (n: number): Term => c(Math.floor(rnd() * n));
      // Many rows of q per value of ?d (large buckets: the shared values are collected), few of p.
      const p = boundOf(Array.from({ length: 6 }, () => [pick(12), pick(3), pick(2)]));
      const q = boundOf(Array.from({ length: 24 }, () => [pick(2), pick(3), mkFn('f', [pick(12), pick(4)])]));
      const s: Subst = new Map();
      const got = boundPairsFit([[a, p], [b, q]], s);
      expect(got).toBe(bruteForce(a, p, b, q, s));
      answers.push(got);
    }
    // Both answers occur, so both are pinned.
    expect(answers).toContain(true);
    expect(answers).toContain(false);
  });

  it('finds the one fitting pair behind many rows of the first atom that fit none', () => {
    // Every row of p has ?d = 0 (a bucket of all of q's rows), only the last one's ?a is in q.
    const p = boundOf([...Array.from({ length: 30 }, (_, i) => [c(`x${i}`), c(1), c(0)]), [c('y'), c(1), c(0)]]);
    const q = boundOf(Array.from({ length: 50 }, (_, i) => [c(0), c(1), mkFn('f', [c(i === 49 ? 'y' : `z${i}`), c(i)])]));
    expect(boundPairsFit([[a, p], [b, q]], new Map())).toBe(true);
    // Without that row of q, no pair fits.
    const fewer = boundOf(q.rows.slice(0, 49));
    expect(boundPairsFit([[a, boundOf(p.rows)], [b, fewer]], new Map())).toBe(false);
    // The second atom's own variable bound by the case: only that row of q is left to it.
    expect(boundPairsFit([[a, boundOf(p.rows)], [b, boundOf(q.rows)]], new Map([['?e', c(49)]]))).toBe(true);
    expect(boundPairsFit([[a, boundOf(p.rows)], [b, boundOf(q.rows)]], new Map([['?e', c(48)]]))).toBe(false);
  });
});
