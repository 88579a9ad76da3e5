/**
 * Bottom-up instantiation of one strongly connected component of relations at a time, in
 * topological order, semi-naively inside recursive components. Static components (relations
 * that depend on neither `true` nor `does`) are evaluated exactly, negation included, and only
 * their facts are kept; other components produce ground rules, simplified on the way:
 *
 *   positive atom outside its store        -> no ground rule (the join finds no row)
 *   positive static atom                   -> holds (it was joined against the exact model), dropped
 *   negated static atom in the model       -> the ground rule dies
 *   negated atom outside its store         -> always true, dropped
 *   negated atom equal to a positive one   -> the ground rule dies (p and not p)
 *
 * The run's state and its limits are src/ground/run-context.ts's.
 */
import { deadlineLimit, formatEstimate } from '../gdl/diagnostics.js';
import { semiNaive } from '../datalog/fixpoint.js';
import { type JoinAtom, type JoinCheck, type JoinPlan, UNBOUND, estimateJoin, join, leadPlan, planJoin } from '../datalog/join.js';
import { type Block, type Store, addToStore, advanceRound, createBlock, inStore, syncBlock } from '../datalog/block.js';
import { addBindingRule, addDetachedRules, planBody } from './body-plan.js';
import { detachedJoin } from './detached.js';
import type { CompiledAtom, JoinRule } from './compile.js';
import { canonicalKey, instantiatePattern, renumber } from '../datalog/pattern.js';
import { type RuleBuffer, STAGE_SIZE, addGroundRule, appendStaged, dropNegatives, flushStaged } from './rule-buffer.js';
import { distinctRules, markSeen, prepareCall, relationTag } from './distinct-rules.js';
import { IdBits } from '../datalog/id-bits.js';
import { grow } from '../datalog/terms.js';
import { HEAD_FILTERED, HEAD_PASSED, HEAD_RECORDED, addHead, createHeadCache, findHead } from './head-cache.js';
import { type Context, type Where, checkEstimate, checkLazyEstimate, keyOfId, limitError, makeTick, rulesMade, storeOf } from './run-context.js';
import { demandForRun } from './aux-demand.js';

const NONE: readonly number[] = Object.freeze([]);

/** A ground rule over the run's internal atom ids while it is made; `pos` and `neg` ascending. */
interface RuleDraft {
  readonly head: number;
  readonly pos: readonly number[];
  readonly neg: readonly number[];
}

/**
 * The shared block of a body atom and the rule variable of each of its columns (the last
 * column, the atom id, binds none).
 */
function blockFor(ctx: Context, atom: CompiledAtom): { block: Block; vars: readonly number[] } {
  const { key, order } = canonicalKey(atom.pattern);
  let block = ctx.blocks.get(key);
  if (block === undefined) {
    const local = new Map(order.map((v, i) => [v, i]));
    block = createBlock(storeOf(ctx, atom.rel), renumber(atom.pattern, local), order.length);
    ctx.blocks.set(key, block);
  }
  syncBlock(block, ctx.table);
  return { block, vars: [...order, UNBOUND] };
}

/** The rule's head as one more join atom over `seed` (after the positives: ground rules read rows by their index). */
function seedJoin(ctx: Context, rule: JoinRule, seed: Store): JoinAtom {
  const { key, order } = canonicalKey(rule.head.pattern);
  const cacheKey = `seed|${key}`;
  let block = ctx.blocks.get(cacheKey);
  if (block === undefined) {
    block = createBlock(seed, renumber(rule.head.pattern, new Map(order.map((v, i) => [v, i]))), order.length);
    ctx.blocks.set(cacheKey, block);
  }
  syncBlock(block, ctx.table);
  return { rel: block.rows, vars: [...order, UNBOUND], lo: 0, hi: block.rows.size };
}

/** Tests of a rule that only prune: `distinct`, and negated static atoms (which must not hold). */
function checksOf(ctx: Context, rule: JoinRule): JoinCheck[] {
  const checks: JoinCheck[] = rule.distincts.map((d) => ({
    vars: d.vars,
    // Interning (create = true) so that two equal terms never both read as "absent" (-1).
    test: (b: Int32Array) => instantiatePattern(d.left, b, ctx.table, true) !== instantiatePattern(d.right, b, ctx.table, true),
  }));
  for (const n of rule.negatives) {
    if (!ctx.statics.has(n.rel)) continue;
    const store = storeOf(ctx, n.rel);
    checks.push({ vars: n.vars, test: (b) => !inStore(store, instantiatePattern(n.pattern, b, ctx.table, false)) });
  }
  return checks;
}

/**
 * Variables that shape the result: those of the head and, for a rule that is kept, of the
 * atoms that stay in its body. The others (only in static atoms) just have to exist.
 */
