/**
 * Mutex groups of fluents (section 9.1.4): groups of which at most one member holds in any
 * reachable state, so that a state fits in far fewer variables (a group of n members needs
 * ceil(log2(n+1)) bits, or ceil(log2 n) when exactly one member always holds). Candidates come
 * from input/output hypotheses refuted on sampled states (candidates.ts), survivors are proven
 * inductively on the ground rules (prove.ts), and the encoding with the fewest bits is chosen
 * per relation (choose.ts). The caller supplies the sampled states (random playouts of the
 * ground game), so this stage needs no simulator.
 */
import type { Deadline } from '../deadline.js';
import type { GroundGame } from '../ground/types.js';
import type { NormalGame } from '../normalize/types.js';
import { type Candidates, type Hypothesis, candidateMembers, hypotheses, refute } from './candidates.js';
import { type ClaimsOf, type EncodedGroup, chooseEncoding, judge } from './choose.js';
import type { Assumed } from './lifted-core.js';
import { type KeyedGroup, proveLifted } from './lifted.js';
import type { Term } from '../gdl/ast.js';
import { proveLiftedAlo } from './lifted-alo.js';
import { exactCandidates, proveJointly } from './lifted-joint.js';
import { exclusionCandidates } from './lifted-exclusion.js';
import { orderCandidates } from './lifted-order.js';
import { type Implication, impliedCandidates } from './implications.js';
import { someFluentCandidates } from './implications-some.js';
import { type Claim, type ClaimVerdict, proveClaims } from './prove.js';
import { type Explorer, refuteByWalks, strengthenRest, withRefuted } from './refute-walks.js';
import { type EarlyStats, refuteEarly } from './refute-moves.js';
import { type ProofCounts, countByProof, tallyJudged } from './tally.js';
import { type PackedStates, mapPacked, unpackFirst } from '../play/packed.js';
import { type MutexView, fluentArgs, mutexView } from './view.js';
import { proveByProjection } from './projection.js';

/** One group of the chosen encoding, members as fluent texts exactly as `ground` prints them. */
export type MutexGroup = EncodedGroup<string>;

/**
 * The pipeline's breadth-first search over the reachable states (docs/mutex.md, 2f): the states
 * it found, how it ended (`complete`: they are every reachable state), the successors it made.
 */
export interface MutexEnumeration {
  readonly states: number;
  readonly end: 'complete' | 'states' | 'budget' | 'forecast';
  readonly successors: number;
}

/** Counts for `--stats`. */
interface MutexStats {
  /** The groups of the chosen encoding (those `--observed` prints) by how they stand. */
  readonly chosen: ProofCounts;
  /** Every candidate of two or more members that no sampled state refuted, by how it stands. */
  readonly surviving: ProofCounts;
  /** The stage's time budget ran out before the proof was done. */
  readonly budgetReached: boolean;
  /**
   * The stage's time budget ran out while the hypotheses were made or held against the sampled
   * states: those not yet made or held are left out (their relations' fluents singletons).
   */
  readonly candidatesCut: boolean;
  readonly hypotheses: number;
  readonly candidates: number;
  readonly refutedBySimulation: number;
  readonly proven: number;
  /** Of the proven groups, those whose "at most one" was proven on the rules with variables. */
  readonly provenLifted: number;
  /** Milliseconds spent on the lifted proof, and the rule pairs it checked. */
  readonly liftedMs: number;
  readonly liftedPairs: number;
  /** Implications between two relations held by the sampled states, and those proven lifted (section 2d). */
  readonly implications: { readonly tried: number; readonly proven: number };
  /** Exclusions between two relations held by the sampled states, and those proven with the groups (section 2h). */
  readonly exclusions: { readonly tried: number; readonly proven: number; readonly complete: boolean };
  /** False for a game with lazy axioms: only the lifted proofs were taken (no ground SAT). */
  readonly groundProof: boolean;
  /** Candidates the SAT proof showed not inductive (observed only). */
  readonly notInductive: number;
  /** Candidates left unproven because the work, conflict or time budget ran out first. */
  readonly unprovenForBudget: number;
  /** Failed AMO candidates of two or more members, with their unrefuted pair counts. */
  readonly failures: readonly { readonly members: readonly string[]; readonly unrefutedPairs: number; readonly capped: boolean }[];
  readonly satQueries: number;
  readonly sampledStates: number;
  /**
   * The stage's time budget and the seconds its two steps took (sampling, then the proofs and the
   * choice), as the budget counts them: set by the pipeline, which samples the states.
   */
  readonly time?: MutexTime;
  /** Work spent (clause literals built plus clause visits of unit propagation). */
  readonly proofWork: number;
  /** The search over the reachable states, when the pipeline tried it (set by the pipeline, like `time`). */
  readonly enumeration?: MutexEnumeration;
  /** False when the work budget stopped the proof before every candidate was tried. */
  readonly proofComplete: boolean;
  /** The walks that refute unproven claims (refute-walks.ts), when they ran: claims refuted, walks, evaluations. */
  readonly walks?: { readonly refuted: number; readonly walks: number; readonly evaluations: number };
  /** Moves making two members true, played before the proofs (refute-moves.ts), when any state was seeded. */
  readonly moves?: EarlyStats;
}

