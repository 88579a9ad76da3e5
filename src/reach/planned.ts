/**
 * A planned variant clause over GDL terms: what join planning (plan.ts) makes and what
 * clauses.ts renders as Prolog text or Tau terms. Apart from both, since plan.ts calls clauses.ts.
 */
import type { Term } from '../gdl/ast.js';
import type { RelaxedRule } from './relaxed.js';

/** A goal of a variant clause, before it is rendered as text or built as Tau terms. */
export type PlannedGoal =
  | {
      readonly kind: 'call'; readonly name: string; readonly args: readonly Term[];
      /**
       * A call of the projection `name` of table `base` onto the positions `keep` (see plan.ts,
       * `projectDead`); `args` are the base call's.
       */
      readonly projects?: { readonly base: string; readonly args: readonly Term[]; readonly keep: readonly number[] };
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
