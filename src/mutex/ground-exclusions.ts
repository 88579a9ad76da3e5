/**
 * Facts between two fluents of two relations (docs/mutex.md, section 2h): "a and b are never
 * true together" (an exclusion) and "a is true only with b" (an implication). quarto's board
 * groups need "white selects and black places are never one step", i.e. `(selectcontrol white)`
 * and `(placecontrol black)` never true together; dotsAndBoxes' boxes need "a box is marked only
 * once its lines are drawn". Such facts lie outside the input/output hypotheses of one relation
 * (candidates.ts), and the ground SAT (prove.ts) can only use what it is told of the current state.
 *
 * Candidates are read off the sampled states: for two relations P and Q and a map of Q's
 * positions to P's (the lifted shape `not (P(.., x, ..) and Q(.., x, ..))`), every ground pair
 * of fluents agreeing at the mapped positions, each pair's facts held against the states (the
 * initial one included) on their own, like the groups per key. They are proven after the groups'
 * proof, with the claims it left unproven, by greatest fixpoints (ground-joint.ts): the proven claims of
 * the first proof assumed, a claim dropped when a transition from a state satisfying all of them
 * violates it, until none is.
 */
import type { Deadline } from '../deadline.js';
import { counterPairs } from './ground-counters.js';
import { type FluentPair, type JointFact, proveGroundJointly } from './ground-joint.js';
import { type LemmaRun, lemmaPass } from './ground-lemma-pass.js';
import { positionMaps } from './implications.js';
import { jointHopeless } from './joint-hopeless.js';
import { arityOf } from './lifted-relax.js';
import type { Claim, ClaimVerdict } from './prove.js';
import type { MutexView } from './view.js';

/**
 * Processor seconds of the proofs' budget the joint proof leaves unused: it stops before the
 * stage's budget, so that stopping it does not mark the stage's budget reached (it reports
 * whether it was complete in its own stats).
 */
const JOINT_MARGIN_SECONDS = 0.3;

/** Widest relation whose position maps are enumerated ((arity + 1)^arity maps at most). */
const MAX_ARITY = 4;
/** Relations with at most this many product pairs are also tried with no position shared (turn order). */
const MAX_UNMAPPED_PAIRS = 64;
/** Ground pairs generated before the states are read (the cost of holding them against the states). */
const MAX_GENERATED = 50_000;
/** Exclusions kept (each is a SAT query per round of the fixpoint). */
const MAX_EXCLUSIONS = 3_000;
/** States between two looks at the budget while the pairs are held against them. */
const STATES_PER_LOOK = 64;

/** One shape of candidate: relations P and Q and, per position of Q, the position of P it equals (or none). */
interface Shape {
  readonly p: string;
  readonly q: string;
  readonly map: readonly (number | undefined)[];
}

/** The shapes to try, those sharing more positions first (fewer, stronger pairs). */
function shapes(byRel: ReadonlyMap<string, readonly number[]>): Shape[] {
  const rels = [...byRel.keys()].filter((r) => arityOf(r) <= MAX_ARITY).sort();
  const out: Shape[] = [];
  for (let i = 0; i < rels.length; i++) {
    for (let j = i + 1; j < rels.length; j++) {
      const p = rels[i]!;
      const q = rels[j]!;
      const small = byRel.get(p)!.length * byRel.get(q)!.length <= MAX_UNMAPPED_PAIRS;
      for (const map of positionMaps(arityOf(p), arityOf(q))) {
        if (map.some((x) => x !== undefined) || small) out.push({ p, q, map });
      }
    }
  }
  return out.sort((a, b) => mappedCount(b) - mappedCount(a));
}

/** How many of Q's positions a shape maps. */
function mappedCount(s: Shape): number {
  return s.map.filter((x) => x !== undefined).length;
}

/**
 * The shapes within one relation of `within` (P = Q): each proper, non-empty subset of its
 * positions shared, more shared first. connect4's gravity, "a square above a blank one is blank",
 * is such a fact between two squares of one column: `(cell c 1 b)` implies `(cell c 2 b)`.
 */
function selfShapes(byRel: ReadonlyMap<string, readonly number[]>, within: ReadonlySet<string>): Shape[] {
  const out: Shape[] = [];
  for (const p of [...byRel.keys()].filter((r) => within.has(r) && arityOf(r) <= MAX_ARITY).sort()) {
    const arity = arityOf(p);
    for (let set = 1; set < (1 << arity) - 1; set++) {
      out.push({ p, q: p, map: Array.from({ length: arity }, (_, i) => ((set >> i) & 1) === 1 ? i : undefined) });
    }
  }
  return out.sort((a, b) => mappedCount(b) - mappedCount(a));
}

