/**
 * Frames as bit operations (docs/play.md, "Frames as masks"): a fluent whose `next` rules say
 * only "set by these moves", "kept (or copied from another fluent) by these moves, unless these
 * moves, or always" is taken out of the net, and its successor bit computed per joint move:
 * from bit masks of the state for its own keeping (one word operation for 32 fluents), and per
 * set source bit for a copy from another fluent. chomp's bite clears a whole quadrant of
 * squares; in the net that was one factored or complemented atom per square switched on and off
 * at every move, with a counter update per square. ticTacToe's mark copies a blank cell into a
 * marked one; beatMania's blocks fall by a copy one row down.
 *
 * Why it keeps the game: the rules of such a fluent g are exactly
 *   next(g) <= does(a)               for a in A        (added by a move)
 *   next(g) <= true(f), x             x <= does(k), k in K (copied from f by a move; or the does atom itself)
 *   next(g) <= true(f), ~y1 … ~yn     yi <= does(k), k in D (copied from f unless a move)
 *   next(g) <= true(f)                                  (copied from f always)
 * (f = g: kept), where every x and yi is defined by such rules only (one positive does literal
 * each; the factoring and complement passes make them), and literals on facts are dropped (they
 * hold). next(g) is the disjunction of its rules; each is computed from the state's bit f and
 * whether some does atom of the joint move (all are set, each once) is in K or D. This holds for
 * any joint move: nothing assumes which moves are legal.
 *
 * Frames under net atoms: x or y may also be one atom c of the net (an axiom of the move and the
 * state: beatMania's blockCaught, hex's "some group joins (m, n)" and transfer atoms), and
 * `next(g) <= c` adds g. c stays in the net; the successor is computed once the joint move is
 * set and the net settled, so c's value there (`values`, bound by {@link bindFrames}) is its value
 * in this step, and the rule is again a function of the bit f and of c.
 *
 * Frames under a second fluent (frame-terms.ts): a rule may read a second fluent h besides its
 * source f, `next(g) <= true(f), true(h), …`; the copy then also checks h's bit in the state,
 * which is again a function of the state. A next rule reading an atom that factoring made out of
 * such pairs is read with the atom's bodies inlined (the same disjunction), and the atom leaves the
 * net when nothing else reads it.
 */
import { SEES } from '../../gdl/keywords.js';
import { keywordSymbols } from '../../ground/atoms.js';
import type { GroundGame, GroundRule } from '../../ground/types.js';
import { type Shapes, type Term, doesDisjunctions, expand, frameOf, inlinable, pairCounts } from './frame-terms.js';

/**
 * The framed fluents' successor, compiled: per does atom (its `row`) sparse masks of its own
 * fluents' keeping, `word/add/keep/kill[start[row] .. start[row+1]-1]`, and the copy conditions
 * it makes true, `conds[condStart[row] .. condStart[row+1]-1]`; per source fluent its copies,
 * `copyDst/copyKind/copyCond[copyStart[f] .. copyStart[f+1]-1]`.
 */
export interface Frames {
  readonly row: Int32Array;
  readonly start: Int32Array;
  readonly word: Int32Array;
  readonly add: Uint32Array;
  readonly keep: Uint32Array;
  readonly kill: Uint32Array;
  /** Per state word, the framed fluents kept unless a move kills them (or always); the words where there are some. */
  readonly kept: Uint32Array;
  readonly keptWords: Int32Array;
  readonly condStart: Int32Array;
  readonly conds: Int32Array;
  /** Scratch: per condition, 1 when some does atom of the joint move is in its set. */
  readonly cond: Uint8Array;
  /** Per state word, the fluents copied to others; the words where there are some. */
  readonly sources: Uint32Array;
  readonly sourceWords: Int32Array;
  readonly copyStart: Int32Array;
  readonly copyDst: Int32Array;
  /** 0 always, 1 when its condition holds, 2 unless it holds. */
  readonly copyKind: Uint8Array;
  /** A copy's condition: a does-set condition (>= 0, an index into `cond`) or net atom c (as `-1 - c`, its value in `values`). */
  readonly copyCond: Int32Array;
  /** A copy's second condition: a fluent that must hold in the state too (frame-terms.ts), or -1. */
  readonly copyFluent: Int32Array;
  /** The net atoms that condition a fluent's keeping or adding (each has a `row`, looked at when it holds). */
  readonly condAtoms: Int32Array;
  /** The values of the net the frames belong to ({@link bindFrames}): a net-atom condition is read there. */
  values: Uint8Array;
  /** How many fluents are framed. */
  readonly fluents: number;
}

