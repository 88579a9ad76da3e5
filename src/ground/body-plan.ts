/**
 * The ground rule of one binding of a rule's join, made into the run's scratch arrays and added
 * to its rule buffer. What each body literal becomes (dropped as static, kept opaque as lazy,
 * kept as a relation of the component, kept if in its store) is decided once per run of the
 * rule ({@link planBody}) instead of per binding: those were string-keyed set and map lookups,
 * several per binding (hex's `next` rule: 558,009 bindings).
 */
import type { Block, Store } from '../datalog/block.js';
import { blockAtom, inStore } from '../datalog/block.js';
import { type Pattern, instantiatePattern } from '../datalog/pattern.js';
import type { TermTable } from '../datalog/terms.js';
import type { JoinRule } from './compile.js';
import { type RuleBuffer, stageRule } from './rule-buffer.js';
import { type DetachedRun, allowedRow, firstDetachedRow, nextDetachedRow } from './detached-run.js';

/** What a negated atom becomes in a ground rule. */
type NegativePlan =
  /** A lazy atom (docs/lazy.md): the simulator decides it per state, so it stays, never resolved. */
  | { readonly kind: 'lazy'; readonly pattern: Pattern }
  /** An atom of the component being evaluated, not complete yet: kept, decided afterwards. */
  | { readonly kind: 'own'; readonly pattern: Pattern }
  /** An atom of a complete relation: kept when it is in the store, else always true and dropped. */
  | { readonly kind: 'stored'; readonly pattern: Pattern; readonly store: Store };

/** The body of a rule's ground instances, decided once per run of the rule. */
export interface BodyPlan {
  /** The blocks of the positive atoms that stay in the body (not static). */
  readonly blocks: readonly Block[];
  /** Their positions among the rule's positive atoms (the join's row of each). */
  readonly at: Int32Array;
  readonly negatives: readonly NegativePlan[];
}

/** What the plan needs of the run: which relations are static or lazy, and their stores. */
interface PlanContext {
  readonly statics: ReadonlySet<string>;
  readonly lazy?: ReadonlySet<string>;
  readonly storeOf: (rel: string) => Store;
}

/** The {@link BodyPlan} of `rule` whose positive atoms read `blocks`, in a component of relations `rels`. */
export function planBody(ctx: PlanContext, rule: JoinRule, blocks: readonly Block[], rels: ReadonlySet<string>): BodyPlan {
  const at: number[] = [];
  rule.positives.forEach((p, i) => {
    if (!ctx.statics.has(p.rel)) at.push(i);
  });
  const negatives: NegativePlan[] = [];
  for (const n of rule.negatives) {
    if (ctx.statics.has(n.rel)) continue;
    if (ctx.lazy?.has(n.rel) === true) negatives.push({ kind: 'lazy', pattern: n.pattern });
    else if (rels.has(n.rel)) negatives.push({ kind: 'own', pattern: n.pattern });
    else negatives.push({ kind: 'stored', pattern: n.pattern, store: ctx.storeOf(n.rel) });
  }
  return { blocks: at.map((i) => blocks[i]!), at: Int32Array.from(at), negatives };
}

/** Sorts `ids[0 .. n - 1]` ascending (bodies are short: insertion) and drops duplicates; returns the new length. */
function ascendingUnique(ids: Int32Array, n: number): number {
  for (let i = 1; i < n; i++) {
    const x = ids[i]!;
    let j = i - 1;
    for (; j >= 0 && ids[j]! > x; j--) ids[j + 1] = ids[j]!;
    ids[j + 1] = x;
  }
  if (n < 2) return n;
  let m = 1;
  for (let i = 1; i < n; i++) if (ids[i] !== ids[m - 1]) ids[m++] = ids[i]!;
  return m;
}

/** Whether `ids[0 .. n - 1]` holds `id`. */
function holds(ids: Int32Array, n: number, id: number): boolean {
  for (let i = 0; i < n; i++) if (ids[i] === id) return true;
  return false;
}

/** Scratch arrays for the bodies of one binding (grown as rules need; no allocation per binding), and their lengths. */
export interface BodyScratch {
  pos: Int32Array;
  neg: Int32Array;
  npos: number;
  nneg: number;
}

