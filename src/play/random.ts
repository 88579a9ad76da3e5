/**
 * A small seeded pseudo-random generator (mulberry32), so that `verify --seed S` replays the
 * same matches on every machine; Math.random cannot be seeded.
 */

/** A generator of integers below a bound; each call advances the generator's own state. */
export interface Random {
  /** A uniformly chosen integer in `0..bound-1` (`bound` ≥ 1). */
  below(bound: number): number;
  /**
   * The generator's 32-bit state, read and written by the playout in one WebAssembly call
   * (fast/wasm-charge.ts), which draws the same numbers from it and hands it back.
   */
  state: number;
}

/** Creates a generator from a 32-bit seed (other numbers are reduced modulo 2^32). */
export function createRandom(seed: number): Random {
  // The state lives in this closure, one per generator: no module-level mutable state.
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    below: (bound) => Math.min(bound - 1, Math.floor(next() * bound)),
    get state() {
      return state;
    },
    set state(s: number) {
      state = s >>> 0;
    },
  };
}
