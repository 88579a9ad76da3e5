/**
 * The supersets loaded into an instantiation run: the term table it starts from, stores for
 * `true` and `does`, and the head filters of the relations they cover. Supersets handed over as
 * term ids (src/reach/handover.ts) are read as ids over a copy of the superset stage's table;
 * any others (the dependency-graph method, supersets read back, a lazy plan's) are interned
 * from their syntax trees.
 */
import { type Atom, NO_POS, type Term } from '../gdl/ast.js';
import type { Supersets } from '../reach/types.js';
import { type SupersetIds, handedIds } from '../reach/handover.js';
import { type Store, addToStore, createStore } from '../datalog/block.js';
import { TermTable } from '../datalog/terms.js';
import { IdSet } from '../datalog/id-bits.js';
import { type Context, storeOf } from './run-context.js';

/** What loading reads besides the supersets. */
interface LoadSettings {
  /** Static relations (keys): evaluated exactly, their instances not loaded unless demanded. */
  readonly statics: ReadonlySet<string>;
  /** Demanded static relations (`name/arity`, `Supersets.demandedStatics`), or none. */
  readonly demanded: readonly string[];
  /** The key of an atom's relation (`relationKey`). */
  readonly key: (atom: Atom) => string;
  /** The deadline's tick, given the relation at hand. */
  readonly tick: (rel: string) => void;
}

/**
 * The term table a run over `supersets` starts from: a copy of the handed-over table with room
 * for the atoms loading makes, or an empty one sized for all that loading interns.
 */
export function supersetTable(supersets: Supersets): TermTable {
  const ids = handedIds(supersets);
  if (ids === undefined) return internedTable(supersets);
  const fluents = ids.fluents.length;
  const moves = ids.moves.length / 2;
  let args = 2 * fluents + 4 * moves;
  for (const g of ids.axioms) args += g.rows.length;
  return ids.terms.clone(2 * fluents + 2 * moves + ids.axiomCount, args);
}

/**
 * Loads the supersets into the run (whose table {@link supersetTable} made): stores for `true`
 * and `does`, filters for `next`, `legal` and the covered relations (into `filter`), and the
 * seeds of demanded static relations (into `seeds`).
 */
export function loadSupersets(ctx: Context, supersets: Supersets, s: LoadSettings, filter: Map<string, IdSet>, seeds: Map<string, Store>): void {
  const ids = handedIds(supersets);
  filter.set('next', new IdSet());
  filter.set('legal', new IdSet());
  const filterFor = filterLookup(s, filter);
  if (ids === undefined) loadTerms(ctx, supersets, s, filter, filterFor);
  else loadIds(ctx, ids, s, filter, filterFor);
  for (const rel of [...filter.keys()]) {
    if (!s.statics.has(rel)) continue;
    if (s.demanded.length === 0) filter.delete(rel);
    else seeds.set(rel, storeOfIds(rel, filter.get(rel)!.ids()));
  }
}

/** The filter of an axiom's relation, undefined when its instances are not kept (a static relation evaluated whole). */
type FilterFor = (a: Atom) => IdSet | undefined;

/**
 * Looks up the filter of each relation name and arity once (made when first asked): static
 * relations are evaluated exactly instead, their superset may be larger (dg method); demanded
 * static relations (a refined superset run) are filtered, and their rules seeded.
 */
function filterLookup(s: LoadSettings, filter: Map<string, IdSet>): FilterFor {
  const demanded = new Set(s.demanded);
  const kept = (a: Atom): boolean => !s.statics.has(s.key(a)) || demanded.has(`${a.rel}/${a.args.length}`);
  const filterOf = new Map<string, (IdSet | undefined)[]>();
  return (a) => {
    let byArity = filterOf.get(a.rel);
    if (byArity === undefined) filterOf.set(a.rel, (byArity = []));
    const n = a.args.length;
    if (n >= byArity.length || byArity[n] === undefined) {
      while (byArity.length <= n) byArity.push(undefined);
      const rel = s.key(a);
      if (kept(a) && !filter.has(rel)) filter.set(rel, new IdSet());
      byArity[n] = kept(a) ? filter.get(rel)! : NOT_KEPT;
    }
    return byArity[n] === NOT_KEPT ? undefined : byArity[n];
  };
}

/** The filter slot of a relation whose superset instances are not loaded (a static relation evaluated whole). */
const NOT_KEPT: IdSet = new IdSet();

/** Loads supersets handed over as term ids of the table the run's is a copy of: nothing is interned but the atoms. */
function loadIds(ctx: Context, ids: SupersetIds, s: LoadSettings, filter: Map<string, IdSet>, filterFor: FilterFor): void {
  const t = ctx.table;
  const atom = atomMaker(t, ids.axioms.reduce((n, g) => Math.max(n, g.arity), 2));
  const fluents = storeOf(ctx, 'true');
  const next = filter.get('next')!;
  const [trueSym, nextSym] = [t.symbol('true'), t.symbol('next')];
  for (let i = 0; i < ids.fluents.length; i++) {
    s.tick('next');
    addToStore(fluents, atom(trueSym, ids.fluents, i, 1));
    next.add(atom(nextSym, ids.fluents, i, 1));
  }
  const moves = storeOf(ctx, 'does');
  const legal = filter.get('legal')!;
  const [doesSym, legalSym] = [t.symbol('does'), t.symbol('legal')];
  for (let i = 0; i < ids.moves.length; i += 2) {
    s.tick('legal');
    addToStore(moves, atom(doesSym, ids.moves, i, 2));
    legal.add(atom(legalSym, ids.moves, i, 2));
  }
  for (const g of ids.axioms) {
    // A relation the run found nothing of gets no filter, as when the axioms come as a list.
    if (g.size === 0) continue;
    // One atom per relation stands for the relation's instances in the lookups by key.
    const set = filterFor({ kind: 'atom', rel: g.rel, args: new Array<Term>(g.arity), pos: NO_POS });
    if (set === undefined) continue;
    const sym = t.symbol(g.rel);
    const rows = g.rows;
    for (let row = 0; row < g.size; row++) {
      s.tick(g.rel);
      set.add(atom(sym, rows, row * g.arity, g.arity));
    }
  }
}

