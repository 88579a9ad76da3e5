/**
 * The hand-over of the superset stage's facts to instantiation as term ids (issue 27): the fact
 * store's term table and its relations' rows, instead of a syntax tree per fluent, move and
 * axiom that instantiation interns again (amazonsTorus: 1.15×10⁶ axioms, an `Atom` and an
 * argument array each, alive through instantiation, and 0.8 s to intern them again).
 *
 * The supersets of a grounding run (`axiomOrder: 'found'`) keep their arrays, made from the ids
 * on first read only, so every other reader sees the same supersets as before; instantiation
 * reads {@link handedIds} and makes none of them. The ids are not an enumerable property: a
 * copy (`{ ...s, axioms: filtered }`) reads the arrays and carries no ids that might no longer
 * match them.
 */
import type { Atom, Term } from '../gdl/ast.js';
import { NO_POS } from '../gdl/ast.js';
import type { TermTable } from '../datalog/terms.js';
import type { Move, Supersets } from './types.js';

/**
 * The axioms of one relation of the run, read as relation `rel`: `size` tuples of `arity` term
 * ids of {@link SupersetIds.terms}, in the order found, row by row in `rows` (exactly
 * `size * arity` entries). A copy of the fact store's rows, not its `Relation`: that one's
 * membership index and doubled room (amazonsTorus: 43 and 18 MiB) would live as long as the
 * supersets, through instantiation and on, which reads the rows only.
 */
export interface AxiomRows {
  readonly rel: string;
  readonly arity: number;
  readonly size: number;
  readonly rows: Int32Array;
}

/** The supersets as term ids of one term table (the superset stage's; read only from here on). */
export interface SupersetIds {
  readonly terms: TermTable;
  /** Every fluent's term id, in the order found. */
  readonly fluents: Int32Array;
  /** Every move as two term ids, role then action, in the order found. */
  readonly moves: Int32Array;
  /** The axioms, relation by relation (a relation read from several of the run's may come more than once, never a fact twice). */
  readonly axioms: readonly AxiomRows[];
  /** Number of axioms in all. */
  readonly axiomCount: number;
  /**
   * Static relations (keys `name/arity`) whose rows in `axioms` are exactly their model
   * (src/reach/exact-statics.ts): a relation named here with no rows has none. Absent: none.
   */
  readonly exactStatics?: readonly string[];
}

const HANDOVER = 'handover';

/**
 * Supersets over `ids` whose arrays are made from the ids when first read (fluents and moves
 * in the order of the ids, axioms group by group), with the ids for {@link handedIds}.
 */
export function handedSupersets(ids: SupersetIds): Supersets {
  const term = (id: number): Term => ids.terms.toTerm(id);
  const memo = <T>(make: () => T): (() => T) => {
    let value: T | undefined;
    return () => (value ??= make());
  };
  const fluents = memo(() => Array.from(ids.fluents, term));
  const moves = memo((): Move[] => {
    const out = new Array<Move>(ids.moves.length / 2);
    for (let i = 0; i < out.length; i++) out[i] = { role: term(ids.moves[2 * i]!), action: term(ids.moves[2 * i + 1]!) };
    return out;
  });
  const axioms = memo(() => axiomsOf(ids, term));
  const s = {};
  // Configurable: a test traps the reads to check that instantiation works on the ids alone.
  Object.defineProperties(s, {
    fluents: { enumerable: true, configurable: true, get: fluents },
    moves: { enumerable: true, configurable: true, get: moves },
    axioms: { enumerable: true, configurable: true, get: axioms },
    [HANDOVER]: { enumerable: false, value: ids },
  });
  return s as Supersets;
}

/** The term ids `s` was made from by {@link handedSupersets}; undefined for any other supersets (a copy of them too). */
export function handedIds(s: Supersets): SupersetIds | undefined {
  return Object.prototype.hasOwnProperty.call(s, HANDOVER) ? (s as unknown as Record<string, SupersetIds>)[HANDOVER] : undefined;
}

/**
 * `s` with the static relations a run asked for (`askedStatics`), still handed over as term
 * ids when `s` was: a spread copy would make every array (gt_two_thirds_6p's demanded run).
 */
export function withAskedStatics(s: Supersets, askedStatics: readonly string[]): Supersets {
  const ids = handedIds(s);
  if (ids === undefined) return { ...s, askedStatics };
  const handed = handedSupersets(ids);
  Object.defineProperty(handed, 'askedStatics', { enumerable: true, value: askedStatics });
  return handed;
}

/** The sizes of the three supersets, without making their arrays when they were handed over as ids. */
export function supersetSizes(s: Supersets): { fluents: number; moves: number; axioms: number } {
  const ids = handedIds(s);
  if (ids !== undefined) return { fluents: ids.fluents.length, moves: ids.moves.length / 2, axioms: ids.axiomCount };
  return { fluents: s.fluents.length, moves: s.moves.length, axioms: s.axioms.length };
}

/** The axioms of `ids` as atoms, group by group, each group's rows in order. */
function axiomsOf(ids: SupersetIds, term: (id: number) => Term): Atom[] {
  const out = new Array<Atom>(ids.axiomCount);
  let n = 0;
  for (const g of ids.axioms) {
    for (let row = 0; row < g.size; row++) {
      // Sized once: an array filled by push keeps room for 17 elements.
      const args = new Array<Term>(g.arity);
      for (let i = 0; i < g.arity; i++) args[i] = term(g.rows[row * g.arity + i]!);
      out[n++] = { kind: 'atom', rel: g.rel, args, pos: NO_POS };
    }
  }
  return out;
}