function outputsOf(ctx: Context, rule: JoinRule, isStatic: boolean): Set<number> {
  const out = new Set(rule.head.vars);
  if (isStatic) return out;
  for (const a of [...rule.positives, ...rule.negatives]) if (!ctx.statics.has(a.rel)) for (const v of a.vars) out.add(v);
  return out;
}


/** Adds a ground rule unless it is already there, counting its literals. */
function addRule(ctx: Context, r: RuleDraft): boolean {
  if (!addGroundRule(ctx.rules, r.head, r.pos, r.neg)) return false;
  ctx.counters.literals += 1 + r.pos.length + r.neg.length;
  return true;
}

/** The join inputs of a rule (atom `delta`, if not -1, only over its rows of the last round). */
function prepareRule(ctx: Context, rule: JoinRule, delta: number) {
  const blocks: Block[] = [];
  const joins: JoinAtom[] = rule.positives.map((p, i) => {
    const { block, vars } = blockFor(ctx, p);
    blocks.push(block);
    const range = i === delta ? block.rows.delta() : undefined;
    return { rel: block.rows, vars, lo: range?.[0] ?? 0, hi: range?.[1] ?? block.rows.size };
  });
  const seed = ctx.headSeeds?.get(rule.head.rel);
  if (seed !== undefined) joins.push(seedJoin(ctx, rule, seed));
  const isStatic = ctx.statics.has(rule.head.rel);
  return { blocks, joins, isStatic, checks: checksOf(ctx, rule), outputs: outputsOf(ctx, rule, isStatic) };
}

/**
 * The estimate {@link estimateJoin} gives for a whole (non-delta) run of `rule` over the
 * stores as they are now: bindings, hence ground rules (or atoms for a static rule).
 */
export function ruleEstimate(ctx: Context, rule: JoinRule): number {
  const { joins, checks, outputs } = prepareRule(ctx, rule, -1);
  return estimateJoin(joins, checks, outputs);
}

/**
 * An upper bound of {@link ruleEstimate} that only shrinks with the stores: the product of the
 * rows each positive atom ranges over (the estimate divides them by keys, which is not monotone).
 * The frame rewrite's decision is rechecked when this is above its threshold (frame-run.ts).
 */
export function ruleBound(ctx: Context, rule: JoinRule): number {
  return prepareRule(ctx, rule, -1).joins.reduce((product, j) => product * (j.hi - j.lo), 1);
}

/**
 * Runs one rule: joins its positive atoms (atom `delta`, if not -1, only over its rows in
 * the last round), and records each surviving head id in `pending` (unless already known).
 */