/**
 * The mutex stage's budget and what it used, in processor seconds where the host reports them
 * (else wall-clock seconds), as the budget counts (see {@link MutexStats.time}).
 */
export interface MutexTime {
  /** The run before the stage (loading and grounding): T of the default budget T + 10 s. */
  readonly beforeSeconds: number;
  readonly budgetSeconds: number;
  readonly sampleSeconds: number;
  /** The proofs and the choice of the encoding. */
  readonly proofSeconds: number;
}

/** The mutex groups of a game and the state encoding they give. */
export interface MutexResult {
  readonly fluents: number;
  /** Bits per state of the chosen encoding (singletons count one bit each). */
  readonly bits: number;
  /** The groups of the chosen encoding with two or more members (or exactly-one), sorted. */
  readonly groups: readonly MutexGroup[];
  readonly stats: MutexStats;
}

/** Options, resolved by the caller. */
interface MutexOptions {
  /**
   * The stage's time budget (a sub-deadline of the run's, `Deadline.within`): once passed, the
   * proofs stop and what they have not decided is reported unproven, never failed. The caller
   * decides whether the run's own deadline passed too.
   */
  readonly deadline: Deadline;
  /** Conflicts per SAT query before it counts as failed. */
  readonly maxConflicts: number;
  /** Pair queries spent explaining each failed candidate in the stats. */
  readonly maxPairQueries: number;
  /** Work budget of the proof (clause literals built plus clause visits), see prove.ts. */
  readonly maxWork: number;
  /** Rule pairs the lifted proof may check before it gives up (lifted.ts). */
  readonly maxLiftedPairs: number;
  /** The normalized game the ground game came from: when given, lifted proofs come first. */
  readonly lifted?: NormalGame;
  /**
   * The end of the stage's whole budget, past `deadline` (which the proofs keep a reserve
   * before): the choice of the encoding reads it once per 65,536 candidates weighed and, once
   * passed, weighs no more hypotheses (docs/mutex.md, 2c). None: every hypothesis is weighed.
   */
  readonly end?: Deadline;
  /**
   * The states given are every reachable state (a complete search, docs/mutex.md 2f): every
   * candidate they leave is proven, its proof `states` unless proven lifted, and no ground SAT
   * is asked. Default: they are a sample, proving nothing.
   */
  readonly reachable?: boolean;
  /**
   * Plays the ground game for the walks that refute the claims the proofs leave unproven
   * (refute-walks.ts, docs/mutex.md): absent, no walks (the output as before them).
   */
  readonly explorer?: Explorer;
}

/**
 * Defaults: 20,000 conflicts a query (a fraction of a second on the games measured), 64 pair
 * queries per failed candidate, and a work budget of 100 million clause literals and visits.
 * Measured at 4 to 6 million a second on this project's 2-core machine (sheepAndWolf 14M in
 * 3.5 s, kalaha5x2x3 554M in 100 s), so the proof of the largest games stops after about 20 s
 * with what it has proven; typical games need under a million. The lifted proof checks at most
 * two million pairs of rule schemas (each a few microseconds).
 */
export const DEFAULT_MUTEX_OPTIONS: Omit<MutexOptions, 'deadline'> = { maxConflicts: 20_000, maxPairQueries: 64, maxWork: 100_000_000, maxLiftedPairs: 2_000_000 };

