/**
 * Exclusions between a counter and a record of it (docs/mutex.md, 2h "Counters and their
 * records", 2026-11-28): stateSpaceLarge writes `(choice ?d ?x)` at `(depth ?d)` and keeps it,
 * firefighter writes `(maked ?a ?s)` at `(step ?s - 1)`; a square's group "one choice per level"
 * holds because nothing is recorded at a level the counter has not reached: `(depth a)` and
 * `(choice b ?x)` are never true together for b at or past a. Those pairs share no position's
 * value (a ≠ b), so the position maps of ground-exclusions.ts never pair them (only relations of
 * at most 64 product pairs are tried with no position mapped). Here a relation no sampled state
 * holds two fluents of (a counter) is paired with every other relation, all pairs, when there
 * are few enough; the pairs are only candidates, held against the states and proven by the joint
 * proof (ground-joint.ts) like the others.
 */
import type { MutexView } from './view.js';

/** Product pairs of a counter and another relation above which the two are not paired. */
const MAX_COUNTER_PAIRS = 8_192;
/** Pairs generated in all (each held against every state). */
const MAX_COUNTER_GENERATED = 50_000;
/** Widest relation paired with a counter (as ground-exclusions.ts's position maps). */
const MAX_ARITY = 4;

/**
 * Every pair `[a, b]` (a < b) of a fluent of a counter (a relation of two or more fluents the
 * states show, no state holding two of them) and a fluent of another relation the states show,
 * for the relations of at most {@link MAX_COUNTER_PAIRS} product pairs; none that `known` (keys
 * `a * fluents + b`) holds. Relations by name, counters first by name.
 */
export function counterPairs(view: MutexView, states: readonly (readonly number[])[], known: ReadonlySet<number>): [number, number][] {
  const byRel = new Map<string, number[]>();
  const seen = new Uint8Array(view.fluents.length);
  for (const s of states) for (const f of s) seen[f] = 1;
  view.fluents.forEach((f, i) => {
    if (seen[i] !== 1 || f.args.length > MAX_ARITY) return;
    const list = byRel.get(f.relation);
    if (list === undefined) byRel.set(f.relation, [i]);
    else list.push(i);
  });
  const rels = [...byRel.keys()].sort();
  const multi = multiValued(view, states);
  const counters = rels.filter((r) => byRel.get(r)!.length > 1 && !multi.has(r));
  const n = view.fluents.length;
  const out: [number, number][] = [];
  const taken = new Set<number>();
  for (const c of counters) {
    for (const q of rels) {
      const ps = byRel.get(c)!;
      const qs = byRel.get(q)!;
      if (q === c || ps.length * qs.length > MAX_COUNTER_PAIRS) continue;
      for (const a of ps) {
        for (const b of qs) {
          const [x, y] = a < b ? [a, b] : [b, a];
          const key = x * n + y;
          if (known.has(key) || taken.has(key) || out.length >= MAX_COUNTER_GENERATED) continue;
          taken.add(key);
          out.push([x, y]);
        }
      }
    }
  }
  return out;
}

/** The relations some state holds two fluents of. */
function multiValued(view: MutexView, states: readonly (readonly number[])[]): Set<string> {
  const multi = new Set<string>();
  const count = new Map<string, number>();
  for (const s of states) {
    count.clear();
    for (const f of s) {
      const r = view.fluents[f]!.relation;
      const k = (count.get(r) ?? 0) + 1;
      count.set(r, k);
      if (k > 1) multi.add(r);
    }
  }
  return multi;
}