function runRule(
  ctx: Context, rule: JoinRule, rels: ReadonlySet<string>, delta: number,
  pending: Pending, distinct: boolean,
): void {
  const prepared = prepareRule(ctx, rule, delta);
  const { isStatic, checks } = prepared;
  const whole = planBody({ statics: ctx.statics, lazy: ctx.lazy, storeOf: (rel) => storeOf(ctx, rel) }, rule, prepared.blocks, rels);
  const filter = ctx.headFilter.get(rule.head.rel);
  const headStore = storeOf(ctx, rule.head.rel);
  const { maxRules, maxLiterals, maxAtoms } = ctx.limits;
  // Planned once for the estimate and the join (an empty atom: neither plans).
  const wholePlan: JoinPlan | undefined = prepared.joins.some((j) => j.hi <= j.lo) ? undefined : planJoin(prepared.joins, checks);
  const estimate = estimateJoin(prepared.joins, checks, prepared.outputs, wholePlan);
  checkEstimate(ctx, rule, estimate, isStatic);
  checkLazyEstimate(ctx, rule, estimate);
  const tick = makeTick(ctx, rule, estimate);
  // A negated atom whose other variables only static atoms bind is read by index (detached.ts);
  // the estimate above stays the whole rule's.
  const detached = isStatic || distinct || wholePlan === undefined
    ? undefined
    : detachedJoin(rule, ctx.statics, whole, prepared.joins, prepared.outputs, (atom) => blockFor(ctx, atom), tick);
  if (detached?.run.allowed.size === 0) return;
  const { joins, outputs, plan } = detached ?? { joins: prepared.joins, outputs: prepared.outputs, plan: whole };
  // A lead (the frame rewrite's touched rules) changes only how the bindings are enumerated: the
  // estimate (and the limits) stay the greedy plan's. It indexes the rule's own atoms, so it is
  // not used when the detached join has replaced them.
  const joinPlan = detached !== undefined ? planJoin(joins, checks)
    : wholePlan === undefined || rule.lead === undefined ? wholePlan : leadPlan(joins, checks, rule.lead);
  // A limit passed while enumerating names the size the join was estimated at, as the clock's does.
  const size = `; its join was estimated at about ${formatEstimate(estimate)} bindings`;
  // Heads repeat across bindings: what is known of each is looked up once (head-cache.ts). Where
  // the head holds every output variable (a static rule's outputs are its head's), two bindings
  // share a head only through an existential variable bound before an output, which also makes
  // a duplicate rule (rare): the cache would only miss, a probe and an insertion per binding
  // (amazonsTorus: 1.5 of its 3.0 million bindings).
  const heads = createHeadCache(rule.head.vars, [...outputs].some((v) => !rule.head.vars.includes(v)));
  // An auxiliary relation's heads no reader asks for make no rule, counted as made (aux-demand.ts).
  const demand = isStatic ? undefined : demandForRun(ctx, rule, outputs, plan.at, plan.negatives.length);
  const droppedLiterals = 1 + plan.at.length;
  // Rules proven unequal to any other (distinct-rules.ts) are added without the duplicate test.
  const tag = distinct ? relationTag(ctx, rule.head.rel) : -1;
  const flush = distinct ? (buf: RuleBuffer): number => appendStaged(buf, tag) : flushStaged;
  // The batch is added when full, or as soon as its rules, were they all new, could pass a
  // limit: the limits are then checked at the same binding as if each rule were added at once.
  const staged = (): void => {
    const st = ctx.rules.staged;
    if (st.count === STAGE_SIZE || rulesMade(ctx) + st.count > maxRules || ctx.counters.literals + st.literals > maxLiterals) {
      ctx.counters.literals += flush(ctx.rules);
      if (rulesMade(ctx) > maxRules) throw limitError(ctx, rule, `exceeded ${maxRules} ground rules${size}`, { kind: 'rules', estimate });
      if (ctx.counters.literals > maxLiterals) throw limitError(ctx, rule, `exceeded ${maxLiterals} ground literals${size}`, { kind: 'literals', estimate });
    }
  };
  join(rule.nVars, joins, checks, outputs, tick, (b, rows) => {
    let entry = findHead(heads, b);
    if (entry >= 0 && heads.states[entry] === HEAD_FILTERED) return;
    const before = ctx.table.size;
    const head = entry >= 0 ? heads.ids[entry]! : instantiatePattern(rule.head.pattern, b, ctx.table, filter === undefined);
    if (entry < 0) {
      const passes = filter === undefined || filter.has(head);
      entry = addHead(heads, b, head, passes ? HEAD_PASSED : HEAD_FILTERED);
      if (!passes) return;
    }
    if (!isStatic) {
      if (demand !== undefined && !demand.has(head)) {
        ctx.counters.dropped++;
        ctx.counters.literals += droppedLiterals;
        staged();
      } else if (detached !== undefined) {
        if (!addDetachedRules(plan, detached.run, ctx.scratch, ctx.table, ctx.rules, b, rows, head, staged)) return;
      } else {
        if (!addBindingRule(plan, ctx.scratch, ctx.table, ctx.rules, b, rows, head)) return;
        staged();
      }
    }
    if (entry >= 0 && heads.states[entry] === HEAD_RECORDED) return;
    // A head interned just now is in no store and not pending (static relations: every fact).
    if (head >= before || (!inStore(headStore, head) && !pending.bits.has(head))) {
      addPending(pending, head);
      if (++ctx.counters.atoms > maxAtoms) throw limitError(ctx, rule, `exceeded ${maxAtoms} ground atoms${size}`, { kind: 'ground-atoms', estimate });
    }
    if (entry >= 0) heads.states[entry] = HEAD_RECORDED;
  }, joinPlan);
  // Within the limits: the batch was flushed at every binding where they could be passed.
  ctx.counters.literals += flush(ctx.rules);
}

/**
 * The heads derived since the last commit that are in no store yet, in the order derived, and
 * as bits for the membership test of each binding's head (a hash set of numbers grew to
 * 180,000 entries a round on gt_two_thirds_6p, and was made anew every round).
 */
interface Pending {
  ids: Int32Array<ArrayBuffer>;
  size: number;
  readonly bits: IdBits;
}

function addPending(pending: Pending, id: number): void {
  pending.ids = grow(pending.ids, pending.size + 1);
  pending.ids[pending.size++] = id;
  pending.bits.add(id);
}

/** A fact of the game (a rule with a ground head and no body): its relation's key and head term id. */
export interface GroundFact {
  readonly rel: string;
  readonly head: number;
  /** Where the fact is written, for the messages of the limits. */
  readonly source: JoinRule['source'];
}

/**
 * A fact, as {@link runRule} would treat the one binding of a rule with an empty body, without
 * compiling a rule for it: its head filtered by the superset (or the seed of a demanded static
 * relation), a ground rule with empty bodies unless the relation is static, and the head
 * recorded in `pending`. Games with hundreds of thousands of static facts spent most of
 * instantiation compiling and joining one rule per fact.
 */