/**
 * The candidate pairs of fluents (each `[a, b]`, a < b), of fluents some sampled state shows
 * true, that no sampled state holds together; with `within`, pairs of one relation of it only
 * ({@link selfShapes}). `stop` (the stage's budget) is read per shape and
 * every few states: once it says to stop, no candidate is returned (a partial refutation would
 * leave false ones, which the proof would only drop again at a price).
 */
function exclusionCandidates(view: MutexView, states: readonly (readonly number[])[], stop: () => boolean, within?: ReadonlySet<string>): FluentPair[] {
  const all = [view.init, ...states];
  const seen = new Uint8Array(view.fluents.length);
  for (const s of all) for (const f of s) seen[f] = 1;
  const byRel = new Map<string, number[]>();
  view.fluents.forEach((f, i) => {
    if (seen[i] === 1) pushTo(byRel, f.relation, i);
  });
  const pairs = new Map<number, [number, number]>();
  const n = view.fluents.length;
  for (const shape of within === undefined ? shapes(byRel) : selfShapes(byRel, within)) {
    if (pairs.size >= MAX_GENERATED || stop()) break;
    joinPairs(view, byRel.get(shape.p)!, byRel.get(shape.q)!, shape.map, (a, b) => {
      if (a === b) return;
      const [x, y] = a < b ? [a, b] : [b, a];
      if (pairs.size < MAX_GENERATED) pairs.set(x * n + y, [x, y]);
    });
  }
  return refuteOnStates(view, [...pairs.values()], all, stop).slice(0, MAX_EXCLUSIONS);
}

/**
 * Of each pair (a, b), the claims no state refutes: "not both" (a state holds both), "a implies
 * b" (a state holds a without b), "b implies a". None once `stop` says to stop.
 */
function refuteOnStates(view: MutexView, pairs: readonly (readonly [number, number])[], all: readonly (readonly number[])[], stop: () => boolean): FluentPair[] {
  const n = view.fluents.length;
  const partners = view.fluents.map((): number[] => []);
  const back = view.fluents.map((): number[] => []);
  for (const [x, y] of pairs) {
    partners[x]!.push(y);
    back[y]!.push(x);
  }
  const together = new Set<number>();
  const withoutSecond = new Set<number>();
  const withoutFirst = new Set<number>();
  const now = new Uint8Array(n);
  for (let k = 0; k < all.length; k++) {
    if (k % STATES_PER_LOOK === 0 && stop()) return [];
    const s = all[k]!;
    for (const f of s) now[f] = 1;
    for (const f of s) {
      for (const g of partners[f]!) (now[g] === 1 ? together : withoutSecond).add(f * n + g);
      for (const g of back[f]!) if (now[g] === 0) withoutFirst.add(g * n + f);
    }
    for (const f of s) now[f] = 0;
  }
  return pairs.flatMap(([a, b]): FluentPair[] => {
    const key = a * n + b;
    const out: FluentPair[] = [];
    if (!together.has(key)) out.push({ kind: 'amo', a, b });
    if (!withoutSecond.has(key)) out.push({ kind: 'imp', a, b });
    if (!withoutFirst.has(key)) out.push({ kind: 'imp', a: b, b: a });
    return out;
  });
}

/** Calls `emit(p, q)` for every fluent p of `ps` and q of `qs` whose arguments agree at the mapped positions. */
function joinPairs(view: MutexView, ps: readonly number[], qs: readonly number[], map: readonly (number | undefined)[], emit: (p: number, q: number) => void): void {
  const mapped = map.flatMap((x, i) => (x === undefined ? [] : [[i, x] as const]));
  const byKey = new Map<string, number[]>();
  for (const q of qs) {
    const k = mapped.map(([i]) => view.fluents[q]!.args[i]).join('\u0000');
    pushTo(byKey, k, q);
  }
  for (const p of ps) {
    const k = mapped.map(([, j]) => view.fluents[p]!.args[j]).join('\u0000');
    for (const q of byKey.get(k) ?? []) emit(p, q);
  }
}

/** Appends `v` to the list of `k` (made when missing). */
function pushTo<K>(m: Map<K, number[]>, k: K, v: number): void {
  const list = m.get(k);
  if (list === undefined) m.set(k, [v]);
  else list.push(v);
}

/** The claims of `failed` by batch (hypothesis and kind): "at most one" first, more members first. */
function batchesOf(claims: readonly Claim[], failed: readonly number[]): number[][] {
  const by = new Map<number, number[]>();
  for (const i of failed) pushTo(by, claims[i]!.batch, i);
  const size = (b: readonly number[]): number => b.reduce((n, i) => n + claims[i]!.members.length, 0);
  const kind = (b: readonly number[]): number => (claims[b[0]!]!.kind === 'amo' ? 0 : 1);
  return [...by.values()].sort((x, y) => kind(x) - kind(y) || size(y) - size(x) || claims[x[0]!]!.batch - claims[y[0]!]!.batch);
}

