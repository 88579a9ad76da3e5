/**
 * The engine's own predicates, implemented in JavaScript on Tau-Prolog's machine state:
 * tables of ground facts (answered by hash lookup, enumerated lazily), `once/1`, `\\==/2`,
 * and the two helper goals they leave on the stack (a cut back to a stack height, the
 * resumption of an enumeration). `src/engine/tau.ts` steps calls of these directly.
 * This module does not import tau-prolog: it is handed the library object by tau.ts.
 */
import { binder } from './bind.js';
import type { TauTerm } from './term.js';

/** A predicate implemented here: it pops nothing and pushes the states the call leads to. */
type OwnPredicate = (thr: unknown, point: unknown, atom: unknown) => void;

/** The engine's own predicates: by functor name for direct stepping, and the table operations. */
interface OwnPredicates {
  /**
   * Handlers by functor name. Every name here has one arity in the programs the engine runs
   * (table names carry theirs), or the handler takes any arity: keying by the name string, which
   * term copies share, spares hashing the fresh indicator string each copy builds.
   */
  readonly direct: ReadonlyMap<string, OwnPredicate>;

  defineTable(name: string, arity: number): void;
  addToTable(name: string, args: readonly TauTerm[]): void;
  clearTable(name: string): void;
  probe(name: string, pattern: readonly (TauTerm | null)[]): boolean;
  defineProjection(base: string, keep: readonly number[], name: string, history?: ProjectionHistory): boolean;
  /**
   * Where answers go while a query runs (null: as states, the way Tau-Prolog's own steps give
   * them). See {@link AnswerSink}.
   */
  setSink(sink: AnswerSink | null, vars?: readonly string[]): void;
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
 * A projection that holds each tuple at most once over the base table's whole life: the tuples
 * of `before` (facts the base held earlier) count as seen, and emptying the base keeps what was
 * seen. The projection of a semi-naive delta table then holds only tuples new to the relation.
 */
export interface ProjectionHistory {
  readonly before: readonly (readonly TauTerm[])[];
}

/**
 * Installs the predicates in module `user` of a session. `pl` is the tau-prolog library
 * object; `keyOf` gives the (cached) KIF text of a ground term, the key of the indexes.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function ownPredicates(pl: any, user: any, keyOf: (t: TauTerm) => string): OwnPredicates {
  const { bind, state, values } = binder(pl);
  // The query's answer sink, and its variables (see AnswerSink); the driver sets both.
  let sink: AnswerSink | null = null;
  let sinkVars: readonly string[] = [];
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

  function defineTable(name: string, arity: number): void {
    // Defined already (by a clause that calls it before it has facts): keep what it has.
    if (tables.has(name)) return;
    const table: JsTable = { arity, facts: [], indexes: new Map(), projections: [] };
    tables.set(name, table);
    install(name, arity, (thr, point, atom) => lookup(table, thr, point, atom));
  }

  /** Answers a call on a table: the facts agreeing with its bound arguments, as new states. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  function lookup(table: JsTable, thr: any, point: any, atom: any): void {
    const args = atom.args as { ground: boolean }[];
    let mask = 0;
    let full = true;
    for (let i = 0; i < args.length; i++) {
      if (!args[i]!.ground) full = false;
      else if (i < MAX_INDEXED) mask |= 1 << i;
    }
    // Positions past MAX_INDEXED are not in the key: those calls unify each candidate below.
    full &&= args.length <= MAX_INDEXED;
    const candidates = mask === 0 ? table.facts : indexed(indexFor(table, mask), mask, args as unknown as readonly TauTerm[]);
    if (full || args.length === 0) {
      // Every argument bound: a membership test, one answer at most.
      if (candidates.length > 0) succeed(thr, point);
      return;
    }
    const rest = point.goal.replace(null);
    if (rest === null && sink !== null) answerAll(atom, candidates, point.substitution, sink);
    else enumerate(thr, atom, candidates, 0, candidates.length, rest, point.substitution, point, FIRST_CHUNK);
  }

  /**
   * The answers of a call that ends its state's goal, all given to the sink in candidate
   * order (what enumerate's states would give when popped; nothing after the call can cut).
   */
  function answerAll(atom: unknown, candidates: readonly Fact[], subst: unknown, to: AnswerSink): void {
    for (let i = 0; i < candidates.length; i++) {
      const links = bind(atom, candidates[i]!, MAX_INDEXED);
      if (links !== null) to(values(sinkVars, subst, links));
    }
  }

