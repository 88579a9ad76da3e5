/**
 * The mutex stage's second step (index.ts): the claims the first step left, proven lifted first
 * (lifted.ts, then exactly-one jointly and per group), then on the ground rules with SAT
 * (prove.ts); those left unproven refuted by walks (refute-walks.ts) and tried again with the
 * exclusions between two relations (section 2h).
 */
import type { Deadline } from '../deadline.js';
import type { Term } from '../gdl/ast.js';
import type { GroundGame } from '../ground/types.js';
import type { NormalGame } from '../normalize/types.js';
import { type Candidates, type Hypothesis, candidateMembers } from './candidates.js';
import { type ClaimsOf, couldBeChosen, judge } from './choose.js';
import type { Early } from './find-early.js';
import { impliedCandidates } from './implications.js';
import { someFluentCandidates } from './implications-some.js';
import { proveLiftedAlo } from './lifted-alo.js';
import { exclusionCandidates } from './lifted-exclusion.js';
import { exactCandidates, proveJointly } from './lifted-joint.js';
import { orderCandidates } from './lifted-order.js';
import { relKey } from './lifted-relax.js';
import { type KeyedGroup, proveLifted } from './lifted.js';
import { type Worth, keyText } from './lifted-induction.js';
import { type ClaimVerdict, proveClaims } from './prove.js';
import { proveByProjection } from './projection.js';
import { refuteByCreating } from './refute-create.js';
import { type SearchRefutation, refuteBySearch, withSearched } from './refute-search.js';
import { refuteByWalks, strengthenRest, withRefuted } from './refute-walks.js';
import type { MutexOptions } from './types.js';
import { type MutexView, fluentArgs } from './view.js';

/** What the proofs and the walks decided, for the result and its stats. */
export interface Proofs {
  /** Per hypothesis: its "at most one" proven lifted (for every key, or for the keys tried). */
  readonly liftedProven: readonly boolean[];
  /** Per claim: proven on the rules with variables. */
  readonly provenLifted: readonly boolean[];
  /** Per claim, with the exclusions of section 2h when they ran. */
  readonly verdicts: readonly ClaimVerdict[];
  /** The candidates, less those whose claim the walks or the searches refuted. */
  readonly left: Candidates;
  readonly proof: ReturnType<typeof proveClaims>;
  readonly strengthened: ReturnType<typeof strengthenRest> | undefined;
  readonly walked: ReturnType<typeof refuteByWalks> | undefined;
  /** Claims the walks refuted (`walked` has the searches' too). */
  readonly refutedWalks: number;
  /** The searches toward two members (refute-search.ts), when the walks ran. */
  readonly searched: SearchRefutation | undefined;
  /** The walks toward a creating move's second member (refute-create.ts), when they ran (lazy axioms only). */
  readonly created: SearchRefutation | undefined;
  readonly liftedMs: number;
  readonly liftedPairs: number;
  readonly implications: { readonly tried: number; readonly proven: number };
}

