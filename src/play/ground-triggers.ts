/**
 * How the ground simulator's compiled rules (ground-plan.ts) are filed and grouped for
 * evaluation: acyclic rules filed under a trigger atom of their positive body (a `does` atom
 * for the move rules, a `(true F)` atom for the state rules), looked at only when it holds; and
 * consecutive acyclic ranges joined into one, so that a game of many tiny components pays for
 * its rules, not for its ranges (merrills: 127,890 state ranges of 2.4 rules on average,
 * docs/mutex.md, merr26).
 */

/** The positive bodies of rules in evaluation order: `pos[posStart[k] .. posStart[k+1]-1]`. */
interface Bodies {
  readonly posStart: Int32Array;
  readonly pos: Int32Array;
}

/** Picks a rule's trigger: an atom of its positive body, or -1 for none (then the rule is plain). */
type PickTrigger = (rules: Bodies, k: number) => number;

/** The first positive body atom marked in `is`. */
export function firstOf(is: Uint8Array): PickTrigger {
  return (rules, k) => {
    for (let i = rules.posStart[k]!; i < rules.posStart[k + 1]!; i++) if (is[rules.pos[i]!] === 1) return rules.pos[i]!;
    return -1;
  };
}

/**
 * The positive body atom marked in `is` that the fewest rules of the acyclic `ranges` read
 * positively (the first of those); none at all when fewer than half of those rules have one.
 * Filing pays for the rules it skips, but then the plain rules are read through a list and
 * the triggered ones merged in: merrills files 11,100 of its 306,983 acyclic state rules and
 * evaluated its states more slowly filed than not (docs/mutex.md, merr26); the games filing
 * was made for file 69 to 99.8% of theirs (amazonsTorus_10x10, shogi_ctk, crossers3).
 */
export function leastRead(rules: Bodies, ranges: readonly number[], is: Uint8Array): PickTrigger {
  const reads = new Int32Array(is.length);
  let total = 0;
  for (let r = 0; r < ranges.length; r += 5) {
    if (ranges[r + 2]! >= 0) continue;
    total += ranges[r + 1]! - ranges[r]!;
    for (let i = rules.posStart[ranges[r]!]!; i < rules.posStart[ranges[r + 1]!]!; i++) if (is[rules.pos[i]!] === 1) reads[rules.pos[i]!]!++;
  }
  const pick: PickTrigger = (flat, k) => {
    let best = -1;
    for (let i = flat.posStart[k]!; i < flat.posStart[k + 1]!; i++) {
      const a = flat.pos[i]!;
      if (is[a] === 1 && (best < 0 || reads[a]! < reads[best]!)) best = a;
    }
    return best;
  };
  let filed = 0;
  for (let r = 0; r < ranges.length; r += 5) {
    if (ranges[r + 2]! < 0) for (let k = ranges[r]!; k < ranges[r + 1]!; k++) if (pick(rules, k) >= 0) filed++;
  }
  return filed * 2 >= total ? pick : () => -1;
}

/** Acyclic ranges' rules split by trigger: the ranges with their plain slices, the plain rules, the triggered ones per atom. */
interface Filed {
  readonly ranges: Int32Array;
  readonly plain: Int32Array;
  readonly triggerStart: Int32Array;
  readonly triggers: Int32Array;
}

/**
 * Splits the rules of acyclic `ranges` (quintuples) into those `pick` files under a trigger atom
 * and the plain rest; fills in the ranges' plain slices, then joins consecutive acyclic ranges
 * ({@link joinAcyclic}). A rule so filed cannot fire unless its trigger holds (a positive body
 * atom), so looking at it only then changes nothing.
 */
export function fileUnderTriggers(rules: Bodies, ranges: number[], pick: PickTrigger, n: number): Filed {
  const plain: number[] = [];
  const filed: [number, number][] = [];
  for (let r = 0; r < ranges.length; r += 5) {
    ranges[r + 3] = plain.length;
    for (let k = ranges[r]!; k < ranges[r + 1]! && ranges[r + 2]! < 0; k++) {
      const d = pick(rules, k);
      if (d < 0) plain.push(k);
      else filed.push([d, k]);
    }
    ranges[r + 4] = plain.length;
  }
  const triggerStart = new Int32Array(n + 1);
  for (const [d] of filed) triggerStart[d + 1]!++;
  for (let a = 0; a < n; a++) triggerStart[a + 1]! += triggerStart[a]!;
  const triggers = new Int32Array(filed.length);
  const fill = triggerStart.slice(0, n);
  // `filed` is in ascending k, so every trigger's list is too.
  for (const [d, k] of filed) triggers[fill[d]!++] = k;
  return { ranges: joinAcyclic(ranges), plain: Int32Array.from(plain), triggerStart, triggers };
}

/**
 * `ranges` (quintuples) with each run of consecutive acyclic ranges that follow one another in
 * rule order joined into one: firing its rules in ascending order fires each range's after the
 * ranges before it, which is all an acyclic range needs (its rules share one head, so their
 * order inside it does not matter). The plain slices of a run are consecutive, as the plain
 * rules are listed range by range.
 */
function joinAcyclic(ranges: readonly number[]): Int32Array {
  const out: number[] = [];
  for (let r = 0; r < ranges.length; r += 5) {
    const last = out.length - 5;
    if (ranges[r + 2]! < 0 && last >= 0 && out[last + 2]! < 0 && out[last + 1] === ranges[r]) {
      out[last + 1] = ranges[r + 1]!;
      out[last + 4] = ranges[r + 4]!;
    } else out.push(ranges[r]!, ranges[r + 1]!, ranges[r + 2]!, ranges[r + 3]!, ranges[r + 4]!);
  }
  return Int32Array.from(out);
}
