/**
 * Symmetries of a projection search (docs/mutex.md 2m, card18): permutations of P's fluents that
 * map the compiled cone onto itself (rules, moves, their legality, the initial state and every
 * claim searched), found by propagating a swap of two fluents through the cone and verified on
 * the whole cone. The search then keeps one representative per state: a state is replaced by its
 * image under a symmetry while that image is smaller, so that the squares of a majorities line,
 * interchangeable, are searched as counts rather than boards.
 *
 * Soundness: a verified permutation π is an automorphism of the projected transition relation
 * (s -> t iff π s -> π t: the `next` and decided `legal` atoms of π s under the image of a joint
 * move are the images of those of s) that fixes the initial state and maps each claim's members
 * onto themselves. Searching representatives reaches a state of every reachable orbit (the
 * successors of a representative π s are the images of the successors of s), and a state violates
 * a claim exactly when its image does.
 */
import type { Program } from './projection-compile.js';
import type { Meter } from './projection-cone.js';

/** What the search knows of its projection, in the cone's local atoms and P's positions. */
export interface Projected {
  readonly prog: Program;
  /** Per local atom, its position in P when it is a fluent leaf, else -1. */
  readonly posOfLeaf: Int32Array;
  /** Per position in P, its leaf (-1: no rule reads it) and its `next` atom (-1: none). */
  readonly leafOf: Int32Array;
  readonly nextLocal: readonly number[];
  /** Per position: its relation's name and whether it holds initially (fluents that may swap share both). */
  readonly kinds: readonly string[];
  /** Per local atom: the role of a `does` leaf, else -1; its option's legal atom (-1 possibly legal, -2 no option). */
  readonly roleOfDoes: Int32Array;
  readonly legalOfDoes: Int32Array;
  /** The claims' positions. */
  readonly groups: readonly (readonly number[])[];
}

/** Swaps tried per projection at most (each costs a propagation and a verification over the cone). */
const MAX_TRIES = 64;

/**
 * Permutations of P's positions that are symmetries of the projection: tried for each two
 * positions next to each other in one kind (not members of a claim), skipped when a symmetry
 * found already maps the one to the other.
 */
export function symmetries(p: Projected, meter: Meter): Int32Array[] {
  const out: Int32Array[] = [];
  const members = new Set(p.groups.flat());
  const byKind = new Map<string, number[]>();
  p.kinds.forEach((k, i) => members.has(i) || p.leafOf[i]! < 0 || byKind.set(k, [...(byKind.get(k) ?? []), i]));
  let tries = 0;
  meter.spend(4 * p.prog.size);
  const col = colours(p);
  // Per position, the first later one of its kind a swap with it is a symmetry (or one found maps it to).
  for (const ps of byKind.values()) {
    for (let i = 0; i < ps.length && tries < MAX_TRIES && !meter.cut; i++) {
      for (let j = i + 1; j < ps.length && tries < MAX_TRIES && !meter.cut; j++) {
        const [x, y] = [ps[i]!, ps[j]!];
        if (out.some((g) => g[x] === y)) break;
        tries++;
        const g = swapFrom(p, col, x, y, meter);
        if (g === undefined) continue;
        out.push(g);
        break;
      }
    }
  }
  return out;
}

/** The state's representative: its image under a symmetry while that is smaller (a string of '0'/'1'). */
export function representative(s: string, gens: readonly Int32Array[], meter: Meter): string {
  let cur = s;
  for (let changed = gens.length > 0; changed; ) {
    changed = false;
    for (const g of gens) {
      meter.spend(cur.length);
      const t = apply(cur, g);
      if (t < cur) (cur = t), (changed = true);
    }
  }
  return cur;
}

/** The image of state `s` under position permutation `g`: position g[i] holds what i held. */
function apply(s: string, g: Int32Array): string {
  const out = new Array<string>(s.length);
  for (let i = 0; i < s.length; i++) out[g[i]!] = s[i]!;
  return out.join('');
}

/** Per local atom, a colour a symmetry keeps: what it is, and for a fluent its kind. */
function colours(p: Projected): string[] {
  const c: string[] = [];
  for (let a = 0; a < p.prog.size; a++) {
    const pos = p.posOfLeaf[a]!;
    c.push(pos >= 0 ? `f${p.kinds[pos]}` : p.roleOfDoes[a]! >= 0 ? `d${p.roleOfDoes[a]}/${p.legalOfDoes[a]! >= -1 ? 1 : 0}` : `r${p.prog.rules[a]!.length}`);
  }
  return c;
}

