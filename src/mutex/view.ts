/**
 * What the mutex stage reads of a ground game, in one place: the fluents (as `true` atoms,
 * with their `next` atoms and argument keys), the moves per role, the terminal atom. Every
 * other module of the stage works on these indexes only.
 */
import type { GroundGame } from '../ground/types.js';
import { compareCodePoints } from '../gdl/terms.js';
import { keywordSymbols, partnerAtoms } from '../ground/atoms.js';
import type { GroundRule } from '../ground/types.js';

/** One fluent F: its `(true F)` and `(next F)` atoms and its shape. */
export interface FluentInfo {
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
}

/** Builds the view of a ground game (the one place that reads its atoms). */
export function mutexView(game: GroundGame): MutexView {
  const { terms } = game;
  const kw = keywordSymbols(terms);
  const partner = partnerAtoms(game, [[kw.true, kw.next], [kw.does, kw.legal], [kw.legal, kw.does]]);
  const roleIndex = new Map(game.roles.map((r, i) => [r, i]));
  const fluents: FluentInfo[] = [];
  const moveIndex = game.roles.map(() => new Map<number, { does: number; legal: number }>());
  let terminal = -1;
  game.atoms.forEach((a, atom) => {
    if (a.rel === kw.true && a.args.length === 1) {
      const f = a.args[0]!;
      const args = terms.args(f).map((x) => terms.text(x));
      fluents.push({ term: f, text: terms.text(f), trueAtom: atom, nextAtom: partner[atom]!, relation: `${terms.name(f)}/${args.length}`, name: terms.name(f), args });
    } else if ((a.rel === kw.does || a.rel === kw.legal) && a.args.length === 2) {
      const r = roleIndex.get(a.args[0]!);
      if (r === undefined) return;
      // One entry per move: its does atom and its legal atom, whichever exist.
      const m = moveIndex[r]!.get(a.args[1]!) ?? { does: -1, legal: -1 };
      moveIndex[r]!.set(a.args[1]!, m);
      if (a.rel === kw.does) m.does = atom;
      else m.legal = atom;
    } else if (a.rel === kw.terminal && a.args.length === 0) terminal = atom;
  });
  // Atoms are in text order, so the true atoms, and their fluents, are too.
  const fluentOfAtom = new Int32Array(game.atoms.length).fill(-1);
  fluents.forEach((f, i) => (fluentOfAtom[f.trueAtom] = i));
  const init = [...new Set(game.init.map((a) => fluentOfAtom[a]!).filter((f) => f >= 0))].sort((a, b) => a - b);
  const moves = moveIndex.map((m) => [...m.entries()].sort((a, b) => compareCodePoints(terms.text(a[0]), terms.text(b[0]))).map((e) => e[1]));
  return { atoms: game.atoms.length, rules: game.rules, fluents, moves, terminal, init };
}
