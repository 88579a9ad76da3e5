/**
 * The engine's own predicates, implemented in JavaScript on Tau-Prolog's machine state:
 * tables of ground facts (answered by hash lookup, enumerated lazily), `once/1`, `\\==/2`,
 * and the two helper goals they leave on the stack (a cut back to a stack height, the
 * resumption of an enumeration). `src/engine/tau.ts` steps calls of these directly.
 * This module does not import tau-prolog: it is handed the library object by tau.ts.
 */
import { binder } from './bind.js';
import { type InnerKey, type JsTable, MAX_INDEXED, tableStore } from './tables.js';
import { type Candidates, NO_LINKS, type Proved, conjuncts, everySolution, firstSolution } from './once.js';
import { type LastGoal, answerPicker, lastGoalOf } from './pick.js';
import type { TauTerm } from './term.js';
import type { ProjectionHistory, TableOperations } from './types.js';

/** A predicate implemented here: it pops nothing and pushes the states the call leads to. */
type OwnPredicate = (thr: unknown, point: unknown, atom: unknown) => void;

/** The engine's own predicates: by functor name for direct stepping, and the table operations. */
interface OwnPredicates extends TableOperations {
  /**
   * Handlers by functor name. Every name here has one arity in the programs the engine runs
   * (table names carry theirs), or the handler takes any arity: keying by the name string, which
   * term copies share, spares hashing the fresh indicator string each copy builds.
   */
  readonly direct: ReadonlyMap<string, OwnPredicate>;

  /**
   * Where answers go while a query runs (null: as states, the way Tau-Prolog's own steps give
   * them). See {@link AnswerSink}.
   */
  setSink(sink: AnswerSink | null, vars?: readonly string[], tick?: () => void): void;
  /**
   * Gives the sink every answer of a query's first state `entered` (a clause's body entered by
   * src/engine/call.ts, its substitution the query's variables) when the body holds only goals
   * proved here; false, with nothing done, otherwise (or with no sink), for the driver to step.
   */
  solveEntered(entered: unknown): boolean;
}

/**
 * Takes the answers of a query as the engine's own predicates find them: a call that is the
 * last goal of its state (nothing left to prove after it) hands each solution here, the query
 * variables' values, instead of pushing a state with an empty goal for the driver to pop at
 * once. Those states would be popped in the order they were pushed, before anything else on
 * the stack, so the answers come in the same order; a query's answers are mostly such states
 * (every answer of a table call that ends a clause body), and each cost a state, a
 * substitution and its values.
 */
type AnswerSink = (values: unknown[]) => void;