/**
 * The relations one hypothesis of which has every "at most one" claim proven and covers every
 * fluent of the relation: their other claims would save little, and are not tried again
 * (checkers' and chess_200's leftover hypotheses took the rest of their budget for nothing).
 */
function coveredRelations(view: MutexView, claims: readonly Claim[], verdicts: readonly ClaimVerdict[]): Set<string> {
  const size = new Map<string, number>();
  for (const f of view.fluents) size.set(f.relation, (size.get(f.relation) ?? 0) + 1);
  // Per batch (a hypothesis' "at most one" claims): fluents in its claims, and its relation.
  const covered = new Map<number, { n: number; rel: string }>();
  const failedBatch = new Set<number>();
  claims.forEach((c, i) => {
    if (c.kind !== 'amo') return;
    if (verdicts[i] !== 'proven') failedBatch.add(c.batch);
    const b = covered.get(c.batch) ?? { n: 0, rel: view.fluents[c.members[0]!]!.relation };
    b.n += c.members.length;
    covered.set(c.batch, b);
  });
  const out = new Set<string>();
  for (const [batch, { n, rel }] of covered) if (!failedBatch.has(batch) && n === size.get(rel)) out.add(rel);
  return out;
}

/** What the first proof said, as {@link strengthen} reads it. */
interface FirstProof {
  readonly proven: readonly boolean[];
  readonly verdicts: readonly ClaimVerdict[];
  readonly complete: boolean;
}

/** The verdicts after the joint proof, and what it cost. */
interface Strengthened {
  readonly verdicts: readonly ClaimVerdict[];
  readonly queries: number;
  readonly work: number;
  /** Exclusions held by the sampled states, and those proven. */
  readonly tried: number;
  readonly proven: number;
  /** False when its budget stopped it before every batch was tried. */
  readonly complete: boolean;
  /** The stage's own budget had passed when the joint proof ended. */
  readonly budgetSpent: boolean;
  /** The lemmas through a mapping relation, when the game has one (ground-lemma-pass.ts). */
  readonly lemmas?: LemmaRun['counts'];
}

/**
 * The claims the first proof left unproven, tried again together with the exclusions the
 * sampled states hold, in one greatest fixpoint assuming what the first proof proved (section
 * 2h). Only after a complete first proof that left a claim unproven, within what is left of
 * the proofs' budget but {@link JOINT_MARGIN_SECONDS}; claims it proves become proven (by the
 * ground SAT), the others keep their verdicts. Undefined when it was not tried.
 */
export function strengthen(
  view: MutexView, states: readonly (readonly number[])[], claims: readonly Claim[], first: FirstProof,
  limits: { readonly deadline: Deadline; readonly maxConflicts: number; readonly maxPairQueries: number; readonly maxWork: number },
): Strengthened | undefined {
  const done = coveredRelations(view, claims, first.verdicts);
  let failed = claims.flatMap((c, i) => (first.verdicts[i] === 'proven' || done.has(view.fluents[c.members[0]!]!.relation) ? [] : [i]));
  if (!first.complete || failed.length === 0 || limits.deadline.passed()) return undefined;
  const left = limits.deadline.processorSecondsLeft() - JOINT_MARGIN_SECONDS;
  if (left <= 0) return undefined;
  const deadline = limits.deadline.within(left);
  // The lemmas through a mapping relation first, within a share of what is left (none without a
  // mapping rule); what they prove is assumed by the passes after them.
  const lemmas = lemmaPass(view, [view.init, ...states], claims, batchesOf(claims, failed), first.proven, { deadline, share: left, maxConflicts: limits.maxConflicts });
  const proven = lemmas === undefined ? first.proven : claims.map((_, i) => lemmas.proven[i] === true);
  failed = failed.filter((i) => proven[i] !== true);
  const all = [view.init, ...states];
  const jointLimits = { deadline, maxConflicts: limits.maxConflicts };
  // The passes below only ever assume pair facts every state holds: when even all of them (and
  // every claim) leave each open claim violated, none can be proven, and they are not run.
  const check = jointHopeless(view, all, claims, failed, proven, jointLimits);
  const none: Counted = { proven, queries: check.queries, work: check.work, complete: true, pairs: [], tried: 0, factsProven: 0 };
  if (check.hopeless) return outcome(claims, first.verdicts, none, limits.deadline, lemmas);
  const pairs = exclusionCandidates(view, states, () => deadline.passed());
  const r = pairs.length === 0 || failed.length === 0 ? undefined : proveGroundJointly(view, claims, batchesOf(claims, failed), pairs, jointLimits, proven);
  let last: Counted = r === undefined ? none : { ...r, queries: r.queries + check.queries, work: r.work + check.work, pairs, tried: pairs.length, factsProven: factsProven(r.proven, claims.length) };
  const stop = (): boolean => deadline.passed();
  // Facts within one relation of a claim still unproven (connect4's gravity), after a complete
  // first pass or none (connect4 has no pair of two relations): the games it settles spend nothing more.
  const within = (left: readonly number[]): FluentPair[] => exclusionCandidates(view, states, stop, new Set(left.map((i) => view.fluents[claims[i]!.members[0]!]!.relation)));
  if (last.complete) last = furtherPass(view, claims, failed, last, within, jointLimits) ?? last;
  // Then the counters and their records (stateSpaceLarge, firefighter), after a complete pass that ran.
  const counters = (_: readonly number[], known: ReadonlySet<number>): FluentPair[] => refuteOnStates(view, counterPairs(view, all, known), all, stop).slice(0, MAX_EXCLUSIONS);
  if (last !== none && last.complete) last = furtherPass(view, claims, failed, last, counters, jointLimits) ?? last;
  if (lemmas !== undefined) return outcome(claims, first.verdicts, last, limits.deadline, lemmas);
  return last === none ? undefined : outcome(claims, first.verdicts, last, limits.deadline);
}

