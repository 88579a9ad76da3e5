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
import { type Candidate, type Hypothesis, hypotheses, refute } from './candidates.js';
import { type EncodedGroup, type GroupProof, chooseEncoding } from './choose.js';
import type { Assumed } from './lifted-core.js';
import { type KeyedGroup, proveLifted } from './lifted.js';
import type { Term } from '../gdl/ast.js';
import { proveLiftedAlo } from './lifted-alo.js';
import { type Implication, impliedCandidates } from './implications.js';
import { type Claim, type ClaimVerdict, proveClaims } from './prove.js';
import { type MutexView, fluentArgs, mutexView } from './view.js';

/** One group of the chosen encoding, members as fluent texts exactly as `ground` prints them. */
export type MutexGroup = EncodedGroup<string>;

/** Groups (of two or more members, or exactly-one) and the fluents in them. */
interface ProofCount {
  readonly groups: number;
  readonly fluents: number;
}

/** Per {@link GroupProof}: how many groups and fluents. */
type ProofCounts = Readonly<Record<GroupProof, ProofCount>>;

/** Counts for `--stats`. */
interface MutexStats {
  /** The groups of the chosen encoding (those `--observed` prints) by how they stand. */
  readonly chosen: ProofCounts;
  /** Every candidate of two or more members that no sampled state refuted, by how it stands. */
  readonly surviving: ProofCounts;
  /** The stage's time budget ran out before the proof was done. */
  readonly budgetReached: boolean;
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
  /** False when the work budget stopped the proof before every candidate was tried. */
  readonly proofComplete: boolean;
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
 * term ids (in `game.terms`) of the fluents that hold; include the initial state.
 */
export function findMutexGroups(game: GroundGame, states: readonly (readonly number[])[], options: MutexOptions): MutexResult {
  const view = mutexView(game);
  const fluentOfTerm = new Map(view.fluents.map((f, i) => [f.term, i]));
  const sampled = states.map((s) => s.map((t) => fluentOfTerm.get(t) ?? -1).filter((f) => f >= 0));
  // Candidates are made and held against the states past the stage's budget too, so that a
  // spent budget still reports its groups as unproven; only the run's own limits (time, memory,
  // abort) stop them, since a run past those fails anyway: the hypotheses not yet made or held
  // are left out then (pancakes88: a relation of arity 8, 40,320 fluents, 247 hypotheses).
  const run = options.deadline.withoutBudget();
  const stop = (): boolean => run.passed();
  const held = refute(view, hypotheses(view, stop), sampled, stop);
  const hyps = held.hypotheses;
  const candidates = held.candidates;
  // Claims worth proving: AMO of surviving groups of two or more, ALO of always-hit groups.
  const claims: Claim[] = [];
  const claimOf = candidates.map((c) => {
    // One batch per hypothesis and kind: "at most one" claims are cheap and matter most; the
    // "at least one" claims need every move's legal rules and come after them.
    const amo = c.atMostOne && c.members.length > 1 ? claims.push({ kind: 'amo', batch: 2 * c.hypothesis, members: c.members }) - 1 : -1;
    const alo = c.atMostOne && c.atLeastOne ? claims.push({ kind: 'alo', batch: 2 * c.hypothesis + 1, members: c.members }) - 1 : -1;
    return { amo, alo };
  });
  // Lifted first: a hypothesis none of whose groups was refuted by sampling may hold per key.
  const liftedStart = Date.now();
  const sampledAmo = hyps.map(() => true);
  candidates.forEach((c) => c.atMostOne || (sampledAmo[c.hypothesis] = false));
  // A hypothesis with a refuted group is still tried lifted for the keys of its surviving ones.
  const partial = hyps.map((): KeyedGroup[] => []);
  for (const c of candidates) {
    if (c.atMostOne && c.members.length > 1) partial[c.hypothesis]!.push({ key: keyTerms(game, view, hyps[c.hypothesis]!, c.members[0]!), members: c.members });
  }
  const hidden = hiddenRelations(game);
  // Implications from the relations tried lifted (a hypothesis with a surviving group) to others (section 2d).
  const tried = new Set(hyps.flatMap((h, i) => (sampledAmo[i] || partial[i]!.length > 0 ? [h.relation] : [])));
  const implications = options.lifted === undefined ? [] : impliedCandidates(view, options.lifted, tried, hidden, sampled);
  const lifted = options.lifted === undefined ? { proven: hyps.map(() => false), assumed: new Map(), implied: [], pairs: 0 }
    : proveLifted(options.lifted, view, hyps, sampledAmo, { deadline: options.deadline, maxPairs: options.maxLiftedPairs, fluents: fluentArgs(game), implications }, partial);
  const aloLifted = options.lifted === undefined ? new Set<number>() : liftedAlo(game, options.lifted, view, hyps, candidates, lifted, hidden, options.deadline);
  const liftedMs = Date.now() - liftedStart;
  const aloClaims = new Set(claimOf.flatMap(({ alo }, i) => (aloLifted.has(i) ? [alo] : [])));
  const provenLifted = claims.map((c, k) => (c.kind === 'amo' ? lifted.proven[c.batch >> 1] === true : aloClaims.has(k)));
  // A game with lazy axioms (docs/lazy.md) has no ground rules for its lazy part, whose Clark
  // completion would then say "false": the ground SAT is not asked, only the lifted proofs count.
  const proof = game.lazy === undefined ? proveClaims(view, claims, options, provenLifted) : liftedOnly(provenLifted);
  const verdict = (k: number): ClaimVerdict | 'none' => (k < 0 ? 'none' : proof.verdicts[k]!);
  const judged = candidates.map((c: Candidate, i) => {
    const { amo, alo } = claimOf[i]!;
    const amoProven = c.members.length === 1 || verdict(amo) === 'proven';
    const aloProven = verdict(alo) === 'proven';
    // A proven group claims exactly-one only when that is proven too; an observed one as observed.
    const proven = c.atMostOne && amoProven;
    const exactlyOne = proven ? aloProven : c.atLeastOne;
    const viaSat = (k: number): boolean => k >= 0 && !provenLifted[k];
    const rests = c.members.length > 1 ? [amo, ...(exactlyOne ? [alo] : [])] : [alo];
    const how: GroupProof = proven ? (rests.some(viaSat) ? 'ground' : 'lifted') : verdict(amo) === 'unproven' ? 'unproven' : 'observed';
    return { ...c, proven, exactlyOne, proof: how };
  });
  const chosen = chooseEncoding(view, hyps, judged);
  const texts = (ms: readonly number[]): string[] => ms.map((f) => view.fluents[f]!.text);
  const failures = claims.flatMap((c, i) => {
    const u = proof.unrefutedPairs.get(i);
    return u === undefined ? [] : [{ members: texts(c.members), unrefutedPairs: u.pairs, capped: u.capped }];
  });
  return {
    fluents: view.fluents.length,
    bits: chosen.bits,
    groups: chosen.groups.map((g) => ({ ...g, members: texts(g.members) })),
    stats: {
      hypotheses: hyps.length,
      candidates: candidates.length,
      refutedBySimulation: candidates.filter((c) => !c.atMostOne).length,
      proven: judged.filter((c) => c.proven && c.members.length > 1).length,
      provenLifted: judged.filter((c) => c.proven && c.members.length > 1 && lifted.proven[c.hypothesis] === true).length,
      liftedMs,
      liftedPairs: lifted.pairs,
      implications: { tried: implications.length, proven: lifted.implied.length },
      groundProof: game.lazy === undefined,
      notInductive: judged.filter((c) => c.atMostOne && c.proof === 'observed').length,
      unprovenForBudget: judged.filter((c) => c.atMostOne && c.proof === 'unproven').length,
      chosen: countByProof(chosen.groups),
      surviving: countByProof(judged.filter((c) => c.atMostOne && c.members.length > 1)),
      budgetReached: options.deadline.passed(),
      failures,
      satQueries: proof.queries,
      sampledStates: states.length,
      proofWork: proof.work,
      proofComplete: proof.complete,
    },
  };
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
  game: GroundGame, normal: NormalGame, view: MutexView, hyps: readonly Hypothesis[], candidates: readonly Candidate[],
  { proven: amo, assumed, implied }: { readonly proven: readonly boolean[]; readonly assumed: Assumed; readonly implied: readonly Implication[] },
  hidden: ReadonlySet<string>, deadline: Deadline,
): Set<number> {
  const init = new Set(view.init);
  const isAlo = (c: Candidate): boolean => c.atMostOne && c.atLeastOne && c.members.some((f) => init.has(f));
  const everyAlo = hyps.map(() => true);
  candidates.forEach((c) => isAlo(c) || (everyAlo[c.hypothesis] = false));
  const terms = (ms: readonly number[]): Term[] => ms.map((f) => game.terms.toTerm(view.fluents[f]!.term));
  const tasks: { readonly hypothesis: Hypothesis; readonly groups: Term[][]; readonly of: number[] }[] = [];
  // The exactly-one candidates of each hypothesis, in one pass (not one pass per hypothesis).
  const aloOf = hyps.map((): number[] => []);
  candidates.forEach((c, j) => isAlo(c) && aloOf[c.hypothesis]!.push(j));
  hyps.forEach((h, i) => {
    if (amo[i] !== true || hidden.has(h.relation)) return;
    const own = aloOf[i]!;
    if (everyAlo[i]) tasks.push({ hypothesis: h, groups: h.groups.map(terms), of: own });
    else own.forEach((j) => tasks.push({ hypothesis: h, groups: [terms(candidates[j]!.members)], of: [j] }));
  });
  const proven = proveLiftedAlo(normal, tasks, assumed, deadline, implied);
  return new Set(tasks.flatMap((t, k) => (proven[k] === true ? t.of : [])));
}

/** The proof's result when only the lifted proofs are taken: the rest never asked (unproven). */
function liftedOnly(provenLifted: readonly boolean[]): ReturnType<typeof proveClaims> {
  return { proven: provenLifted, verdicts: provenLifted.map((p) => (p ? 'proven' : 'unproven')), unrefutedPairs: new Map(), queries: 0, work: 0, complete: false };
}

/** The relations (`name/arity`) with a fluent that has no `true` atom (outside the view: sampled states do not show it). */
function hiddenRelations(game: GroundGame): Set<string> {
  return new Set(game.vocabulary.fluents.filter((f) => f.trueId < 0).map((f) => `${game.terms.name(f.term)}/${game.terms.args(f.term).length}`));
}

/** The input arguments of fluent `f` under hypothesis `h`, as terms: the key of its group. */
function keyTerms(game: GroundGame, view: MutexView, h: Hypothesis, f: number): Term[] {
  const t = game.terms.toTerm(view.fluents[f]!.term);
  return t.kind === 'fn' ? h.input.map((i) => t.args[i]!) : [];
}

/** Groups and their fluents per {@link GroupProof}. */
function countByProof(groups: readonly { readonly members: readonly unknown[]; readonly proof: GroupProof }[]): ProofCounts {
  const out = { lifted: { groups: 0, fluents: 0 }, ground: { groups: 0, fluents: 0 }, observed: { groups: 0, fluents: 0 }, unproven: { groups: 0, fluents: 0 } };
  for (const g of groups) {
    out[g.proof].groups++;
    out[g.proof].fluents += g.members.length;
  }
  return out;
}
