/**
 * Frames as bit operations (docs/play.md, "Frames as masks"): a fluent whose `next` rules say
 * only "set by these moves", "kept by these moves" or "kept unless one of these moves" is
 * taken out of the net, and its successor bit computed per joint move from bit masks of the
 * state, one word operation for 32 fluents. chomp's bite clears a whole quadrant of squares;
 * in the net that was one factored or complemented atom per square switched on and off at
 * every move, with a counter update per square.
 *
 * Why it keeps the game: the rules of such a fluent f are exactly
 *   next(f) <= does(a)            for a in A_f        (added by a move)
 *   next(f) <= true(f), x          x <= does(k), k in K (kept by a move; or the does atom itself)
 *   next(f) <= true(f), ~y1 … ~yn  yi <= does(k), k in D (kept unless a move)
 * where every x and yi is defined by such rules only (one positive does literal each; the
 * factoring and complement passes make them), and literals on facts are dropped (true). Their
 * disjunction is
 *   next(f) = (some set does atom in A_f) or (true(f) and (some in K_f or none in D_f)),
 * which the masks compute from the does atoms set (all of a joint move's, each once), for any
 * joint move: nothing assumes which moves are legal.
 */
import { SEES } from '../../gdl/keywords.js';
import { keywordSymbols } from '../../ground/atoms.js';
import type { GroundAtom, GroundGame, GroundRule } from '../../ground/types.js';

/** The masks of the framed fluents, sparse per does atom: `entries[start[row] .. start[row+1]-1]`. */
export interface Frames {
  /** Per atom, its row when it is a does atom with a mask, else -1. */
  readonly row: Int32Array;
  readonly start: Int32Array;
  /** Per entry: the state word it changes, and the bits its does atom adds, keeps and kills there. */
  readonly word: Int32Array;
  readonly add: Uint32Array;
  readonly keep: Uint32Array;
  readonly kill: Uint32Array;
  /** Per state word, the framed fluents kept unless a move kills them. */
  readonly kept: Uint32Array;
  /** How many fluents are framed. */
  readonly fluents: number;
}

/** The fluents' atoms this pass reads (ground-sim.ts's `fluentsOf`). */
interface FluentAtoms {
  readonly trueAtom: Int32Array;
  readonly nextAtoms: Int32Array;
  readonly nextFluent: Int32Array;
}

/** What a framed fluent's rules say: the does atoms that add it, keep it, and kill its keeping (`neg` when it has that rule). */
interface Frame {
  readonly add: number[];
  readonly keep: number[];
  readonly kill: number[];
  neg: boolean;
}

/** Per atom, the does atoms whose disjunction it is (its rules are single positive does literals), else undefined. */
function doesDisjunctions(rules: readonly GroundRule[], atoms: readonly GroundAtom[], isDoes: Uint8Array, isFact: Uint8Array): (number[] | undefined)[] {
  const of: (number[] | null | undefined)[] = new Array(atoms.length);
  for (const r of rules) {
    const pos = r.pos.filter((a) => isFact[a] === 0);
    const single = r.neg.length === 0 && pos.length === 1 && isDoes[pos[0]!] === 1;
    const list = of[r.head];
    if (!single || list === null) of[r.head] = null;
    else if (list === undefined) of[r.head] = [pos[0]!];
    else list.push(pos[0]!);
  }
  return of.map((l) => l ?? undefined);
}

/** The frame of fluent f from its next rules, or undefined when one of them has another shape. */
function frameOf(rules: readonly GroundRule[], trueF: number, isDoes: Uint8Array, isFact: Uint8Array, ors: readonly (number[] | undefined)[]): Frame | undefined {
  const frame: Frame = { add: [], keep: [], kill: [], neg: false };
  const movesOf = (a: number): number[] | undefined => (isDoes[a] === 1 ? [a] : ors[a]);
  for (const r of rules) {
    const pos = r.pos.filter((a) => isFact[a] === 0);
    const keeps = trueF >= 0 && pos.includes(trueF);
    const rest = keeps ? pos.filter((a) => a !== trueF) : pos;
    if (rest.length > 1 || r.neg.some((a) => isFact[a] === 1)) return undefined;
    if (rest.length === 1) {
      const moves = movesOf(rest[0]!);
      if (moves === undefined || r.neg.length > 0) return undefined;
      (keeps ? frame.keep : frame.add).push(...moves);
      continue;
    }
    // true(f), ~y1 … ~yn: one such rule per fluent (two would keep f unless all of two sets).
    if (!keeps || frame.neg) return undefined;
    frame.neg = true;
    for (const y of r.neg) {
      const moves = movesOf(y);
      if (moves === undefined) return undefined;
      frame.kill.push(...moves);
    }
  }
  return frame;
}