/**
 * A symmetry that swaps positions x and y, or undefined: the swap propagated to the atoms it
 * forces (a fluent's `next` atom, a move's legal atom, the one body literal of a matching rule
 * left unmatched), every other atom fixed, then verified over the whole cone.
 */
function swapFrom(p: Projected, col: readonly string[], x: number, y: number, meter: Meter): Int32Array | undefined {
  const n = p.prog.size;
  const pi = new Int32Array(n).fill(-1);
  const queue: number[] = [];
  let ok = true;
  const set = (a: number, b: number): void => {
    if (a < 0 || b < 0) return void (ok &&= a === b);
    if (pi[a] === b) return;
    if (pi[a] !== -1 || col[a] !== col[b]) return void (ok = false);
    pi[a] = b;
    queue.push(a);
    if (a !== b) set(b, a);
  };
  set(p.leafOf[x]!, p.leafOf[y]!);
  const deferred: number[] = [];
  const match = (a: number): void => {
    const m = matchRules(p, col, pi, a, set, meter);
    if (m === 'later') deferred.push(a);
    else ok &&= m === 'done';
  };
  for (let progress = true; ok && progress; ) {
    progress = false;
    while (ok && queue.length > 0) {
      const a = queue.pop()!;
      progress = true;
      if (!meter.spend(1 + p.nextLocal.length + literals(p, a))) return undefined;
      links(p, a, pi[a]!, set);
      if (a !== pi[a]) match(a);
    }
    // Atoms whose rules matched ambiguously: again, now that more is known.
    for (const a of deferred.splice(0)) match(a);
    progress ||= queue.length > 0;
  }
  if (!ok || deferred.length > 0) return undefined;
  for (let a = 0; a < n; a++) if (pi[a] === -1) pi[a] = a;
  return verify(p, pi, meter);
}

/** The links of a mapped atom: a fluent leaf and its `next` atom, a move and its legal atom. */
function links(p: Projected, a: number, b: number, set: (a: number, b: number) => void): void {
  const pa = p.posOfLeaf[a]!;
  const pb = p.posOfLeaf[b]!;
  if (pa >= 0 && pb >= 0) set(p.nextLocal[pa]!, p.nextLocal[pb]!);
  const na = p.nextLocal.indexOf(a);
  const nb = na < 0 ? -1 : p.nextLocal.indexOf(b);
  if (na >= 0 && nb >= 0 && p.leafOf[na]! >= 0) set(p.leafOf[na]!, p.leafOf[nb]!);
  if (p.roleOfDoes[a]! >= 0 && p.legalOfDoes[a]! >= 0 && p.legalOfDoes[b]! >= 0) set(p.legalOfDoes[a]!, p.legalOfDoes[b]!);
}

/**
 * Matches the rules of `a` one to one with those of π(a): a rule that fits one rule left only
 * (its known literals map into it, its others have the colours left) is matched, its literals
 * left unmatched paired when one of a colour is left on each side, until none is left. False
 * while some rule fits several (`later`: tried again once more is known); `fail` when a rule fits none.
 */
function matchRules(p: Projected, col: readonly string[], pi: Int32Array, a: number, set: (a: number, b: number) => void, meter: Meter): 'done' | 'later' | 'fail' {
  const mine = [...p.prog.rules[a]!];
  const theirs = [...p.prog.rules[pi[a]!]!];
  if (mine.length !== theirs.length) return 'fail';
  for (let progress = true; progress && mine.length > 0; ) {
    progress = false;
    for (let i = 0; i < mine.length; i++) {
      const r = mine[i]!;
      // Every rule left on the other side is fitted, each fit copying and sorting both sides'
      // literals: counted (knightwar's matches, uncounted, took 30 s of processor time).
      if (!meter.spend(FIT_UNITS * theirs.length * (2 + 2 * (r.pos.length + r.neg.length)))) return 'fail';
      const fits = theirs.filter((t) => fitsSide(r.pos, t.pos, col, pi) && fitsSide(r.neg, t.neg, col, pi));
      if (fits.length === 0) return 'fail';
      if (fits.length > 1) continue;
      if (!pairLeft(r.pos, fits[0]!.pos, col, pi, set) || !pairLeft(r.neg, fits[0]!.neg, col, pi, set)) return 'later';
      mine.splice(i--, 1), theirs.splice(theirs.indexOf(fits[0]!), 1);
      progress = true;
    }
  }
  return mine.length === 0 ? 'done' : 'later';
}

/** Work units per literal of one {@link fitsSide} (copies, filters and sorts a few arrays each). */
const FIT_UNITS = 16;

