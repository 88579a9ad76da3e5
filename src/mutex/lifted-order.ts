/**
 * Order facts between a counter and another relation's argument (docs/mutex.md, section 2k): "a
 * record is written only below the counter". urmAdd's coder writes line n while `(lineToAdd n)`
 * holds and the counter then moves to n + 1 by `(succ n n+1)`; the frame rule keeps line n. The
 * group "one instruction per line" closes the pair (write line n, keep line n) only when no state
 * holds `(lineToAdd n)` with a line n already written: an order between two relations' arguments,
 * outside the claims of 2a to 2j. An order fact O(C, R, p, <) claims: in every reachable state, for
 * every true `(C a)` and every true R fluent b with b at position p, b < a, where < is the
 * transitive closure of an acyclic static binary relation (`succ`). It is proven lifted, as a
 * greatest fixpoint: the base case on the initial state, the step on every pair of a `next` rule
 * of C and one of R (their bodies cannot both hold, or the order of their heads follows from the
 * bodies' order atoms, the facts assumed of the current state and the order of constants).
 */
import type { Term } from '../gdl/ast.js';
import type { Literal, NormalGame, NormalRule } from '../normalize/types.js';
import type { Refute } from './lifted-core.js';
import { relKey, relOf } from './lifted-relax.js';
import { type Subst, ground, key, renameRule, walk } from './lifted-terms.js';
import { ruleBase } from './lifted-unfold.js';
import type { MutexView } from './view.js';

/** Most order facts tried (each costs a rule pair check per pair of their `next` rules). */
const MAX_ORDERS = 16;

/** Most facts of a static relation read as an order (its closure is computed per constant). */
const MAX_ORDER_FACTS = 4096;

/** A strict order on constants (texts): the transitive closure of an acyclic static binary relation. */
interface StaticOrder {
  readonly relation: string;
  readonly less: (x: string, y: string) => boolean;
  readonly domain: ReadonlySet<string>;
}

/** "Every true R fluent's argument at `position` is below every true `(C a)`'s a" in the order of `order`. */
export interface OrderFact {
  /** The counter relation, `name/1`. */
  readonly counter: string;
  /** The record relation, `name/arity`. */
  readonly record: string;
  readonly position: number;
  readonly order: StaticOrder;
}

/**
 * Appends `value` to the list of `k` in place: copying the list on every append was quadratic in
 * a relation's fluents (pancakes88's 40,320 `porder` fluents: 10 s of the stage).
 */
function pushTo<K, V>(map: Map<K, V[]>, k: K, value: V): void {
  const list = map.get(k);
  if (list === undefined) map.set(k, [value]);
  else list.push(value);
}

/**
 * The nodes a path of one or more edges leads to from `from`, depth first (iterative: a static
 * order may be a chain of thousands). With `until`, the search stops as soon as it reaches that
 * node (the set then holds it, and maybe not all the others).
 */
function reachable(graph: ReadonlyMap<string, Iterable<string>>, from: string, until?: string): Set<string> {
  const out = new Set<string>();
  const stack = [...(graph.get(from) ?? [])];
  while (stack.length > 0) {
    const x = stack.pop()!;
    if (out.has(x)) continue;
    out.add(x);
    if (x === until) break;
    for (const y of graph.get(x) ?? []) stack.push(y);
  }
  return out;
}

/** The order of a static binary relation, or undefined when it has a cycle or too many facts. */
function staticOrder(relation: string, rows: readonly (readonly Term[])[]): StaticOrder | undefined {
  if (rows.length > MAX_ORDER_FACTS || rows.some((r) => r.some((t) => t.kind !== 'const'))) return undefined;
  const next = new Map<string, string[]>();
  for (const [x, y] of rows) pushTo(next, key(x!, EMPTY), key(y!, EMPTY));
  // Each constant's closure is searched once, when a comparison first needs it.
  const above = new Map<string, ReadonlySet<string>>();
  const reach = (x: string): ReadonlySet<string> => {
    let out = above.get(x);
    if (out === undefined) above.set(x, out = reachable(next, x));
    return out;
  };
  const domain = new Set(rows.flatMap((r) => r.map((t) => key(t, EMPTY))));
  if ([...domain].some((x) => reach(x).has(x))) return undefined;
  return { relation, domain, less: (x, y) => reach(x).has(y) };
}