  /**
   * Pushes a state for each of the next `chunk` candidates that unify with `atom`, and, when
   * candidates remain, a state that resumes the enumeration when backtracking reaches it.
   * Creating every state at once would waste most of them under `once`, where the first
   * success cuts the rest away (Tau-Prolog's own clause resolution is eager like that).
   * Every state has the calling state as parent, as with eager resolution, so cuts behave alike.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  function enumerate(thr: any, atom: any, candidates: readonly Fact[], from: number, end: number, rest: any, subst: any, parent: unknown, chunk: number): void {
    const states: unknown[] = [];
    let i = from;
    for (; i < end && states.length < chunk; i++) {
      const links = bind(atom, candidates[i]!, MAX_INDEXED);
      if (links !== null) states.push(state(rest, subst, links, parent));
    }
    if (i < end) {
      const more = new pl.type.Term(MORE, []);
      more.cursor = { atom, candidates, next: i, end, chunk: Math.min(chunk * 4, MAX_CHUNK) } satisfies Cursor;
      states.push(new pl.type.State(rest === null ? more : new pl.type.Term(',', [more, rest]), subst, parent));
    }
    thr.prepend(states);
  }

  // once(G): G, then a cut back to the height the choice-point stack had when once was called.
  // Everything above that height was pushed while proving G, so dropping it is exactly once's
  // cut; Tau-Prolog's own once goes through call/1, module qualification and a cut that
  // walks the ancestors, several steps per call.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  direct.set('once', (thr: any, point: any, atom: any) => {
    const cut = new pl.type.Term(CUT, []);
    cut.height = thr.points.length;
    const goal = point.goal.replace(new pl.type.Term(',', [atom.args[0], cut]));
    thr.prepend([new pl.type.State(goal, point.substitution, point)]);
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  install(CUT, 0, (thr: any, point: any, cut: any) => {
    thr.points.length = Math.min(thr.points.length, cut.height);
    succeed(thr, point);
  });
  // '$gdl_absent'(Call): Call is a ground call of a table, which has no such fact (a table not
  // defined yet has none). One hash lookup, where \+ would take several generic steps.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  install('$gdl_absent', 1, (thr: any, point: any, atom: any) => {
    const call = atom.args[0];
    const table = tables.get(call.id);
    // Past MAX_INDEXED arguments the index cannot tell facts apart: then assume absent.
    if (table === undefined || call.args.length > MAX_INDEXED || !has(table, call.args)) succeed(thr, point);
  });
  // The resumption step: `more` carries its cursor; the state's own parent is the calling state.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  install(MORE, 0, (thr: unknown, point: any, more: any) => {
    const c = more.cursor as Cursor;
    enumerate(thr, c.atom, c.candidates, c.next, c.end, point.goal.replace(null), point.substitution, point.parent, c.chunk);
  });

  /** The index of a table on the arguments in `mask`, built on first use. */
  function indexFor(table: JsTable, mask: number): Index {
    let index = table.indexes.get(mask);
    if (index === undefined) {
      index = new Map();
      table.indexes.set(mask, index);
      for (const fact of table.facts) addToIndex(index, mask, fact);
    }
    return index;
  }

  /** The facts of `index` (on `mask`) that agree with `args` at the positions of `mask`. */
  function indexed(index: Index, mask: number, args: readonly (TauTerm | null | undefined)[]): readonly Fact[] {
    let node: Index | Fact[] | undefined = index;
    // Up to the highest bound position, not MAX_INDEXED: a call binds its first few arguments.
    for (let i = 0, rest = mask; rest !== 0 && node !== undefined; i++, rest >>>= 1) {
      if ((rest & 1) !== 0) node = (node as Index).get(keyOf(args[i]!));
    }
    return (node as Fact[] | undefined) ?? NO_FACTS;
  }

  function addToIndex(index: Index, mask: number, fact: Fact): void {
    // The level of each indexed position but the last: a map from its key to the next level.
    let node = index;
    const last = 31 - Math.clz32(mask);
    for (let i = 0; i < last; i++) {
      if ((mask & (1 << i)) === 0) continue;
      const key = keyOf(fact[i]!);
      let next = node.get(key) as Index | undefined;
      if (next === undefined) node.set(key, (next = new Map()));
      node = next;
    }
    const key = keyOf(fact[last]!);
    const list = node.get(key) as Fact[] | undefined;
    if (list === undefined) node.set(key, [fact]);
    else list.push(fact);
  }

  function addToTable(name: string, args: readonly TauTerm[]): void {
    const table = tables.get(name);
    if (table === undefined) throw new Error(`no table ${name}`);
    add(table, args);
  }

