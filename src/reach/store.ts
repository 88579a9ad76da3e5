/**
 * The facts found by the superset computation, kept on the JavaScript side: a `Set` of KIF
 * texts per relation removes duplicate answers far faster than asking Prolog, and the engine's
 * tables (full copy `F|t`, delta copy `D|t`) are filled from here.
 */
import { type PrologEngine, type TauTerm, type TermText, tauArgs, tauName } from '../engine/tau.js';
import { CONST_PART, splitPosition, tableName } from './clauses.js';

/** One ground fact: its arguments as Tau terms and their KIF text, joined by spaces. */
export interface StoredFact {
  readonly args: readonly TauTerm[];
  readonly text: string;
}

/** The facts of one relation. */
interface RelationFacts {
  readonly rel: string;
  readonly arity: number;
  readonly keys: Set<string>;
  readonly facts: StoredFact[];
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
  /** Table arguments of every fact. */
  readonly all: (readonly TauTerm[])[];
  /** Table arguments of the facts in the delta copy. */
  delta: (readonly TauTerm[])[];
}

/** Why a fact was refused. */
type Refusal = { readonly kind: 'duplicate' } | { readonly kind: 'too-deep'; readonly depth: number };

/** All facts, by relation key and by table. */
export interface FactStore {
  readonly relations: Map<string, RelationFacts>;
  readonly tables: Map<string, TableFacts>;
  /** Total number of facts, those of auxiliary relations left out. */
  size: number;
}

/** An empty store. */
export function createStore(): FactStore {
  return { relations: new Map(), tables: new Map(), size: 0 };
}

/** The facts of a relation, created empty on first use. */
export function relationFacts(store: FactStore, relKey: string, rel: string, arity: number, auxiliary = false): RelationFacts {
  let r = store.relations.get(relKey);
  if (r === undefined) {
    r = { rel, arity, keys: new Set(), facts: [], tables: [], parts: new Map(), lookAt: 0, auxiliary };
    store.relations.set(relKey, r);
  }
  return r;
}

/**
 * Records a fact unless it is known; returns it, or why it was refused. `maxDepth` bounds
 * term nesting: a relaxed game whose terms grow without bound is infinite.
 */
export function recordFact(engine: PrologEngine, r: RelationFacts, args: readonly TauTerm[], maxDepth: number, store: FactStore): StoredFact | Refusal {
  let text = '';
  // The texts of function terms, cached only once the fact is kept: most answers of some games
  // repeat known facts, and their terms are read no more.
  let terms: TermText[] | undefined;
  for (let i = 0; i < args.length; i++) {
    const k = engine.kif(args[i]!, maxDepth, false);
    if (k.depth > maxDepth) return { kind: 'too-deep', depth: k.depth };
    text = i === 0 ? k.text : `${text} ${k.text}`;
    if (k.depth > 1) (terms ??= [])[i] = k;
  }
  if (r.keys.has(text)) return DUPLICATE;
  if (terms !== undefined) terms.forEach((k, i) => engine.rememberKif(args[i]!, k));
  r.keys.add(text);
  const fact = { args, text };
  r.facts.push(fact);
  if (!r.auxiliary) store.size++;
  return fact;
}

const DUPLICATE: Refusal = { kind: 'duplicate' };

/** Creates a table (its F and D copies), empty. */
function createTable(engine: PrologEngine, store: FactStore, name: string, arity: number): TableFacts {
  const t: TableFacts = { name, fullName: tableName('F', name), deltaName: tableName('D', name), arity, all: [], delta: [] };
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
 * Puts facts of relation `relKey` into the engine's tables (full copy, and the delta copy when
 * `delta`): the relation's own table, with every fact as it is, and for a split relation also
 * the table of the fact's split part, created the first time its functor appears. A literal
 * whose split argument is known reads the part; one with a variable there reads the whole.
 */
export function mirrorFacts(
  engine: PrologEngine,
  store: FactStore,
  relKey: string,
  r: RelationFacts,
  facts: readonly StoredFact[],
  delta: boolean,
  tick: () => void = () => {},
): void {
  const split = splitPosition(r.rel, r.arity);
  const whole = ensureTable(engine, store, relKey, r);
  for (const f of facts) {
    tick();
    put(engine, whole, f.args, delta);
    if (split === undefined) continue;
    const at = f.args[split]!;
    const inner = tauArgs(at);
    const name = inner.length === 0 ? CONST_PART : tauName(at);
    const args = inner.length === 0 ? f.args : [...f.args.filter((_, i) => i !== split), ...inner];
    const part = r.parts.get(name)?.get(inner.length) ?? createPart(engine, store, relKey, r, name, inner.length, args.length);
    put(engine, part, args, delta);
  }
}

function put(engine: PrologEngine, t: TableFacts, args: readonly TauTerm[], delta: boolean): void {
  t.all.push(args);
  engine.addToTable(t.fullName, args);
  if (delta) {
    t.delta.push(args);
    engine.addToTable(t.deltaName, args);
  }
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
    if (t.delta.length === 0) continue;
    t.delta = [];
    engine.clearTable(t.deltaName);
  }
}
