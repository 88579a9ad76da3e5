/**
 * The ground game compiled once into a propagation network over flat integer arrays, for the
 * fast simulator (docs/play.md). Every atom is a node; every rule an AND node with a counter
 * of its satisfied literals; every head an OR node with a count of its firing rules (its
 * support). The atoms' strongly connected components are numbered in topological order
 * (bodies first), so that changes can be propagated component by component, each once, in
 * that order: an acyclic component is one atom whose value is `support > 0`; a cyclic one
 * (recursive axioms) is recomputed as a whole, by its least fixpoint, once its inputs are final.
 * Negation inside a component is refused: the ground game of a stratified game has none.
 */
import { NO_POS } from '../../gdl/ast.js';
import { GdlError, diag } from '../../gdl/diagnostics.js';
import { atomText } from '../../ground/atoms.js';
import type { GroundGame } from '../../ground/types.js';
import { type AtomGraph, atomComponents, atomGraph, dependOnDoesGraph, selfLoop } from '../ground-graph.js';

/** The compiled network; all lists are CSR pairs (`start[i] .. start[i+1]-1` into the list). */
export interface Net {
  readonly atoms: number;
  readonly rules: number;
  /** Rule k: head, positive then negative body. */
  readonly head: Int32Array;
  readonly posStart: Int32Array;
  readonly pos: Int32Array;
  readonly negStart: Int32Array;
  readonly neg: Int32Array;
  /** Counted rules (acyclic head, not triggered) reading atom a, as `2k` (positively) or `2k+1` (negatively). */
  readonly readStart: Int32Array;
  readonly readers: Int32Array;
  /** Cyclic components with a rule reading atom a (from outside or inside): settled again when a changes. */
  readonly cycleReadStart: Int32Array;
  readonly cycleReaders: Int32Array;
  /** Component of each atom, in topological order (a body's component is never later). */
  readonly comp: Int32Array;
  readonly components: number;
  /** Per component: 1 when it lies on a cycle, its atoms, and (cyclic ones only) the rules deriving them. */
  readonly cyclic: Uint8Array;
  readonly compAtomStart: Int32Array;
  readonly compAtoms: Int32Array;
  readonly compRuleStart: Int32Array;
  readonly compRules: Int32Array;
  /** Per rule of a cyclic component, its positive body atoms inside that component. */
  readonly internal: Int32Array;
  /** Rules of its own cyclic component reading atom a positively. */
  readonly watchStart: Int32Array;
  readonly watch: Int32Array;
  /**
   * Triggered rules filed under their first positive `does` atom d: evaluated outright when d
   * is set, never counted (they are in no reader list). A rule is triggered when its head is
   * acyclic and its other literals are does atoms or depend on no does atom, so they are final
   * before any does atom is set.
   */
  readonly triggerStart: Int32Array;
  readonly triggers: Int32Array;
  /**
   * Per rule, the does atom it is filed under, or -1 for a counted rule. A triggered rule is
   * still counted over its literals that depend on no does atom (it is among their readers):
   * when they all hold it is *armed*, and only armed rules are looked at when its does atom is set.
   */
  readonly trigger: Int32Array;
  /** Per rule, its positive literals it is counted over (all of a counted or cyclic rule's, a triggered rule's does-free ones): its `unmet` when every atom is false. */
  readonly countedPos: Int32Array;
}

/** Per atom, 1 when it is a does atom, 2 when it depends on one (and is not one). */
function doesDependence(g: AtomGraph): Uint8Array {
  const mark = dependOnDoesGraph(g);
  for (let a = 0; a < g.atoms; a++) if (mark[a] === 1 && g.isDoes[a] === 0) mark[a] = 2;
  return mark;
}

/** The does atom that triggers rule `r` (its first positive one), or -1 when the rule is counted. */
function triggerOf(r: GroundGame['rules'][number], onDoes: Uint8Array, headCyclic: boolean, opaque: Uint8Array | undefined): number {
  // A rule reading an opaque lazy atom is counted: the atom may be decided after the does atoms are set.
  if (opaque !== undefined && r.neg.some((a) => opaque[a] === 1)) return -1;
  if (headCyclic || r.pos.some((a) => onDoes[a] === 2) || r.neg.some((a) => onDoes[a] === 2)) return -1;
  return r.pos.find((a) => onDoes[a] === 1) ?? -1;
}

/** Lists grouped by key as a CSR pair: `items` of key i are `list[start[i] .. start[i+1]-1]`, in input order. */
function csr(keys: number, pairs: readonly number[]): { start: Int32Array; list: Int32Array } {
  // `pairs` holds (key, item) flat.
  const start = new Int32Array(keys + 1);
  for (let i = 0; i < pairs.length; i += 2) start[pairs[i]! + 1]!++;
  for (let i = 0; i < keys; i++) start[i + 1]! += start[i]!;
  const list = new Int32Array(pairs.length >> 1);
  const fill = start.slice(0, keys);
  for (let i = 0; i < pairs.length; i += 2) list[fill[pairs[i]!]!++] = pairs[i + 1]!;
  return { start, list };
}