/** How many of a joint proof's facts (the entries after the claims) it proved. */
function factsProven(proven: readonly boolean[], claims: number): number {
  let n = 0;
  for (let k = claims; k < proven.length; k++) if (proven[k] === true) n++;
  return n;
}

/** A joint proof's result with its facts (after the claims, in order), those tried and proven counted. */
type Counted = ReturnType<typeof proveGroundJointly> & { readonly pairs: readonly JointFact[]; readonly tried: number; readonly factsProven: number };

/** The verdicts and stats of {@link strengthen} from the last joint proof run (and the lemma pass before it, when one ran). */
function outcome(claims: readonly Claim[], verdicts: readonly ClaimVerdict[], r: Counted, deadline: Deadline, lemmas?: LemmaRun): Strengthened {
  return {
    verdicts: claims.map((_, i): ClaimVerdict => (r.proven[i] === true || lemmas?.proven[i] === true ? 'proven' : verdicts[i]!)),
    queries: r.queries + (lemmas?.queries ?? 0), work: r.work + (lemmas?.work ?? 0), tried: r.tried, proven: r.factsProven, complete: r.complete, budgetSpent: deadline.passed(),
    ...(lemmas === undefined ? {} : { lemmas: lemmas.counts }),
  };
}

/**
 * The joint proof once more on the claims the passes before left unproven, with the facts
 * `extraPairs` makes (given those claims, and the keys `a * fluents + b` of the pass before's
 * facts, which it need not make again) as candidates: everything the pass before proved assumed
 * (its proven claims and facts, which are not asked again), its other facts dropped (keeping them
 * as candidates too cost stateSpaceLarge and firefighter 8 to 18% more queries for the same
 * groups, docs/mutex.md 2j). A further pass, not one pool: the earlier outcome stays what it was
 * on every game the new facts do not help. Its queries and facts are added to those before.
 * Undefined when no claim is left or no new fact is held by the sampled states.
 */
function furtherPass(
  view: MutexView, claims: readonly Claim[], failed: readonly number[], last: Counted,
  extraPairs: (left: readonly number[], known: ReadonlySet<number>) => FluentPair[], limits: { readonly deadline: Deadline; readonly maxConflicts: number },
): Counted | undefined {
  const left = failed.filter((i) => last.proven[i] !== true);
  if (left.length === 0 || limits.deadline.passed()) return undefined;
  const n = view.fluents.length;
  const kept = last.pairs.filter((_, k) => last.proven[claims.length + k] === true);
  const known = new Set(last.pairs.flatMap((x) => ('a' in x ? [x.a < x.b ? x.a * n + x.b : x.b * n + x.a] : [])));
  const added = extraPairs(left, known);
  if (added.length === 0) return undefined;
  const pairs = [...kept, ...added];
  const assumed = [...claims.map((_, i) => last.proven[i] === true), ...kept.map(() => true)];
  const r = proveGroundJointly(view, claims, batchesOf(claims, left), pairs, limits, assumed);
  return { ...r, pairs, queries: r.queries + last.queries, work: r.work + last.work, tried: last.tried + added.length, factsProven: factsProven(r.proven, claims.length) };
}
