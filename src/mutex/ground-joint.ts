/**
 * The claims the first proof left unproven, proven again with exclusions between two relations
 * (docs/mutex.md, 2h). Batch by batch (one hypothesis and kind each, those of more members
 * first), a greatest fixpoint (Houdini) with the exclusions pulled in on demand: each active
 * claim is asked on its own cone (as prove.ts does) with every proven and active claim assumed
 * of the current state; when a transition violates it, the exclusions (candidates the sampled
 * states hold) that the transition's current state breaks join the active claims instead of the
 * claim leaving, since assuming them rules that transition out; only when none does, the claim
 * leaves. A round that changes nothing has shown every active claim inductive relative to the
 * others and the proven ones; all holding initially, they hold in every reachable state and
 * join the proven ones. A batch the budget cuts short proves nothing.
 */
import type { Deadline } from '../deadline.js';
import { EncodingStopped, type RuleIndex, atMostOne, encodeCone, ruleIndex } from './encode.js';
import { type JointAsk, claimGoal, jointCones } from './joint-cones.js';
import type { Lemma } from './ground-lemmas.js';
import { KeptCones } from './lemma-cones.js';
import type { Claim } from './prove.js';
import type { MutexView } from './view.js';

/** A claim between two fluents: not both true (`amo`), or `a` true only with `b` true (`imp`). */
export interface FluentPair {
  readonly kind: 'amo' | 'imp';
  readonly a: number;
  readonly b: number;
}

/** A candidate fact of the joint proof: a pair, or a lemma of ground-lemmas.ts (a group, a clause). */
export type JointFact = FluentPair | Lemma;

/** Limits of the joint proof. */
interface JointLimits {
  readonly deadline: Deadline;
  /** Conflicts one query may take; a claim undecided within them leaves. */
  readonly maxConflicts: number;
  /** Queries the proof may ask; past them it stops as when the budget passes (a count, not time). */
  readonly maxQueries?: number;
  /**
   * The facts are only pulled in on demand, not first proven together (lemmas: thousands of
   * candidates), and each query is on its own cone: the growing encoding's model values fluents
   * far from the claim freely, and would pull in lemmas from all over the game.
   */
  readonly onDemand?: boolean;
}

/** The outcome: per claim (the given ones, then the exclusions), whether it is proven, and the work done. */
interface JointResult {
  readonly proven: readonly boolean[];
  readonly queries: number;
  readonly work: number;
  /** False when the budget stopped it before every batch was tried. */
  readonly complete: boolean;
}

/**
 * A claim of prove.ts, "the first member true only with the second" (an implication between two
 * fluents), or a clause over its members (`positive[i]`: the literal of `members[i]` is "true").
 */
type JointClaim = Claim | { readonly kind: 'imp'; readonly batch: number; readonly members: readonly [number, number] }
  | { readonly kind: 'clause'; readonly batch: number; readonly members: readonly number[]; readonly positive: readonly boolean[] };

/** Whether claim `c` holds where `value` says which fluents are true. */
function holds(c: JointClaim, value: (f: number) => boolean): boolean {
  if (c.kind === 'imp') return !value(c.members[0]) || value(c.members[1]);
  if (c.kind === 'clause') return c.members.some((f, i) => value(f) === c.positive[i]);
  let n = 0;
  for (const f of c.members) if (value(f)) n++;
  return c.kind === 'amo' ? n <= 1 : n >= 1;
}

/** A fact as a claim of the proof (batch -1). */
function factClaim(x: JointFact): JointClaim {
  if (x.kind === 'group') return { kind: 'amo', batch: -1, members: x.members };
  if (x.kind === 'clause') return { kind: 'clause', batch: -1, members: x.members, positive: x.positive };
  return { kind: x.kind, batch: -1, members: [x.a, x.b] };
}

/** Raised when the budget has passed. */
class JointStopped extends Error {}

/**
 * What a query found: no violation (with the assumed claims it used, when known), a violation
 * with its current state's true fluents (of the cone), or undecided.
 */
