/**
 * A planned variant clause over GDL terms: what join planning (plan.ts) makes and what
 * clauses.ts renders as Prolog text or Tau terms, and the shapes of rules and literals planning
 * reads. Apart from both, since plan.ts calls clauses.ts.
 */
import type { Term } from '../gdl/ast.js';
import type { RelaxedLiteral, RelaxedRule } from './relaxed.js';

/** A goal of a variant clause, before it is rendered as text or built as Tau terms. */
export type PlannedGoal =
  | {
      readonly kind: 'call'; readonly name: string; readonly args: readonly Term[];
      /**
       * A call of the projection `name` of table `base` onto the positions `keep` (see plan.ts,
       * `projectDead`); `args` are the base call's.
       */
      readonly projects?: {
        readonly base: string; readonly args: readonly Term[]; readonly keep: readonly number[];
        /** Every distinct tuple of the base as it is, not only those new to the relation (compile.ts, `deltaHistory`). */
        readonly all?: boolean;
      };
    }
  | { readonly kind: 'neq'; readonly left: Term; readonly right: Term }
  /** Goals that only decide whether some binding exists: `once((G1, ..., Gn))`. */
  | { readonly kind: 'once'; readonly goals: readonly PlannedGoal[] }
  /** Succeeds when the (ground) call has no fact: `'$gdl_absent'(Call)`. */
  | { readonly kind: 'absent'; readonly call: PlannedGoal & { readonly kind: 'call' } };

/** A variant clause `name(head...) :- goals`, over GDL terms. */
export interface PlannedClause {
  readonly name: string;
  readonly head: readonly Term[];
  readonly goals: readonly PlannedGoal[];
  readonly rule: RelaxedRule;
  /** Estimated states the clause creates when the delta table holds `deltaRows` facts. */
  readonly cost: (deltaRows: number) => number;
}

/**
 * Estimated number of answers of a literal reading `table` of relation `relKey` (undefined:
 * served by a split relation's whole table), given which table arguments are bound, and
 * `inner`: the arguments bound inside a compound argument that is not, where the engine's
 * inner index (src/engine/tables.ts) looks the call up by them.
 */
export type RowEstimate = (relKey: string, table: string | undefined, boundArgs: readonly boolean[], inner?: InnerBound) => number;

/**
 * The table argument `at`, a compound term not bound as a whole, and which of its own
 * arguments are (the first such argument with any: the one the engine's inner index uses).
 */
export interface InnerBound {
  readonly at: number;
  readonly bound: readonly boolean[];
}

/** Estimates for ordering a body and for costing the result. */
export interface Estimates {
  /** Orders goals; may inflate growing tables so that they are not put first while small. */
  readonly order: RowEstimate;
  /** Sizes as they are, for comparing plans. */
  readonly cost: RowEstimate;
}

/** One body literal as planning sees it. */
export interface LiteralShape {
  readonly lit: RelaxedLiteral;
  readonly vars: readonly string[];
  /** Positive literals: what they read, the variables of each table argument, the calls. */
  readonly read?: {
    readonly relKey: string;
    readonly table: string | undefined;
    readonly argVars: readonly (readonly string[])[];
    /** Its arguments in the table (split relations spread the split argument's). */
    readonly args: readonly Term[];
    readonly full: PlannedGoal;
    readonly delta: PlannedGoal;
  };
}

/** What planning needs of a rule, computed once. */
export interface RuleShape {
  readonly rule: RelaxedRule;
  readonly headVars: ReadonlySet<string>;
  /** The head as a call of its relation's full table, when one table holds it. */
  readonly headCall?: PlannedGoal & { readonly kind: 'call' };
  readonly literals: readonly LiteralShape[];
  /** The positive literals in body order (the `deltaAt` of a variant counts these). */
  readonly positives: readonly LiteralShape[];
}