/**
 * `xs` may map onto `ys`: as many, each literal of `xs` already mapped maps into `ys`, and the
 * others have the colours of the literals of `ys` left.
 */
function fitsSide(xs: Int32Array, ys: Int32Array, col: readonly string[], pi: Int32Array): boolean {
  if (xs.length !== ys.length || !xs.every((x) => pi[x] === -1 || ys.includes(pi[x]!))) return false;
  const left = [...ys].filter((y) => !xs.some((x) => pi[x] === y)).map((y) => col[y]!).sort();
  const mine = [...xs].filter((x) => pi[x] === -1).map((x) => col[x]!).sort();
  return left.length === mine.length && left.every((c, i) => c === mine[i]);
}

/** Pairs the literals of `xs` not yet mapped with those of `ys` no mapped literal covers, one per colour; false when ambiguous. */
function pairLeft(xs: Int32Array, ys: Int32Array, col: readonly string[], pi: Int32Array, set: (a: number, b: number) => void): boolean {
  const left = [...ys].filter((y) => !xs.some((x) => pi[x] === y));
  for (const x of xs) {
    if (pi[x] !== -1) continue;
    const same = left.filter((y) => col[y] === col[x]);
    if (same.length !== 1 || [...xs].filter((z) => pi[z] === -1 && col[z] === col[x]).length !== 1) return false;
    set(x, same[0]!);
  }
  return true;
}

/**
 * π as a permutation of P's positions, when it is a symmetry: a bijection of the cone's atoms
 * keeping what each is, mapping each atom's rules onto its image's, fluents to fluents with their
 * `next` atoms and initial values, moves to moves of the same role with their legal atoms, and
 * each claim onto itself.
 */
function verify(p: Projected, pi: Int32Array, meter: Meter): Int32Array | undefined {
  const n = p.prog.size;
  const hit = new Uint8Array(n);
  for (let a = 0; a < n; a++) {
    if (hit[pi[a]!] === 1) return undefined;
    hit[pi[a]!] = 1;
  }
  const size = p.nextLocal.length;
  const g = Int32Array.from({ length: size }, (_, i) => i);
  for (let i = 0; i < size; i++) if (p.leafOf[i]! >= 0) g[i] = p.posOfLeaf[pi[p.leafOf[i]!]!]!;
  if (g.some((j) => j < 0) || new Set(g).size !== size) return undefined;
  for (let i = 0; i < size; i++) {
    const next = p.nextLocal[i]!;
    if (p.kinds[i] !== p.kinds[g[i]!] || (next < 0 ? p.nextLocal[g[i]!] !== -1 : pi[next] !== p.nextLocal[g[i]!])) return undefined;
  }
  for (let a = 0; a < n; a++) {
    const b = pi[a]!;
    if (p.roleOfDoes[a] !== p.roleOfDoes[b] || (p.posOfLeaf[a]! >= 0) !== (p.posOfLeaf[b]! >= 0)) return undefined;
    if (p.roleOfDoes[a]! >= 0 && (p.legalOfDoes[a]! < 0 ? p.legalOfDoes[b] !== p.legalOfDoes[a] : pi[p.legalOfDoes[a]!] !== p.legalOfDoes[b])) return undefined;
    if (!meter.spend(1 + 2 * (literals(p, a) + literals(p, b))) || !sameRules(p, pi, a, b)) return undefined;
  }
  return p.groups.every((grp) => grp.every((i) => grp.includes(g[i]!))) ? g : undefined;
}

/** The literals of atom `a`'s rules, plus one per rule: the work of matching or comparing them. */
function literals(p: Projected, a: number): number {
  return p.prog.rules[a]!.reduce((n, r) => n + 1 + r.pos.length + r.neg.length, 0);
}

/** The rules of `a`, mapped by π, are the rules of `b` (as sets of literal sets). */
function sameRules(p: Projected, pi: Int32Array, a: number, b: number): boolean {
  const key = (pos: Iterable<number>, neg: Iterable<number>): string => `${[...pos].sort((x, y) => x - y).join(',')}|${[...neg].sort((x, y) => x - y).join(',')}`;
  const mine = new Set(p.prog.rules[a]!.map((r) => key(Array.from(r.pos, (x) => pi[x]!), Array.from(r.neg, (x) => pi[x]!))));
  const theirs = new Set(p.prog.rules[b]!.map((r) => key(r.pos, r.neg)));
  return mine.size === theirs.size && [...mine].every((k) => theirs.has(k));
}
