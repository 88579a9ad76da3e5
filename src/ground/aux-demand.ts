/**
 * What a split's head rule can read of an auxiliary relation (docs/ground.md, "Rule splitting";
 * issue 27). A head rule `h(X̄) <= aux(Ū), rest` whose head is filtered by the supersets
 * (`ctx.headFilter`) and whose auxiliary atom holds only head variables (Ū ⊆ X̄) reads only
 * the aux atoms `aux(Ūσ)` with `h(X̄σ)` in the filter: every other instance of the head rule is
 * dropped by that filter, so no kept rule reads any other aux atom, and unused-instance removal
 * dropped their rules. racer4's `legal_speed` split makes 782,884 ground rules for its track
 * part over 40,788 heads, of which the 21,004 heads of `legal_speed`'s superset are read
 * (428,184 rules kept).
 *
 * Such an auxiliary relation is instantiated with that demand: a binding whose head is not
 * demanded still records its head (the stores, the atom count and every estimate that reads
 * them stay as they were) but makes no ground rule. It is counted as made
 * (`counters.dropped`, and its literals), so the limits and the splitter's decisions, which
 * count ground rules made, decide as without the demand, and the output is the same byte for
 * byte. That count is exact only when every binding makes a distinct ground rule and none is
 * killed ({@link exactlyOnePerBinding}); where it is not, the demand is not applied.
 *
 * An auxiliary rule equal to one made before is reused by name (split-run.ts): its second
 * reader must demand no atom the first did not. The demand is a function of the reader's head
 * pattern and filter; a reader with a different one whose demand is not covered ends the run
 * with {@link AuxDemandConflict}, and instantiation starts again without demands.
 */
import { IdSet } from '../datalog/id-bits.js';
import { type Pattern, compileAtom, instantiatePattern, matchPattern, patternVars } from '../datalog/pattern.js';
import { UNBOUND } from '../datalog/join.js';
import { type Store, inStore } from '../datalog/block.js';
import type { TermTable } from '../datalog/terms.js';
import type { Atom } from '../gdl/ast.js';
import type { NormalRule } from '../normalize/types.js';
import type { JoinRule } from './compile.js';
import type { AuxDemand, Context, HeadTest } from './run-context.js';

/** Thrown when a reused auxiliary relation's new reader demands atoms its first did not. */
export class AuxDemandConflict extends Error {}

/** The reader's aux atom of relation `rel` (first positive occurrence), if any. */
function auxAtomOf(reader: NormalRule, rel: string, key: (atom: Atom) => string): Atom | undefined {
  for (const l of reader.body) if (l.kind === 'pos' && key(l.atom) === rel) return l.atom;
  return undefined;
}

/** The demand of `reader` on aux relation `rel`, or undefined when it has none (see the module comment). */
function demandOf(ctx: Context, reader: NormalRule, rel: string, key: (atom: Atom) => string): AuxDemand | undefined {
  const filter = ctx.headFilter.get(key(reader.head));
  const atom = auxAtomOf(reader, rel, key);
  if (filter === undefined || atom === undefined) return undefined;
  const vars = new Map<string, number>();
  const head = compileAtom(reader.head, vars, ctx.table);
  const headVars = new Set(patternVars(head));
  const aux = compileAtom(atom, vars, ctx.table);
  if (patternVars(aux).some((v) => !headVars.has(v))) return undefined;
  return { kind: 'filter', ids: project(ctx, filter.ids(), head, aux, vars.size), reader: readerText(head, aux) };
}

/** The aux atoms `aux(Ūσ)` of the filter's atoms `head(X̄σ)`, interned (the join's heads are looked up, not made). */
function project(ctx: Context, filter: Int32Array, head: Pattern, aux: Pattern, nVars: number): IdSet {
  const vals = new Int32Array(nVars);
  const out = new IdSet();
  for (let i = 0; i < filter.length; i++) {
    vals.fill(UNBOUND);
    if (matchPattern(head, filter[i]!, ctx.table, vals)) out.add(instantiatePattern(aux, vals, ctx.table, true));
  }
  return out;
}

/** A text equal for two readers whose head and aux atom agree up to variable numbers. */
function readerText(head: Pattern, aux: Pattern): string {
  return JSON.stringify([head, aux]);
}

/**
 * Before the aux relation `rel` is instantiated for `reader` (split-run.ts, splitParts): its
 * demand, when the reader has one and the run takes demands (`ctx.auxDemand`).
 */
export function demandAux(ctx: Context, reader: NormalRule, rel: string, key: (atom: Atom) => string): void {
  if (ctx.auxDemand === undefined) return;
  const demand = demandOf(ctx, reader, rel, key);
  if (demand !== undefined) ctx.auxDemand.set(rel, demand);
}

/**
 * When the aux relation `rel`, made before, is reused for `reader`: throws
 * {@link AuxDemandConflict} unless `reader` reads only atoms it was made for.
 */
export function checkReuse(ctx: Context, reader: NormalRule, rel: string, key: (atom: Atom) => string): void {
  const made = ctx.auxDemand?.get(rel);
  if (made === undefined) return;
  // A rest demand was made for its own join-tree step's reader only (demandRest).
  if (made.kind === 'rest') throw new AuxDemandConflict(`auxiliary relation ${rel} reused after a join-tree step's demand`);
  const demand = demandOf(ctx, reader, rel, key);
  if (demand?.kind === 'filter' && demand.reader === made.reader) return;
  const ids = demand?.kind === 'filter' ? demand.ids.ids() : undefined;
  if (ids === undefined || ids.some((id) => !made.ids.has(id))) throw new AuxDemandConflict(`auxiliary relation ${rel} reused with another demand`);
}