/**
 * Finds, proves and chooses mutex groups. `states` are sampled reachable states, each as the
 * term ids (in `game.terms`) of the fluents that hold, or packed (src/play/packed.ts: a complete search's
 * states); include the initial state.
 */
export function findMutexGroups(game: GroundGame, states: readonly (readonly number[])[] | PackedStates, options: MutexOptions): MutexResult {
  const view = mutexView(game);
  // Packed (a complete search's states, src/play/packed.ts): refuted on packed, and only the first
  // MINED_STATES unpacked, which are all minedStates keeps of a complete search.
  const packed = Array.isArray(states) ? undefined : mapPacked(states as PackedStates, fluentIndexOfTerm(view));
  const fluentOfTerm = new Map(view.fluents.map((f, i) => [f.term, i]));
  const given = packed !== undefined ? unpackFirst(packed, MINED_STATES)
    : (states as readonly (readonly number[])[]).map((s) => s.map((t) => fluentOfTerm.get(t) ?? -1).filter((f) => f >= 0));
  // Candidates are made and held against the states within the stage's budget, like the proofs:
  // past it, the hypotheses not yet made or held are left out, their relations' fluents left
  // singletons (more bits, never a failure; pancakes88: a relation of arity 8, 40,320 fluents,
  // 247 hypotheses, about 1.5 processor seconds here). Then moves (refute-moves.ts) refute more.
  let candidatesCut = false;
  // Both leave out what they have not done once it says to stop: then the candidates are cut.
  const stop = (): boolean => (candidatesCut ||= options.deadline.passed());
  const { held, sampled, stats: moves } = refuteEarly(game, view, refute(view, hypotheses(view, stop), packed ?? given, stop), given, { ...options, packed: packed !== undefined }, fluentOfTerm, stop);
  const { hypotheses: hyps, candidates: cands } = held;
  const count = cands.hypothesis.length;
  const membersOf = (i: number): readonly number[] => candidateMembers(hyps, cands, i);
  // Claims worth proving: AMO of surviving groups of two or more, ALO of always-hit groups.
  const claims: Claim[] = [];
  const claimOf: ClaimsOf = { amo: new Int32Array(count).fill(-1), alo: new Int32Array(count).fill(-1) };
  for (let i = 0; i < count; i++) {
    // One batch per hypothesis and kind: "at most one" claims are cheap and matter most; the
    // "at least one" claims need every move's legal rules and come after them.
    if (cands.atMostOne[i] === 0) continue;
    const members = membersOf(i);
    const h = cands.hypothesis[i]!;
    if (members.length > 1) claimOf.amo[i] = claims.push({ kind: 'amo', batch: 2 * h, members }) - 1;
    if (cands.atLeastOne[i] === 1) claimOf.alo[i] = claims.push({ kind: 'alo', batch: 2 * h + 1, members }) - 1;
  }
  // Lifted first: a hypothesis none of whose groups was refuted by sampling may hold per key.
  const liftedStart = Date.now();
  const sampledAmo = hyps.map(() => true);
  for (let i = 0; i < count; i++) if (cands.atMostOne[i] === 0) sampledAmo[cands.hypothesis[i]!] = false;
  // A hypothesis with a refuted group is still tried lifted for the keys of its surviving ones
  // (the others are tried for every key: their keys are not made, a million on pancakes88).
  const partial = partialKeys(game, view, hyps, cands, sampledAmo, options.deadline);
  const hidden = hiddenRelations(game);
  // Implications from the relations tried lifted (a hypothesis with a surviving group) to others (section 2d).
  const tried = new Set(hyps.flatMap((h, i) => (sampledAmo[i] || partial[i]!.length > 0 ? [h.relation] : [])));
  const mined = minedStates(sampled, options.reachable === true);
  const mapped = options.lifted === undefined ? [] : impliedCandidates(view, options.lifted, tried, hidden, mined, () => options.deadline.passed());
  // Then implications to some fluent of a relation, no position mapped (section 2l), after all of those.
  const implications = options.lifted === undefined ? [] : [...mapped, ...someFluentCandidates(view, options.lifted, tried, hidden, mined, mapped, () => options.deadline.passed())];
  const normal = options.lifted;
  const exclusions = normal === undefined ? [] : exclusionCandidates(view, normal, hidden, mined);
  const orders = normal === undefined ? [] : orderCandidates(view, normal, mined, () => options.deadline.passed());
  const limits = { deadline: options.deadline, maxPairs: options.maxLiftedPairs, fluents: fluentArgs(game), implications, exclusions, orders };
  const first = normal === undefined ? { proven: hyps.map(() => false), assumed: new Map(), implied: [], pairs: 0 }
    : proveLifted(normal, view, hyps, sampledAmo, limits, partial);
  // Whole relations left open tried again as exactly-one, jointly with the rest (section 2g).
  const joint = normal === undefined ? undefined : proveJointly(exactCandidates(game, view, hyps, cands, sampledAmo, first.proven, hidden),
    (exactly) => proveLifted(normal, view, hyps, sampledAmo, { ...limits, exactly }, partial),
    (r, tasks) => proveLiftedAlo(normal, tasks, r.assumed, options.deadline, r.implied), hyps);
  const lifted = joint?.result ?? first;
  const aloLifted = normal === undefined ? new Set<number>() : liftedAlo(game, normal, view, hyps, cands, lifted, hidden, options.deadline);
  for (const c of joint?.exact ?? []) aloLifted.add(c.candidate);
  const liftedMs = Date.now() - liftedStart;
  const aloClaims = new Set([...aloLifted].map((i) => claimOf.alo[i]!));
  const provenLifted = claims.map((c, k) => (c.kind === 'amo' ? lifted.proven[c.batch >> 1] === true : aloClaims.has(k)));
  // A game with lazy axioms (docs/lazy.md) has no ground rules for its lazy part, whose Clark
  // completion would then say "false": the ground SAT is not asked, only the lifted proofs count.
  const implied = impliedClaims(hyps, cands, claimOf, claims.length, sampledAmo, lifted.proven);
  const reachable = options.reachable === true;
  // Every reachable state given (docs/mutex.md 2f): the claims asked are exactly those no state
  // violates (an AMO no state had two members of, an ALO every state had a member of), so each holds.
  const proof = reachable ? withoutQueries(claims.map(() => true), true, false)
    : game.lazy === undefined ? proveClaims(view, claims, { ...options, implied }, provenLifted) : withoutQueries(provenLifted, false, options.deadline.passed());
  // The claims left unproven, again with exclusions between two relations (section 2h); every
  // reachable state already decided them all.
  // Before it, the claims left unproven are refuted where walks from the sampled states reach a
  // state with two members (refute-walks.ts): they leave the groups, and that proof.
  const walked = game.lazy !== undefined || reachable || options.explorer === undefined ? undefined
    : refuteByWalks(view, claims, proof.verdicts, sampled, options.explorer, fluentOfTerm, options.deadline);
  const strengthened = game.lazy === undefined && !reachable ? strengthenRest(view, sampled, claims, proof, options, walked) : undefined;
  const verdicts = game.lazy !== undefined || reachable ? strengthened?.verdicts ?? proof.verdicts // then those still open by a state search on a projection (projection.ts)
    : proveByProjection(view, claims, strengthened?.verdicts ?? proof.verdicts, options, (k) => walked?.refuted[k] === 1).verdicts;
  const verdict = (k: number): ClaimVerdict | 'none' => (k < 0 ? 'none' : verdicts[k]!);
  const refutedWalks = walked?.refuted.reduce((n, x) => n + x, 0) ?? 0;
  const left = refutedWalks === 0 ? cands : withRefuted(cands, claimOf.amo, walked!.refuted);
  const judged = judge(hyps, left, claimOf, verdict, provenLifted, reachable ? 'states' : 'ground');
  // The hypotheses proven lifted are weighed first: past the stage's budget the rest are not.
  const order = [...hyps.keys()].sort((x, y) => Number(lifted.proven[y] === true) - Number(lifted.proven[x] === true) || x - y);
  const chosen = chooseEncoding(view, hyps, left, judged, { order, end: options.end });
  const texts = (ms: readonly number[]): string[] => ms.map((f) => view.fluents[f]!.text);
  // In claim order, as they were found.
  const failures = [...proof.unrefutedPairs].filter(([i]) => walked?.refuted[i] !== 1).map(([i, u]) => ({ members: texts(claims[i]!.members), unrefutedPairs: u.pairs, capped: u.capped }));
  const tally = tallyJudged(hyps, left, judged, lifted.proven, reachable);
  return {
    fluents: view.fluents.length,
    bits: chosen.bits,
    groups: chosen.groups.map((g) => ({ ...g, members: texts(g.members) })),
    stats: {
      hypotheses: hyps.length,
      candidates: count,
      ...tally,
      liftedMs,
      liftedPairs: lifted.pairs,
      implications: { tried: implications.length, proven: lifted.implied.length },
      exclusions: { tried: strengthened?.tried ?? 0, proven: strengthened?.proven ?? 0, complete: strengthened?.complete ?? true },
      groundProof: game.lazy === undefined,
      chosen: countByProof(chosen.groups, reachable),
      // The explanation of failed claims (for --stats, within a small budget of its own) does not count.
      budgetReached: proof.budgetSpent || strengthened?.budgetSpent === true || walked?.cut === true || !chosen.complete || candidatesCut,
      candidatesCut,
      failures,
      satQueries: proof.queries + (strengthened?.queries ?? 0),
      sampledStates: packed?.count ?? given.length,
      proofWork: proof.work + (strengthened?.work ?? 0),
      proofComplete: proof.complete,
      moves,
      ...(walked === undefined || walked.walks === 0 ? {} : { walks: { refuted: refutedWalks, walks: walked.walks, evaluations: walked.evaluations } }),
    },
  };
}