  function add(table: JsTable, args: Fact): void {
    table.facts.push(args);
    for (const [mask, index] of table.indexes) addToIndex(index, mask, args);
    for (const p of table.projections) project(p, args);
  }

  function project(p: Projection, fact: Fact): void {
    const args = p.keep.map((i) => fact[i]!);
    const key = indexKey(args.map(keyOf));
    if (p.seen.has(key)) return;
    p.seen.add(key);
    add(p.table, args);
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
    const seen = new Set<string>();
    for (const fact of history?.before ?? []) seen.add(indexKey(keep.map((i) => keyOf(fact[i]!))));
    const p: Projection = { keep, table: tables.get(name)!, seen, lasting: history !== undefined };
    from.projections.push(p);
    for (const fact of from.facts) project(p, fact);
    return true;
  }

  function clearTable(name: string): void {
    const table = tables.get(name);
    if (table === undefined) return;
    table.facts = [];
    table.indexes = new Map();
    for (const p of table.projections) {
      if (!p.lasting) p.seen.clear();
      p.table.facts = [];
      p.table.indexes = new Map();
    }
  }

  function probe(name: string, pattern: readonly (TauTerm | null)[]): boolean {
    const table = tables.get(name);
    return table !== undefined && has(table, pattern);
  }

  /** True when the table has a fact agreeing with every non-null argument of `pattern`. */
  function has(table: JsTable, pattern: readonly (TauTerm | null)[]): boolean {
    let mask = 0;
    for (let i = 0; i < Math.min(pattern.length, MAX_INDEXED); i++) if (pattern[i] !== null && pattern[i] !== undefined) mask |= 1 << i;
    if (mask === 0) return table.facts.length > 0;
    return indexed(indexFor(table, mask), mask, pattern).length > 0;
  }

  function setSink(to: AnswerSink | null, vars: readonly string[] = []): void {
    sink = to;
    sinkVars = vars;
  }

  return { direct, defineTable, addToTable, clearTable, probe, defineProjection, setSink };
}

/** A fact of a table: its ground arguments (never modified once added). */
type Fact = readonly TauTerm[];

/**
 * An index of a table on some argument positions: a map from the KIF text of the first
 * position's argument to the next position's map, and so on, the last one's to the facts.
 * Maps nested by position rather than one map keyed by the texts joined: a look-up then makes
 * no string (kalaha_2009's calls of `plus` bind two arguments), and the texts' hashes are
 * cached in them.
 */
type Index = Map<string, Index | Fact[]>;

/** A table of ground facts answered from JavaScript. */
interface JsTable {
  readonly arity: number;
  facts: Fact[];
  /** Indexes by bitmask of bound argument positions (see {@link Index}). */
  indexes: Map<number, Index>;
  /** Tables holding the distinct projections of this one's facts, kept up to date. */
  readonly projections: Projection[];
}

/** A projection of a table onto some argument positions: each distinct tuple once. */
interface Projection {
  readonly keep: readonly number[];
  readonly table: JsTable;
  readonly seen: Set<string>;
  /** Seen tuples survive the base being emptied (see {@link ProjectionHistory}). */
  readonly lasting: boolean;
}

/** Where an enumeration of table facts resumes (see `enumerate`). */
interface Cursor {
  readonly atom: unknown;
  readonly candidates: readonly Fact[];
  readonly next: number;
  /** Candidates past `end` were added after the call and are not its answers. */
  readonly end: number;
  readonly chunk: number;
}

/** The goal that resumes an enumeration; its name cannot clash with a relation (`r:`, `F|`...). */
const MORE = '$gdl_more';

/** The cut that ends a `once` (see `stepDirect`); it carries the stack height to cut back to. */
const CUT = '$gdl_cut';

/** States created by the first step of a table call, and the most a resumption creates. */
const FIRST_CHUNK = 1;
const MAX_CHUNK = 256;

/** Argument positions an index can cover (a bit each in a 32-bit mask). */
const MAX_INDEXED = 30;

/**
 * The key of a projected tuple in its projection's set of those seen: the texts of its
 * arguments. One argument is its own key, a string whose hash is already known.
 */
function indexKey(parts: readonly string[]): string {
  return parts.length === 1 ? parts[0]! : parts.join('\u0000');
}

/** No bindings: the answer of a call that binds nothing (read only, like {@link NO_FACTS}). */
const NO_LINKS = Object.freeze([]) as unknown as unknown[];

/** Shared, never-modified empty candidate list. */
const NO_FACTS: readonly Fact[] = Object.freeze([]);
