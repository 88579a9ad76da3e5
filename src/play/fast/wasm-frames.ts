/**
 * frames.ts's `frameSuccessor` in WebAssembly, for the step of wasm-propagate.ts: the
 * successor of `loaded` into `scratch` from the net's next bits and the frame masks of the does
 * atoms set and of the net atoms that hold (frames under net atoms), in the same order (kills,
 * conditions, adds and keeps, copies), so the same bits.
 * Why: on beatMania the successor in JS took about half of a playout's time once the net's
 * propagation was in WebAssembly, and a step in one call needs it there too. A game without
 * frames copies the next bits.
 */
import type { Frames } from './frames.js';
import { type Code, add, and, c, ctz, eq, eqz, geS, get, ld, ld8, ltS, ne, or, pick, seq, set, shl, shrU, st, sub, when, whileDo, xor } from './wasm-encode.js';

/** Byte addresses of the arrays in memory (wasm-propagate.ts's layout). */
type Layout = Readonly<Record<string, number>>;

/** The tables the successor reads, by name (`fr.` and frames.ts's names; `mc*` the copies by move). */
type Tables = Readonly<Record<string, ArrayLike<number>>>;

/**
 * frames.ts's tables with the copies made only by a move (kind 1 on a does-set condition)
 * taken out of the per-source lists and filed under the rows of the does atoms whose set they
 * name: `mcSrc/mcDst/mcFluent[mcStart[row] .. mcStart[row+1]-1]`. Why: ticTacToe's marks are
 * such copies (a blank cell copied into a mark by the move on it); per source they were looked
 * at for every blank cell at every step, per move they are the one copy of the move made. Why
 * it keeps the successor: a copy by move holds when its source (and second fluent) is set and
 * some does atom of the joint move has its condition in its row, which is what is tested per
 * row; copies only set bits, after the kills and adds, so their order does not matter.
 */
function tablesOf(fr: Frames): Tables {
  const byCond = new Map<number, number[]>();
  const moved = new Uint8Array(fr.copyDst.length);
  fr.copyKind.forEach((kind, p) => {
    if (kind !== 1 || fr.copyCond[p]! < 0) return;
    moved[p] = 1;
    const list = byCond.get(fr.copyCond[p]!) ?? [];
    byCond.set(fr.copyCond[p]!, list);
    list.push(p);
  });
  const rows = fr.condStart.length - 1;
  const mcStart = new Int32Array(rows + 1);
  const mcSrc: number[] = [], mcDst: number[] = [], mcFluent: number[] = [];
  const sourceOf = new Int32Array(fr.copyDst.length);
  for (let f = 0; f + 1 < fr.copyStart.length; f++) for (let p = fr.copyStart[f]!; p < fr.copyStart[f + 1]!; p++) sourceOf[p] = f;
  for (let r = 0; r < rows; r++) {
    for (let e = fr.condStart[r]!; e < fr.condStart[r + 1]!; e++) {
      for (const p of byCond.get(fr.conds[e]!) ?? []) mcSrc.push(sourceOf[p]!), mcDst.push(fr.copyDst[p]!), mcFluent.push(fr.copyFluent[p]!);
    }
    mcStart[r + 1] = mcSrc.length;
  }
  // The copies left per source, and the sources that still have some.
  const copyStart = new Int32Array(fr.copyStart.length);
  const keep = (a: ArrayLike<number>): number[] => Array.from(a).filter((_, p) => moved[p] === 0);
  const sources = new Uint32Array(fr.sources.length);
  for (let f = 0; f + 1 < fr.copyStart.length; f++) {
    let left = 0;
    for (let p = fr.copyStart[f]!; p < fr.copyStart[f + 1]!; p++) left += 1 - moved[p]!;
    copyStart[f + 1] = copyStart[f]! + left;
    if (left > 0) sources[f >>> 5]! |= 1 << (f & 31);
  }
  const sourceWords = Array.from(fr.sourceWords).filter((w) => sources[w] !== 0);
  // The conditions only copies by move read need not be set per row any more.
  const read = new Set(keep(fr.copyCond));
  const condStart = new Int32Array(rows + 1);
  const conds: number[] = [];
  for (let r = 0; r < rows; r++) {
    for (let e = fr.condStart[r]!; e < fr.condStart[r + 1]!; e++) if (read.has(fr.conds[e]!)) conds.push(fr.conds[e]!);
    condStart[r + 1] = conds.length;
  }
  return {
    row: fr.row, start: fr.start, word: fr.word, add: fr.add, keep: fr.keep, kill: fr.kill, kept: fr.kept, keptWords: fr.keptWords,
    condStart, conds, cond: conds.length === 0 ? [] : fr.cond, sources, sourceWords, copyStart,
    copyDst: keep(fr.copyDst), copyKind: keep(fr.copyKind), copyCond: keep(fr.copyCond), copyFluent: keep(fr.copyFluent), condAtoms: fr.condAtoms,
    mcStart, mcSrc, mcDst, mcFluent,
  };
}

/** The frames' arrays in memory as (name, elements, bytes per element), all as i32; none without frames. */
export function frameArrays(fr: Frames | undefined): [string, number, number][] {
  if (fr === undefined) return [];
  return Object.entries(tablesOf(fr)).map(([name, a]) => [`fr.${name}`, a.length, 4]);
}

/** Copies the frames' tables into memory through `view` (an i32 view of one array). */
export function fillFrames(fr: Frames | undefined, view: (name: string) => Int32Array): void {
  if (fr === undefined) return;
  for (const [name, a] of Object.entries(tablesOf(fr))) view(`fr.${name}`).set(a);
}

/**
 * The body of `successor(count 0)` (locals 1..11): `scratch` becomes the successor of `loaded`
 * under the does atoms `doesOn[0 .. count-1]`.
 */
