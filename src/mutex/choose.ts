/**
 * The minimal encoding: per fluent relation, the hypothesis whose groups cover the relation
 * with the fewest bits. A proven group of n members takes ceil(log2(n+1)) bits (one code for
 * "none"), or ceil(log2 n) when exactly one member always holds; every fluent outside a proven
 * group is a singleton of one bit. Only proven groups save bits, since only they may be relied
 * on; observed groups of the chosen hypothesis are still reported, marked as such. The
 * hypotheses of one relation overlap (they partition the same fluents), those of different
 * relations never do, so choosing per relation is choosing globally.
 *
 * Candidates and their verdicts are typed arrays indexed by candidate (candidates.ts), never an
 * object per group: pancakes88 has about a million groups, all proven lifted, and judging and
 * choosing among them one object at a time took 8 processor seconds past the stage's budget.
 */
import type { Deadline } from '../deadline.js';
import { type Candidates, type Hypothesis, candidateMembers } from './candidates.js';
import type { ClaimVerdict } from './prove.js';
import type { MutexView } from './view.js';

/**
 * How a group's claim stands: proven on the rules with variables (`lifted`: every claim the
 * group rests on, "at most one" and, when it says so, "exactly one"), proven with ground SAT
 * for at least one of them (`ground`), shown not inductive by the SAT proof (with lazy axioms
 * also when the SAT proof left it for lack of budget but its own lifted step failed, checked to
 * its end within the budget) and so only `observed` in the
 * sampled states, or `unproven` because the budget ran out first; or proven
 * because the states given were every reachable state and none violates it (`states`, for the
 * claims not proven lifted: docs/mutex.md, 2f).
 */
export type GroupProof = 'lifted' | 'ground' | 'observed' | 'unproven' | 'states';

/** The {@link GroupProof}s in the order of their codes in {@link Judged.proof}. */
export const PROOFS: readonly GroupProof[] = ['lifted', 'ground', 'observed', 'unproven', 'states'];

/** The proof's verdict per candidate (aligned with {@link Candidates}). */
export interface Judged {
  /** 1 when the group is proven (its "at most one", lifted or ground). */
  readonly proven: Uint8Array;
  /** 1 when exactly one member holds: proven when the group is, else observed. */
  readonly exactlyOne: Uint8Array;
  /** The index of its {@link GroupProof} in {@link PROOFS}. */
  readonly proof: Uint8Array;
}

/** Per candidate, the index of its "at most one" and "at least one" claim (-1: none). */
export interface ClaimsOf {
  readonly amo: Int32Array;
  readonly alo: Int32Array;
}

/**
 * Judges every candidate by its claims' verdicts (`verdict`; `provenLifted` per claim: proven
 * on the rules with variables; `other`: how the other proven claims were proven): one pass,
 * nothing allocated per candidate.
 */
export function judge(
  hyps: readonly Hypothesis[], cands: Candidates, claimOf: ClaimsOf, verdict: (k: number) => ClaimVerdict | 'none', provenLifted: readonly boolean[],
  other: GroupProof = 'ground',
): Judged {
  const n = cands.hypothesis.length;
  const out = { proven: new Uint8Array(n), exactlyOne: new Uint8Array(n), proof: new Uint8Array(n) };
  const viaSat = (k: number): boolean => k >= 0 && !provenLifted[k];
  for (let i = 0; i < n; i++) {
    const amo = claimOf.amo[i]!;
    const alo = claimOf.alo[i]!;
    const single = candidateMembers(hyps, cands, i).length === 1;
    const amoProven = single || verdict(amo) === 'proven';
    // A proven group claims exactly-one only when that is proven too; an observed one as observed.
    const proven = cands.atMostOne[i] === 1 && amoProven;
    const exactlyOne = proven ? verdict(alo) === 'proven' : cands.atLeastOne[i] === 1;
    // What a proven group rests on: its "at most one" (unless a singleton), its "exactly one" when it claims it.
    const ground = single ? viaSat(alo) : viaSat(amo) || (exactlyOne && viaSat(alo));
    const how: GroupProof = proven ? (ground ? other : 'lifted') : verdict(amo) === 'unproven' ? 'unproven' : 'observed';
    out.proven[i] = proven ? 1 : 0;
    out.exactlyOne[i] = exactlyOne ? 1 : 0;
    out.proof[i] = PROOFS.indexOf(how);
  }
  return out;
}

/** A group of the chosen encoding; members as fluent indexes here, as texts in the stage's output. */
export interface EncodedGroup<Member> {
  /** The members, in fluent (text) order. */
  readonly members: readonly Member[];
  /** Exactly one member holds in every reachable state (proven when `proven`, else observed). */
  readonly exactlyOne: boolean;
  /** Proven (inductively, lifted or ground, or by every reachable state); otherwise only no sampled state violated it. */
  readonly proven: boolean;
  /** How it was proven, or why not (`proven` is `proof` lifted, ground or states). */
  readonly proof: GroupProof;
  /** The fluent relation (its name) and the hypothesis' input and output positions (0-based). */
  readonly relation: string;
  readonly input: readonly number[];
  readonly output: readonly number[];
}

/** A group of the chosen encoding over fluent indexes. */
type ChosenGroup = EncodedGroup<number>;

/** Bits to encode a group of `n` members. */
function groupBits(n: number, exactlyOne: boolean): number {
  const codes = exactlyOne ? n : n + 1;
  return codes <= 1 ? 0 : Math.ceil(Math.log2(codes));
}

interface Option {
  readonly hypothesis: number;
  readonly bits: number;
  readonly provenMembers: number;
  readonly observedMembers: number;
}