/** Proves the claims of `early`: lifted, then ground (a lazy part's atoms free), then walks and 2h (not for lazy axioms). */
export function proveAndWalk(game: GroundGame, early: Early, options: MutexOptions): Proofs {
  const { view, claims, claimOf, hyps, cands } = early;
  const liftedStart = Date.now();
  const { lifted, aloLifted, sampledAmo, tried, cut } = proveAllLifted(game, early, options);
  const liftedMs = Date.now() - liftedStart;
  const aloClaims = new Set([...aloLifted].map((i) => claimOf.alo[i]!));
  const provenLifted = claims.map((c, k) => (c.kind === 'amo' ? keyProven(game, view, hyps, lifted, c.batch >> 1, c.members) : aloClaims.has(k)));
  // A game with lazy axioms (docs/lazy.md) has no ground rules for its lazy part: the ground SAT
  // leaves its atoms free (the view's `opaque`, encode.ts), so an unsatisfiable query still proves.
  const implied = impliedClaims(hyps, cands, claimOf, claims.length, sampledAmo, lifted.proven);
  const reachable = options.reachable === true;
  // Every reachable state given (docs/mutex.md 2f): the claims asked are exactly those no state
  // violates (an AMO no state had two members of, an ALO every state had a member of), so each holds.
  // With lazy axioms, the rule of the ground proof (prove.ts): a claim whose proof ran and failed
  // is observed only, one the budget cut is unproven for lack of budget; and a claim whose own
  // lifted step failed, checked to its end, is observed only even when the budget cut the ground
  // proof before it (the lifted cut, before the ground proof takes what is left, counts as spent).
  const liftedSpent = cut || options.deadline.passed();
  // With lazy axioms, the claims a creating move breaks are refuted first, by walks from the
  // initial state (refute-create.ts), on the claims the lifted proofs left: the ground SAT takes
  // every second the budget has left, and on alexChess proved none of them while the walks
  // refuted three of its five false groups (docs/mutex.md, the thirty-third session's lead section).
  const created = reachable || options.explorer === undefined || game.lazy === undefined ? undefined
    : refuteByCreating(game, view, claims, provenLifted.map((p) => (p ? 'proven' : 'unproven')), undefined, options.explorer, early.fluentOfTerm, options.deadline);
  const ground = reachable ? undefined : proveClaims(view, claims, { ...options, implied, later: laterClaims(early, provenLifted) }, provenLifted);
  const failed = (k: number): boolean => claims[k]!.kind === 'amo' && keyFailed(game, view, hyps, lifted, claims[k]!.batch >> 1, claims[k]!.members);
  const proof = ground === undefined ? everyStateProven(claims.length)
    : game.lazy === undefined ? ground : withLiftedFailures(ground, liftedSpent, failed);
  // The claims left unproven, again with exclusions between two relations (section 2h); every
  // reachable state already decided them all.
  // Before it, the claims left unproven are refuted where walks from the sampled states reach a
  // state with two members (refute-walks.ts): they leave the groups, and that proof.
  // With lazy axioms too, on the fast simulator (pipeline/mutex-explorer.ts): the states are reachable all the same.
  const walks = reachable || options.explorer === undefined ? undefined
    : refuteByWalks(view, claims, proof.verdicts, early.sampled, options.explorer, early.fluentOfTerm, options.deadline);
  // Then those the walks left, by a search from the initial state toward two members (refute-search.ts).
  // Those the creating walks refuted are not searched again.
  const done = walks === undefined || created === undefined ? walks?.refuted : Uint8Array.from(walks.refuted, (x, k) => x | created.refuted[k]!);
  const searched = walks === undefined ? undefined : refuteBySearch(view, claims, proof.verdicts, done, options.explorer!, early.fluentOfTerm, options.deadline);
  const searchedToo = walks === undefined ? undefined : withSearched(walks, searched!);
  // Lazy games only: an eager game's budget after the walks goes to the joint proof of 2h and
  // the projection proof below, which the creating walks would take time from.
  const walked = searchedToo === undefined || created === undefined ? searchedToo : withSearched(searchedToo, created);
  const strengthened = game.lazy === undefined && !reachable ? strengthenRest(view, early.sampled, claims, proof, options, walked) : undefined;
  const refutedWalks = walks?.refuted.reduce((n, x) => n + x, 0) ?? 0;
  return {
    liftedProven: lifted.proven, provenLifted, proof, strengthened, walked, searched, created, refutedWalks, liftedMs,
    // Then the claims still open after every other pass, by a state search on a projection
    // (projection.ts), from before the proofs' deadline into a quarter of the reserve after it.
    verdicts: game.lazy !== undefined || reachable ? strengthened?.verdicts ?? proof.verdicts
      : proveByProjection(view, claims, strengthened?.verdicts ?? proof.verdicts, options, (k) => walked?.refuted[k] === 1).verdicts,
    left: walked === undefined || !walked.refuted.includes(1) ? cands : withRefuted(cands, claimOf.amo, walked.refuted),
    liftedPairs: lifted.pairs,
    implications: { tried: tried.implications, proven: lifted.implied.length },
  };
}

