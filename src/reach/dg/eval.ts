/**
 * Relation instance sets and the evaluation of one rule against them, on the Datalog core. A
 * relation is a store of atom ids; a body relation is seen either as its store or, inside a
 * recursive component that reduceSupersetsDG has not reduced yet, as the product of its
 * argument domains (never enumerated: each argument is matched against its domain alone).
 */
import type { Atom } from '../../gdl/ast.js';
import { RelationTable } from '../../gdl/relation-table.js';
import type { NormalRule } from '../../normalize/types.js';
import { type Block, type Store, createBlock, syncBlock } from '../../datalog/block.js';
import { type JoinAtom, type JoinCheck, join } from '../../datalog/join.js';
import { type Pattern, canonicalKey, compileAtom, compileTerm, instantiatePattern, patternVars, renumber } from '../../datalog/pattern.js';
import type { TermTable } from '../../datalog/terms.js';
import type { Guard } from './guard.js';

/**
 * Id of an atom's relation in `rels`: name and arity, since GDL allows one name with several
 * arities (`rels.key(id)` is the text `name/arity` of messages).
 */
export function atomRel(rels: RelationTable, atom: Atom): number {
  return rels.intern(atom.rel, atom.args.length);
}

/** How a body relation is seen during evaluation. */
export type RelationView =
  | { readonly kind: 'set'; readonly store: Store }
  /** One store of term ids per argument: the relation is their product. */
  | { readonly kind: 'product'; readonly domains: readonly Store[] };

/** The view of every relation; undefined means the relation has no instances. */
export type Views = (rel: number) => RelationView | undefined;

/** A positive body atom, compiled. */
interface BodyAtom {
  /** Relation id (in the context's `rels`). */
  readonly rel: number;
  readonly pattern: Pattern;
  readonly args: readonly Pattern[];
}

/** A rule compiled for evaluation: numbered variables, patterns; negative literals dropped. */
export interface DGRule {
  readonly source: NormalRule;
  /** Relation id of the head (in the context's `rels`). */
  readonly headRel: number;
  readonly nVars: number;
  readonly head: Pattern;
  readonly headVars: ReadonlySet<number>;
  /** Variables of the positive body atoms. */
  readonly bodyVars: ReadonlySet<number>;
  readonly atoms: readonly BodyAtom[];
  readonly distincts: readonly { readonly left: Pattern; readonly right: Pattern; readonly vars: readonly number[] }[];
}

/** Compiles a rule (negative literals are relaxed away). */
export function compileDGRule(ctx: EvalContext, rule: NormalRule): DGRule {
  const { table, rels } = ctx;
  const vars = new Map<string, number>();
  const atoms: BodyAtom[] = [];
  for (const l of rule.body) {
    if (l.kind !== 'pos') continue;
    const args = l.atom.args.map((a) => compileTerm(a, vars, table));
    atoms.push({ rel: atomRel(rels, l.atom), pattern: compileAtom(l.atom, vars, table), args });
  }
  const bodyVars = new Set(vars.values());
  const head = compileAtom(rule.head, vars, table);
  const distincts = rule.body.flatMap((l) => {
    if (l.kind !== 'distinct') return [];
    const left = compileTerm(l.left, vars, table);
    const right = compileTerm(l.right, vars, table);
    return [{ left, right, vars: [...new Set([...patternVars(left), ...patternVars(right)])] }];
  });
  return { source: rule, headRel: atomRel(rels, rule.head), nVars: vars.size, head, headVars: new Set(patternVars(head)), bodyVars, atoms, distincts };
}

/** What rule evaluation needs besides the rule: the tables, the guard, the cache of blocks. */
export interface EvalContext {
  readonly table: TermTable;
  /** The relations, as interned ids: every map of the method is keyed by them. */
  readonly rels: RelationTable;
  readonly guard: Guard;
  /** Blocks per store, by pattern and kept columns (a store replaced drops its blocks). */
  readonly blocks: WeakMap<Store, Map<string, Block>>;
}

/** A new evaluation context. */
export function evalContext(table: TermTable, guard: Guard): EvalContext {
  return { table, rels: new RelationTable(), guard, blocks: new WeakMap() };
}

/**
 * The block of `pattern` over `store`, its columns the variables of `keep` in the pattern,
 * and the rule variable of each column. Blocks are shared and caught up on every use.
 */
function blockOf(ctx: EvalContext, store: Store, pattern: Pattern, keep: ReadonlySet<number>): { block: Block; vars: number[] } {
  const { key, order } = canonicalKey(pattern);
  const cols = order.flatMap((v, i) => (keep.has(v) ? [i] : []));
  const full = `${key}|${cols.join(',')}`;
  let cache = ctx.blocks.get(store);
  if (cache === undefined) ctx.blocks.set(store, (cache = new Map()));
  let block = cache.get(full);
  if (block === undefined) {
    const local = new Map(order.map((v, i) => [v, i]));
    block = createBlock(store, renumber(pattern, local), order.length, cols, false);
    cache.set(full, block);
  }
  syncBlock(block, ctx.table);
  return { block, vars: cols.map((i) => order[i]!) };
}

/** The join inputs of one body atom under its view (one per argument for a product). */
function atomInputs(ctx: EvalContext, atom: BodyAtom, view: RelationView, keep: ReadonlySet<number>, delta: boolean): JoinAtom[] {
  const input = (store: Store, pattern: Pattern): JoinAtom => {
    const { block, vars } = blockOf(ctx, store, pattern, keep);
    const r = delta ? block.rows.delta() : undefined;
    return { rel: block.rows, vars, lo: r?.[0] ?? 0, hi: r?.[1] ?? block.rows.size };
  };
  if (view.kind === 'set') return [input(view.store, atom.pattern)];
  // A product constrains each argument independently.
  return atom.args.map((arg, i) => input(view.domains[i]!, arg));
}

/**
 * Evaluates a rule and calls `onHead` with each head atom id it derives (once per join
 * solution). `exact`: every variable is joined (the rule's true consequences over the views);
 * otherwise only head variables are kept, so each body atom is checked on its own for a
 * compatible instance (the test of Algorithm 9.4, strengthened from single arguments to whole
 * atoms). `delta` (unless -1): that body atom reads only the rows of its block new in the last
 * round (see advanceRound).
 * Returns the number of join solutions (distinct bindings of the head variables).
 */
export function evalRule(ctx: EvalContext, rule: DGRule, views: Views, exact: boolean, onHead: (atom: number) => void, delta = -1): number {
  // A head variable no positive literal binds (an unsafe rule) has no values at all.
  for (const v of rule.headVars) if (!rule.bodyVars.has(v)) return 0;
  const keep = exact ? rule.bodyVars : rule.headVars;
  const inputs: JoinAtom[] = [];
  for (const [i, a] of rule.atoms.entries()) {
    const view = views(a.rel);
    if (view === undefined) return 0;
    for (const input of atomInputs(ctx, a, view, keep, delta === i)) {
      if (input.hi <= input.lo) return 0;
      inputs.push(input);
    }
  }
  const { table, guard } = ctx;
  const checks: JoinCheck[] = rule.distincts.map((d) => ({
    vars: d.vars,
    test: (b) => instantiatePattern(d.left, b, table, true) !== instantiatePattern(d.right, b, table, true),
  }));
  let solutions = 0;
  // Only heads are wanted: once the head variables are bound, one completion of the rest will do.
  join(rule.nVars, inputs, checks, rule.headVars, () => guard.tick(), (b) => {
    solutions++;
    onHead(instantiatePattern(rule.head, b, table, true));
  });
  return solutions;
}
