/**
 * States packed into one array: state s holds the ids `ids[offsets[s]]` up to (not including)
 * `ids[offsets[s + 1]]`. A complete search's half a million states as one array of ids each cost
 * about 600 bytes (snake_2008: 512,693 states of about 68 fluents, held twice, as term ids and as
 * fluent indexes); packed they cost 4 bytes an id and are walked without a pointer per state.
 * The search (reachable.ts) packs them as term ids, the mutex stage maps them to fluent indexes:
 * one type for both, here, since the mutex stage may read this file of play/ and play/ nothing of
 * the mutex stage (docs/architecture.md).
 */

/** States packed (see the file's comment); `ids` are term ids or fluent indexes, as the user says. */
export interface PackedStates {
  readonly kind: 'packed';
  readonly ids: Int32Array;
  /** `count + 1` offsets into `ids`. */
  readonly offsets: Int32Array;
  readonly count: number;
}

/** `states` packed (copied), or `states` itself when it is packed already. */
export function packStates(states: readonly (readonly number[])[] | PackedStates): PackedStates {
  if (!Array.isArray(states)) return states as PackedStates;
  const list = states as readonly (readonly number[])[];
  const offsets = new Int32Array(list.length + 1);
  for (let s = 0; s < list.length; s++) offsets[s + 1] = offsets[s]! + list[s]!.length;
  const ids = new Int32Array(offsets[list.length]!);
  list.forEach((st, s) => ids.set(st, offsets[s]!));
  return { kind: 'packed', ids, offsets, count: list.length };
}

/** Each id of `packed` through `map`, dropping those it maps below 0 (ids `map` does not know). */
export function mapPacked(packed: PackedStates, map: Int32Array): PackedStates {
  const ids = new Int32Array(packed.ids.length);
  const offsets = new Int32Array(packed.count + 1);
  let n = 0;
  for (let s = 0; s < packed.count; s++) {
    for (let k = packed.offsets[s]!; k < packed.offsets[s + 1]!; k++) {
      const t = packed.ids[k]!;
      const f = t < map.length ? map[t]! : -1;
      if (f >= 0) ids[n++] = f;
    }
    offsets[s + 1] = n;
  }
  return { kind: 'packed', ids: ids.subarray(0, n), offsets, count: packed.count };
}

/** The first `limit` states of `packed` as arrays of ids. */
export function unpackFirst(packed: PackedStates, limit: number): number[][] {
  const out: number[][] = [];
  for (let s = 0; s < Math.min(limit, packed.count); s++) out.push([...packed.ids.subarray(packed.offsets[s]!, packed.offsets[s + 1]!)]);
  return out;
}

/** How many states `states` holds, packed or not. */
export function stateCount(states: readonly (readonly number[])[] | PackedStates): number {
  return Array.isArray(states) ? states.length : (states as PackedStates).count;
}
