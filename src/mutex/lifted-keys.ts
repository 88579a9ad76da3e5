/**
 * The keys of claims on some keys (lifted.ts): which keys a claim still needs checked, what a key's
 * check took from other claims once it is settled, and two inductions' keys together. A claim on
 * some keys keeps the keys whose step holds when others fail (alexChess, docs/mutex.md alex31).
 */
import type { Term } from '../gdl/ast.js';
import type { Hypothesis } from './candidates.js';
import type { Assumed, AssumedClaim } from './lifted-core.js';
import { type KeysOf, keyText } from './lifted-induction.js';

/**
 * Two inductions' proven claims together, each an invariant of its own (the second started from
 * the first's keys): a hypothesis the first proved keeps the first's keys, one only the second
 * proved gets the second's.
 */
export function merged(proven: readonly boolean[], keys: KeysOf, again: { readonly proven: readonly boolean[]; readonly keys: KeysOf }): { proven: boolean[]; keys: KeysOf } {
  return { proven: proven.map((p, i) => p || again.proven[i] === true), keys: keys.map((k, i) => (proven[i] ? k : again.keys[i])) };
}

/**
 * The keys of a partial hypothesis whose claim no assumed claim of its relation on fewer input
 * positions implies (all of them for a hypothesis on every key). Two fluents that agree on the
 * hypothesis' inputs agree on the smaller claim's, so where that claim holds, this key's claim holds
 * too: in the successor state, by the smaller claim's own step (ttcc4_2player: `cell` [2], one square
 * per piece, implies [0, 2] and [1, 2] for that piece, 45 keys each). The claim leaned on is told
 * to `use`, so that the check is done again, every key, if it leaves.
 */
export function keysNotImplied(h: Hypothesis, keys: readonly (readonly Term[])[] | undefined, assumed: Assumed): readonly (readonly Term[])[] | undefined {
  if (keys === undefined) return undefined;
  const smaller = (assumed.get(h.relation) ?? []).filter((c) => c.input.length < h.input.length && c.input.every((p) => h.input.includes(p)));
  if (smaller.length === 0) return keys;
  return keys.filter((k) => {
    // The key's arguments at the smaller claim's inputs, as that claim holds its keys.
    const text = (c: AssumedClaim): string => keyText(c.input.map((p) => k[h.input.indexOf(p)]!));
    const by = smaller.find((c) => c.keys === undefined || c.keys.has(text(c)));
    if (by !== undefined) assumed.use?.(by, by.keys === undefined ? undefined : text(by));
    return by === undefined;
  });
}

/**
 * `assumed` whose `use` calls wait for `settle`: passed on for a key whose step was shown, dropped
 * for one that failed. A key that failed leaves the claim (lifted-induction.ts), so what its
 * check took does not make the check, which the other keys' steps stand without, be done again
 * (alexChess: `bn8`'s step takes `bn8`'s own claim, which then leaves).
 */
export function perKeyUses(assumed: Assumed): { assumed: Assumed; settle: (shown: boolean) => void } {
  const pending: [AssumedClaim, string | undefined][] = [];
  return {
    assumed: { get: (k) => assumed.get(k), has: (k) => assumed.has(k), use: (c, at) => void pending.push([c, at]), ...(assumed.want === undefined ? {} : { want: (r, same) => assumed.want!(r, same) }) },
    settle: (shown) => {
      if (shown) pending.forEach(([c, at]) => assumed.use?.(c, at));
      pending.length = 0;
    },
  };
}