/**
 * Installs the predicates in module `user` of a session. `pl` is the tau-prolog library
 * object; `keyOf` gives the (cached) KIF text of a ground term, the key of the indexes.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function ownPredicates(pl: any, user: any, keyOf: (t: TauTerm) => string): OwnPredicates {
  const { apply, bind, state, values } = binder(pl);
  // The query's answer sink, and its variables (see AnswerSink); the driver sets both, and the
  // clock's tick for work that makes no step (a once group proved here, see firstSolution).
  let sink: AnswerSink | null = null;
  let sinkVars: readonly string[] = [];
  let tick: () => void = NO_TICK;
  // Predicates implemented here, by functor name, for stepDirect.
  const direct = new Map<string, OwnPredicate>();
  /**
   * Installs predicate `name`/`arity` implemented in JavaScript. Tau-Prolog keys its
   * predicates by the Prolog predicate indicator `name/arity` (Prolog syntax, not a relation
   * key of ours), made here from the parts; `direct` is keyed by the name.
   */
  const install = (name: string, arity: number, handler: OwnPredicate): void => {
    const indicator = `${name}/${arity}`;
    user.rules[indicator] = handler;
    user.public_predicates[indicator] = true;
    user.src_predicates[indicator] = '$gdl';
    direct.set(name, handler);
  };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  direct.set('\\==', (thr: any, point: any, atom: any) => {
    if (pl.compare(atom.args[0], atom.args[1]) !== 0) succeed(thr, point);
  });

  /**
   * What Tau-Prolog's `thr.success(point)` does (the selected goal proved, no bindings), but
   * an empty goal left becomes an answer given to the sink.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  function succeed(thr: any, point: any): void {
    const rest = point.goal.replace(null);
    if (rest === null && sink !== null) sink(values(sinkVars, point.substitution, NO_LINKS));
    else thr.prepend([new pl.type.State(rest, point.substitution, point)]);
  }

  const tables = new Map<string, JsTable>();
  const store = tableStore(keyOf);

  function defineTable(name: string, arity: number): void {
    // Defined already (by a clause that calls it before it has facts): keep what it has.
    if (tables.has(name)) return;
    const table = store.create(arity);
    tables.set(name, table);
    install(name, arity, (thr, point, atom) => lookup(table, thr, point, atom));
  }

  /** Answers a call on a table: the facts agreeing with its bound arguments, as new states. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  function lookup(table: JsTable, thr: any, point: any, atom: any): void {
    const from = candidates(table, atom);
    if (from === true) succeed(thr, point);
    if (typeof from === 'boolean') return;
    const rest = point.goal.replace(null);
    if (rest === null && sink !== null) answerAll(from, point.substitution, sink);
    else enumerate(thr, from, 0, rest, point.substitution, point, FIRST_CHUNK);
  }

  /**
   * The facts of `table` a call `atom` may match: for a call with every argument bound (or
   * none), whether it has a fact (a membership test, one answer at most); else the candidates,
   * which the call's unifier then filters.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  function candidates(table: JsTable, atom: any): Candidates | boolean {
    const args = atom.args as { ground: boolean }[];
    let mask = 0;
    let full = true;
    for (let i = 0; i < args.length; i++) {
      if (!args[i]!.ground) full = false;
      else if (i < MAX_INDEXED) mask |= 1 << i;
    }
    // Positions past MAX_INDEXED are not in the key: those calls unify each candidate below.
    full &&= args.length <= MAX_INDEXED;
    if (full || args.length === 0) {
      return (mask === 0 ? table.count : store.indexed(store.indexFor(table, mask), mask, args as unknown as readonly TauTerm[]).length) > 0;
    }
    // The candidates: the rows of an index's list, or (null) every row below the table's count.
    const inner = innerKey(args);
    const terms = args as unknown as readonly TauTerm[];
    const rows =
      inner !== undefined ? store.innerIndexed(store.innerIndexFor(table, mask, inner), terms) : mask === 0 ? null : store.indexed(store.indexFor(table, mask), mask, terms);
    return { atom, data: table.data, arity: table.arity, rows, end: rows === null ? table.count : rows.length };
  }

  /**
   * The answers of a call that ends its state's goal, all given to the sink in candidate
   * order (what enumerate's states would give when popped; nothing after the call can cut).
   */
  function answerAll(c: Candidates, subst: unknown, to: AnswerSink): void {
    for (let i = 0; i < c.end; i++) {
      const links = bind(c.atom, c.data, (c.rows === null ? i : c.rows[i]!) * c.arity, MAX_INDEXED);
      if (links !== null) to(values(sinkVars, subst, links));
    }
  }

  /**
   * Pushes a state for each of the next `chunk` candidates from `from` on that unify with the
   * call, and, when candidates remain, a state that resumes the enumeration when backtracking
   * reaches it. Creating every state at once would waste most of them under `once`, where the
   * first success cuts the rest away (Tau-Prolog's own clause resolution is eager like that).
   * Every state has the calling state as parent, as with eager resolution, so cuts behave alike.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  function enumerate(thr: any, c: Candidates, from: number, rest: any, subst: any, parent: unknown, chunk: number): void {
    const states: unknown[] = [];
    let i = from;
    for (; i < c.end && states.length < chunk; i++) {
      const links = bind(c.atom, c.data, (c.rows === null ? i : c.rows[i]!) * c.arity, MAX_INDEXED);
      if (links !== null) states.push(state(rest, subst, links, parent));
    }
    if (i < c.end) {
      const more = new pl.type.Term(MORE, []);
      more.cursor = { candidates: c, next: i, chunk: Math.min(chunk * 4, MAX_CHUNK) } satisfies Cursor;
      states.push(new pl.type.State(rest === null ? more : new pl.type.Term(',', [more, rest]), subst, parent));
    }
    thr.prepend(states);
  }

  // once(G): G, then a cut back to the height the choice-point stack had when once was called.
  // Everything above that height was pushed while proving G, so dropping it is exactly once's
  // cut; Tau-Prolog's own once goes through call/1, module qualification and a cut that
  // walks the ancestors, several steps per call. A G of table calls and tests is proved here
  // at once (src/engine/once.ts): no state for G's goals, its candidates or the cut.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  direct.set('once', (thr: any, point: any, atom: any) => {
    const goals = conjuncts(atom.args[0], ownGoal);
    if (goals !== undefined) {
      const links = firstSolution(goals, { entered, apply, bind, tick, last: undefined });
      if (links === null) return;
      const rest = point.goal.replace(null);
      if (rest === null && sink !== null) sink(values(sinkVars, point.substitution, links));
      else thr.prepend([state(rest, point.substitution, links, point)]);
      return;
    }
    const cut = new pl.type.Term(CUT, []);
    cut.height = thr.points.length;
    const goal = point.goal.replace(new pl.type.Term(',', [atom.args[0], cut]));
    thr.prepend([new pl.type.State(goal, point.substitution, point)]);
  });

  // The goals of each clause body walked by solveEntered (null: not walkable), by the body's
  // term, which every query of the clause shares (call.ts). Tables are defined before the
  // clauses that call them and never dropped, so a body's answer does not change.
  // With each its last goal as pick.ts reads it (null: its answers are bound one by one).
  const walkable = new Map<unknown, { goals: unknown[]; last: LastGoal | null } | null>();

  /**
   * A query whose body is a conjunction of table calls, tests and once groups of them (every
   * variant clause of the superset stage) is proved by one depth-first walk (once.ts
   * `everySolution`) instead of a state per candidate, each with the rest of the body applied:
   * the same answers in the same order, the order the states would be popped in.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  function solveEntered(first: any): boolean {
    if (sink === null) return false;
    let walk = walkable.get(first.goal);
    if (walk === undefined) walkable.set(first.goal, (walk = walkOf(first.goal)));
    if (walk === null) return false;
    const { goals } = walk;
    const to = sink;
    const vars = sinkVars;
    const subst = first.substitution;
    const prover = { entered, apply, bind, tick, last: undefined };
    const last = walk.last === null ? undefined : answerPicker(pl, walk.last, vars, subst, to, prover);
    everySolution(goals, { entered: (atom) => enteredOrOnce(atom, prover), apply, bind, tick, last }, (links) => to(values(vars, subst, links)));
    return true;
  }

  /** The goals of a body solveEntered walks, and its last goal for pick.ts; null: not walkable. */
  function walkOf(body: unknown): { goals: unknown[]; last: LastGoal | null } | null {
    const goals = conjuncts(body, walkGoal);
    return goals === undefined ? null : { goals, last: lastGoalOf(pl, goals) };
  }

  /** A goal solveEntered walks: the engine's own, or a once group of them. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  function walkGoal(t: any): boolean {
    return t.id === 'once' ? t.args.length === 1 && conjuncts(t.args[0], ownGoal) !== undefined : ownGoal(t);
  }

  /** {@link entered}, and a once group proved by its first solution (what the `once` step does). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  function enteredOrOnce(atom: any, prover: Parameters<typeof firstSolution>[1]): Candidates | Proved | boolean {
    if (atom.id !== 'once') return entered(atom);
    const links = firstSolution(conjuncts(atom.args[0], ownGoal)!, prover);
    return links === null ? false : { links };
  }

  /** True for a call of a table, `\\==` or `'$gdl_absent'` (what the superset stage's once groups hold). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  function ownGoal(t: any): boolean {
    return t.id === '\\==' ? t.args.length === 2 : t.id === ABSENT ? t.args.length === 1 : tables.get(t.id)?.arity === t.args.length;
  }

  /** A goal of a once group entered: passed or failed (a test, a bound call), or a call's candidates. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  function entered(atom: any): Candidates | boolean {
    if (atom.id === '\\==') return pl.compare(atom.args[0], atom.args[1]) !== 0;
    if (atom.id === ABSENT) return absent(atom.args[0]);
    return candidates(tables.get(atom.id)!, atom);
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  install(CUT, 0, (thr: any, point: any, cut: any) => {
    thr.points.length = Math.min(thr.points.length, cut.height);
    succeed(thr, point);
  });
  // '$gdl_absent'(Call): Call is a ground call of a table, which has no such fact (a table not
  // defined yet has none). One hash lookup, where \+ would take several generic steps.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  install(ABSENT, 1, (thr: any, point: any, atom: any) => {
    if (absent(atom.args[0])) succeed(thr, point);
  });

  /** The test of `'$gdl_absent'(call)`. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  function absent(call: any): boolean {
    const table = tables.get(call.id);
    // Past MAX_INDEXED arguments the index cannot tell facts apart: then assume absent.
    return table === undefined || call.args.length > MAX_INDEXED || !store.has(table, call.args);
  }
  // The resumption step: `more` carries its cursor; the state's own parent is the calling state.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  install(MORE, 0, (thr: unknown, point: any, more: any) => {
    const c = more.cursor as Cursor;
    enumerate(thr, c.candidates, c.next, point.goal.replace(null), point.substitution, point.parent, c.chunk);
  });

  function addToTable(name: string, args: readonly TauTerm[], from = 0): void {
    const table = tables.get(name);
    if (table === undefined) throw new Error(`no table ${name}`);
    store.add(table, args, from);
  }

  function tableSize(name: string): number {
    return tables.get(name)?.count ?? 0;
  }

  function tableData(name: string): readonly TauTerm[] {
    return tables.get(name)?.data ?? [];
  }

  /**
   * Defines table `name` as the projection of table `base` onto the positions `keep`: each
   * distinct tuple of those arguments once, now and as `base` grows. A call of it enumerates
   * the distinct values of some arguments without visiting every fact that repeats them.
   */
  function defineProjection(base: string, keep: readonly number[], name: string, history?: ProjectionHistory): boolean {
    if (tables.has(name)) return true;
    const from = tables.get(base);
    if (from === undefined) return false;
    defineTable(name, keep.length);
    // A history whose table is not defined has no facts: nothing was seen, and what is seen lasts.
    const earlier = history === undefined ? undefined : tables.get(history.table);
    const before = history === undefined ? undefined : earlier === undefined ? { table: from, count: 0 } : { table: earlier, count: history.count };
    store.projectInto(from, keep, tables.get(name)!, before);
    return true;
  }

  function clearTable(name: string): void {
    const table = tables.get(name);
    if (table !== undefined) store.clear(table);
  }

  function probe(name: string, pattern: readonly (TauTerm | null)[]): boolean {
    const table = tables.get(name);
    return table !== undefined && store.has(table, pattern);
  }

  function setSink(to: AnswerSink | null, vars: readonly string[] = [], clock: () => void = NO_TICK): void {
    sink = to;
    sinkVars = vars;
    tick = clock;
  }

  return { direct, defineTable, addToTable, tableSize, tableData, clearTable, probe, defineProjection, setSink, solveEntered };
}