/** The lifted proofs' result ({@link proveLifted}'s, or the joint one's). */
type Lifted = ReturnType<typeof proveLifted>;

/**
 * The lifted proofs: "at most one" of the hypotheses no state refuted (for every key) and of the
 * others' surviving groups (for their keys), with implications, exclusions and orders between
 * relations; whole relations left open again as exactly-one, jointly (section 2g); "at least one"
 * of those proven (lifted-alo.ts). None without the normalized game.
 */
function proveAllLifted(game: GroundGame, early: Early, options: MutexOptions): { lifted: Lifted; aloLifted: Set<number>; sampledAmo: boolean[]; tried: { implications: number }; cut: boolean } {
  const { view, hyps, cands, mined } = early;
  // Lifted first: a hypothesis none of whose groups was refuted by sampling may hold per key.
  const sampledAmo = hyps.map(() => true);
  for (let i = 0; i < cands.hypothesis.length; i++) if (cands.atMostOne[i] === 0) sampledAmo[cands.hypothesis[i]!] = false;
  // A hypothesis with a refuted group is still tried lifted for the keys of its surviving ones
  // (the others are tried for every key: their keys are not made, a million on pancakes88).
  const partial = partialKeys(game, view, hyps, cands, sampledAmo, options.deadline);
  const hidden = hiddenRelations(game);
  // Implications from the relations tried lifted (a hypothesis with a surviving group) to others (section 2d).
  const tried = new Set(hyps.flatMap((h, i) => (sampledAmo[i] || partial[i]!.length > 0 ? [h.relation] : [])));
  const mapped = options.lifted === undefined ? [] : impliedCandidates(view, options.lifted, tried, hidden, mined, () => options.deadline.passed());
  // Then implications to some fluent of a relation, no position mapped (section 2l), after all of those.
  const implications = options.lifted === undefined ? [] : [...mapped, ...someFluentCandidates(view, options.lifted, tried, hidden, mined, mapped, () => options.deadline.passed())];
  const normal = options.lifted;
  const exclusions = normal === undefined ? [] : exclusionCandidates(view, normal, hidden, mined);
  const orders = normal === undefined ? [] : orderCandidates(view, normal, mined, () => options.deadline.passed());
  // With lazy axioms the lifted proofs are all there is, and chess's ran out of budget on `check`
  // before `cell` was reached: the claims worth most in the sampled states go first.
  // Without lazy axioms, what each hypothesis is worth picks a partial claim to prove alone first
  // (lifted.ts' heaviestAlone); lazy-axiom games order the whole induction by it instead.
  const sampled = sampledWorth(hyps.map((h, i) => (sampledAmo[i] ? h.groups : partial[i]!.map((g) => g.members))), early.sampled);
  const worth = game.lazy === undefined ? undefined : sampled;
  // One record of the derived claims that failed for both lifted proofs below: the joint one repeats the first's induction.
  const limits = { deadline: options.deadline, maxPairs: options.maxLiftedPairs, fluents: fluentArgs(game), implications, exclusions, orders, derivedFailed: new Map(), worth, weights: game.lazy === undefined ? sampled.weights : undefined, perKey: game.lazy !== undefined };
  const first: Lifted = normal === undefined ? { proven: hyps.map(() => false), assumed: new Map(), implied: [], pairs: 0, cut: false, keys: [], failed: [] }
    : proveLifted(normal, view, hyps, sampledAmo, limits, partial);
  // Whole relations left open tried again as exactly-one, jointly with the rest (section 2g).
  const joint = normal === undefined ? undefined : proveJointly(exactCandidates(game, view, hyps, cands, sampledAmo, first.proven, hidden),
    (exactly) => proveLifted(normal, view, hyps, sampledAmo, { ...limits, exactly }, partial),
    (r, tasks) => proveLiftedAlo(normal, tasks, r.assumed, options.deadline, r.implied), hyps);
  const lifted = joint?.result ?? first;
  const aloLifted = normal === undefined ? new Set<number>() : liftedAlo(game, normal, view, hyps, cands, lifted, hidden, options.deadline);
  for (const c of joint?.exact ?? []) aloLifted.add(c.candidate);
  // A cut first induction counts even when the joint one (which starts over) was not cut.
  return { lifted, aloLifted, sampledAmo, tried: { implications: implications.length }, cut: first.cut || lifted.cut };
}

