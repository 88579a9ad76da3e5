// Sets of term ids as bits (src/datalog/id-bits.ts) and the stores that keep their membership
// that way (src/datalog/block.ts): checked against a Set on random ids, ids below and above the
// window, ascending ids from far above zero, a window refused as too sparse, and a store that
// falls back to its hash index.
import { describe, expect, it } from 'vitest';
import { IdBits, IdSet } from '../src/datalog/id-bits.js';
import { addToStore, createStore, inStore, storeIds } from '../src/datalog/block.js';
import { createRandom } from '../src/play/random.js';

describe('IdBits', () => {
  it('agrees with a Set on random ids, growing down and up', () => {
    const random = createRandom(7);
    const bits = new IdBits(Infinity);
    const model = new Set<number>();
    // Clustered ids around a point that wanders, below and above the first one.
    let at = 50_000;
    for (let i = 0; i < 20_000; i++) {
      at = Math.max(0, at + random.below(2001) - 1000);
      const id = at + random.below(64);
      if (bits.has(id)) {
        expect(model.has(id)).toBe(true);
        continue;
      }
      expect(model.has(id)).toBe(false);
      expect(bits.add(id)).toBe(true);
      model.add(id);
    }
    for (let id = -40; id < 200_000; id++) expect(bits.has(id)).toBe(model.has(id));
  });

  it('refuses an id that would make the window too sparse, and keeps what it holds', () => {
    const bits = new IdBits();
    for (let id = 0; id < 10; id++) expect(bits.add(id)).toBe(true);
    expect(bits.add(10_000_000)).toBe(false);
    expect(bits.has(10_000_000)).toBe(false);
    for (let id = 0; id < 10; id++) expect(bits.has(id)).toBe(true);
    expect(bits.add(2000)).toBe(true);
    expect(bits.has(2000)).toBe(true);
  });

  it('keeps ascending ids that start far from zero, with few held when they pass the first word', () => {
    // Atoms are interned in ascending order: a store's first window must lie above its first id
    // (the window once ended at it, and refused the next word while under 7 ids were held).
    const bits = new IdBits();
    for (let id = 87_900; id < 100_000; id += 2) expect(bits.add(id)).toBe(true);
    expect(bits.has(87_902)).toBe(true);
    expect(bits.has(87_903)).toBe(false);
    expect(bits.add(87_000)).toBe(true);
    expect(bits.has(87_000)).toBe(true);
  });

  it('clears the ids listed and keeps no other', () => {
    const bits = new IdBits(Infinity);
    const ids = [5, 900, 33, 100_000];
    for (const id of ids) bits.add(id);
    bits.clear(ids, ids.length);
    for (const id of ids) expect(bits.has(id)).toBe(false);
    bits.add(34);
    expect(bits.has(34)).toBe(true);
    expect(bits.has(33)).toBe(false);
  });
});

describe('Store membership', () => {
  it('falls back to the hash index when its ids are too sparse for bits, and loses none', () => {
    const store = createStore('p');
    const ids = [3, 1, 2, 40, 7_000_000, 12, 9_000_000, 5];
    for (const id of ids) expect(addToStore(store, id)).toBe(true);
    expect(store.bits).toBeUndefined();
    for (const id of ids) expect(addToStore(store, id)).toBe(false);
    for (const id of ids) expect(inStore(store, id)).toBe(true);
    for (const id of [0, 4, 6_999_999, 8_000_000, -1]) expect(inStore(store, id)).toBe(false);
    expect(storeIds(store)).toEqual(ids);
  });

  it('keeps bits for ids interned in ascending order far from zero', () => {
    const store = createStore('p');
    for (let id = 764_254; id < 800_000; id += 3) addToStore(store, id);
    expect(store.bits).toBeDefined();
    expect(inStore(store, 764_257)).toBe(true);
    expect(inStore(store, 764_258)).toBe(false);
  });

  it('keeps bits while its ids lie close together', () => {
    const store = createStore('p');
    for (let id = 1000; id < 5000; id += 3) addToStore(store, id);
    expect(store.bits).toBeDefined();
    expect(inStore(store, 1003)).toBe(true);
    expect(inStore(store, 1004)).toBe(false);
    expect(inStore(store, -1)).toBe(false);
  });
});

describe('IdSet', () => {
  it('agrees with a Set and keeps the order added, as bits and after spreading to a hash set', () => {
    const random = createRandom(11);
    // Dense ids first (bits), then ids far apart, which the bits refuse: the set turns into a
    // hash set and must keep every id added before.
    for (const spread of [false, true]) {
      const set = new IdSet();
      const model = new Set<number>();
      for (let i = 0; i < 5_000; i++) {
        const id = spread && i >= 2_500 ? random.below(1 << 30) : 1_000 + random.below(8_000);
        expect(set.has(id)).toBe(model.has(id));
        set.add(id);
        model.add(id);
      }
      expect([...set.ids()]).toEqual([...model]);
      for (const id of model) expect(set.has(id)).toBe(true);
      for (let id = -5; id < 10_000; id++) expect(set.has(id)).toBe(model.has(id));
      expect(set.has(1 << 30)).toBe(model.has(1 << 30));
    }
  });
});
