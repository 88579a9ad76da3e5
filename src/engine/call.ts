/**
 * The first state of a query `name(X0, ..., Xn-1)`, and the first step of such a query on a
 * predicate of one clause, taken here instead of by Tau-Prolog. The superset stage runs every
 * variant clause as such a query (thousands of small queries per game: kalaha_2009 about
 * 9,000). Tau-Prolog's step for the call walks the calling context, renames the whole clause (a
 * fresh variable for each of its variables, found by a scan of the substitution's domain),
 * unifies the head with the call and applies the unifier to the renamed body: a tenth of
 * kalaha_2009's superset stage. Like `own.ts`, this module does not import tau-prolog: it is
 * handed the library object.
 */

/** A clause as Tau-Prolog stores it (`Rule`). */
interface StoredClause {
  readonly head: { readonly id: string; readonly args: readonly unknown[] };
  readonly body: unknown;
}

/** The first states of calls, and the clauses they may enter directly. */
interface CallStates {
  /** Records `rule`, a clause made by the engine (`addClause`), and returns it. */
  made<R>(rule: R): R;
  /** The state of the call `name(vars...)` (fresh variables), what `thread.add_goal` makes. */
  call(name: string, vars: readonly string[]): unknown;
  /**
   * The state after the call `name(vars...)` entered the predicate's clause, when its only
   * clause is one {@link CallStates.made} recorded; undefined otherwise.
   */
  enter(name: string, vars: readonly string[]): unknown;
}

/**
 * The call states on the tau-prolog library `pl`, for the predicates of module `user`.
 *
 * What `enter` gives is the state Tau-Prolog's step leaves, up to the names of the clause's
 * variables: goal the body, substitution the query variables bound to the head's arguments,
 * parent the call's state. The renaming is not needed: the query variables occur nowhere but
 * in the call, so the unifier binds each `Xi` to the head's i-th argument and nothing in the
 * body (whatever the head repeats or fixes); the body's variables are the clause's own, and the
 * query enters the clause once, so no other activation shares their names (a clause the body
 * calls is entered by Tau-Prolog's step, renamed apart). The engine's steps tell variables
 * apart by name only (src/engine/bind.ts) and change no term in place, so every query of the
 * clause can share the body's terms.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function callStates(pl: any, user: any): CallStates {
  const { State, Substitution, Term, Var } = pl.type;
  const made = new Map<string, StoredClause>();

  function call(name: string, vars: readonly string[]): unknown {
    const links: Record<string, unknown> = {};
    for (const v of vars) links[v] = new Var(v);
    return new State(new Term(name, vars.map((v) => links[v])), new Substitution(links), null);
  }

  function enter(name: string, vars: readonly string[]): unknown {
    const clause = made.get(name);
    // Tau-Prolog's clauses of the predicate: the one recorded, and no other (consulted text).
    const stored = user.rules[`${name}/${vars.length}`];
    if (clause === undefined || !Array.isArray(stored) || stored.length !== 1 || stored[0] !== clause) return undefined;
    const links: Record<string, unknown> = {};
    vars.forEach((v, i) => (links[v] = clause.head.args[i]));
    return new State(clause.body, new Substitution(links), call(name, vars));
  }

  return {
    made: (rule) => (made.set((rule as unknown as StoredClause).head.id, rule as unknown as StoredClause), rule),
    call,
    enter,
  };
}
