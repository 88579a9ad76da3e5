/** Supersets of reachable fluents, moves and axioms (section 9.1.2): the output of `reach`. */
import type { Deadline } from '../deadline.js';
import type { Atom, Term } from '../gdl/ast.js';

/** A move `(does R M)` as a pair of ground terms. */
export interface Move {
  readonly role: Term;
  readonly action: Term;
}

/**
 * The three supersets, each sorted by the KIF text of its elements (code point order) and
 * free of duplicates. For the Prolog method they equal the least model of the relaxed game.
 * Grounding's runs (`supersetsForGrounding`, src/reach/demand.ts) leave all three in the order
 * found: instantiation reads them as sets (docs/reach.md, "Fourth pass"; the fluents and moves
 * since 2026-11-28, docs/corpus.md "reach15").
 */
export interface Supersets {
  /** Every F with `(true F)` reachable in the relaxed game. */
  readonly fluents: readonly Term[];
  /** Every `(does R M)` reachable in the relaxed game. */
  readonly moves: readonly Move[];
  /** Ground instances of every relation that is not a GDL keyword, static facts included. */
  readonly axioms: readonly Atom[];
  /**
   * Static relations (keys `name/arity`) whose instances in `axioms` are only those their
   * callers can ask for (the refined run of src/reach/demand.ts), every caller positive and in
   * a rule of a relevant relation: instantiation filters them by `axioms` and starts their rules
   * from those instances, instead of evaluating them whole. Absent: static relations are
   * evaluated whole, as always.
   */
  readonly demandedStatics?: readonly string[];
  /**
   * Static relations (keys `name/arity`, static in instantiation) whose instances in `axioms`
   * are only those the relevant relations ask for (src/reach/demand-statics.ts). Instantiation
   * evaluates them exactly and never reads these instances; a run in which one of them is not
   * static (a lazy plan) must not use these supersets.
   */
  readonly askedStatics?: readonly string[];
}

/** Counters and timings of a superset computation, for `--stats`. */
export interface ReachStats {
  readonly method: 'prolog' | 'prolog-plain' | 'dg';
  readonly iterations: number;
  /** Answers returned by the engine's queries, duplicates included. */
  readonly answers: number;
  /** Answers kept (new facts). */
  readonly kept: number;
  /** Milliseconds per named step, in order. */
  readonly times: readonly { readonly step: string; readonly ms: number }[];
  /** The plain method's own counts (prolog/alg92.pl); absent for the other methods. */
  readonly plain?: PlainCounts;
}

/** The counts of one run of prolog/alg92.pl (`--method prolog-plain`), for `--stats`. */
export interface PlainCounts {
  /** Iterations of the loop of lines 9-20. */
  readonly iterations: number;
  /** Facts `does` asserted (line 14). */
  readonly moves: number;
  /** Facts `true` asserted (lines 6 and 19). */
  readonly fluents: number;
  /** Axiom instances found (lines 22-25). */
  readonly axioms: number;
  /** Rounds of the bottom-up closure of recursive relations, over all its calls. */
  readonly closureRounds: number;
}

/** Limits of a superset computation; exceeding one raises a GdlError with code 'limit'. */
export interface ReachLimits {
  /** The run's deadline (time and heap), looked at through every fixpoint and join. */
  readonly deadline: Deadline;
  /** Largest number of ground atoms (fluents + moves + axiom instances) before giving up. */
  readonly maxAtoms: number;
  /** Deepest term nesting accepted by both methods (absent: `DEFAULT_MAX_TERM_DEPTH` of prolog.ts). */
  readonly maxTermDepth?: number;
  /**
   * Grounding's runs only: look ahead at the relations not derived yet (src/reach/foresight.ts);
   * `mayBeLazy` says whether the lazy plan would take a relation (name, arity) as its seed.
   */
  readonly foresight?: { readonly mayBeLazy: (rel: string, arity: number) => boolean };
}

/** Default limits besides the deadline, which every run brings (its run context's): two million atoms. */
export const DEFAULT_REACH_LIMITS: Omit<ReachLimits, 'deadline'> = { maxAtoms: 2_000_000 };

/** The result of a superset computation. */
export interface ReachResult {
  readonly supersets: Supersets;
  readonly stats: ReachStats;
}