/**
 * Per claim, 1 for the "at most one" claims of a hypothesis whose relation has a hypothesis
 * with fewer input positions (a subset of its) proven lifted for every key: each group of the
 * finer one lies inside a group of the coarser, whose proven claim implies its claim in any
 * query (weakened to a cone, a subset of a subset). Those need not be assumed again.
 */
function impliedClaims(hyps: readonly Hypothesis[], cands: Candidates, claimOf: ClaimsOf, claims: number, everyKey: readonly boolean[], liftedProven: readonly boolean[]): Uint8Array {
  const coarse = new Map<string, Hypothesis[]>();
  hyps.forEach((h, i) => everyKey[i] && liftedProven[i] === true && coarse.set(h.relation, [...(coarse.get(h.relation) ?? []), h]));
  const finer = hyps.map((h) => (coarse.get(h.relation) ?? []).some((c) => c.input.length < h.input.length && c.input.every((p) => h.input.includes(p))));
  const out = new Uint8Array(claims);
  for (let i = 0; i < cands.hypothesis.length; i++) if (finer[cands.hypothesis[i]!] && claimOf.amo[i]! >= 0) out[claimOf.amo[i]!] = 1;
  return out;
}

/**
 * The candidates (indexes) whose "at least one" is proven lifted (lifted-alo.ts). Tried on the
 * hypotheses whose "at most one" is proven lifted (for every key, or for the keys of their
 * surviving groups) and whose relation's every fluent is in the view (has a `true` atom), so that
 * a fluent a rule makes true is a member of its group; on the groups that are exactly-one
 * candidates with a member in the initial state. A hypothesis all of whose groups are is one
 * task (it stops at its first failure); of any other, each such group is a task of its own (the
 * claim is per key: hallway's pawns, `(cell ?x ?y wp)`, beside the blanks).
 */
function liftedAlo(
  game: GroundGame, normal: NormalGame, view: MutexView, hyps: readonly Hypothesis[], cands: Candidates,
  lifted: Lifted,
  hidden: ReadonlySet<string>, deadline: Deadline,
): Set<number> {
  const init = new Set(view.init);
  const isAlo = (i: number): boolean => cands.atMostOne[i] === 1 && cands.atLeastOne[i] === 1 && candidateMembers(hyps, cands, i).some((f) => init.has(f));
  const everyAlo = hyps.map(() => true);
  const terms = (ms: readonly number[]): Term[] => ms.map((f) => game.terms.toTerm(view.fluents[f]!.term));
  const tasks: { readonly hypothesis: Hypothesis; readonly groups: Term[][]; readonly of: number[] }[] = [];
  // The exactly-one candidates of each hypothesis, in one pass (not one pass per hypothesis).
  const aloOf = hyps.map((): number[] => []);
  for (let i = 0; i < cands.hypothesis.length; i++) {
    if (isAlo(i)) aloOf[cands.hypothesis[i]!]!.push(i);
    else everyAlo[cands.hypothesis[i]!] = false;
  }
  hyps.forEach((h, i) => {
    if (lifted.proven[i] !== true || hidden.has(h.relation)) return;
    const own = aloOf[i]!;
    if (everyAlo[i]) tasks.push({ hypothesis: h, groups: h.groups.map(terms), of: own });
    else own.forEach((j) => keyProven(game, view, hyps, lifted, i, candidateMembers(hyps, cands, j)) && tasks.push({ hypothesis: h, groups: [terms(candidateMembers(hyps, cands, j))], of: [j] }));
  });
  const proven = proveLiftedAlo(normal, tasks, lifted.assumed, deadline, lifted.implied);
  return new Set(tasks.flatMap((t, k) => (proven[k] === true ? t.of : [])));
}