const EMPTY: Subst = new Map();

/**
 * The order facts that every sampled state (the initial one included: the base case) satisfies and
 * at least one shows (a counter fluent and a record together): a counter is a relation of arity 1,
 * two or more fluents, never two in one state; its values and the record's at `position` all in
 * the domain of one order. `stop`: the stage's budget (past it, no candidate).
 */
export function orderCandidates(view: MutexView, normal: NormalGame, states: readonly (readonly number[])[], stop: () => boolean): OrderFact[] {
  const orders = [...ruleBase(normal, new Map()).facts].filter(([rel]) => rel.endsWith('/2')).flatMap(([rel, rows]) => staticOrder(rel, rows) ?? []);
  if (orders.length === 0) return [];
  const byRel = new Map<string, number[]>();
  view.fluents.forEach((f, i) => pushTo(byRel, f.relation, i));
  const within = (o: StaticOrder, fs: readonly number[], p: number): boolean => fs.every((f) => o.domain.has(view.fluents[f]!.args[p]!));
  const all = [view.init, ...states];
  // The states are read by relation number (the order of `byRel`), not by text: no set per state.
  const rels = new Relations(view, byRel);
  const twice = rels.twice(all);
  const out: OrderFact[] = [];
  for (const [counter, cs] of byRel) {
    if (!counter.endsWith('/1') || cs.length < 2 || twice[rels.number.get(counter)!] === 1) continue;
    for (const order of orders.filter((o) => within(o, cs, 0))) {
      const tried = [...byRel].flatMap(([record, rs]) => (record === counter ? [] : view.fluents[rs[0]!]!.args.map((_, p) => ({ counter, record, position: p, order }))
        .filter((f) => within(order, rs, f.position))));
      out.push(...held(view, rels, tried, all, stop));
    }
  }
  return stop() ? [] : out.slice(0, MAX_ORDERS);
}

/** The view's relations numbered: per fluent the number of its relation. */
class Relations {
  readonly number: ReadonlyMap<string, number>;
  readonly of: Int32Array;

  constructor(view: MutexView, byRel: ReadonlyMap<string, readonly number[]>) {
    this.number = new Map([...byRel.keys()].map((r, i) => [r, i]));
    this.of = Int32Array.from(view.fluents, (f) => this.number.get(f.relation)!);
  }

  /** Per relation, 1 when some state holds two of its fluents. */
  twice(states: readonly (readonly number[])[]): Uint8Array {
    const out = new Uint8Array(this.number.size);
    // The state (its number plus one) in which each relation was last found.
    const last = new Int32Array(this.number.size);
    states.forEach((st, s) => {
      for (const f of st) {
        const r = this.of[f]!;
        if (last[r] === s + 1) out[r] = 1;
        last[r] = s + 1;
      }
    });
    return out;
  }
}

/** The facts (of one counter and order) every state satisfies, each shown by some state holding a counter fluent and a record together. */
function held(view: MutexView, rels: Relations, tried: readonly OrderFact[], states: readonly (readonly number[])[], stop: () => boolean): OrderFact[] {
  if (tried.length === 0) return [];
  const { counter, order } = tried[0]!;
  const alive = tried.map(() => true);
  const shown = tried.map(() => false);
  const ofRecord = [...rels.number.keys()].map((): number[] => []);
  tried.forEach((f, i) => ofRecord[rels.number.get(f.record)!]!.push(i));
  const counterNumber = rels.number.get(counter)!;
  for (const st of states) {
    if (stop()) return [];
    const a = st.find((f) => rels.of[f] === counterNumber);
    if (a === undefined) continue;
    const top = view.fluents[a]!.args[0]!;
    for (const f of st) {
      for (const i of ofRecord[rels.of[f]!]!) {
        if (!alive[i]) continue;
        alive[i] = order.less(view.fluents[f]!.args[tried[i]!.position]!, top);
        shown[i] = true;
      }
    }
  }
  return tried.filter((_, i) => alive[i] && shown[i]);
}