type Answer = { readonly kind: 'unsat' | 'unknown'; readonly used?: readonly number[] } | { readonly kind: 'sat'; readonly now: readonly number[]; readonly cone: readonly number[] };

/** The shared state of the proof. */
interface Prover {
  readonly view: MutexView;
  readonly claims: JointClaim[];
  /** Per claim: 1 proven (assumed), 2 active in the batch being proven, 0 neither. */
  readonly state: number[];
  readonly index: RuleIndex;
  readonly limits: JointLimits;
  /** The cones kept between rounds (joint-cones.ts); undefined: each query encodes its cone anew. */
  readonly kept?: JointAsk;
  /** The lemma pass's cone encodings kept per cone (lemma-cones.ts); undefined in the 2h passes. */
  readonly cones?: KeptCones;
  readonly maxQueries?: number;
  queries: number;
  work: number;
}

/** Whether the successor can violate claim `i` from a state satisfying the proven and active claims (weakened to its cone). */
function ask(p: Prover, i: number): Answer {
  const { view, claims, limits } = p;
  const claim = claims[i]!;
  // A first member no rule makes true never makes an implication false, nor a negative literal's fluent a clause.
  if (claim.kind === 'imp' && view.fluents[claim.members[0]]!.nextAtom < 0) return { kind: 'unsat', used: [] };
  if (claim.kind === 'clause' && claim.members.some((f, k) => !claim.positive[k] && view.fluents[f]!.nextAtom < 0)) return { kind: 'unsat', used: [] };
  if (p.maxQueries !== undefined && p.queries >= p.maxQueries) throw new JointStopped();
  if (p.cones !== undefined) {
    const r = p.cones.ask(i, p.state, limits.maxConflicts, () => limits.deadline.passed());
    p.queries++;
    p.work += r.work;
    if (limits.deadline.passed()) throw new JointStopped();
    return r.answer === 'sat' ? { kind: 'sat', now: r.now, cone: r.cone } : { kind: r.answer, used: r.used };
  }
  if (p.kept !== undefined) {
    const r = p.kept(i, p.state, limits.maxConflicts, () => limits.deadline.passed());
    if (r !== undefined) {
      p.queries++;
      p.work += r.work;
      if (limits.deadline.passed()) throw new JointStopped();
      return r.answer === 'sat' ? { kind: 'sat', now: r.now, cone: r.cone } : { kind: r.answer };
    }
  }
  const stop = (): boolean => limits.deadline.tick();
  const nexts = claim.members.map((f) => view.fluents[f]!.nextAtom);
  const enc = encodeCone(view, p.index, nexts, claim.kind === 'alo', stop);
  const { solver, atom } = enc;
  const inCone = new Uint8Array(view.fluents.length);
  for (const f of enc.fluents) inCone[f] = 1;
  const now = (f: number): number => atom(view.fluents[f]!.trueAtom);
  claims.forEach((c, k) => {
    if (p.state[k] === 0) return;
    const members = c.members.filter((f) => inCone[f] === 1);
    if (!encodedWith(c, members.length)) return;
    if (c.kind === 'amo') atMostOne(solver, members.map(now));
    else if (c.kind === 'alo') solver.addClause(members.map(now));
    else if (c.kind === 'imp') solver.addClause([-now(c.members[0]), now(c.members[1])]);
    else if (c.kind === 'clause') solver.addClause(c.members.map((f, j) => (c.positive[j] ? now(f) : -now(f))));
  });
  // An implication is violated when its first member becomes true without its second (a first
  // member no rule makes true never is, above), a clause when each literal becomes false.
  const assumptions = claimGoal(solver, claim, nexts, atom);
  const answer = solver.solve(assumptions, limits.maxConflicts, () => limits.deadline.passed());
  p.queries++;
  p.work += solver.literalCount + solver.visitCount;
  if (limits.deadline.passed()) throw new JointStopped();
  if (answer !== 'sat') return { kind: answer };
  return { kind: 'sat', now: enc.fluents.filter((f) => solver.value(now(f))), cone: enc.fluents };
}

