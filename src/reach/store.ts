/**
 * The facts found by the superset computation, kept on the JavaScript side. Each relation is a
 * set of tuples of term ids (the Datalog core's term table and relations): an answer's
 * arguments are interned and its tuple inserted, one hash probe per argument and one for the
 * tuple, so a duplicate answer (most answers: 394,000 of kalaha_2009's 421,000) allocates
 * nothing. Texts are made only for what is written sorted, from the ids. The engine's tables
 * (full copy `F|t`, delta copy `D|t`) are filled from here at the end of each round, with Tau
 * terms made from the ids of the round's new rows (see {@link mirrorFacts}).
 */
import { type PrologEngine, type TauTerm, makeTerm, tauArgs, tauConstant, tauName } from '../engine/tau.js';
import { Relation } from '../datalog/relation.js';
import { TermTable } from '../datalog/terms.js';
import { CONST_PART, type TablesRead, splitPosition, tableName } from './clauses.js';

/** The facts of one relation. */
export interface RelationFacts {
  readonly rel: string;
  readonly arity: number;
  /** The facts as tuples of term ids of the store's table, in the order found. */
  readonly ids: Relation;
  /** Names of the tables holding the relation: its own, and for a split relation one per functor too. */
  readonly tables: string[];
  /** Tables of a split relation by the functor's name and arity (the split part). */
  readonly parts: Map<string, Map<number, TableFacts>>;
  /** The count at which src/reach/growth.ts looks at the relation next (0: at its first threshold). */
  lookAt: number;
  /**
   * Made by src/reach/eliminate.ts: its facts are not counted in the store's size (the atom
   * budget and the estimates see the game's relations only, as without the rewrite).
   */
  readonly auxiliary: boolean;
}

/** One table of the engine (without copy prefix): `cell/3`, `true/1:cell/3`. */
interface TableFacts {
  readonly name: string;
  /** Names of its full and delta copies in the engine. */
  readonly fullName: string;
  readonly deltaName: string;
  readonly arity: number;
  /**
   * False when no clause reads the table (`tablesRead` of src/reach/clauses.ts): it stays
   * empty, here and in the engine (which still defines it, so that a call of it fails at once).
   */
  readonly filled: boolean;
  /** False when no clause reads its delta copy, which then stays empty. */
  readonly deltaFilled: boolean;
}

/** Why a fact was refused. */
type Refusal = { readonly kind: 'duplicate' } | { readonly kind: 'too-deep'; readonly depth: number };

/** All facts, by relation key and by table. */
export interface FactStore {
  readonly relations: Map<string, RelationFacts>;
  readonly tables: Map<string, TableFacts>;
  /** Every term of every fact, by id. */
  readonly terms: TermTable;
  /** Term ids of constants by name (one map lookup where the table takes two). */
  readonly constants: Map<string, number>;
  /** Total number of facts, those of auxiliary relations left out. */
  size: number;
  /** The ids of the answer being recorded (grown to the widest relation). */
  scratch: Int32Array;
  /** The argument ids of a function term of constants being interned (see `flatId`). */
  flat: Int32Array;
  /** The tables to fill (see `TableFacts.filled`); undefined: all. */
  readonly read: TablesRead | undefined;
  /** Tau terms made from term ids for the engine's tables, by id (see `tauOf`); emptied with the engine. */
  tau: (TauTerm | undefined)[];
  /** The arguments of one fact on their way into a table, which copies them. */
  readonly args: TauTerm[];
}

/** An empty store that fills the engine's tables in `read` (undefined: all of them). */
export function createStore(read?: TablesRead): FactStore {
  return { relations: new Map(), tables: new Map(), terms: new TermTable(), constants: new Map(), size: 0, scratch: new Int32Array(8), flat: new Int32Array(8), read, tau: [], args: [] };
}

/** The facts of a relation, created empty on first use. */
export function relationFacts(store: FactStore, relKey: string, rel: string, arity: number, auxiliary = false): RelationFacts {
  let r = store.relations.get(relKey);
  if (r === undefined) {
    r = { rel, arity, ids: new Relation(arity), tables: [], parts: new Map(), lookAt: 0, auxiliary };
    store.relations.set(relKey, r);
  }
  return r;
}

/**
 * Records a fact unless it is known; returns whether it was new, or why it was refused.
 * `maxDepth` bounds term nesting: a relaxed game whose terms grow without bound is infinite.
 */
export function recordFact(r: RelationFacts, args: readonly TauTerm[], maxDepth: number, store: FactStore): 'new' | Refusal {
  if (store.scratch.length < args.length) store.scratch = new Int32Array(2 * args.length);
  const ids = store.scratch;
  for (let i = 0; i < args.length; i++) {
    const id = termId(store, args[i]!, maxDepth);
    if (id < 0) return { kind: 'too-deep', depth: maxDepth + 1 };
    ids[i] = id;
  }
  if (!r.ids.insert(ids)) return DUPLICATE;
  if (!r.auxiliary) store.size++;
  return 'new';
}

