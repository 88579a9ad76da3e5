/**
 * Exactly-one claims over a whole relation proven jointly with the "at most one" claims
 * (docs/mutex.md, section 2g). connect5's `control` alternates by `(next (control ?r)) <= (does ?r
 * noop)`, and `noop` is legal for a role without control: "at most one control" holds only because
 * some role has control (else both pass), and "at least one" only because at most one has it (else
 * both mark). Neither is inductive alone; together they are. So a whole relation (input {}) whose
 * "at most one" the first induction left open, an exactly-one candidate, is assumed to have some
 * member true in the current state (the pair checks split over which: lifted-exactly.ts), and its
 * "at least one" is proven by 2b's tableau assuming the claims of that same induction. What fails
 * leaves, and the induction is done again without it.
 */
import type { Term } from '../gdl/ast.js';
import type { GroundGame } from '../ground/types.js';
import type { Assumed } from './lifted-core.js';
import { type Candidates, type Hypothesis, candidateMembers } from './candidates.js';
import type { Implication } from './implications.js';
import type { MutexView } from './view.js';

/** Most whole relations assumed exactly-one in one induction (each failure costs one more). */
const MAX_EXACT = 4;

/** Most members of a whole relation assumed exactly-one. */
const MAX_MEMBERS = 8;

/** A whole relation tried as exactly-one: its hypothesis, its one group's members as terms, and its candidate (index). */
interface ExactCandidate {
  readonly hypothesis: number;
  readonly members: readonly Term[];
  readonly candidate: number;
}

/** What an induction of lifted.ts answers, as far as this reads it. */
interface Induction {
  readonly proven: readonly boolean[];
  readonly assumed: Assumed;
  readonly implied: readonly Implication[];
}

/**
 * The induction with the exactly-one candidates assumed (`prove(groups)`), done again without
 * those whose "at least one" `alo` could not prove under its claims, until all that are assumed
 * are proven: then the result's claims and theirs are one invariant. `undefined` when no candidate
 * qualifies or none is left (the caller keeps its first induction, proven without any).
 */
export function proveJointly<R extends Induction>(
  all: readonly ExactCandidate[], prove: (groups: readonly (readonly Term[])[]) => R,
  alo: (result: R, tasks: readonly { readonly hypothesis: Hypothesis; readonly groups: readonly (readonly Term[])[] }[]) => readonly boolean[],
  hyps: readonly Hypothesis[],
): { readonly result: R; readonly exact: readonly ExactCandidate[] } | undefined {
  let assumed = all.filter((c) => c.members.length >= 2 && c.members.length <= MAX_MEMBERS).slice(0, MAX_EXACT);
  while (assumed.length > 0) {
    const result = prove(assumed.map((c) => c.members));
    const ok = alo(result, assumed.map((c) => ({ hypothesis: hyps[c.hypothesis]!, groups: [c.members] })));
    const kept = assumed.filter((_, i) => ok[i] === true);
    if (kept.length === assumed.length) return { result, exact: assumed };
    assumed = kept;
  }
  return undefined;
}

/**
 * The whole relations (input {}, one group) tried lifted whose "at most one" `proven` left open and
 * whose group is an exactly-one candidate with a member in the initial state (the base case of
 * both claims), every fluent of the relation in the view (`hidden`: some without a `true` atom,
 * which 2b's tableau needs as members).
 */
export function exactCandidates(
  game: GroundGame, view: MutexView, hyps: readonly Hypothesis[], cands: Candidates,
  tried: readonly boolean[], proven: readonly boolean[], hidden: ReadonlySet<string>,
): ExactCandidate[] {
  const init = new Set(view.init);
  const out: ExactCandidate[] = [];
  for (let i = 0; i < cands.hypothesis.length; i++) {
    const h = cands.hypothesis[i]!;
    if (hyps[h]!.input.length > 0 || tried[h] !== true || proven[h] === true || hidden.has(hyps[h]!.relation)) continue;
    const members = candidateMembers(hyps, cands, i);
    if (cands.atMostOne[i] !== 1 || cands.atLeastOne[i] !== 1 || !members.some((f) => init.has(f))) continue;
    out.push({ hypothesis: h, candidate: i, members: members.map((f) => game.terms.toTerm(view.fluents[f]!.term)) });
  }
  return out;
}
