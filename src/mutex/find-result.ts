/**
 * The mutex stage's last step (index.ts): every candidate judged by its claims' verdicts, the
 * encoding with the fewest bits chosen (choose.ts), and the result with its stats.
 */
import { atomText } from '../ground/atoms.js';
import type { GroundGame } from '../ground/types.js';
import { chooseEncoding, judge } from './choose.js';
import type { Early } from './find-early.js';
import type { Proofs } from './find-proofs.js';
import type { ClaimVerdict } from './prove.js';
import type { SearchRefutation } from './refute-search.js';
import { countByProof, tallyJudged } from './tally.js';
import type { MutexOptions, MutexResult } from './types.js';

/** The groups of the chosen encoding as fluent texts, and the stats of all three steps. */
export function assembleResult(game: GroundGame, early: Early, proofs: Proofs, options: MutexOptions): MutexResult {
  const { view, hyps, claims, claimOf } = early;
  const { left, verdicts, liftedProven: proven, proof, strengthened, walked } = proofs;
  const reachable = options.reachable === true;
  const verdict = (k: number): ClaimVerdict | 'none' => (k < 0 ? 'none' : verdicts[k]!);
  const judged = judge(hyps, left, claimOf, verdict, proofs.provenLifted, reachable ? 'states' : 'ground');
  // The hypotheses proven lifted are weighed first: past the stage's budget the rest are not.
  const order = [...hyps.keys()].sort((x, y) => Number(proven[y] === true) - Number(proven[x] === true) || x - y);
  const chosen = chooseEncoding(view, hyps, left, judged, { order, end: options.end });
  const texts = (ms: readonly number[]): string[] => ms.map((f) => view.fluents[f]!.text);
  // In claim order, as they were found.
  const failures = [...proof.unrefutedPairs].filter(([i]) => walked?.refuted[i] !== 1).map(([i, u]) => ({ members: texts(claims[i]!.members), unrefutedPairs: u.pairs, capped: u.capped }));
  const tally = tallyJudged(hyps, left, judged, proven, reachable);
  return {
    fluents: view.fluents.length,
    bits: chosen.bits,
    groups: chosen.groups.map((g) => ({ ...g, members: texts(g.members) })),
    stats: {
      hypotheses: hyps.length,
      candidates: early.cands.hypothesis.length,
      ...tally,
      liftedMs: proofs.liftedMs,
      liftedPairs: proofs.liftedPairs,
      implications: proofs.implications,
      exclusions: { tried: strengthened?.tried ?? 0, proven: strengthened?.proven ?? 0, complete: strengthened?.complete ?? true },
      ...(strengthened?.lemmas === undefined ? {} : { lemmas: strengthened.lemmas }),
      opaqueAtoms: view.opaque.length,
      chosen: countByProof(chosen.groups, reachable),
      // The explanation of failed claims (for --stats, within a small budget of its own) does not count.
      budgetReached: proof.budgetSpent || strengthened?.budgetSpent === true || walked?.cut === true || !chosen.complete || early.candidatesCut,
      candidatesCut: early.candidatesCut,
      failures,
      satQueries: proof.queries + (strengthened?.queries ?? 0),
      sampledStates: early.sampledStates,
      proofWork: proof.work + (strengthened?.work ?? 0),
      proofComplete: proof.complete,
      moves: early.moves,
      ...(walked === undefined || walked.walks === 0 ? {} : { walks: { refuted: proofs.refutedWalks, walks: walked.walks, evaluations: walked.evaluations } }),
      ...(walked === undefined ? {} : { refutedByState: refutedByState(early, proofs) }),
      ...(proofs.searched === undefined || proofs.searched.searches === 0 ? {} : { search: searchStats(game, proofs.searched, early) }),
      ...(proofs.created === undefined || proofs.created.searches === 0 ? {} : { creating: searchStats(game, proofs.created, early) }),
    },
  };
}

/** The searches' (or the creating walks') counts for `--stats`, with their witnesses as texts (refute-search.ts, refute-create.ts). */
function searchStats(game: GroundGame, s: SearchRefutation, early: Early): NonNullable<MutexResult['stats']['search']> {
  const witnesses = s.witnesses.map((w) => ({
    members: early.claims[w.claim]!.members.filter((f) => w.state.includes(f)).map((f) => early.view.fluents[f]!.text),
    moves: w.moves.map((j) => j.map((l) => atomText(game, l))),
  }));
  return { refuted: s.refuted.reduce((n, x) => n + x, 0), searches: s.searches, evaluations: s.evaluations, witnesses };
}

/** Candidates no sampled state refuted whose claim a reachable state of the walks or the searches refuted. */
function refutedByState(early: Early, proofs: Proofs): number {
  let groups = 0;
  for (let i = 0; i < early.cands.atMostOne.length; i++) if (early.cands.atMostOne[i] === 1 && proofs.left.atMostOne[i] === 0) groups++;
  return groups;
}
