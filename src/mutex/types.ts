/**
 * The mutex stage's result, its stats and its options (index.ts runs the stage; the find-*.ts
 * modules are its steps, which read the options and fill the result).
 */
import type { Deadline } from '../deadline.js';
import type { NormalGame } from '../normalize/types.js';
import type { EncodedGroup } from './choose.js';
import type { Explorer } from './refute-walks.js';
import type { EarlyStats } from './refute-moves.js';
import type { ProofCounts } from './tally.js';

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
  /** Lemmas through a mapping relation (ground-lemmas.ts), when the game has a mapping rule and the sampled states held one. */
  readonly lemmas?: { readonly mappingRules: number; readonly generated: number; readonly kept: number; readonly proven: number; readonly queries: number; readonly work: number; readonly complete: boolean };
  /** Atoms of a lazy part (docs/lazy.md) the ground SAT left free, uncompleted: 0 without lazy axioms. */
  readonly opaqueAtoms: number;
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
  /**
   * The searches from the initial state toward two members of a claim the walks left (refute-search.ts),
   * when any ran: claims refuted, searches, evaluations, and per refuted claim its witness (the
   * members true, the joint moves from the initial state as `legal` atoms, each role's in role order).
   */
  readonly search?: {
    readonly refuted: number; readonly searches: number; readonly evaluations: number;
    readonly witnesses: readonly { readonly members: readonly string[]; readonly moves: readonly (readonly string[])[] }[];
  };
  /**
   * The walks from the initial state toward a creating move's second member (refute-create.ts),
   * lazy axioms only, when any ran: as {@link MutexStats.search} (`searches` counts the walks).
   */
  readonly creating?: MutexStats['search'];
  /** Candidate groups no sampled state refuted that a reachable state of the walks or the searches refuted, when the walks ran. */
  readonly refutedByState?: number;
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
export interface MutexOptions {
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
