/**
 * The joint proof with the lemmas through a mapping relation (ground-lemmas.ts) as its candidates,
 * pulled in on demand only (docs/mutex.md, "Lemmas through a mapping relation", snake19): a
 * claim's violating transition pulls in the lemmas its current state breaks, which are then
 * proven with it. Within a share of the joint proofs' budget and a count of queries; a game with
 * no mapping rule skips it after one look at the rules.
 */
import type { Deadline } from '../deadline.js';
import { proveGroundJointly } from './ground-joint.js';
import { mappedLemmas } from './ground-lemmas.js';
import type { Claim } from './prove.js';
import type { MutexView } from './view.js';

/**
 * Share of the joint proofs' processor seconds the lemma pass may take; the 2h passes have the
 * rest, and all of it when the pass ends sooner. All of it since snake20: at 0.5, snake_2009_big's
 * pass paid for 1,100 to 1,600 of the 3,166 queries to its fixpoint (quiet); at 1.0 it reached it
 * in two of four quiet runs (260 bits instead of 519). The eight other games with a mapping rule
 * measured the same at both (docs/mutex.md, snake20).
 */
const LEMMA_SHARE = 1;
/** Queries of the lemma pass (snake_2009_big: about 5,000 to its fixpoint, docs/mutex.md snake19); the time share cuts it first at the default budget. */
const MAX_QUERIES = 8_000;
/** Clauses generated before the states are read, and lemmas kept after. */
const MAX_GENERATED = 200_000;
const MAX_KEPT = 50_000;

/** What the lemma pass did. */
export interface LemmaRun {
  /** Per claim (then per lemma), proven. */
  readonly proven: readonly boolean[];
  readonly queries: number;
  readonly work: number;
  readonly counts: {
    readonly mappingRules: number;
    readonly generated: number;
    readonly kept: number;
    readonly proven: number;
    readonly queries: number;
    /** The solver's work (literals added, clause visits) over the pass's queries. */
    readonly work: number;
    readonly complete: boolean;
  };
}

/**
 * The claims of `batches` proven again with the mapped lemmas held by `states` (the initial state
 * first) as candidates, the claims `proven` assumed; `share`: the processor seconds left to the
 * joint proofs. Undefined when the game has no mapping rule or no lemma is held.
 */
export function lemmaPass(
  view: MutexView, states: readonly (readonly number[])[], claims: readonly Claim[], batches: readonly (readonly number[])[], proven: readonly boolean[],
  limits: { readonly deadline: Deadline; readonly share: number; readonly maxConflicts: number },
): LemmaRun | undefined {
  if (batches.length === 0) return undefined;
  const deadline = limits.deadline.within(limits.share * LEMMA_SHARE);
  const groups = claims.filter((c) => c.kind === 'amo').map((c) => c.members);
  const { lemmas, counts } = mappedLemmas(view, states, groups, { maxGenerated: MAX_GENERATED, maxKept: MAX_KEPT, stop: () => deadline.passed() });
  if (lemmas.length === 0) return undefined;
  const r = proveGroundJointly(view, claims, batches, lemmas, { deadline, maxConflicts: limits.maxConflicts, maxQueries: MAX_QUERIES, onDemand: true }, proven);
  let n = 0;
  for (let k = claims.length; k < r.proven.length; k++) if (r.proven[k] === true) n++;
  return { proven: r.proven, queries: r.queries, work: r.work, counts: { ...counts, proven: n, queries: r.queries, work: r.work, complete: r.complete } };
}