/** Components in topological order and each atom's component, over the atom graph of the compact rules (ground-graph.ts). */
function components(g: AtomGraph): { comps: number[][]; comp: Int32Array; cyclic: Uint8Array } {
  const found = atomComponents(g, () => {});
  // Tarjan lists a component after everything it feeds; bodies must come first.
  const comps = Array.from({ length: found.count }, (_, c) => {
    const t = found.count - 1 - c;
    return Array.from(found.atoms.subarray(found.start[t]!, found.start[t + 1]!));
  });
  const comp = new Int32Array(g.atoms);
  const cyclic = new Uint8Array(comps.length);
  comps.forEach((atoms, c) => {
    for (const a of atoms) comp[a] = c;
    if (atoms.length > 1 || selfLoop(g, atoms[0]!)) cyclic[c] = 1;
  });
  return { comps, comp, cyclic };
}

/**
 * Compiles `game`; throws a GdlError when an atom depends negatively on itself. `opaque` marks
 * the lazy atoms decided on demand (fast/lazy.ts): rules reading them are never triggered.
 */
export function compileNet(game: GroundGame, opaque?: Uint8Array): Net {
  const n = game.atoms.length;
  const rules = game.rules;
  const g = atomGraph(game, () => {});
  const { comps, comp, cyclic } = components(g);
  const onDoes = doesDependence(g);
  const head = Int32Array.from(rules, (r) => r.head);
  const posPairs: number[] = [];
  const negPairs: number[] = [];
  const readPairs: number[] = [];
  const cycleReadPairs: number[] = [];
  const watchPairs: number[] = [];
  const triggerPairs: number[] = [];
  const internal = new Int32Array(rules.length);
  const triggerOfRule = new Int32Array(rules.length);
  const countedPos = new Int32Array(rules.length);
  rules.forEach((r, k) => {
    const c = comp[r.head]!;
    const trigger = triggerOf(r, onDoes, cyclic[c] === 1, opaque);
    triggerOfRule[k] = trigger;
    if (trigger >= 0) triggerPairs.push(trigger, k);
    // Who hears of a change of a body atom: the rule's counter, its component, or no one (the
    // does literals of a triggered rule, checked when it fires).
    const read = (a: number, sign: number): void => {
      if (cyclic[c] === 1) {
        cycleReadPairs.push(a, c);
        if (sign === 0) countedPos[k]!++;
      } else if (trigger < 0 || onDoes[a] === 0) {
        readPairs.push(a, 2 * k + sign);
        if (sign === 0) countedPos[k]!++;
      }
    };
    for (const p of r.pos) {
      posPairs.push(k, p);
      read(p, 0);
      if (cyclic[c] === 1 && comp[p] === c) internal[k]!++, watchPairs.push(p, k);
    }
    for (const q of r.neg) {
      if (cyclic[c] === 1 && comp[q] === c) {
        const message = `ground game is not stratified: ${atomText(game, r.head)} depends negatively on itself`;
        throw new GdlError([diag('error', game.file, NO_POS, message)]);
      }
      negPairs.push(k, q);
      read(q, 1);
    }
  });
  const compAtomPairs: number[] = [];
  const compRulePairs: number[] = [];
  comps.forEach((atoms, c) => {
    for (const a of atoms) compAtomPairs.push(c, a);
  });
  rules.forEach((r, k) => {
    if (cyclic[comp[r.head]!] === 1) compRulePairs.push(comp[r.head]!, k);
  });
  const posCsr = csr(rules.length, posPairs);
  const negCsr = csr(rules.length, negPairs);
  const readCsr = csr(n, readPairs);
  const cycleReadCsr = csr(n, cycleReadPairs);
  const watchCsr = csr(n, watchPairs);
  const atomCsr = csr(comps.length, compAtomPairs);
  const ruleCsr = csr(comps.length, compRulePairs);
  const triggerCsr = csr(n, triggerPairs);
  return {
    atoms: n,
    rules: rules.length,
    head,
    posStart: posCsr.start,
    pos: posCsr.list,
    negStart: negCsr.start,
    neg: negCsr.list,
    readStart: readCsr.start,
    readers: readCsr.list,
    cycleReadStart: cycleReadCsr.start,
    cycleReaders: cycleReadCsr.list,
    comp,
    components: comps.length,
    cyclic,
    compAtomStart: atomCsr.start,
    compAtoms: atomCsr.list,
    compRuleStart: ruleCsr.start,
    compRules: ruleCsr.list,
    internal,
    watchStart: watchCsr.start,
    watch: watchCsr.list,
    triggerStart: triggerCsr.start,
    triggers: triggerCsr.list,
    trigger: triggerOfRule,
    countedPos,
  };
}
