/**
 * The mutex stage's first step (index.ts): the hypotheses made and held against the states given
 * (candidates.ts), more of them refuted by moves played from the sampled states (refute-moves.ts),
 * and the claims worth proving of the candidates left.
 */
import type { GroundGame } from '../ground/types.js';
import { type PackedStates, mapPacked, unpackFirst } from '../play/packed.js';
import { type Candidates, type Hypothesis, candidateMembers, hypotheses, refute } from './candidates.js';
import type { ClaimsOf } from './choose.js';
import type { Claim } from './prove.js';
import { type EarlyStats, refuteEarly } from './refute-moves.js';
import { type HeldSample, holdMore } from './sample-enough.js';
import type { MutexOptions } from './types.js';
import { type MutexView, fluentIndexByTerm, fluentIndexes, mutexView } from './view.js';

/** What the first step leaves for the proofs and the result. */
export interface Early {
  readonly view: MutexView;
  /** Per term id of a fluent in `view`, its index there. */
  readonly fluentOfTerm: ReadonlyMap<number, number>;
  readonly hyps: readonly Hypothesis[];
  /** The candidates no state refuted (the groups of every hypothesis, each refuted or not). */
  readonly cands: Candidates;
  /** The sampled states, with the states the moves found, as fluent indexes of `view`. */
  readonly sampled: readonly (readonly number[])[];
  /** The states the lifted proofs' candidates are held against ({@link MINED_STATES}). */
  readonly mined: readonly (readonly number[])[];
  /** The states given, as `--stats` counts them. */
  readonly sampledStates: number;
  readonly moves: EarlyStats | undefined;
  /** The stage's budget ran out while the hypotheses were made or held. */
  readonly candidatesCut: boolean;
  /** AMO of surviving groups of two or more, ALO of always-hit groups. */
  readonly claims: readonly Claim[];
  readonly claimOf: ClaimsOf;
}

/**
 * Holds the hypotheses against `states` (term ids of the fluents that hold, or packed: a complete
 * search's states), then against the states moves find, and names the claims to prove. `held`:
 * what sampling's stopping test held (sample-enough.ts), its states the first of `states`; its
 * view and hypotheses are taken, and only the states after them are held.
 */
export function refuteFirst(game: GroundGame, states: readonly (readonly number[])[] | PackedStates, options: MutexOptions, held?: HeldSample): Early {
  const given0 = Array.isArray(states) ? (states as readonly (readonly number[])[]) : undefined;
  const from = given0 !== undefined && held !== undefined ? heldPrefix(held, given0) : undefined;
  const view = from?.view ?? mutexView(game);
  // Packed (a complete search's states, src/play/packed.ts): refuted on packed, and only the first
  // MINED_STATES unpacked, which are all minedStates keeps of a complete search.
  const packed = given0 === undefined ? mapPacked(states as PackedStates, fluentIndexOfTerm(view)) : undefined;
  const fluentOfTerm = from?.fluentOfTerm ?? fluentIndexByTerm(view);
  const rest = given0 === undefined ? [] : given0.slice(from?.given.length ?? 0).map((s) => fluentIndexes(fluentOfTerm, s));
  const given = packed !== undefined ? unpackFirst(packed, MINED_STATES) : from === undefined ? rest : [...from.given, ...rest];
  // Candidates are made and held against the states within the stage's budget, like the proofs:
  // past it, the hypotheses not yet made or held are left out, their relations' fluents left
  // singletons (more bits, never a failure; pancakes88: a relation of arity 8, 40,320 fluents,
  // 247 hypotheses, about 1.5 processor seconds here). Then moves (refute-moves.ts) refute more.
  let candidatesCut = false;
  // Both leave out what they have not done once it says to stop: then the candidates are cut.
  const stop = (): boolean => (candidatesCut ||= options.deadline.passed());
  // A group two members of which a state held is not followed further (candidates.ts): nothing
  // here reads "at least one" of a group whose "at most one" is refuted.
  const first = from === undefined ? refute(view, hypotheses(view, stop), packed ?? given, stop, SETTLE) : refuteRest(from, rest, stop);
  const { held: kept, sampled, stats: moves } = refuteEarly(game, view, first, given, { ...options, packed: packed !== undefined }, fluentOfTerm, stop);
  const { hypotheses: hyps, candidates: cands } = kept;
  return {
    view, fluentOfTerm, hyps, cands, sampled, moves, candidatesCut,
    mined: minedStates(sampled, options.reachable === true),
    sampledStates: packed?.count ?? given.length,
    ...claimsOf(hyps, cands),
  };
}

/** The stage's holding follows no group whose "at most one" a state refuted (candidates.ts `settleRefuted`). */
const SETTLE = { settleRefuted: true } as const;

/** `held` when its states are the first of `states` (its last one is there, the same array), else undefined. */
function heldPrefix(held: HeldSample, states: readonly (readonly number[])[]): HeldSample | undefined {
  const n = held.given.length;
  return n > 0 && n <= states.length && states[n - 1] === held.last ? held : undefined;
}

/** The candidates of `held`'s states and `rest` (fluent indexes) together, `held`'s hypotheses held against `rest` only. */
function refuteRest(held: HeldSample, rest: readonly (readonly number[])[], stop: () => boolean): ReturnType<typeof refute> {
  if (rest.length === 0) return { candidates: settled(held.candidates), hypotheses: held.hyps };
  const after = refute(held.view, held.hyps, rest, stop, SETTLE);
  return { candidates: settled(holdMore(held.candidates, after.candidates)), hypotheses: after.hypotheses };
}

/**
 * `c` as {@link SETTLE} reports it: "at least one" 0 where "at most one" is refuted. The
 * stopping test holds without it (it counts such groups), so the handed-on candidates are
 * the ones the stage would have made over all the states itself.
 */
function settled(c: Candidates): Candidates {
  const atLeastOne = c.atLeastOne.map((alo, i) => alo & c.atMostOne[i]!);
  return { ...c, atLeastOne };
}

/** The claims worth proving: AMO of surviving groups of two or more, ALO of always-hit groups. */
function claimsOf(hyps: readonly Hypothesis[], cands: Candidates): { claims: Claim[]; claimOf: ClaimsOf } {
  const count = cands.hypothesis.length;
  const claims: Claim[] = [];
  const claimOf: ClaimsOf = { amo: new Int32Array(count).fill(-1), alo: new Int32Array(count).fill(-1) };
  for (let i = 0; i < count; i++) {
    // One batch per hypothesis and kind: "at most one" claims are cheap and matter most; the
    // "at least one" claims need every move's legal rules and come after them.
    if (cands.atMostOne[i] === 0) continue;
    const members = candidateMembers(hyps, cands, i);
    const h = cands.hypothesis[i]!;
    if (members.length > 1) claimOf.amo[i] = claims.push({ kind: 'amo', batch: 2 * h, members }) - 1;
    if (cands.atLeastOne[i] === 1) claimOf.alo[i] = claims.push({ kind: 'alo', batch: 2 * h + 1, members }) - 1;
  }
  return { claims, claimOf };
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
