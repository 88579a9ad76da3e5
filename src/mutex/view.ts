/**
 * What the mutex stage reads of a ground game, in one place: the fluents (as `true` atoms,
 * with their `next` atoms and argument keys), the moves per role, the terminal atom. Every
 * other module of the stage works on these indexes only.
 */
import type { GroundGame } from '../ground/types.js';
import type { GroundRule } from '../ground/types.js';
import { compareCodePoints, termToString } from '../gdl/terms.js';

/** One fluent F: its `(true F)` and `(next F)` atoms and its shape. */
export interface FluentInfo {
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
  /** Fluent index of a `true` atom (-1 for other atoms). */
  readonly fluentOfAtom: Int32Array;
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

/** The parts of one ground atom that the stage reads: relation, and per argument text and shape. */
interface AtomParts {
  readonly rel: string;
  readonly args: readonly { readonly text: string; readonly name: string; readonly args: readonly string[] }[];
}

/** The one place that reads the ground game's atom representation. */
function atomParts(game: GroundGame, atom: number): AtomParts {
  const a = game.atoms[atom]!;
  return {
    rel: a.rel,
    args: a.args.map((t) => ({ text: termToString(t), name: t.name, args: t.kind === 'fn' ? t.args.map(termToString) : [] })),
  };
}

/** Builds the view of a ground game. */
export function mutexView(game: GroundGame): MutexView {
  const parts = game.atoms.map((_, i) => atomParts(game, i));
  const key = (rel: string, args: readonly string[]): string => `${rel} ${args.join(' ')}`;
  const byKey = new Map(parts.map((p, i) => [key(p.rel, p.args.map((a) => a.text)), i]));
  // A fluent's (next F) atom, found by text here, the one place that reads texts.
  const roleIndex = new Map(game.roles.map((r, i) => [termToString(r), i]));
  const fluents: Omit<FluentInfo, 'index'>[] = [];
  const moveIndex = game.roles.map(() => new Map<string, { does: number; legal: number }>());
  const move = (role: string, action: string): { does: number; legal: number } | undefined => {
    const r = roleIndex.get(role);
    if (r === undefined) return undefined;
    let m = moveIndex[r]!.get(action);
    if (m === undefined) {
      m = { does: -1, legal: -1 };
      moveIndex[r]!.set(action, m);
    }
    return m;
  };
  let terminal = -1;
  parts.forEach((p, atom) => {
    if (p.rel === 'true' && p.args.length === 1) {
      const f = p.args[0]!;
      const next = byKey.get(key('next', [f.text])) ?? -1;
      fluents.push({ text: f.text, trueAtom: atom, nextAtom: next, relation: `${f.name}/${f.args.length}`, name: f.name, args: f.args });
    } else if ((p.rel === 'does' || p.rel === 'legal') && p.args.length === 2) {
      const m = move(p.args[0]!.text, p.args[1]!.text);
      if (m !== undefined && p.rel === 'does') m.does = atom;
      else if (m !== undefined) m.legal = atom;
    } else if (p.rel === 'terminal' && p.args.length === 0) terminal = atom;
  });
  fluents.sort((a, b) => compareCodePoints(a.text, b.text));
  const fluentOfAtom = new Int32Array(parts.length).fill(-1);
  fluents.forEach((f, i) => (fluentOfAtom[f.trueAtom] = i));
  const init = [...new Set(game.init.map((a) => fluentOfAtom[a]!).filter((f) => f >= 0))].sort((a, b) => a - b);
  const moves = moveIndex.map((m) => [...m.entries()].sort((a, b) => compareCodePoints(a[0], b[0])).map((e) => e[1]));
  return { atoms: parts.length, rules: game.rules, fluents, fluentOfAtom, moves, terminal, init };
}
