/**
 * The counts of the mutex stage's `--stats` (docs/mutex.md, 2c): the judged candidates tallied in
 * one pass, and the chosen groups counted by how they stand.
 */
import { type Candidates, type Hypothesis, candidateMembers } from './candidates.js';
import { type GroupProof, type Judged, PROOFS } from './choose.js';

/** Groups (of two or more members, or exactly-one) and the fluents in them. */
interface ProofCount {
  readonly groups: number;
  readonly fluents: number;
}

/**
 * Per {@link GroupProof}: how many groups and fluents; `states` only when the states given were
 * every reachable state and some group is proven by them (the output of every other game is as
 * before 2f).
 */
export type ProofCounts = Readonly<Record<Exclude<GroupProof, 'states'>, ProofCount>> & { readonly states?: ProofCount };

/** The stats of the judged candidates, in one pass: how many were refuted, proven, and how the survivors stand. */
export function tallyJudged(hyps: readonly Hypothesis[], cands: Candidates, judged: Judged, liftedProven: readonly boolean[], reachable: boolean) {
  let refutedBySimulation = 0;
  let proven = 0;
  let provenLifted = 0;
  let notInductive = 0;
  let unprovenForBudget = 0;
  const surviving = emptyCounts(reachable);
  for (let i = 0; i < cands.hypothesis.length; i++) {
    const n = candidateMembers(hyps, cands, i).length;
    const how = PROOFS[judged.proof[i]!]!;
    if (cands.atMostOne[i] === 0) {
      refutedBySimulation++;
      continue;
    }
    if (how === 'observed') notInductive++;
    if (how === 'unproven') unprovenForBudget++;
    if (n < 2) continue;
    if (judged.proven[i] === 1) proven++;
    if (judged.proven[i] === 1 && liftedProven[cands.hypothesis[i]!] === true) provenLifted++;
    surviving[how]!.groups++;
    surviving[how]!.fluents += n;
  }
  return { refutedBySimulation, proven, provenLifted, notInductive, unprovenForBudget, surviving };
}

/** Groups and their fluents per {@link GroupProof}. */
export function countByProof(groups: readonly { readonly members: readonly unknown[]; readonly proof: GroupProof }[], reachable: boolean): ProofCounts {
  const out = emptyCounts(reachable);
  for (const g of groups) {
    out[g.proof]!.groups++;
    out[g.proof]!.fluents += g.members.length;
  }
  // No `states` entry when no chosen group needed the states: a game all of whose groups are
  // proven lifted (tic-tac-toe) reports what it reported before the search (docs/mutex.md, 2f).
  const { states, ...others } = out;
  return states === undefined || states.groups === 0 ? others : out;
}

/** Zero groups and fluents per {@link GroupProof} (`states` only when the states were every reachable state). */
function emptyCounts(reachable: boolean): Partial<Record<GroupProof, { groups: number; fluents: number }>> & Record<Exclude<GroupProof, 'states'>, { groups: number; fluents: number }> {
  const zero = (): { groups: number; fluents: number } => ({ groups: 0, fluents: 0 });
  return { lifted: zero(), ground: zero(), observed: zero(), unproven: zero(), ...(reachable ? { states: zero() } : {}) };
}
