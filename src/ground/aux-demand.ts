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
import type { Atom } from '../gdl/ast.js';
import type { NormalRule } from '../normalize/types.js';
import type { JoinRule } from './compile.js';
import type { AuxDemand, Context } from './run-context.js';

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
  return { ids: project(ctx, filter.ids(), head, aux, vars.size), reader: readerText(head, aux) };
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
  const demand = demandOf(ctx, reader, rel, key);
  if (demand?.reader === made.reader) return;
  const ids = demand?.ids.ids();
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
export function demandForRun(ctx: Context, rule: JoinRule, outputs: ReadonlySet<number>, kept: Int32Array, negatives: number): IdSet | undefined {
  const demand = ctx.auxDemand?.get(rule.head.rel);
  if (demand === undefined || negatives > 0 || outputs.size !== rule.nVars) return undefined;
  const rels = new Set(Array.from(kept, (i) => rule.positives[i]!.rel));
  return rels.size === kept.length ? demand.ids : undefined;
}