/** The fluents' atoms this pass reads (ground-sim.ts's `fluentsOf`). */
interface FluentAtoms {
  readonly trueAtom: Int32Array;
  readonly nextAtoms: Int32Array;
  readonly nextFluent: Int32Array;
}

/**
 * A source fluent with more conditional copies than this costs more per step in copyInto (each
 * looked at whenever the source holds) than in the net, whose armed triggered rules look only at
 * the move made: pancakes6's flips copy each position to another under each of its moves, and
 * framed it took 1.3-1.8x the CPU time per playout. ticTacToe copies a blank cell twice, beatMania's
 * counters once. Not for a source with a copy under a net atom: such a copy's rule is counted in
 * the net over the atom as well (hex's step k, copied into (connected k m n) under "a group
 * joins (m, n)" and under each role's move to (m, n): 243 copies; framed, 1.25x the
 * playouts per CPU second).
 */
const MAX_CONDITIONAL_COPIES = 4;

/**
 * Frames are used only when they take at least one rule in this many out of the net: the
 * successor then costs a copy of the net's next bits and a pass over the framed words per step,
 * which a few framed fluents do not pay back (pancakes6, its 40 flip counter fluents framed, 40 of
 * about 5,000 rules: 1.4x the CPU time per playout). Rules under a net atom alone are not counted:
 * asteroidsSerial's counters and headings kept or copied under `game1Over`, a fifth of its rules,
 * framed took 1.2x the CPU time per playout while its coordinates stayed in the net (the atom
 * changes once per playout, so their rules cost the net next to nothing); they are framed along
 * with frames that pay by themselves. Rules under a second fluent are counted (in the net they are
 * counted over both fluents).
 */
const MIN_REMOVED = 10;

/** Whether term t of fluent g is a conditional copy, looked at in copyInto: from another fluent or under a second fluent, not always. */
function conditionalCopy(g: number, t: Term): boolean {
  if (t.fluent !== undefined) return true;
  return t.src >= 0 && t.src !== g && t.kind !== 0;
}

/** Leaves to the net every fluent with a conditional copy from a source fluent that has more than {@link MAX_CONDITIONAL_COPIES}. */
function dropCostlyCopies(frames: Map<number, Term[]>, nextAtoms: Int32Array, nextFluent: Int32Array, framedHead: Uint8Array): void {
  const copies = new Map<number, number>();
  const underAtom = new Set<number>();
  for (const [g, terms] of frames) {
    for (const t of terms) {
      if (!conditionalCopy(g, t)) continue;
      copies.set(t.src, (copies.get(t.src) ?? 0) + 1);
      // Counted in the net over its atom or second fluent as well (not armed on a move).
      if (t.atom !== undefined || t.fluent !== undefined) underAtom.add(t.src);
    }
  }
  const costly = (g: number, t: Term): boolean => conditionalCopy(g, t) && copies.get(t.src)! > MAX_CONDITIONAL_COPIES && !underAtom.has(t.src);
  nextAtoms.forEach((n, i) => {
    const g = nextFluent[i]!;
    if (frames.get(g)?.some((t) => costly(g, t)) === true) frames.delete(g), (framedHead[n] = 0);
  });
}