export function successorCode(m: Layout, words: number, fr: Frames | undefined): Code {
  const inc = (l: number): Code => set(l, add(get(l), c(1)));
  const copy = seq(set(1, c(0)), whileDo(ltS(get(1), c(words)), st(m.scratch!, get(1), ld(m.nextBits!, get(1))), inc(1)));
  if (fr === undefined) return copy;
  const t = tablesOf(fr);
  const A = (name: string): number => m[`fr.${name}`]!;
  const I = 1, W = 2, R = 3, E = 4, END = 5, BITS = 6, F = 7, P = 8, KIND = 9, G = 10, T = 11;
  // For each does atom of the move with a row: `body` over its entries.
  const perRow = (body: Code): Code => seq(set(I, c(0)), whileDo(ltS(get(I), get(0)),
    set(R, ld(A('row'), ld(m.doesOn!, get(I)))),
    when(geS(get(R), c(0)), body),
    inc(I)));
  const entries = (from: string, body: Code): Code => seq(set(E, ld(A(from), get(R))), set(END, ld(A(from), add(get(R), c(1)))), whileDo(ltS(get(E), get(END)), body, inc(E)));
  // scratch[w] |= bits, where `bits` may read the word w as local T.
  const orInto = (w: Code, bits: Code): Code => seq(set(T, w), st(m.scratch!, get(T), or(ld(m.scratch!, get(T)), bits)));
  const kept = seq(set(I, c(0)), whileDo(ltS(get(I), c(t.keptWords.length)),
    orInto(ld(A('keptWords'), get(I)), and(ld(m.loaded!, get(T)), ld(A('kept'), get(T)))), inc(I)));
  const clearCond = t.cond.length === 0 ? [] : seq(set(I, c(0)), whileDo(ltS(get(I), c(t.cond.length)), st(A('cond'), get(I), c(0)), inc(I)));
  // For each net atom that conditions a fluent (frames under net atoms) and holds in the settled net: `body` over its row.
  const perAtom = (body: Code): Code => t.condAtoms.length === 0 ? [] : seq(set(I, c(0)), whileDo(ltS(get(I), c(t.condAtoms.length)),
    set(G, ld(A('condAtoms'), get(I))),
    when(eq(ld8(m.val!, get(G)), c(1)), seq(set(R, ld(A('row'), get(G))), body)),
    inc(I)));
  const kill = entries('start', seq(set(W, ld(A('word'), get(E))), st(m.scratch!, get(W), and(ld(m.scratch!, get(W)), xor(ld(A('kill'), get(E)), c(-1))))));
  const kills = seq(perRow(t.conds.length === 0 ? kill : seq(kill, entries('condStart', st(A('cond'), ld(A('conds'), get(E)), c(1))))), perAtom(kill));
  const addKeep = entries('start', orInto(ld(A('word'), get(E)), or(ld(A('add'), get(E)), and(ld(m.loaded!, get(T)), ld(A('keep'), get(E))))));
  const adds = seq(perRow(addKeep), perAtom(addKeep));
  // A copy's condition: a does-set condition (copyCond >= 0) or a net atom's value (copyCond = -1 - atom).
  const condHolds = seq(set(R, ld(A('copyCond'), get(P))), pick(geS(get(R), c(0)), eq(ld(A('cond'), get(R)), c(1)), eq(ld8(m.val!, sub(c(-1), get(R))), c(1))));
  // A copy is skipped when its second fluent (copyFluent >= 0, frame-terms.ts) is not set in `loaded`, read in E (unused in this loop)...
  const fluentMissing = seq(set(E, ld(A('copyFluent'), get(P))), pick(geS(get(E), c(0)),
    eqz(and(shrU(ld(m.loaded!, shrU(get(E), c(5))), and(get(E), c(31))), c(1))), c(0)));
  // ... or when it is conditional and its condition is not as asked.
  const skip = pick(fluentMissing, c(1), and(ne(get(KIND), c(0)), ne(eq(get(KIND), c(1)), condHolds)));
  const copies = t.copyDst.length === 0 ? [] : seq(set(I, c(0)), whileDo(ltS(get(I), c(t.sourceWords.length)),
    set(W, ld(A('sourceWords'), get(I))),
    set(BITS, and(ld(m.loaded!, get(W)), ld(A('sources'), get(W)))),
    whileDo(ne(get(BITS), c(0)),
      set(F, or(shl(get(W), c(5)), ctz(get(BITS)))),
      set(P, ld(A('copyStart'), get(F))), set(END, ld(A('copyStart'), add(get(F), c(1)))),
      whileDo(ltS(get(P), get(END)),
        set(KIND, ld(A('copyKind'), get(P))),
        when(eqz(skip), seq(set(G, ld(A('copyDst'), get(P))), orInto(shrU(get(G), c(5)), shl(c(1), and(get(G), c(31)))))),
        inc(P)),
      set(BITS, and(get(BITS), add(get(BITS), c(-1))))),
    inc(I)));
  // The copies by move (see `tablesOf`): per does atom of the move, its copies whose source (and second fluent) is set.
  const isSet = (f: Code): Code => and(shrU(ld(m.loaded!, shrU(f, c(5))), and(f, c(31))), c(1));
  const moveCopies = t.mcSrc.length === 0 ? [] : perRow(entries('mcStart', when(
    and(isSet(ld(A('mcSrc'), get(E))), seq(set(G, ld(A('mcFluent'), get(E))), pick(geS(get(G), c(0)), isSet(get(G)), c(1)))),
    seq(set(G, ld(A('mcDst'), get(E))), orInto(shrU(get(G), c(5)), shl(c(1), and(get(G), c(31))))))));
  return seq(copy, kept, clearCond, kills, adds, copies, moveCopies);
}