/** Packs the frames into per-does-atom sparse masks. */
function pack(frames: ReadonlyMap<number, Frame>, atoms: number, words: number): Frames {
  const masks = new Map<number, Map<number, [number, number, number]>>();
  const kept = new Uint32Array(words);
  const at = (d: number, f: number): [number, number, number] => {
    let byWord = masks.get(d);
    if (byWord === undefined) masks.set(d, (byWord = new Map()));
    let m = byWord.get(f >>> 5);
    if (m === undefined) byWord.set(f >>> 5, (m = [0, 0, 0]));
    return m;
  };
  for (const [f, frame] of frames) {
    const bit = 1 << (f & 31);
    if (frame.neg) kept[f >>> 5]! |= bit;
    frame.add.forEach((d) => (at(d, f)[0] |= bit));
    frame.keep.forEach((d) => (at(d, f)[1] |= bit));
    frame.kill.forEach((d) => (at(d, f)[2] |= bit));
  }
  const row = new Int32Array(atoms).fill(-1);
  const start = [0];
  const entries: [number, number, number, number][] = [];
  for (const [d, byWord] of [...masks].sort((a, b) => a[0] - b[0])) {
    row[d] = start.length - 1;
    for (const [w, m] of [...byWord].sort((a, b) => a[0] - b[0])) entries.push([w, ...m]);
    start.push(entries.length);
  }
  return {
    row,
    start: Int32Array.from(start),
    word: Int32Array.from(entries, (e) => e[0]),
    add: Uint32Array.from(entries, (e) => e[1] >>> 0),
    keep: Uint32Array.from(entries, (e) => e[2] >>> 0),
    kill: Uint32Array.from(entries, (e) => e[3] >>> 0),
    kept,
    fluents: frames.size,
  };
}

/**
 * Takes the fluents whose next rules are frames of moves out of `rules` (of `game`, whose atoms
 * include the factored ones), with the rules of the does disjunctions no other rule reads any
 * more (made by factoring, or axioms that no rule and no goal rule in `goalRules` reads).
 * Undefined when no fluent is such a frame.
 */
export function frameRules(game: GroundGame, rules: readonly GroundRule[], fluents: FluentAtoms, goalRules: readonly GroundRule[]): { rules: GroundRule[]; frames: Frames } | undefined {
  const k = keywordSymbols(game.terms);
  const isDoes = Uint8Array.from(game.atoms, (a) => (a.rel === k.does ? 1 : 0));
  const isFact = new Uint8Array(game.atoms.length);
  for (const r of rules) if (r.pos.length === 0 && r.neg.length === 0) isFact[r.head] = 1;
  const ors = doesDisjunctions(rules, game.atoms, isDoes, isFact);
  const byHead = new Map<number, GroundRule[]>();
  for (const r of rules) {
    const list = byHead.get(r.head);
    if (list === undefined) byHead.set(r.head, [r]);
    else list.push(r);
  }
  const frames = new Map<number, Frame>();
  const framedHead = new Uint8Array(game.atoms.length);
  fluents.nextAtoms.forEach((n, i) => {
    const f = fluents.nextFluent[i]!;
    const own = byHead.get(n);
    const frame = own === undefined ? undefined : frameOf(own, fluents.trueAtom[f]!, isDoes, isFact, ors);
    if (frame !== undefined) frames.set(f, frame), (framedHead[n] = 1);
  });
  if (frames.size === 0) return undefined;
  const left = rules.filter((r) => framedHead[r.head] === 0);
  const read = new Uint8Array(game.atoms.length);
  for (const r of [...left, ...goalRules]) for (const a of [...r.pos, ...r.neg]) read[a] = 1;
  const sees = game.terms.findSymbol(SEES);
  // A symbol the game does not have is -1, as is the relation of factoring's placeholders.
  const outputs = new Set([k.legal, k.next, k.goal, k.terminal, k.true, k.does, sees].filter((s) => s >= 0));
  const unused = (a: number): boolean => ors[a] !== undefined && read[a] === 0 && !outputs.has(game.atoms[a]!.rel);
  const words = (fluents.trueAtom.length + 31) >>> 5;
  return { rules: left.filter((r) => !unused(r.head)), frames: pack(frames, game.atoms.length, words) };
}

/**
 * The successor of `loaded` into `into`: the net's next bits (`nextBits`, where framed fluents
 * are 0) with the framed fluents set from the does atoms `doesOn[0 .. count-1]`. Kills first, then
 * adds and keeps, so that a fluent both killed and kept or added by one joint move holds (kill
 * bits are only on framed fluents, where `nextBits` is 0).
 */
export function frameSuccessor(fr: Frames, doesOn: Int32Array, count: number, loaded: Uint32Array, nextBits: Uint32Array, into: Uint32Array): void {
  const { row, start, word, add, keep, kill, kept } = fr;
  for (let w = 0; w < into.length; w++) into[w] = nextBits[w]! | (loaded[w]! & kept[w]!);
  for (let i = 0; i < count; i++) {
    const r = row[doesOn[i]!]!;
    if (r < 0) continue;
    for (let e = start[r]!, end = start[r + 1]!; e < end; e++) {
      const w = word[e]!;
      into[w] = into[w]! & ~kill[e]!;
    }
  }
  for (let i = 0; i < count; i++) {
    const r = row[doesOn[i]!]!;
    if (r < 0) continue;
    for (let e = start[r]!, end = start[r + 1]!; e < end; e++) {
      const w = word[e]!;
      into[w] = into[w]! | add[e]! | (loaded[w]! & keep[e]!);
    }
  }
}