/**
 * Records in `r` the fact whose argument ids {@link recordFact} just put in the store's buffer
 * (a bridge's copy: a new `next` fact as a `true` fact, a new `legal` answer as a `does` fact):
 * the same terms, so they are not interned again and are no deeper. True when new.
 */
export function recordSameFact(r: RelationFacts, store: FactStore): boolean {
  // The relation reads the first `arity` entries of the buffer.
  if (!r.ids.insert(store.scratch)) return false;
  if (!r.auxiliary) store.size++;
  return true;
}

/**
 * The id of a ground Tau term in the store's table, interned when new; -1 when it nests deeper
 * than `maxDepth` (a constant is 1 deep). Iterative: terms may nest as deep as the limit.
 */
function termId(store: FactStore, t: TauTerm, maxDepth: number): number {
  const name = tauConstant(t);
  if (name !== undefined) return constantId(store, name);
  const flat = flatId(store, t, maxDepth);
  if (flat !== undefined) return flat;
  // The path from the root to the term being read, the next argument of each, and the ids of
  // the arguments read so far, level by level.
  const path: TauTerm[] = [t];
  const next: number[] = [0];
  const done: number[][] = [[]];
  for (;;) {
    const top = path.length - 1;
    const args = tauArgs(path[top]!);
    const i = next[top]!;
    if (i < args.length) {
      // An argument of the term at depth top + 1 is at depth top + 2.
      if (top + 2 > maxDepth) return -1;
      next[top] = i + 1;
      const a = args[i]!;
      const c = tauConstant(a);
      if (c !== undefined) done[top]!.push(constantId(store, c));
      else path.push(a), next.push(0), done.push([]);
      continue;
    }
    const id = store.terms.compound(tauName(path[top]!), done[top]!);
    path.pop(), next.pop(), done.pop();
    if (top === 0) return id;
    done[top - 1]!.push(id);
  }
}

/**
 * The id of a function term of constants, `(pit a 3)` (most fluents and moves: every answer of
 * `next` has one), with the store's buffer for its arguments' ids and no walk; -1 when it is too
 * deep, undefined for any other term.
 */
function flatId(store: FactStore, t: TauTerm, maxDepth: number): number | undefined {
  const args = tauArgs(t);
  // Its arguments are at depth 2 (what termId's walk finds at the first one).
  if (maxDepth < 2) return -1;
  if (store.flat.length < args.length) store.flat = new Int32Array(2 * args.length);
  const ids = store.flat;
  for (let i = 0; i < args.length; i++) {
    const c = tauConstant(args[i]!);
    if (c === undefined) return undefined;
    ids[i] = constantId(store, c);
  }
  return store.terms.make(store.terms.symbol(tauName(t)), ids, args.length);
}

function constantId(store: FactStore, name: string): number {
  let id = store.constants.get(name);
  if (id === undefined) store.constants.set(name, (id = store.terms.constant(name)));
  return id;
}

/** The KIF texts of fact `row` of a relation: its arguments' texts joined by spaces. */
export function factText(store: FactStore, r: RelationFacts, row: number): string {
  let text = '';
  for (let i = 0; i < r.arity; i++) text = i === 0 ? store.terms.text(r.ids.get(row, 0)) : `${text} ${store.terms.text(r.ids.get(row, i))}`;
  return text;
}

/**
 * Drops the Tau terms made for the engine's tables once the engine is done with them:
 * collecting the supersets reads only the relations' ids and the term table.
 */
export function releaseEngineFacts(store: FactStore): void {
  store.tau = [];
}

const DUPLICATE: Refusal = { kind: 'duplicate' };

/** Creates a table (its F and D copies), empty. */
function createTable(engine: PrologEngine, store: FactStore, name: string, arity: number): TableFacts {
  const filled = store.read === undefined || store.read.full.has(name);
  const deltaFilled = store.read === undefined || store.read.delta.has(name);
  const t: TableFacts = { name, fullName: tableName('F', name), deltaName: tableName('D', name), arity, filled, deltaFilled };
  store.tables.set(name, t);
  engine.defineTable(t.fullName, arity);
  engine.defineTable(t.deltaName, arity);
  return t;
}

/** The table of an unsplit relation, created on first use. */
export function ensureTable(engine: PrologEngine, store: FactStore, relKey: string, r: RelationFacts): TableFacts {
  const t = store.tables.get(relKey);
  if (t !== undefined) return t;
  r.tables.push(relKey);
  return createTable(engine, store, relKey, r.arity);
}