/** Forgets the demands of relations a rolled-back split made (their names are given again). */
export function forgetDemand(ctx: Context, rel: string): void {
  ctx.auxDemand?.delete(rel);
}

/**
 * The demand to apply to a run of `rule`, or undefined: only where each binding makes exactly
 * one ground rule, distinct from every other binding's and never killed, so that counting a
 * left-out binding as one rule made is exact. That holds when every variable shapes the rule
 * (`outputs`: in the head or a kept body atom, none existential), the kept positive atoms are
 * of different relations (two bindings then differ in some kept atom or the head), and no
 * negated atom stays (none can kill a rule).
 */
export function demandForRun(ctx: Context, rule: JoinRule, outputs: ReadonlySet<number>, kept: Int32Array, negatives: number): HeadTest | undefined {
  const demand = ctx.auxDemand?.get(rule.head.rel);
  if (demand === undefined || negatives > 0 || outputs.size !== rule.nVars) return undefined;
  const rels = new Set(Array.from(kept, (i) => rule.positives[i]!.rel));
  return rels.size === kept.length ? demand.ids : undefined;
}

/** A complete atom beside a join-tree step's aux atom whose variables the aux atom binds. */
interface Beside {
  readonly pattern: Pattern;
  readonly store: Store;
  /** The aux head's column holding the atom's variable when it has one, else -1. */
  readonly col: number;
  /** Per value of that variable, whether the atom is in its store (its store is complete). */
  readonly memo: Map<number, boolean>;
}

/**
 * The heads of an aux relation whose every atom {@link Beside} the rest is in its store. The aux
 * atom's arguments are distinct variables (split.ts, eliminate), so a head's values are its
 * arguments; an atom of one variable (gt_two_thirds_6p: `(true (guessed player2 ?n2))`, 101
 * values over 55,651 heads) is looked up once per value.
 */
class RestTest implements HeadTest {
  private readonly vals: Int32Array;

  constructor(private readonly table: TermTable, private readonly aux: Pattern, private readonly beside: readonly Beside[], nVars: number) {
    this.vals = new Int32Array(nVars);
  }

  has(id: number): boolean {
    for (const b of this.beside) {
      if (b.col < 0) {
        if (!this.holds(b, id)) return false;
        continue;
      }
      const value = this.table.arg(id, b.col);
      let known = b.memo.get(value);
      if (known === undefined) b.memo.set(value, (known = this.holds(b, id)));
      if (!known) return false;
    }
    return true;
  }

  /** Whether `b` under the values of head `id` is in its store. */
  private holds(b: Beside, id: number): boolean {
    const vals = this.vals.fill(UNBOUND);
    // A head of another shape (never made by the aux rule) is kept: the test only drops.
    if (!matchPattern(this.aux, id, this.table, vals)) return true;
    const atom = instantiatePattern(b.pattern, vals, this.table, false);
    return atom >= 0 && inStore(b.store, atom);
  }
}

/** Per variable of a flat `aux(?v1 .. ?vn)` pattern, its column. */
function columnsOf(aux: Pattern): Map<number, number> {
  const cols = new Map<number, number>();
  if (aux.kind !== 'fn') return cols;
  aux.args.forEach((a, i) => {
    if (a.kind === 'var' && !cols.has(a.index)) cols.set(a.index, i);
  });
  return cols;
}

/**
 * Before a join-tree step's aux relation `rel` is instantiated (split-run.ts, eliminateGreedy):
 * a demand from `rest`, the rule left after the step, when the run takes demands. An atom `B`
 * of `rest` over a complete store whose variables (at least one) all occur in the aux atom
 * `aux(Ū)` follows it: every later step that eliminates a variable of `B` takes both (or the
 * aux atom that took `aux(Ū)`, whose head keeps `B`'s variables, as `B` is outside its bucket),
 * and without such a step both stay in the head rule. So an aux atom `aux(Ūσ)` with `Bσ` not in
 * `B`'s store is read only by ground rules whose heads carry `Bσ`'s values, up to the rule that
 * joins `B`, which has no instance with them: no needed rule reads any of those atoms, and they
 * are read by nothing else (nothing reads an aux relation but its split's rules; a reuse by
 * another rule ends the run: `SplitEnv.tainted`). Unused-instance removal drops their rules,
 * and the prune stage's reachability changes only for those atoms, none of the game's own.
 * So a binding with such a head makes no rule, counted as made as the filter demand's are.
 * Returns whether a demand was set.
 */
export function demandRest(ctx: Context, rest: NormalRule, rel: string, key: (atom: Atom) => string): boolean {
  if (ctx.auxDemand === undefined) return false;
  const atom = auxAtomOf(rest, rel, key);
  if (atom === undefined) return false;
  const vars = new Map<string, number>();
  const aux = compileAtom(atom, vars, ctx.table);
  const auxVars = new Set(patternVars(aux));
  const cols = columnsOf(aux);
  const beside: Beside[] = [];
  for (const l of rest.body) {
    if (l.kind !== 'pos' || l.atom === atom) continue;
    const store = ctx.stores.get(key(l.atom));
    if (store === undefined || ctx.lazy?.has(key(l.atom)) === true) continue;
    const known = new Map(vars);
    const pattern = compileAtom(l.atom, known, ctx.table);
    const vs = patternVars(pattern);
    if (vs.length === 0 || !vs.every((v) => auxVars.has(v))) continue;
    beside.push({ pattern, store, col: vs.length === 1 ? cols.get(vs[0]!) ?? -1 : -1, memo: new Map() });
  }
  if (beside.length === 0) return false;
  ctx.auxDemand.set(rel, { kind: 'rest', ids: new RestTest(ctx.table, aux, beside, vars.size) });
  return true;
}