/**
 * The first argument of a call (within {@link MAX_INDEXED}) that is a compound term, not ground,
 * with ground arguments of its own, and which of those are ground (within the same bound): what
 * an inner index of the table (src/engine/tables.ts) looks up by. Undefined when there is none.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function innerKey(args: readonly any[]): InnerKey | undefined {
  for (let i = 0; i < Math.min(args.length, MAX_INDEXED); i++) {
    const a = args[i];
    if (a.ground || a.args === undefined || a.args.length === 0) continue;
    let inner = 0;
    for (let j = 0; j < Math.min(a.args.length, MAX_INDEXED); j++) if (a.args[j].ground) inner |= 1 << j;
    if (inner !== 0) return { at: i, name: a.id, arity: a.args.length, inner };
  }
  return undefined;
}

/** Where an enumeration of table facts resumes (see `enumerate`). */
interface Cursor {
  readonly candidates: Candidates;
  readonly next: number;
  readonly chunk: number;
}

/** The goal that resumes an enumeration; its name cannot clash with a relation (`r:`, `F|`...). */
const MORE = '$gdl_more';

/** The cut that ends a `once` (see `stepDirect`); it carries the stack height to cut back to. */
const CUT = '$gdl_cut';

/** The test that a ground call of a table has no fact (see its handler). */
const ABSENT = '$gdl_absent';

/** States created by the first step of a table call, and the most a resumption creates. */
const FIRST_CHUNK = 1;
const MAX_CHUNK = 256;

/** No clock to read (no query running). */
const NO_TICK = (): void => {};