/**
 * Per claim, 1 when its hypothesis cannot become the chosen encoding of its relation even with
 * all its claims proven, given those proven lifted (choose.ts): the ground proof asks it last.
 * checkers-cylinder-mustjump's `cell` per square is proven "at most one" lifted; its other
 * hypotheses' claims (1.9 s, failing) and the "at least one" of `step` and `piece_count` (50
 * and 13 members: no bit saved) were asked before the squares' "at least one" (40 bits).
 */
function laterClaims(early: Early, provenLifted: readonly boolean[]): Uint8Array {
  const { view, hyps, cands, claimOf, claims } = early;
  const judged = judge(hyps, cands, claimOf, (k) => (k < 0 ? 'none' : provenLifted[k] === true ? 'proven' : 'unproven'), provenLifted);
  const chosen = couldBeChosen(view, hyps, cands, judged);
  const out = new Uint8Array(claims.length);
  for (let i = 0; i < cands.hypothesis.length; i++) {
    if (chosen[cands.hypothesis[i]!]) continue;
    if (claimOf.amo[i]! >= 0) out[claimOf.amo[i]!] = 1;
    if (claimOf.alo[i]! >= 0) out[claimOf.alo[i]!] = 1;
  }
  return out;
}

/** The proof's result when every reachable state was given: each of the `claims` proven by them, no SAT query asked. */
function everyStateProven(claims: number): ReturnType<typeof proveClaims> {
  const proven = Array.from({ length: claims }, () => true);
  return { proven, verdicts: proven.map((): ClaimVerdict => 'proven'), unrefutedPairs: new Map(), queries: 0, work: 0, complete: true, budgetSpent: false };
}

/**
 * A lazy game's ground proof with what the lifted proofs found (labels32): a claim the ground
 * proof left for lack of budget is observed only when its own lifted step `failed` (checked to
 * its end); the budget counts as spent when the lifted proofs were cut (`liftedSpent`) too.
 */
function withLiftedFailures(proof: ReturnType<typeof proveClaims>, liftedSpent: boolean, failed: (k: number) => boolean): ReturnType<typeof proveClaims> {
  const verdicts = proof.verdicts.map((v, k): ClaimVerdict => (v === 'unproven' && failed(k) ? 'not-inductive' : v));
  return { ...proof, verdicts, budgetSpent: proof.budgetSpent || liftedSpent };
}

/** The relations (`name/arity`) with a fluent that has no `true` atom (outside the view: sampled states do not show it). */
function hiddenRelations(game: GroundGame): Set<string> {
  return new Set(game.vocabulary.fluents.filter((f) => f.trueId < 0).map((f) => relKey(game.terms.name(f.term), game.terms.args(f.term).length)));
}

/** Candidates between two looks at the budget in {@link partialKeys}: a key of terms each. */
const KEYS_PER_LOOK = 4096;

/**
 * Per hypothesis with a group refuted by sampling, the keys of its surviving groups of two or
 * more (it is tried lifted for those only). Past the stage's budget the hypothesis being keyed
 * gets none, so that it is not tried (a subset of its keys proven would pass for all of them),
 * nor are those after it.
 */