/**
 * Makes the body of binding `b` (join rows `rows`) into `scratch` (its lengths in `npos`, `nneg`),
 * each list ascending without duplicates; false when a simplification kills it (`p` and `not p`).
 */
function fillBody(plan: BodyPlan, scratch: BodyScratch, table: TermTable, b: Int32Array, rows: Int32Array): boolean {
  if (scratch.pos.length < plan.at.length) scratch.pos = new Int32Array(2 * plan.at.length);
  if (scratch.neg.length < plan.negatives.length + 1) scratch.neg = new Int32Array(2 * plan.negatives.length + 2);
  const { pos, neg } = scratch;
  const { at, blocks, negatives } = plan;
  let npos = 0;
  for (let k = 0; k < at.length; k++) pos[npos++] = blockAtom(blocks[k]!, rows[at[k]!]!);
  let nneg = 0;
  for (let k = 0; k < negatives.length; k++) {
    const n = negatives[k]!;
    if (n.kind === 'lazy') {
      neg[nneg++] = instantiatePattern(n.pattern, b, table, true);
      continue;
    }
    const own = n.kind === 'own';
    const id = instantiatePattern(n.pattern, b, table, own);
    if (!own && (id < 0 || !inStore(n.store, id))) continue;
    if (holds(pos, npos, id)) return false;
    neg[nneg++] = id;
  }
  scratch.npos = ascendingUnique(pos, npos);
  scratch.nneg = ascendingUnique(neg, nneg);
  return true;
}

/**
 * Builds the ground rule of binding `b` (join rows `rows`) with head `head` into `scratch` and
 * stages it in `rules` (rule-buffer.ts: added, unless it is there, when the batch is flushed);
 * false when a simplification kills it (`p` and `not p`).
 */
export function addBindingRule(
  plan: BodyPlan, scratch: BodyScratch, table: TermTable, rules: RuleBuffer, b: Int32Array, rows: Int32Array, head: number,
): boolean {
  if (!fillBody(plan, scratch, table, b, rows)) return false;
  stageRule(rules, head, scratch.pos, scratch.neg, scratch.npos, scratch.nneg);
  return true;
}

/**
 * The ground rules of binding `b` of a rule whose negated atom `det` reads (detached.ts): the
 * body of `plan` (the rule's other literals) with `not N(b, d)` for each allowed tuple `d` whose
 * atom is in the store, and without it once when some allowed tuple's atom is not (then always
 * true, dropped). Each rule is staged, then `staged` runs (the caller flushes a full batch).
 * False when every one dies, as {@link addBindingRule} for each tuple would say.
 */
export function addDetachedRules(
  plan: BodyPlan, det: DetachedRun, scratch: BodyScratch, table: TermTable, rules: RuleBuffer,
  b: Int32Array, rows: Int32Array, head: number, staged: () => void,
): boolean {
  if (!fillBody(plan, scratch, table, b, rows)) return false;
  const { pos, neg, npos, nneg } = scratch;
  const withOne = det.neg.length > nneg ? det.neg : (det.neg = new Int32Array(2 * nneg + 2));
  let matched = 0;
  let made = false;
  for (let row = firstDetachedRow(det, b); row >= 0; row = nextDetachedRow(det, row)) {
    if (!allowedRow(det, row)) continue;
    matched++;
    const id = blockAtom(det.block, row);
    if (holds(pos, npos, id)) continue;
    stageRule(rules, head, pos, withOne, npos, withInserted(neg, nneg, id, withOne));
    staged();
    made = true;
  }
  if (matched < det.allowed.size) {
    stageRule(rules, head, pos, neg, npos, nneg);
    staged();
    made = true;
  }
  return made;
}

/** Copies ascending `ids[0 .. n - 1]` with `id` put in its place (once) into `out`; the new length. */
function withInserted(ids: Int32Array, n: number, id: number, out: Int32Array): number {
  let k = 0;
  let i = 0;
  for (; i < n && ids[i]! < id; i++) out[k++] = ids[i]!;
  if (i === n || ids[i] !== id) out[k++] = id;
  for (; i < n; i++) out[k++] = ids[i]!;
  return k;
}