/**
 * Puts the facts of rows `from` to `to` (excluded) of relation `relKey` into the engine's
 * tables (full copy, and the delta copy when `delta`): the relation's own table, with every
 * fact as it is, and for a split relation also the table of the fact's split part, created the
 * first time its functor appears. A literal whose split argument is known reads the part; one
 * with a variable there reads the whole. The facts are read from their ids, not kept as the
 * answers' Tau terms until the round ends: those would outlive a few collections of the young
 * generation, and be copied by each (amazons' `legal` answers, 167,664 in one round, none of
 * which a table holds).
 */
export function mirrorFacts(
  engine: PrologEngine,
  store: FactStore,
  relKey: string,
  r: RelationFacts,
  from: number,
  to: number,
  delta: boolean,
  tick: () => void = () => {},
): void {
  const split = splitPosition(r.rel, r.arity);
  const whole = ensureTable(engine, store, relKey, r);
  const args = store.args;
  for (let row = from; row < to; row++) {
    tick();
    if (whole.filled) {
      for (let i = 0; i < r.arity; i++) args[i] = tauOf(store, r.ids.get(row, i));
      put(engine, whole, args, delta);
    }
    if (split === undefined) continue;
    const at = r.ids.get(row, split);
    const n = store.terms.arity(at);
    const name = n === 0 ? CONST_PART : store.terms.name(at);
    const part = r.parts.get(name)?.get(n) ?? createPart(engine, store, relKey, r, name, n, n === 0 ? r.arity : r.arity - 1 + n);
    if (part.filled) put(engine, part, partArgs(store, r, row, split, n), delta);
  }
}

/**
 * The arguments of fact `row` of `r` in the table of its split part (whose functor has `n`
 * arguments): the others, then the split argument's own (`(true (cell 1 2 b))` is `cell/3`'s
 * `1, 2, b`); a constant there, the fact as it is. In the store's buffer, which the table copies.
 */
function partArgs(store: FactStore, r: RelationFacts, row: number, split: number, n: number): TauTerm[] {
  const args = store.args;
  let k = 0;
  for (let i = 0; i < r.arity; i++) if (n === 0 || i !== split) args[k++] = tauOf(store, r.ids.get(row, i));
  const at = r.ids.get(row, split);
  for (let i = 0; i < n; i++) args[k++] = tauOf(store, store.terms.arg(at, i));
  return args;
}

/**
 * The Tau term of term `id`, made once (the table's indexes cache a compound term's text by
 * the object). Iterative: terms may nest as deep as the depth limit.
 */
function tauOf(store: FactStore, id: number): TauTerm {
  const tau = store.tau;
  const made = tau[id];
  if (made !== undefined) return made;
  const terms = store.terms;
  const stack = [id];
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (tau[top] !== undefined) {
      stack.pop();
      continue;
    }
    const n = terms.arity(top);
    let ready = true;
    for (let i = 0; i < n; i++) if (tau[terms.arg(top, i)] === undefined) ready = false, stack.push(terms.arg(top, i));
    if (!ready) continue;
    stack.pop();
    const args = new Array<TauTerm>(n);
    for (let i = 0; i < n; i++) args[i] = tau[terms.arg(top, i)]!;
    fillTo(tau, top);
    tau[top] = makeTerm(terms.name(top), args);
  }
  return tau[id]!;
}

/**
 * Extends the array with `undefined` up to `n` entries: written far past its end, a V8 array
 * turns into a dictionary, and term ids are first written in no particular order.
 */
function fillTo(tau: (TauTerm | undefined)[], n: number): void {
  while (tau.length < n) tau.push(undefined);
}

function put(engine: PrologEngine, t: TableFacts, args: readonly TauTerm[], delta: boolean): void {
  engine.addToTable(t.fullName, args);
  if (delta && t.deltaFilled) engine.addToTable(t.deltaName, args);
}

/** The table of a new functor of a split relation. */
function createPart(engine: PrologEngine, store: FactStore, relKey: string, r: RelationFacts, functor: string, n: number, arity: number): TableFacts {
  const sub = functor === CONST_PART ? CONST_PART : `${functor}/${n}`;
  const name = `${relKey}:${sub}`;
  r.tables.push(name);
  const t = createTable(engine, store, name, arity);
  let byArity = r.parts.get(functor);
  if (byArity === undefined) r.parts.set(functor, (byArity = new Map()));
  byArity.set(n, t);
  return t;
}

/** Empties the delta copies of every table of a relation. */
export function clearDelta(engine: PrologEngine, store: FactStore, r: RelationFacts): void {
  for (const name of r.tables) {
    const t = store.tables.get(name)!;
    if (engine.tableSize(t.deltaName) > 0) engine.clearTable(t.deltaName);
  }
}
