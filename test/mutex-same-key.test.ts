// sameKey (src/mutex/lifted-terms.ts): the forcing of the lifted proofs (lifted-core.ts) compares
// arguments without making their texts (docs/mutex.md, thirty-first session, chess31). Its answer
// must be key(a, s) === key(b, s) on every pair of terms, bindings followed.
import { describe, expect, it } from 'vitest';
import { type Term, NO_POS, mkConst, mkFn } from '../src/gdl/ast.js';
import { type Subst, key, sameKey } from '../src/mutex/lifted-terms.js';

const v = (name: string): Term => ({ kind: 'var', name, pos: NO_POS });

/** A seeded generator (the same terms on every run). */
function lcg(seed: number): () => number {
  let x = seed;
  return () => ((x = (x * 1103515245 + 12345) % 2147483648) / 2147483648);
}

/** A random term of depth at most `depth` over a few names (constants, the variables `vars`, `f/1`, `f/2`, `g/2`). */
function term(rnd: () => number, depth: number, vars: readonly string[] = ['?x', '?y', '?z', '?w']): Term {
  const r = rnd();
  if (depth === 0 || r < 0.4) return mkConst(['a', 'b', 'c'][Math.floor(rnd() * 3)]!);
  if (r < 0.7) return v(vars[Math.floor(rnd() * vars.length)]!);
  const arity = 1 + Math.floor(rnd() * 2);
  return mkFn(rnd() < 0.5 ? 'f' : 'g', Array.from({ length: arity }, () => term(rnd, depth - 1, vars)));
}

describe('sameKey', () => {
  it('is key equality on random terms under random bindings (chains of variables included)', () => {
    let equal = 0;
    for (let seed = 1; seed <= 400; seed++) {
      const rnd = lcg(seed);
      // ?x -> ?y -> term, ?z -> term, ?w free (the bound terms hold only ?w: no cycle).
      const s: Subst = new Map([['?x', v('?y')], ['?y', term(rnd, 2, ['?w'])], ['?z', term(rnd, 2, ['?w'])]]);
      const a = term(rnd, 3);
      const b = rnd() < 0.3 ? a : term(rnd, 3);
      expect(sameKey(a, b, s)).toBe(key(a, s) === key(b, s));
      if (key(a, s) === key(b, s)) equal++;
    }
    // Both answers occur.
    expect(equal).toBeGreaterThan(20);
    expect(equal).toBeLessThan(380);
  });

  it('tells apart a constant from a compound of its name, arities and argument order', () => {
    const none: Subst = new Map();
    expect(sameKey(mkConst('f'), mkFn('f', [mkConst('a')]), none)).toBe(false);
    expect(sameKey(mkFn('f', [mkConst('a')]), mkFn('f', [mkConst('a'), mkConst('a')]), none)).toBe(false);
    expect(sameKey(mkFn('f', [mkConst('a'), mkConst('b')]), mkFn('f', [mkConst('b'), mkConst('a')]), none)).toBe(false);
    expect(sameKey(mkFn('f', [mkConst('a'), mkConst('a')]), mkFn('f', [mkConst('a'), mkConst('b')]), none)).toBe(false);
    expect(sameKey(v('?x'), mkFn('f', [mkConst('a')]), new Map([['?x', mkFn('f', [mkConst('a')])]]))).toBe(true);
  });
});
