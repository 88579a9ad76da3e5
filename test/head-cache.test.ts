/**
 * The head cache of a rule run (src/ground/head-cache.ts): a head is found again by its
 * variables' values, across growth; the cache turns itself off only once it is large and most
 * look-ups miss; and instantiation records a head as derived only from a binding whose ground
 * rule lives (the first binding of `h` below dies, `p` and `not p`, the second does not). A
 * cache made off (a static rule's) is never used; a head over no variables is found.
 */
import { describe, expect, it } from 'vitest';
import { HEAD_FILTERED, HEAD_PASSED, addHead, createHeadCache, findHead } from '../src/ground/head-cache.js';
import { emitGame, groundGame, loadGame } from '../src/index.js';

/** A binding of variables 0..2 (the head's are 0 and 2; 1 is a body variable). */
const binding = (x: number, y: number, z: number): Int32Array => Int32Array.from([x, y, z]);

describe('head cache', () => {
  it('finds each head by its variables, not by the others, across growth', () => {
    const c = createHeadCache([0, 2]);
    for (let x = 0; x < 300; x++) {
      for (let z = 0; z < 3; z++) {
        expect(findHead(c, binding(x, 7, z))).toBe(-1);
        addHead(c, binding(x, 7, z), 1000 + 3 * x + z, (x + z) % 2 === 0 ? HEAD_PASSED : HEAD_FILTERED);
      }
    }
    for (let x = 0; x < 300; x++) {
      for (let z = 0; z < 3; z++) {
        const e = findHead(c, binding(x, x * 5, z));
        expect(e).toBeGreaterThanOrEqual(0);
        expect(c.ids[e]).toBe(1000 + 3 * x + z);
        expect(c.states[e]).toBe((x + z) % 2 === 0 ? HEAD_PASSED : HEAD_FILTERED);
      }
    }
    expect(findHead(c, binding(300, 0, 0))).toBe(-1);
  });

  it('turns off when large and mostly missing, stays on when heads repeat', () => {
    const fresh = createHeadCache([0]);
    for (let x = 0; x < 200_000 && fresh.on; x++) if (findHead(fresh, binding(x, 0, 0)) < 0) addHead(fresh, binding(x, 0, 0), x, HEAD_PASSED);
    expect(fresh.on).toBe(false);
    expect(fresh.count).toBeLessThan(100_000);
    const repeated = createHeadCache([0]);
    for (let x = 0; x < 200_000; x++) if (findHead(repeated, binding(x % 40_000, 0, 0)) < 0) addHead(repeated, binding(x % 40_000, 0, 0), x, HEAD_PASSED);
    expect(repeated.on).toBe(true);
    expect(repeated.count).toBe(40_000);
  });

  it('made off (a static rule), finds nothing and holds nothing', () => {
    const off = createHeadCache([0], false);
    expect(addHead(off, binding(1, 0, 0), 5, HEAD_PASSED)).toBe(-1);
    expect(findHead(off, binding(1, 0, 0))).toBe(-1);
    expect(off.count).toBe(0);
  });

  it('finds a head over no variables (a 0-ary head) once added', () => {
    const c = createHeadCache([]);
    expect(findHead(c, binding(1, 2, 3))).toBe(-1);
    addHead(c, binding(1, 2, 3), 9, HEAD_PASSED);
    expect(c.ids[findHead(c, binding(4, 5, 6))]).toBe(9);
  });

  it('records a head from a later binding when the first binding of it dies', () => {
    const text = `(role r) (init (f 1)) (init (f 2))
      (<= (next (f ?x)) (true (f ?x))) (<= (legal r (m ?x)) (true (f ?x)))
      (<= (h) (true (f ?x)) (not (true (f 1))))
      (<= (goal r 100) (h)) (<= (goal r 0) (not (h))) (<= terminal (true (f 3)))`;
    const loaded = loadGame(text, { file: 'h.kif' });
    if (!loaded.ok) throw new Error('not loaded');
    const out = emitGame(groundGame(loaded.game), 'gdl').files[0]!.text;
    expect(out).toContain('(<= (goal r 100) h)');
    expect(out).toContain('(<= h (true (f 2)) (not (true (f 1))))');
  });
});