/**
 * Whether a query assumes claim `c` when `inCone` of its members are in the query's cone: a group
 * with two of them, any other kind with all (what is left out only weakens the assumption).
 */
function encodedWith(c: JointClaim, inCone: number): boolean {
  return c.kind === 'amo' ? inCone >= 2 : inCone === c.members.length;
}

/**
 * Proves one batch (claim indexes) with exclusions from `pool` (per fluent, the indexes of the
 * exclusion claims it is a member of) pulled in on demand; true when the fixpoint was reached.
 */
function proveBatch(p: Prover, batch: readonly number[], pool: readonly (readonly number[])[]): void {
  const init = new Uint8Array(p.view.fluents.length);
  for (const f of p.view.init) init[f] = 1;
  const tried = new Set<number>();
  // A claim proven already (a second pass's first proven pairs) stays assumed, not asked again.
  for (const i of batch) if (p.state[i] === 0 && holds(p.claims[i]!, (f) => init[f] === 1)) p.state[i] = 2;
  let active = batch.filter((i) => p.state[i] === 2);
  for (let changed = true; changed && active.length > 0; ) {
    changed = false;
    for (const i of active) {
      if (p.state[i] !== 2) continue;
      const answer = ask(p, i);
      if (answer.kind === 'unsat') continue;
      changed = true;
      // The exclusions this transition's current state breaks, not yet tried in this batch.
      const added = answer.kind === 'sat' ? breaking(p, answer, pool, tried) : [];
      for (const k of added) tried.add(k);
      if (added.length === 0) p.state[i] = 0;
      active = [...active.filter((k) => p.state[k] === 2), ...added.map((k) => ((p.state[k] = 2), k))];
    }
  }
  for (const i of active) if (p.state[i] === 2) p.state[i] = 1;
}

/**
 * {@link proveBatch} for facts pulled in on demand only (the lemma pass), asking again only what
 * a drop may have changed. Adding claims only adds assumptions, so an "unsat" stays "unsat" until
 * a claim leaves; and an "unsat" on a kept cone (lemma-cones.ts) says which assumed claims it
 * used: the query with only those assumed is unsatisfiable too (docs/mutex.md, snake21). So a
 * claim shown inductive is asked again only when a claim its proof used leaves; the fixpoint is
 * reached when every active claim is shown inductive since.
 * Facts just pulled in are asked first, the last pulled first (docs/mutex.md, snake20): a false
 * one then leaves before other claims are shown with it assumed, each of which its leaving would
 * send back to the queue (snake_2009_big: 5,049 queries to the fixpoint in the queue's order).
 */
function proveBatchOnDemand(p: Prover, batch: readonly number[], pool: readonly (readonly number[])[]): void {
  const init = new Uint8Array(p.view.fluents.length);
  for (const f of p.view.init) init[f] = 1;
  const tried = new Set<number>();
  for (const i of batch) if (p.state[i] === 0 && holds(p.claims[i]!, (f) => init[f] === 1)) p.state[i] = 2;
  // Per claim shown inductive: the claims its proof used (one of them leaving undoes it; null: any).
  const shown = new Map<number, Set<number> | null>();
  const queue = batch.filter((i) => p.state[i] === 2);
  const fresh: number[] = [];
  for (let q = 0; q < queue.length || fresh.length > 0; ) {
    const i = fresh.pop() ?? queue[q++]!;
    if (p.state[i] !== 2 || shown.has(i)) continue;
    const answer = ask(p, i);
    if (answer.kind === 'unsat') {
      shown.set(i, answer.used === undefined ? null : new Set(answer.used));
      continue;
    }
    const added = answer.kind === 'sat' ? breaking(p, answer, pool, tried) : [];
    for (const k of added) (tried.add(k), (p.state[k] = 2), fresh.push(k));
    if (added.length > 0) {
      queue.push(i);
      continue;
    }
    p.state[i] = 0;
    for (const [k, used] of shown) if (used === null || used.has(i)) (shown.delete(k), queue.push(k));
  }
  for (const i of [...queue, ...tried]) if (p.state[i] === 2) p.state[i] = 1;
}