/**
 * The id of atom `sym(args[at] .. args[at + n - 1])`, made when new, through one buffer of
 * `widest` entries (no view of the rows per atom: amazonsTorus loads 1.15×10⁶).
 */
function atomMaker(t: TermTable, widest: number): (sym: number, args: Int32Array, at: number, n: number) => number {
  const buf = new Int32Array(widest);
  return (sym, args, at, n) => {
    for (let i = 0; i < n; i++) buf[i] = args[at + i]!;
    return t.make(sym, buf, n);
  };
}

/**
 * Interns ground terms of the supersets as `fromTerm` does (same ids, made in the same order),
 * faster for the common shapes: constants through a cache of their names, and terms whose
 * arguments are all constants without the general fold (amazons: 752,469 axiom instances).
 */
function supersetInterner(t: TermTable): (term: Term) => number {
  const constants = new Map<string, number>();
  const constant = (name: string): number => {
    let id = constants.get(name);
    if (id === undefined) constants.set(name, (id = t.constant(name)));
    return id;
  };
  const args: number[] = [];
  return (term) => {
    if (term.kind === 'const') return constant(term.name);
    if (term.kind !== 'fn' || !term.args.every((a) => a.kind === 'const')) return t.fromTerm(term);
    args.length = term.args.length;
    for (let i = 0; i < args.length; i++) args[i] = constant((term.args[i] as { name: string }).name);
    return t.make(t.symbol(term.name), args);
  };
}

/** Loads supersets given as syntax trees, interning them. */
function loadTerms(ctx: Context, supersets: Supersets, s: LoadSettings, filter: Map<string, IdSet>, filterFor: FilterFor): void {
  const t = ctx.table;
  const intern = supersetInterner(t);
  for (const f of supersets.fluents) {
    s.tick('next');
    const id = intern(f);
    addToStore(storeOf(ctx, 'true'), t.compound('true', [id]));
    filter.get('next')!.add(t.compound('next', [id]));
  }
  for (const m of supersets.moves) {
    s.tick('legal');
    const args = [intern(m.role), intern(m.action)];
    addToStore(storeOf(ctx, 'does'), t.compound('does', args));
    filter.get('legal')!.add(t.compound('legal', args));
  }
  const args: number[] = [];
  // Axioms come grouped by relation: the last one's filter and symbol are looked up once per run
  // of a relation, not per instance (amazonsTorus: 1.15×10⁶ instances).
  let last: Atom | undefined;
  let set: IdSet | undefined;
  let sym = -1;
  for (const a of supersets.axioms) {
    s.tick(a.rel);
    if (last === undefined || a.rel !== last.rel || a.args.length !== last.args.length) {
      last = a;
      set = filterFor(a);
      sym = -1;
    }
    if (set === undefined) continue;
    args.length = a.args.length;
    for (let i = 0; i < args.length; i++) args[i] = intern(a.args[i]!);
    // Looked up after the arguments, as compound() did: symbols are made in the same order.
    if (sym < 0) sym = t.symbol(a.rel);
    set.add(t.make(sym, args));
  }
}

/**
 * A term table with room for the terms that loading the supersets makes at least: per fluent
 * `F`, `(true F)` and `(next F)`, per move `(does R M)` and `(legal R M)`, per axiom the atom
 * (amazons: 752,469; the table doubled from 1,024 allocated twice its final size, and every
 * 64 MiB of typed arrays allocated starts a full collection of the supersets' heap).
 */
function internedTable(supersets: Supersets): TermTable {
  const inner = { terms: 0, args: 0 };
  for (const f of supersets.fluents) countCompounds(f, inner);
  for (const m of supersets.moves) countCompounds(m.role, inner), countCompounds(m.action, inner);
  const terms = 3 * supersets.fluents.length + 2 * supersets.moves.length + supersets.axioms.length + inner.terms;
  let args = 2 * supersets.fluents.length + 4 * supersets.moves.length + inner.args;
  for (const a of supersets.axioms) args += a.args.length;
  return new TermTable(terms, args);
}

/**
 * Adds to `into` the compound terms of `term` and their arguments (the fluents' and moves' own
 * terms: amazonsTorus's 259,202 `(play ...)` actions, six arguments each, were not counted and
 * the table doubled while loading). Iterative: terms nest deep.
 */
function countCompounds(term: Term, into: { terms: number; args: number }): void {
  const stack: Term[] = [term];
  while (stack.length > 0) {
    const t = stack.pop()!;
    if (t.kind !== 'fn') continue;
    into.terms++;
    into.args += t.args.length;
    for (const a of t.args) stack.push(a);
  }
}

/** A store holding `ids` (the seed of a demanded static relation's rules). */
function storeOfIds(rel: string, ids: Int32Array): Store {
  const store = createStore(rel);
  for (const id of ids) addToStore(store, id);
  return store;
}