/** Strict edges x < y (term texts under `s`) that a case's literals and the assumed facts give, with constants ordered. */
function edges(body: readonly Literal[], s: Subst, assumed: readonly OrderFact[], order: StaticOrder): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const add = (x: string, y: string): void => void out.set(x, (out.get(x) ?? new Set()).add(y));
  const trues: Term[] = [];
  for (const l of body) {
    if (l.kind !== 'pos') continue;
    if (relOf(l.atom) === order.relation) add(key(l.atom.args[0]!, s), key(l.atom.args[1]!, s));
    if (l.atom.rel === 'true' && l.atom.args.length === 1) trues.push(walk(l.atom.args[0]!, s));
  }
  const fluentRel = (t: Term): string => (t.kind === 'fn' ? relKey(t.name, t.args.length) : t.kind === 'const' ? relKey(t.name, 0) : '');
  for (const fact of assumed.filter((f) => f.order === order)) {
    for (const c of trues.filter((t) => fluentRel(t) === fact.counter)) {
      for (const r of trues.filter((t) => fluentRel(t) === fact.record)) {
        if (c.kind === 'fn' && r.kind === 'fn') add(key(r.args[fact.position]!, s), key(c.args[0]!, s));
      }
    }
  }
  // Constants among the nodes are ordered by the static relation itself.
  const nodes = [...new Set([...out.keys(), ...[...out.values()].flatMap((v) => [...v])])].filter((x) => order.domain.has(x));
  for (const x of nodes) for (const y of nodes) if (order.less(x, y)) add(x, y);
  return out;
}

/** Whether a path of one or more edges leads from `from` to `to`. */
const below = (graph: ReadonlyMap<string, Iterable<string>>, from: string, to: string): boolean => reachable(graph, from, to).has(to);

/** Whether the order edges of a case form a cycle (x < x): no state and move satisfy it. */
function cyclic(body: readonly Literal[], s: Subst, assumed: readonly OrderFact[]): boolean {
  for (const order of new Set(assumed.map((f) => f.order))) {
    const graph = edges(body, s, assumed, order);
    if ([...graph.keys()].some((x) => below(graph, x, x))) return true;
  }
  return false;
}

/** A case whose order edges (assumed facts of the current state, order atoms, constants) form a cycle closes, and so does one `inner` refutes. */
export function withOrders(inner: Refute, assumed: readonly OrderFact[]): Refute {
  if (assumed.length === 0) return inner;
  return (body, s) => cyclic(body, s, assumed) || inner(body, s);
}

/**
 * Whether a `next` rule of the counter and one of the record, renamed apart, cannot both fire with
 * the record's head argument not below the counter's: `closesWith(body, s, refute)` closes every
 * case (2a's checks and case splits) where `refute` adds "the heads are in order here" to the
 * ways a case closes (a case in which every solution has them in order violates nothing).
 */
function pairOrdered(fact: OrderFact, c: NormalRule, r: NormalRule, assumed: readonly OrderFact[], closesWith: (body: readonly Literal[], s: Subst, refute: Refute) => boolean): boolean {
  const a = renameRule(c, 'O1');
  const b = renameRule(r, 'O2');
  const top = a.head.args[0]!;
  const rec = b.head.args[0]!;
  if (top.kind !== 'fn' || rec.kind !== 'fn') return false;
  const upper = top.args[0]!;
  const lower = rec.args[fact.position]!;
  const inOrder: Refute = (body, s) => {
    if (ground(upper, s) && ground(lower, s)) return fact.order.less(key(lower, s), key(upper, s));
    return below(edges(body, s, assumed, fact.order), key(lower, s), key(upper, s));
  };
  return closesWith([...a.body, ...b.body], new Map(), withOrders(inOrder, assumed));
}

/**
 * The greatest set of the candidates whose every pair of `next` rules (one of the counter, one of
 * the record) `pairOrdered` shows in order, assuming the set. `stop`: the stage's budget; once it
 * says to stop, nothing is proven.
 */
export function proveOrders(
  candidates: readonly OrderFact[], rulesOf: (relation: string) => readonly NormalRule[],
  closesWith: (body: readonly Literal[], s: Subst, refute: Refute) => boolean, stop: () => boolean,
): OrderFact[] {
  let set = [...candidates];
  for (;;) {
    const kept = set.filter((f) => rulesOf(f.counter).every((c) => rulesOf(f.record).every((r) => !stop() && pairOrdered(f, c, r, set, closesWith))));
    if (stop()) return [];
    if (kept.length === set.length) return kept;
    set = kept;
  }
}
