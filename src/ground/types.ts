/**
 * The ground game: variable-free rules over ground atoms that are ids into the run's term
 * table. No text travels with it: the emitters (and whoever reports to a person) make KIF text
 * from `terms`.
 *
 * The contract, which makes the same game give the same ground game byte for byte:
 * - `atoms` holds every atom that occurs in `init` or `rules`, once, sorted by the KIF text of
 *   its term (code point order); an atom's id is its index in `atoms`;
 * - rule bodies (`pos`, `neg`) are ascending lists of atom ids without duplicates;
 * - `rules` are sorted by head, then positive body, then negative body, without duplicates;
 * - `init` is ascending without duplicates.
 */
import type { TermReader } from '../datalog/terms.js';
import type { NormalRule } from '../normalize/types.js';

/** A ground atom, such as `(true (cell 1 1 b))`, `(legal x noop)` or `terminal`. */
export interface GroundAtom {
  /** The atom as a term id of `terms` (its functor is the relation). */
  readonly term: number;
  /** Symbol id of the relation (`true`, `does`, `next`, `legal`, `goal`, `terminal`, or an axiom). */
  readonly rel: number;
  /** Term ids of the arguments. */
  readonly args: readonly number[];
}

/** A ground rule `head <= pos..., (not neg)...`; a ground fact has empty bodies. */
export interface GroundRule {
  readonly head: number;
  readonly pos: readonly number[];
  readonly neg: readonly number[];
}

/** A variable-free game equivalent to the source game. */
export interface GroundGame {
  readonly file: string;
  /** The term table every term id of this game refers to (read only). */
  readonly terms: TermReader;
  /** The roles as term ids, in the order of the description. */
  readonly roles: readonly number[];
  /** All ground atoms that occur in `init` or `rules`, id = index, sorted by text. */
  readonly atoms: readonly GroundAtom[];
  /** Ids of the `(true F)` atoms that hold in the initial state. */
  readonly init: readonly number[];
  /**
   * Ground rules for next, legal, goal, terminal and the non-static axioms. A game assembled or
   * restricted by this folder holds them compactly (compact.ts) and makes these objects on the
   * first read; pruning, unused-instance removal and the GDL writer read the compact form.
   */
  readonly rules: readonly GroundRule[];
  /**
   * The part left non-ground by `--lazy-axioms` (docs/lazy.md); absent otherwise. Atoms of its
   * relations occur in `rules` only negated and hold or not per state, as its program says.
   */
  readonly lazy?: LazyPart;
  /**
   * Frame rules rewritten with move mutexes during instantiation (docs/ground.md, "Frame
   * rules"), when any: how many, their joins' estimates summed, and the ground rules made
   * for them instead (estimated for the head rules); and how many rules could be rewritten
   * over smaller supersets (`candidates`: the pipeline then instantiates again over the
   * supersets read back, so that both methods decide alike; docs/ground.md), and how many
   * were left for that run to decide (`deferred`), and the rewrites that run would have made
   * but this one made already (`early`: their relations, so that the read-back reads them as
   * the rules they replace, frame-reach.ts).
   */
  readonly frame?: { readonly rules: number; readonly estimated: number; readonly made: number; readonly candidates: number; readonly deferred: number; readonly early: readonly EarlyFrame[] };
  /**
   * The fluents, moves, goals and terminal atom of `atoms`, computed once when the game is
   * made (vocabulary.ts): every reader of the game's vocabulary reads it here.
   */
  readonly vocabulary: Vocabulary;
}

/**
 * A frame rewrite made in a run over a method's own supersets although its relaxed game may
 * reach more than the rule it replaces (a `(next F)` head without `(true F)` in the body;
 * docs/ground.md, "One decision for both methods"): the names of its `moved` and `touched`
 * relations (`touched` null when no test can fail).
 */
export interface EarlyFrame {
  readonly moved: string;
  readonly touched: string | null;
}

/** A fluent F (term id) with the ids of its `(true F)` and `(next F)` atoms (-1 when absent). */
export interface FluentEntry {
  readonly term: number;
  readonly trueId: number;
  readonly nextId: number;
}

/** A move (term ids of its role and action) with the ids of its `(does R M)` and `(legal R M)` atoms (-1 when absent). */
export interface MoveEntry {
  readonly role: number;
  readonly action: number;
  readonly doesId: number;
  readonly legalId: number;
}

/** A `(goal R V)` atom: term ids of R and V, and its atom id. */
export interface GoalEntry {
  readonly role: number;
  readonly value: number;
  readonly id: number;
}

/**
 * Everything a player program needs to name. Fluents are sorted by the text of F, moves by the
 * text of `(R M)`, both in code point order (the order of the `base` and `input` output); goals
 * are in atom order.
 */
export interface Vocabulary {
  readonly fluents: readonly FluentEntry[];
  readonly moves: readonly MoveEntry[];
  readonly goals: readonly GoalEntry[];
  /** Id of the `terminal` atom, -1 when the game has none. */
  readonly terminal: number;
}

/** The non-ground part of a game ground with lazy axioms. */
export interface LazyPart {
  /** Keys of the lazy relations (their atoms in `rules` are opaque inputs), sorted. */
  readonly relations: readonly string[];
  /** The non-ground rules: lazy keyword rules and the rules of the relations they need, in source order. */
  readonly rules: readonly NormalRule[];
  /** Term ids of the static facts those rules read, sorted by text. */
  readonly facts: readonly number[];
  /** Term ids of the next, legal, goal and terminal atoms the lazy keyword rules may make, sorted by text. */
  readonly heads: readonly number[];
}