/**
 * States a complete search found that the lifted proofs' implication and exclusion candidates
 * are held against: those proofs only label groups the states already prove (2f), and holding
 * candidates against all of a large reachable set outlasted the budget (snake_2008: 512,693
 * states, 9 processor seconds in those two steps). Fewer states refute fewer candidates, which
 * the lifted proofs then decide: sound either way. Sampled states are taken whole.
 */
const MINED_STATES = 20_000;

/** Per term id, the index of its fluent in `view` (-1: none). */
function fluentIndexOfTerm(view: MutexView): Int32Array {
  const out = new Int32Array(view.fluents.reduce((m, f) => Math.max(m, f.term + 1), 0)).fill(-1);
  view.fluents.forEach((f, i) => (out[f.term] = i));
  return out;
}

/** The states the lifted proofs' candidates are held against ({@link MINED_STATES}). */
function minedStates(sampled: readonly (readonly number[])[], reachable: boolean): readonly (readonly number[])[] {
  return reachable && sampled.length > MINED_STATES ? sampled.slice(0, MINED_STATES) : sampled;
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
  { proven: amo, assumed, implied }: { readonly proven: readonly boolean[]; readonly assumed: Assumed; readonly implied: readonly Implication[] },
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
    if (amo[i] !== true || hidden.has(h.relation)) return;
    const own = aloOf[i]!;
    if (everyAlo[i]) tasks.push({ hypothesis: h, groups: h.groups.map(terms), of: own });
    else own.forEach((j) => tasks.push({ hypothesis: h, groups: [terms(candidateMembers(hyps, cands, j))], of: [j] }));
  });
  const proven = proveLiftedAlo(normal, tasks, assumed, deadline, implied);
  return new Set(tasks.flatMap((t, k) => (proven[k] === true ? t.of : [])));
}

/**
 * The proof's result when no SAT query is asked: `proven` by the lifted proofs alone (the rest
 * never asked: unproven), or all of them by every reachable state.
 */
function withoutQueries(proven: readonly boolean[], complete: boolean, budgetSpent: boolean): ReturnType<typeof proveClaims> {
  return { proven, verdicts: proven.map((p) => (p ? 'proven' : 'unproven')), unrefutedPairs: new Map(), queries: 0, work: 0, complete, budgetSpent };
}

/** The relations (`name/arity`) with a fluent that has no `true` atom (outside the view: sampled states do not show it). */
function hiddenRelations(game: GroundGame): Set<string> {
  return new Set(game.vocabulary.fluents.filter((f) => f.trueId < 0).map((f) => `${game.terms.name(f.term)}/${game.terms.args(f.term).length}`));
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

/** The input arguments of fluent `f` under hypothesis `h`, as terms: the key of its group. */
function keyTerms(game: GroundGame, view: MutexView, h: Hypothesis, f: number): Term[] {
  const t = game.terms.toTerm(view.fluents[f]!.term);
  return t.kind === 'fn' ? h.input.map((i) => t.args[i]!) : [];
}
