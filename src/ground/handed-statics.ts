/**
 * Static relations taken from the superset stage instead of evaluated again (issue 27,
 * docs/corpus.md stat26). The plain run of Algorithm 9.2 names the static relations whose facts
 * it derived exactly (src/reach/exact-statics.ts: no negation reaches them, so the relaxed game's
 * least model of them is their model); kalaha_2009's `plus` took 20,301 answers over 202 rounds
 * in Tau-Prolog, and instantiation then derived the same 20,301 facts whole in the Datalog core.
 *
 * Only whole evaluations are replaced (a component in the main loop, or one made whole by
 * src/ground/static-demand-run.ts): the same facts go into the same stores, counted against the
 * same atom budget, and the estimates and rewrites read the same sizes. Seeded (demanded) runs
 * stay as they are: their stores hold only what was asked, and readers' decisions read those sizes.
 */
import { deadlineTicker } from '../gdl/diagnostics.js';
import { relationKey } from '../gdl/relations.js';
import { addToStore } from '../datalog/block.js';
import type { Supersets } from '../reach/types.js';
import { type AxiomRows, handedIds } from '../reach/handover.js';
import { type Context, storeOf } from './run-context.js';

/** What picking the handed relations reads. */
interface HandedSettings {
  /** The run's static relations (keys). */
  readonly statics: ReadonlySet<string>;
  /** Relation names used with several arities (their keys are `name/arity`, `relationKey`). */
  readonly several: ReadonlySet<string>;
}

/**
 * The rows of the static relations `supersets` hand over as exact (`SupersetIds.exactStatics`),
 * by the run's key; undefined when none. A relation named with no rows gets an empty list.
 */
export function handedStatics(supersets: Supersets, s: HandedSettings): Map<string, AxiomRows[]> | undefined {
  const exact = handedIds(supersets)?.exactStatics;
  if (exact === undefined || exact.length === 0) return undefined;
  const out = new Map<string, AxiomRows[]>();
  const byName = new Map<string, AxiomRows[]>();
  for (const name of exact) {
    const slash = name.lastIndexOf('/');
    const key = relationKey({ rel: name.slice(0, slash), args: new Array<unknown>(Number(name.slice(slash + 1))) }, s.several);
    if (!s.statics.has(key)) continue;
    const rows: AxiomRows[] = [];
    out.set(key, rows);
    byName.set(name, rows);
  }
  for (const g of handedIds(supersets)!.axioms) byName.get(`${g.rel}/${g.arity}`)?.push(g);
  return out.size === 0 ? undefined : out;
}

/**
 * When every relation of `rels` (a component's) was handed over and their facts fit the atom
 * budget left: adds them to their stores and returns true (the component need not run).
 * Otherwise false, with nothing changed: the component is evaluated as before.
 */
export function takeHanded(ctx: Context, rels: ReadonlySet<string>): boolean {
  const handed = ctx.handed;
  if (handed === undefined) return false;
  let count = 0;
  for (const rel of rels) {
    const groups = handed.get(rel);
    if (groups === undefined) return false;
    for (const g of groups) count += g.size;
  }
  // Over the budget the evaluation stops where it did, with its own message.
  if (ctx.counters.atoms + count > ctx.limits.maxAtoms) return false;
  for (const rel of rels) take(ctx, rel, handed.get(rel)!);
  return true;
}

/** Adds the facts of `groups` to the store of `rel`, counting the new ones as made atoms. */
function take(ctx: Context, rel: string, groups: readonly AxiomRows[]): void {
  const t = ctx.table;
  const store = storeOf(ctx, rel);
  const tick = deadlineTicker(ctx.limits.deadline, ctx.file, `taking the facts of '${rel}'`);
  for (const g of groups) {
    const sym = t.symbol(g.rel);
    const buf = new Int32Array(g.arity);
    for (let row = 0; row < g.size; row++) {
      tick();
      for (let i = 0; i < g.arity; i++) buf[i] = g.rows[row * g.arity + i]!;
      if (addToStore(store, t.make(sym, buf, g.arity))) ctx.counters.atoms++;
    }
  }
  // As an evaluation of the component would have marked its heads (distinct-rules.ts).
  ctx.ruleHeads.add(rel);
}