function partialKeys(game: GroundGame, view: MutexView, hyps: readonly Hypothesis[], cands: Candidates, sampledAmo: readonly boolean[], budget: Deadline): KeyedGroup[][] {
  const partial = hyps.map((): KeyedGroup[] => []);
  for (let i = 0; i < cands.hypothesis.length; i++) {
    const h = cands.hypothesis[i]!;
    if (i % KEYS_PER_LOOK === 0 && budget.passed()) {
      partial[h] = [];
      break;
    }
    const members = candidateMembers(hyps, cands, i);
    if (sampledAmo[h] || cands.atMostOne[i] === 0 || members.length < 2) continue;
    partial[h]!.push({ key: keyTerms(game, view, hyps[h]!, members[0]!), members });
  }
  return partial;
}

/**
 * Whether the lifted proofs proved "at most one" of hypothesis h's group of `members`: h proven, for
 * every key or for this group's (a claim on some keys keeps those whose step did not fail).
 */
function keyProven(game: GroundGame, view: MutexView, hyps: readonly Hypothesis[], lifted: Lifted, h: number, members: readonly number[]): boolean {
  const keys = lifted.keys[h];
  return lifted.proven[h] === true && (keys === undefined || (members.length > 0 && keys.has(groupKey(game, view, hyps[h]!, members))));
}

/**
 * Whether the lifted proofs' induction over every claim found hypothesis h's step failing for the
 * group of `members`, checked to its end before the budget ran out (lifted.ts' `failed`): the whole
 * claim, or this group's key (one that left, or that the claim lost while it stayed).
 */
function keyFailed(game: GroundGame, view: MutexView, hyps: readonly Hypothesis[], lifted: Lifted, h: number, members: readonly number[]): boolean {
  const f = lifted.failed[h];
  if (f === undefined || f.every) return f?.every === true;
  if (members.length === 0 || (f.left.size === 0 && f.lost.size === 0)) return false;
  const key = groupKey(game, view, hyps[h]!, members);
  return f.left.has(key) || f.lost.has(key);
}

/** The key of the group of `members` (not empty) under `h`, as the lifted proofs' keys hold it (lifted-induction.ts' keyText). */
function groupKey(game: GroundGame, view: MutexView, h: Hypothesis, members: readonly number[]): string {
  return keyText(keyTerms(game, view, h, members[0]!));
}

/** The input arguments of fluent `f` under hypothesis `h`, as terms: the key of its group. */
function keyTerms(game: GroundGame, view: MutexView, h: Hypothesis, f: number): Term[] {
  const t = game.terms.toTerm(view.fluents[f]!.term);
  return t.kind === 'fn' ? h.input.map((i) => t.args[i]!) : [];
}

/**
 * Per hypothesis (its groups tried lifted: all, or the surviving ones of a partial claim), the
 * bits those of two or more would save (n members in ceil(log2(n + 1)) bits) counted in
 * proportion to the sampled states with a member true: a group rarely occupied (chess's `check`
 * on no input, a check being rare) weighs little, however large; and whether every sampled
 * state had a member of each of its groups (exactly one, as far as the sample tells: chess's
 * `cell` by square, `control`, `step`). Only an order and a first subset to prove
 * (lifted-induction.ts): the induction keeps only what it proved, whichever they are.
 */
export function sampledWorth(groupsOf: readonly (readonly (readonly number[])[])[], sampled: readonly (readonly number[])[]): Worth {
  const count = new Map<number, number>();
  for (const state of sampled) for (const f of state) count.set(f, (count.get(f) ?? 0) + 1);
  const states = Math.max(1, sampled.length);
  const trueIn = (g: readonly number[]): number => g.reduce((n, f) => n + (count.get(f) ?? 0), 0);
  return {
    weights: groupsOf.map((groups) => groups.reduce((sum, g) => (g.length < 2 ? sum : sum + (g.length - Math.ceil(Math.log2(g.length + 1))) * Math.min(1, trueIn(g) / states)), 0)),
    // A candidate group has at most one member per state: members true that often means one in every state.
    everyState: groupsOf.map((groups) => sampled.length > 0 && groups.length > 0 && groups.every((g) => trueIn(g) >= sampled.length)),
  };
}