function better(a: Option, b: Option, hyps: readonly Hypothesis[]): boolean {
  if (a.bits !== b.bits) return a.bits < b.bits;
  if (a.provenMembers !== b.provenMembers) return a.provenMembers > b.provenMembers;
  if (a.observedMembers !== b.observedMembers) return a.observedMembers > b.observedMembers;
  const la = a.hypothesis < 0 ? Infinity : hyps[a.hypothesis]!.input.length;
  const lb = b.hypothesis < 0 ? Infinity : hyps[b.hypothesis]!.input.length;
  return la !== lb ? la < lb : a.hypothesis < b.hypothesis;
}

/** The bits and members of hypothesis `hi`'s encoding: one pass over its candidates. */
function weigh(hyps: readonly Hypothesis[], cands: Candidates, judged: Judged, hi: number): Option {
  let bits = 0;
  let provenMembers = 0;
  let observedMembers = 0;
  for (let i = cands.start[hi]!; i < cands.start[hi + 1]!; i++) {
    const n = candidateMembers(hyps, cands, i).length;
    if (judged.proven[i] === 1) {
      bits += groupBits(n, judged.exactlyOne[i] === 1);
      provenMembers += n;
    } else {
      bits += n;
      if (cands.atMostOne[i] === 1 && n > 1) observedMembers += n;
    }
  }
  return { hypothesis: hi, bits, provenMembers, observedMembers };
}

/**
 * Per hypothesis, whether proving the claims of its groups could make its encoding the chosen one
 * of its relation: with every group no sampled state refuted proven (exactly-one where every state
 * had a member), {@link better} than the best encoding with `judged` as it stands (the claims proven
 * so far). One that cannot lowers no bit and adds no proven member (prove.ts asks its claims last).
 */
export function couldBeChosen(view: MutexView, hyps: readonly Hypothesis[], cands: Candidates, judged: Judged): boolean[] {
  const best = new Map<string, Option>();
  for (const f of view.fluents) best.set(f.relation, { hypothesis: -1, bits: (best.get(f.relation)?.bits ?? 0) + 1, provenMembers: 0, observedMembers: 0 });
  hyps.forEach((h, hi) => {
    const option = weigh(hyps, cands, judged, hi);
    if (better(option, best.get(h.relation)!, hyps)) best.set(h.relation, option);
  });
  const all: Judged = { proven: cands.atMostOne, exactlyOne: cands.atMostOne.map((a, i) => a & cands.atLeastOne[i]!), proof: judged.proof };
  return hyps.map((h, hi) => better(weigh(hyps, cands, all, hi), best.get(h.relation)!, hyps));
}

/**
 * Candidates weighed between two looks at the end of the stage's budget in {@link chooseEncoding}:
 * a few milliseconds of work, so that a game with a few thousand groups (tic-tac-toe) is weighed
 * whole even when its budget was spent before the choice (its groups then listed unproven).
 */
const CANDIDATES_PER_LOOK = 65_536;

/**
 * Chooses per relation; returns the groups to report, the total bits per state, and whether
 * every hypothesis was weighed. The hypotheses are weighed in `order` (every one, by default);
 * `end` (the end of the stage's budget) is read before a hypothesis once every `stride`
 * candidates weighed: once passed, the rest are not weighed, and a relation none of whose
 * hypotheses was keeps its fluents as singletons (more bits, never an unproven group counted as
 * proven). The choice does not depend on the order when all are weighed ({@link better} is a
 * total order).
 */
export function chooseEncoding(
  view: MutexView, hyps: readonly Hypothesis[], cands: Candidates, judged: Judged,
  { order, end, stride = CANDIDATES_PER_LOOK }: { readonly order?: readonly number[]; readonly end?: Deadline; readonly stride?: number } = {},
): { bits: number; groups: ChosenGroup[]; complete: boolean } {
  const relationSize = new Map<string, number>();
  for (const f of view.fluents) relationSize.set(f.relation, (relationSize.get(f.relation) ?? 0) + 1);
  const best = new Map<string, Option>();
  for (const [rel, n] of relationSize) best.set(rel, { hypothesis: -1, bits: n, provenMembers: 0, observedMembers: 0 });
  let complete = true;
  let weighed = 0;
  let look = stride;
  for (const hi of order ?? hyps.keys()) {
    if (weighed >= look) {
      look = weighed + stride;
      if (end?.passed() === true) {
        complete = false;
        break;
      }
    }
    weighed += cands.start[hi + 1]! - cands.start[hi]!;
    const option = weigh(hyps, cands, judged, hi);
    if (better(option, best.get(hyps[hi]!.relation)!, hyps)) best.set(hyps[hi]!.relation, option);
  }
  let bits = 0;
  const groups: ChosenGroup[] = [];
  for (const option of best.values()) {
    bits += option.bits;
    if (option.hypothesis < 0) continue;
    const h = hyps[option.hypothesis]!;
    for (let i = cands.start[option.hypothesis]!; i < cands.start[option.hypothesis + 1]!; i++) {
      const members = candidateMembers(hyps, cands, i);
      if (cands.atMostOne[i] === 0 || (members.length < 2 && judged.exactlyOne[i] === 0)) continue;
      const relation = view.fluents[members[0]!]!.name;
      const proof = PROOFS[judged.proof[i]!]!;
      groups.push({ members, exactlyOne: judged.exactlyOne[i] === 1, proven: judged.proven[i] === 1, proof, relation, input: h.input, output: h.output });
    }
  }
  // Fluent indexes follow text order, so sorting by first member sorts groups by text.
  groups.sort((a, b) => a.members[0]! - b.members[0]!);
  return { bits, groups, complete };
}
