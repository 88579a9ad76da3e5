/**
 * What the mutex stage reads of a ground game, in one place: the fluents (as `true` atoms,
 * with their `next` atoms and argument keys), the moves per role, the terminal atom. Every
 * other module of the stage works on these indexes only.
 */
import { lazyInputAtoms } from '../ground/atoms.js';
import type { GroundGame } from '../ground/types.js';
import type { Term } from '../gdl/ast.js';
import { compareCodePoints } from '../gdl/terms.js';
import type { GroundRule } from '../ground/types.js';
import { relKey } from './lifted-relax.js';

/** One fluent F: its `(true F)` and `(next F)` atoms and its shape. */
interface FluentInfo {
  /** Term id of F. */
  readonly term: number;
  /** KIF text of F, as `ground` prints fluents. */
  readonly text: string;
  readonly trueAtom: number;
  /** The `(next F)` atom, or -1 when no rule can make F true again. */
  readonly nextAtom: number;
  /** Functor of F and its arity (`cell/3`); a constant fluent has arity 0. */
  readonly relation: string;
  readonly name: string;
  /** Argument texts of F (empty for a constant). */
  readonly args: readonly string[];
}

/** The ground game as the mutex stage sees it. */
export interface MutexView {
  readonly atoms: number;
  readonly rules: readonly GroundRule[];
  /** Fluents sorted by text; a fluent's index here is its number in every other structure. */
  readonly fluents: readonly FluentInfo[];
  /**
   * Per role (in role order), every move that has a `does` or a `legal` atom: a move that no
   * rule body mentions has no `does` atom (-1) but can still be made, which matters when
   * reasoning about "exactly one move per role".
   */
  readonly moves: readonly (readonly { readonly does: number; readonly legal: number }[])[];
  readonly terminal: number;
  /** Fluent indexes of the initial state. */
  readonly init: readonly number[];
  /**
   * Atoms a lazy part (docs/lazy.md) decides per state, outside the ground rules: atoms of lazy
   * relations and the heads lazy keyword rules may make (`lazyInputAtoms`), sorted; empty without
   * lazy axioms. The ground SAT leaves them free variables, with no completion (encode.ts).
   */
  readonly opaque: readonly number[];
}

/** Builds the view of a ground game from its vocabulary (the one place that reads it). */
export function mutexView(game: GroundGame): MutexView {
  const { terms, vocabulary } = game;
  const roleIndex = new Map(game.roles.map((r, i) => [r, i]));
  // The fluents that have a true atom, in atom order (the text order of their true atoms).
  const fluents: FluentInfo[] = vocabulary.fluents
    .filter((f) => f.trueId >= 0)
    .sort((x, y) => x.trueId - y.trueId)
    .map((f) => {
      const args = terms.args(f.term).map((x) => terms.text(x));
      const name = terms.name(f.term);
      return { term: f.term, text: terms.text(f.term), trueAtom: f.trueId, nextAtom: f.nextId, relation: relKey(name, args.length), name, args };
    });
  // One entry per move of a role of the game: its does atom and its legal atom, whichever exist.
  const moveIndex = game.roles.map((): [number, { does: number; legal: number }][] => []);
  for (const m of vocabulary.moves) {
    const r = roleIndex.get(m.role);
    if (r !== undefined) moveIndex[r]!.push([m.action, { does: m.doesId, legal: m.legalId }]);
  }
  const fluentOfAtom = new Int32Array(game.atoms.length).fill(-1);
  fluents.forEach((f, i) => (fluentOfAtom[f.trueAtom] = i));
  const init = [...new Set(game.init.map((a) => fluentOfAtom[a]!).filter((f) => f >= 0))].sort((a, b) => a - b);
  const moves = moveIndex.map((m) => m.sort((a, b) => compareCodePoints(terms.text(a[0]), terms.text(b[0]))).map((e) => e[1]));
  // The rule objects are made on the first read of `rules` (compact.ts), not here: the
  // candidates, the moves' search and the lifted proofs read none, and making them comes out of
  // the same budget (FARMERS_S: 2.4 million rules, 0.3 s before the lifted proofs could start).
  return { atoms: game.atoms.length, get rules() { return game.rules; }, fluents, moves, terminal: vocabulary.terminal, init, opaque: lazyInputAtoms(game) };
}

/**
 * The arguments of every fluent of the ground game (with a `true` atom or not), per `name/arity`:
 * the fluents' values the lifted proof reads (the mutex stage and the tests pass this same map).
 */
export function fluentArgs(game: GroundGame): Map<string, Term[][]> {
  const out = new Map<string, Term[][]>();
  for (const f of game.vocabulary.fluents) {
    const t = game.terms.toTerm(f.term);
    const args = t.kind === 'fn' ? [...t.args] : [];
    const k = relKey(t.kind === 'var' ? '' : t.name, args.length);
    const rows = out.get(k) ?? [];
    rows.push(args);
    out.set(k, rows);
  }
  return out;
}

/** Per term id of a fluent of `view`, its index there. */
export function fluentIndexByTerm(view: MutexView): Map<number, number> {
  return new Map(view.fluents.map((f, i) => [f.term, i]));
}

/**
 * The fluent indexes (through `fluentOfTerm`, {@link fluentIndexByTerm}) of the term ids `terms`,
 * in their order: a state as the mutex stage reads it, the terms of fluents outside the view
 * (no `true` atom) dropped.
 */
export function fluentIndexes(fluentOfTerm: ReadonlyMap<number, number>, terms: readonly number[]): number[] {
  const out: number[] = [];
  for (const t of terms) {
    const f = fluentOfTerm.get(t);
    if (f !== undefined) out.push(f);
  }
  return out;
}

/** Per atom of `view`: the fluent whose `true` atom it is (`ofTrue`) and whose `next` atom it is (`ofNext`), else -1. */
export function atomFluents(view: MutexView): { readonly ofTrue: Int32Array; readonly ofNext: Int32Array } {
  const ofTrue = new Int32Array(view.atoms).fill(-1);
  const ofNext = new Int32Array(view.atoms).fill(-1);
  view.fluents.forEach((f, i) => {
    ofTrue[f.trueAtom] = i;
    if (f.nextAtom >= 0) ofNext[f.nextAtom] = i;
  });
  return { ofTrue, ofNext };
}

/** Per atom of `view`: the legal atom of the move whose `does` atom it is, else -1. */
export function legalOfDoes(view: MutexView): Int32Array {
  const out = new Int32Array(view.atoms).fill(-1);
  for (const role of view.moves) for (const m of role) if (m.does >= 0 && m.legal >= 0) out[m.does] = m.legal;
  return out;
}