function addFact(ctx: Context, fact: GroundFact, pending: Pending): void {
  const { rel, head } = fact;
  const filter = ctx.headFilter.get(rel);
  if (filter !== undefined && !filter.has(head)) return;
  const seed = ctx.headSeeds?.get(rel);
  if (seed !== undefined && !inStore(seed, head)) return;
  const where: Where = { source: fact.source, head: { rel } };
  if (ctx.limits.deadline.tick()) throw limitError(ctx, where, `stopped: ${ctx.limits.deadline.describe()}`, deadlineLimit(ctx.limits.deadline, 1));
  if (!ctx.statics.has(rel)) {
    if (!addRule(ctx, { head, pos: NONE, neg: NONE })) return;
    if (rulesMade(ctx) > ctx.limits.maxRules) throw limitError(ctx, where, `exceeded ${ctx.limits.maxRules} ground rules`, { kind: 'rules' });
    if (ctx.counters.literals > ctx.limits.maxLiterals) throw limitError(ctx, where, `exceeded ${ctx.limits.maxLiterals} ground literals`, { kind: 'literals' });
  }
  if (!inStore(storeOf(ctx, rel), head) && !pending.bits.has(head)) {
    addPending(pending, head);
    if (++ctx.counters.atoms > ctx.limits.maxAtoms) throw limitError(ctx, where, `exceeded ${ctx.limits.maxAtoms} ground atoms`, { kind: 'ground-atoms' });
  }
}

/**
 * Negation inside a component (`(<= (goal r 100) (not (goal r 0)))`: stratified atom by atom,
 * not relation by relation) is kept until the component is complete; then a negated atom that
 * was never derived is always true and is removed from the rules made since `start`.
 */
function dropUnderivedNegations(ctx: Context, start: number, rules: readonly JoinRule[], rels: ReadonlySet<string>): void {
  // Only a negated atom of the component's own relations can be underived: without one, no
  // rule made here changes, and the walk over them (a fifth of instantiation on some games) is saved.
  if (!rules.some((r) => r.negatives.some((n) => rels.has(n.rel)))) return;
  const derived = (id: number): boolean => !rels.has(keyOfId(ctx, id)) || inStore(storeOf(ctx, keyOfId(ctx, id)), id);
  dropNegatives(ctx.rules, start, derived);
}

/**
 * Adds the pending heads to their stores. Heads come in runs of one relation (rule by rule), so
 * the store found for an atom's functor and arity serves the next atoms of the run, instead of
 * a name, a key and a map look-up per atom (gt_two_thirds_6p: 721,200 static facts).
 */
function commitPending(ctx: Context, pending: Pending): void {
  const table = ctx.table;
  let functor = -1;
  let arity = -1;
  let store: Store | undefined;
  for (let i = 0; i < pending.size; i++) {
    const id = pending.ids[i]!;
    if (store === undefined || table.functor(id) !== functor || table.arity(id) !== arity) {
      functor = table.functor(id);
      arity = table.arity(id);
      store = storeOf(ctx, keyOfId(ctx, id));
    }
    addToStore(store, id);
  }
  pending.bits.clear(pending.ids, pending.size);
  pending.size = 0;
}

/**
 * Instantiates the rules of one component (`rels` are its relations) to a fixpoint with the
 * core's semi-naive driver: a rule's body atom over a relation of the component reads, in its
 * delta round, only the block rows of the instances first derived in the previous round.
 */
export function evaluateComponent(ctx: Context, rules: readonly JoinRule[], rels: ReadonlySet<string>, facts: readonly GroundFact[] = []): void {
  const pending: Pending = { ids: new Int32Array(64), size: 0, bits: new IdBits(Infinity) };
  const start = ctx.rules.count;
  // Facts hold in the first round, as a rule with an empty body would fire there.
  for (const f of facts) addFact(ctx, f, pending);
  const recursive = new Map(rules.map((r) => [r, r.positives.flatMap((p, i) => (rels.has(p.rel) ? [i] : []))]));
  const heads = [...new Set([...rules.map((r) => r.head.rel), ...facts.map((f) => f.rel)])];
  prepareCall(ctx, heads);
  const distinct = distinctRules(ctx, rules, rels, new Set(facts.map((f) => f.rel)));
  markSeen(ctx, heads);
  semiNaive({
    rules,
    recursiveAtoms: (rule) => recursive.get(rule)!,
    fire: (rule, delta) => runRule(ctx, rule, rels, delta, pending, distinct.has(rule)),
    commit: () => {
      if (pending.size === 0) return false;
      commitPending(ctx, pending);
      // New rows of every block over the component's stores are the next round's delta.
      advanceRound([...ctx.blocks.values()].filter((b) => rels.has(b.store.rel)), ctx.table);
      return true;
    },
  });
  dropUnderivedNegations(ctx, start, rules, rels);
}