/** The claims of `pool`, not tried yet and not proven, that the model's current state (true fluents of its cone) violates. */
function breaking(p: Prover, { now, cone }: { readonly now: readonly number[]; readonly cone: readonly number[] }, pool: readonly (readonly number[])[], tried: ReadonlySet<number>): number[] {
  const on = new Set(now);
  const seen = new Set(cone);
  const out = new Set<number>();
  for (const f of now) {
    for (const k of pool[f] ?? []) {
      if (tried.has(k) || p.state[k] !== 0 || out.has(k)) continue;
      if (broken(p.claims[k]!, on, seen)) out.add(k);
    }
  }
  return [...out];
}

/**
 * Whether a model's current state (`on` its true fluents, `seen` its cone) breaks a fact. A
 * member that must be false must be in the cone: outside it, its value in the model says nothing.
 */
function broken(c: JointClaim, on: ReadonlySet<number>, seen: ReadonlySet<number>): boolean {
  if (c.kind === 'imp') return seen.has(c.members[1]) && !on.has(c.members[1]);
  if (c.kind === 'clause') return c.members.every((g, i) => (c.positive[i] ? seen.has(g) && !on.has(g) : on.has(g)));
  let n = 0;
  for (const g of c.members) if (on.has(g)) n++;
  return n >= 2;
}

/**
 * Proves the claims of `batches` (lists of claim indexes, in order) one batch at a time, the
 * claims `proven` assumed, with the exclusions `pairs` as candidates. The claims of a batch
 * proven join the assumed ones; a batch the budget cuts short, and those after it, prove nothing.
 */
export function proveGroundJointly(view: MutexView, claims: readonly Claim[], batches: readonly (readonly number[])[], pairs: readonly JointFact[], limits: JointLimits, proven: readonly boolean[]): JointResult {
  const all: JointClaim[] = [...claims, ...pairs.map(factClaim)];
  // By a member every violating state holds true: a pair's first, a group's each, a clause's first negative.
  const pool: number[][] = view.fluents.map(() => []);
  pairs.forEach((x, k) => {
    for (const f of x.kind === 'group' ? x.members : x.kind === 'clause' ? [x.members[x.positive.indexOf(false)]!] : [x.a]) pool[f]!.push(claims.length + k);
  });
  const state = all.map((_, k) => (proven[k] === true ? 1 : 0));
  let p: Prover | undefined;
  let complete = true;
  try {
    const index = ruleIndex(view, () => limits.deadline.tick());
    const tick = (): boolean => limits.deadline.tick();
    const onDemand = limits.onDemand === true;
    p = { view, claims: all, state, index, limits, kept: onDemand ? undefined : jointCones(view, index, all, tick), cones: onDemand ? new KeptCones(view, index, all, tick) : undefined, maxQueries: limits.maxQueries, queries: 0, work: 0 };
    // The exclusions first, together (each cone is small); those that need a claim of a later
    // batch may still join it on demand. Lemmas only on demand.
    const exclusions = limits.onDemand === true ? [] : pairs.map((_, k) => claims.length + k);
    for (const [batch, from] of [[exclusions, []] as const, ...batches.map((b) => [b, pool] as const)]) {
      const before = [...state];
      try {
        (limits.onDemand === true ? proveBatchOnDemand : proveBatch)(p, batch, from);
      } catch (err) {
        before.forEach((v, k) => (state[k] = v));
        throw err;
      }
    }
  } catch (err) {
    if (!(err instanceof JointStopped) && !(err instanceof EncodingStopped)) throw err;
    complete = false;
  }
  return { proven: state.map((v) => v === 1), queries: p?.queries ?? 0, work: p?.work ?? 0, complete };
}
