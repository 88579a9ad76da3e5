/**
 * Common-literal factoring, a net optimization pass of the fast simulator (docs/play.md,
 * "Specialized nets"): the rules of one head that share a literal L,
 *
 *   h <= L, B1    ...    h <= L, Bn        become        h <= L, x      x <= B1   ...   x <= Bn
 *
 * with a new atom x, the same for every head whose rules with L have the same rests B1..Bn
 * (hash-consed). So `h` holds in exactly the same states, and L, which may change at every step
 * (hex's step counter, read by every instance of its connection rule: 81 × 81 × 81 of them),
 * has one reader per head instead of n, and the rests are counted once for all the heads that
 * share them. Rules with a `does` literal are left alone (the simulator triggers them).
 */
import type { GroundAtom, GroundGame, GroundRule } from '../../ground/types.js';
import { keywordSymbols } from '../../ground/atoms.js';
import { complementMoves } from './complement.js';

/** A head's rules sharing a literal are factored from this many on (fewer save too little). */
const MIN_SHARED = 4;

/** A literal as one number: atom a positively is `2a`, negatively `2a+1`. */
const lit = (a: number, negative: boolean): number => 2 * a + (negative ? 1 : 0);

/** A rule body as literals, ascending. */
function literals(r: GroundRule): number[] {
  return [...r.pos.map((a) => lit(a, false)), ...r.neg.map((a) => lit(a, true))].sort((x, y) => x - y);
}

/** The literal most of `bodies` contain, with its count; a `does` literal (`isDoes` of its atom) is never chosen. */
function mostShared(bodies: readonly number[][], isDoes: Uint8Array): { literal: number; count: number } {
  const count = new Map<number, number>();
  let best = { literal: -1, count: 0 };
  for (const b of bodies) {
    for (const l of b) {
      if (isDoes[l >> 1] === 1) continue;
      const c = (count.get(l) ?? 0) + 1;
      count.set(l, c);
      if (c > best.count) best = { literal: l, count: c };
    }
  }
  return best;
}

/** The rules made so far, the new atoms' count, and the new atom of each group of rests already made. */
interface Factoring {
  readonly out: GroundRule[];
  /** Per atom of the game, 1 for a does atom. */
  readonly isDoes: Uint8Array;
  readonly byKey: Map<string, number>;
  atoms: number;
}

function rule(head: number, body: readonly number[]): GroundRule {
  return { head, pos: body.filter((l) => (l & 1) === 0).map((l) => l >> 1), neg: body.filter((l) => (l & 1) === 1).map((l) => l >> 1) };
}

/**
 * Writes the rules `h <= body` for each of `bodies`, factoring the most shared literal out while
 * it is shared by at least MIN_SHARED of them. Iterative: a group of rests is factored in turn
 * (a work list, not recursion).
 */
function factorHead(f: Factoring, head: number, bodies: number[][], deep: boolean): void {
  const work: { head: number; bodies: number[][] }[] = [{ head, bodies }];
  while (work.length > 0) {
    const item = work.pop()!;
    let rest = item.bodies;
    for (;;) {
      const { literal, count } = mostShared(rest, f.isDoes);
      if (count < MIN_SHARED) break;
      const withL = rest.filter((b) => b.includes(literal)).map((b) => b.filter((l) => l !== literal));
      rest = rest.filter((b) => !b.includes(literal));
      // A rest that is empty makes the group true: h <= L alone.
      if (withL.some((b) => b.length === 0)) {
        f.out.push(rule(item.head, [literal]));
        continue;
      }
      const key = withL.map((b) => b.join(',')).sort().join(';');
      let x = f.byKey.get(key);
      if (x === undefined) {
        x = f.atoms++;
        f.byKey.set(key, x);
        if (deep) work.push({ head: x, bodies: withL });
        else for (const b of withL) f.out.push(rule(x, b));
      }
      f.out.push(rule(item.head, [literal, lit(x, false)].sort((a, b) => a - b)));
    }
    for (const b of rest) f.out.push(rule(item.head, b));
  }
}

/**
 * The rules of `game` with common literals factored out, and the game's atoms extended by the
 * new ones (placeholders with no relation: they are neither inputs nor outputs).
 */
export function factorRules(game: GroundGame, rules: readonly GroundRule[]): { rules: GroundRule[]; atoms: readonly GroundAtom[] } {
  const does = keywordSymbols(game.terms).does;
  // Frame rules over most moves of a role first (complement.ts): what they leave has no does literal to factor.
  const framed = complementMoves(game, rules, game.atoms.length);
  const isDoes = Uint8Array.from(game.atoms, (a) => (a.rel === does ? 1 : 0));
  const f: Factoring = { out: [], isDoes, byKey: new Map(), atoms: game.atoms.length + framed.added };
  // A head's rules with a does literal are factored apart from its others: together, the
  // group's new atom would depend on the move, and change with every move (hex's frame of
  // `connected` with its `(does r (place m n))` rule did, 1,000 more counter updates per step).
  // They are factored one level only, the rests kept as rules triggered by their does atom:
  // factored further, hex's rests shared "red placed next to (m, n)" atoms, each read by 82
  // heads and changing at every move next to (m, n).
  const byHead = new Map<number, number[][]>();
  for (const r of framed.rules) {
    const key = 2 * r.head + (r.pos.some((a) => isDoes[a] === 1) || r.neg.some((a) => isDoes[a] === 1) ? 1 : 0);
    const list = byHead.get(key);
    if (list === undefined) byHead.set(key, [literals(r)]);
    else list.push(literals(r));
  }
  for (const [key, bodies] of byHead) {
    if (bodies.length < MIN_SHARED) for (const b of bodies) f.out.push(rule(key >> 1, b));
    else factorHead(f, key >> 1, bodies, (key & 1) === 0);
  }
  if (f.atoms === game.atoms.length && framed.rules.length === rules.length && framed.rules.every((r, i) => r === rules[i])) return { rules: rules.slice(), atoms: game.atoms };
  const placeholder: GroundAtom = { term: -1, rel: -1, args: [] };
  return { rules: f.out, atoms: [...game.atoms, ...Array.from({ length: f.atoms - game.atoms.length }, () => placeholder)] };
}