/** The indices of the words of `mask` that are not zero: the successor looks at these only (pancakes6 has 24 state words, one with a framed fluent). */
function nonZero(mask: Uint32Array): Int32Array {
  return Int32Array.from(mask.keys()).filter((w) => mask[w] !== 0);
}

/** Packs the frames' terms: masks per does atom for a fluent's own keeping and additions, copy lists per source fluent. */
function pack(frames: ReadonlyMap<number, readonly Term[]>, atoms: number, fluents: number): Frames {
  const words = (fluents + 31) >>> 5;
  const masks = new Map<number, Map<number, [number, number, number]>>();
  const condsOf = new Map<number, number[]>();
  const kept = new Uint32Array(words);
  const sources = new Uint32Array(words);
  const at = (d: number, g: number): [number, number, number] => {
    let byWord = masks.get(d);
    if (byWord === undefined) masks.set(d, (byWord = new Map()));
    let m = byWord.get(g >>> 5);
    if (m === undefined) byWord.set(g >>> 5, (m = [0, 0, 0]));
    return m;
  };
  const condIds = new Map<string, number>();
  const copies: { src: number; dst: number; kind: number; cond: number; fluent: number }[] = [];
  const condAtoms = new Set<number>();
  for (const [g, terms] of frames) {
    const bit = 1 << (g & 31);
    for (const t of terms) {
      // A net atom's row is looked at when the atom holds: added or kept if it holds, killed for "kept unless".
      const c = t.atom;
      const fluent = t.fluent ?? -1;
      if (c !== undefined && (t.src < 0 || t.src === g) && fluent < 0) {
        condAtoms.add(c);
        if (t.src < 0) at(c, g)[0] |= bit;
        else if (t.kind === 1) at(c, g)[1] |= bit;
        else (kept[g >>> 5]! |= bit), (at(c, g)[2] |= bit);
        continue;
      }
      if (c !== undefined) {
        copies.push({ src: t.src, dst: g, kind: t.kind, cond: -1 - c, fluent });
        sources[t.src >>> 5]! |= 1 << (t.src & 31);
        continue;
      }
      if (t.src < 0) t.moves.forEach((d) => (at(d, g)[0] |= bit));
      else if (t.src === g && t.kind === 1 && fluent < 0) t.moves.forEach((d) => (at(d, g)[1] |= bit));
      else if (t.src === g && fluent < 0) (kept[g >>> 5]! |= bit), t.moves.forEach((d) => (at(d, g)[2] |= bit));
      else {
        const key = [...new Set(t.moves)].sort((a, b) => a - b).join(',');
        let c = condIds.get(key);
        if (c === undefined && t.kind !== 0) {
          condIds.set(key, (c = condIds.size));
          for (const d of new Set(t.moves)) (condsOf.get(d) ?? condsOf.set(d, []).get(d)!).push(c);
        }
        copies.push({ src: t.src, dst: g, kind: t.kind, cond: c ?? 0, fluent });
        sources[t.src >>> 5]! |= 1 << (t.src & 31);
      }
    }
  }
  const row = new Int32Array(atoms).fill(-1);
  const start = [0];
  const condStart = [0];
  const conds: number[] = [];
  const entries: [number, number, number, number][] = [];
  for (const d of [...new Set([...masks.keys(), ...condsOf.keys()])].sort((a, b) => a - b)) {
    row[d] = start.length - 1;
    for (const [w, m] of [...(masks.get(d) ?? new Map<number, [number, number, number]>())].sort((a, b) => a[0] - b[0])) entries.push([w, ...m]);
    start.push(entries.length);
    conds.push(...(condsOf.get(d) ?? []));
    condStart.push(conds.length);
  }
  copies.sort((a, b) => a.src - b.src || a.dst - b.dst);
  const copyStart = new Int32Array(fluents + 1);
  for (const c of copies) copyStart[c.src + 1]!++;
  for (let f = 0; f < fluents; f++) copyStart[f + 1]! += copyStart[f]!;
  return {
    row,
    start: Int32Array.from(start),
    word: Int32Array.from(entries, (e) => e[0]),
    add: Uint32Array.from(entries, (e) => e[1] >>> 0),
    keep: Uint32Array.from(entries, (e) => e[2] >>> 0),
    kill: Uint32Array.from(entries, (e) => e[3] >>> 0),
    kept,
    keptWords: nonZero(kept),
    condStart: Int32Array.from(condStart),
    conds: Int32Array.from(conds),
    cond: new Uint8Array(condIds.size),
    sources,
    sourceWords: nonZero(sources),
    copyStart,
    copyDst: Int32Array.from(copies, (c) => c.dst),
    copyKind: Uint8Array.from(copies, (c) => c.kind),
    copyCond: Int32Array.from(copies, (c) => c.cond),
    copyFluent: Int32Array.from(copies, (c) => c.fluent),
    condAtoms: Int32Array.from([...condAtoms].sort((a, b) => a - b)),
    values: new Uint8Array(atoms),
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
  const fluentOfTrue = new Int32Array(game.atoms.length).fill(-1);
  fluents.trueAtom.forEach((a, f) => a >= 0 && (fluentOfTrue[a] = f));
  const isNext = new Uint8Array(game.atoms.length);
  fluents.nextAtoms.forEach((n) => (isNext[n] = 1));
  const sees = game.terms.findSymbol(SEES);
  // A symbol the game does not have is -1, as is the relation of factoring's placeholders.
  const outputs = new Set([k.legal, k.next, k.goal, k.terminal, k.true, k.does, sees].filter((s) => s >= 0));
  const isAxiom = (a: number): boolean => isDoes[a] === 0 && fluentOfTrue[a]! < 0 && isNext[a] === 0 && !outputs.has(game.atoms[a]!.rel);
  const inline = inlinable(rules, goalRules, isNext, isAxiom, { isFact, fluentOfTrue });
  const byHead = new Map<number, GroundRule[]>();
  for (const r of rules) {
    const list = byHead.get(r.head) ?? byHead.set(r.head, []).get(r.head)!;
    list.push(...(isNext[r.head] === 1 ? expand(r, inline) : [r]));
  }
  const nextRules = [...fluents.nextAtoms].flatMap((n) => byHead.get(n) ?? []);
  const pairs = pairCounts(nextRules, { isFact, fluentOfTrue }, fluents.trueAtom.length);
  const sh: Shapes = { isDoes, isFact, ors: doesDisjunctions(rules, game.atoms, isDoes, isFact), fluentOfTrue, pairs };
  const frames = new Map<number, Term[]>();
  const framedHead = new Uint8Array(game.atoms.length);
  fluents.nextAtoms.forEach((n, i) => {
    const g = fluents.nextFluent[i]!;
    const own = byHead.get(n);
    const terms = own === undefined ? undefined : frameOf(own, g, sh);
    if (terms !== undefined) frames.set(g, terms), (framedHead[n] = 1);
  });
  dropCostlyCopies(frames, fluents.nextAtoms, fluents.nextFluent, framedHead);
  if (frames.size === 0) return undefined;
  const left = rules.filter((r) => framedHead[r.head] === 0);
  const read = new Uint8Array(game.atoms.length);
  for (const r of [...left, ...goalRules]) for (const a of [...r.pos, ...r.neg]) read[a] = 1;
  const unused = (a: number): boolean => (sh.ors[a] !== undefined || inline[a] !== undefined) && read[a] === 0 && !outputs.has(game.atoms[a]!.rel);
  const kept = left.filter((r) => !unused(r.head));
  let underAtom = 0;
  for (const terms of frames.values()) for (const t of terms) if (t.atom !== undefined && t.fluent === undefined) underAtom++;
  if ((rules.length - kept.length - underAtom) * MIN_REMOVED < rules.length) return undefined;
  return { rules: kept, frames: pack(frames, game.atoms.length, fluents.trueAtom.length) };
}

/**
 * The successor of `loaded` into `into`: the net's next bits (`nextBits`, where framed fluents
 * are 0) with the framed fluents set from the does atoms `doesOn[0 .. count-1]`. Kills first,
 * then adds, keeps and copies, so that a fluent both killed and kept, added or copied by one
 * joint move holds (kill bits are only on framed fluents, where `nextBits` is 0).
 */
export function frameSuccessor(fr: Frames, doesOn: Int32Array, count: number, loaded: Uint32Array, nextBits: Uint32Array, into: Uint32Array): void {
  const { row, start, word, kill, kept, keptWords, condStart, conds, cond, condAtoms, values } = fr;
  into.set(nextBits);
  for (let i = 0; i < keptWords.length; i++) {
    const w = keptWords[i]!;
    into[w] = into[w]! | (loaded[w]! & kept[w]!);
  }
  if (cond.length > 0) cond.fill(0);
  for (let i = 0; i < count; i++) {
    const r = row[doesOn[i]!]!;
    if (r < 0) continue;
    for (let e = start[r]!, end = start[r + 1]!; e < end; e++) into[word[e]!]! &= ~kill[e]!;
    for (let c = condStart[r]!, end = condStart[r + 1]!; c < end; c++) cond[conds[c]!] = 1;
  }
  for (let i = 0; i < condAtoms.length; i++) {
    const a = condAtoms[i]!;
    if (values[a] !== 1) continue;
    const r = row[a]!;
    for (let e = start[r]!, end = start[r + 1]!; e < end; e++) into[word[e]!]! &= ~kill[e]!;
  }
  for (let i = 0; i < count; i++) {
    const r = row[doesOn[i]!]!;
    if (r >= 0) addRow(fr, r, loaded, into);
  }
  for (let i = 0; i < condAtoms.length; i++) {
    const a = condAtoms[i]!;
    if (values[a] === 1) addRow(fr, row[a]!, loaded, into);
  }
  if (fr.copyDst.length > 0) copyInto(fr, loaded, into);
}

/** The adds and keeps of row `r` (a does atom set, or a net atom that holds). */
function addRow(fr: Frames, r: number, loaded: Uint32Array, into: Uint32Array): void {
  const { start, word, add, keep } = fr;
  for (let e = start[r]!, end = start[r + 1]!; e < end; e++) {
    const w = word[e]!;
    into[w] = into[w]! | add[e]! | (loaded[w]! & keep[e]!);
  }
}

/** Makes `frames` read its net-atom conditions in `values`, the values of the net it belongs to (its propagator's `val`). */
export function bindFrames(frames: Frames, values: Uint8Array): void {
  frames.values = values;
}

/** The copies from the set source fluents of `loaded` whose condition holds. */
function copyInto(fr: Frames, loaded: Uint32Array, into: Uint32Array): void {
  const { sources, sourceWords, copyStart, copyDst, copyKind, copyCond, copyFluent, cond, values } = fr;
  for (let i = 0; i < sourceWords.length; i++) {
    const w = sourceWords[i]!;
    for (let bits = loaded[w]! & sources[w]!; bits !== 0; bits &= bits - 1) {
      const f = (w << 5) | (31 - Math.clz32(bits & -bits));
      for (let p = copyStart[f]!, end = copyStart[f + 1]!; p < end; p++) {
        const h = copyFluent[p]!;
        if (h >= 0 && ((loaded[h >>> 5]! >>> (h & 31)) & 1) === 0) continue;
        const kind = copyKind[p]!;
        const c = copyCond[p]!;
        if (kind !== 0 && (kind === 1) !== (c >= 0 ? cond[c] === 1 : values[-1 - c] === 1)) continue;
        const g = copyDst[p]!;
        into[g >>> 5]! |= 1 << (g & 31);
      }
    }
  }
}
