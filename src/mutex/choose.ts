/**
 * The minimal encoding: per fluent relation, the hypothesis whose groups cover the relation
 * with the fewest bits. A proven group of n members takes ceil(log2(n+1)) bits (one code for
 * "none"), or ceil(log2 n) when exactly one member always holds; every fluent outside a proven
 * group is a singleton of one bit. Only proven groups save bits, since only they may be relied
 * on; observed groups of the chosen hypothesis are still reported, marked as such. The
 * hypotheses of one relation overlap (they partition the same fluents), those of different
 * relations never do, so choosing per relation is choosing globally.
 */
import type { Candidate, Hypothesis } from './candidates.js';
import type { MutexView } from './view.js';

/**
 * How a group's claim stands: proven on the rules with variables (`lifted`: every claim the
 * group rests on, "at most one" and, when it says so, "exactly one"), proven with ground SAT
 * for at least one of them (`ground`), shown not inductive by the SAT proof and so only
 * `observed` in the sampled states, or `unproven` because the budget ran out first.
 */
export type GroupProof = 'lifted' | 'ground' | 'observed' | 'unproven';

/** A candidate with the proof's verdict. */
interface JudgedCandidate extends Candidate {
  readonly proven: boolean;
  readonly exactlyOne: boolean;
  readonly proof: GroupProof;
}

/** A group of the chosen encoding; members as fluent indexes here, as texts in the stage's output. */
export interface EncodedGroup<Member> {
  /** The members, in fluent (text) order. */
  readonly members: readonly Member[];
  /** Exactly one member holds in every reachable state (proven when `proven`, else observed). */
  readonly exactlyOne: boolean;
  /** Proven inductively (lifted or ground); otherwise only no sampled state violated it. */
  readonly proven: boolean;
  /** How it was proven, or why not (`proven` is `proof` lifted or ground). */
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

/** Chooses per relation; returns the groups to report and the total bits per state. */
export function chooseEncoding(
  view: MutexView,
  hyps: readonly Hypothesis[],
  judged: readonly JudgedCandidate[],
): { bits: number; groups: ChosenGroup[] } {
  const byHyp = new Map<number, JudgedCandidate[]>();
  for (const c of judged) {
    // Pushed, not spread: a hypothesis can have tens of thousands of groups (pancakes88).
    const list = byHyp.get(c.hypothesis);
    if (list === undefined) byHyp.set(c.hypothesis, [c]);
    else list.push(c);
  }
  const relationSize = new Map<string, number>();
  for (const f of view.fluents) relationSize.set(f.relation, (relationSize.get(f.relation) ?? 0) + 1);
  const best = new Map<string, Option>();
  for (const [rel, n] of relationSize) best.set(rel, { hypothesis: -1, bits: n, provenMembers: 0, observedMembers: 0 });
  hyps.forEach((h, hi) => {
    let bits = 0;
    let provenMembers = 0;
    let observedMembers = 0;
    for (const c of byHyp.get(hi) ?? []) {
      if (c.proven) {
        bits += groupBits(c.members.length, c.exactlyOne);
        provenMembers += c.members.length;
      } else {
        bits += c.members.length;
        if (c.atMostOne && c.members.length > 1) observedMembers += c.members.length;
      }
    }
    const option = { hypothesis: hi, bits, provenMembers, observedMembers };
    if (better(option, best.get(h.relation)!, hyps)) best.set(h.relation, option);
  });
  let bits = 0;
  const groups: ChosenGroup[] = [];
  for (const option of best.values()) {
    bits += option.bits;
    if (option.hypothesis < 0) continue;
    const h = hyps[option.hypothesis]!;
    for (const c of byHyp.get(option.hypothesis) ?? []) {
      if (!c.atMostOne || (c.members.length < 2 && !c.exactlyOne)) continue;
      const relation = view.fluents[c.members[0]!]!.name;
      groups.push({ members: c.members, exactlyOne: c.exactlyOne, proven: c.proven, proof: c.proof, relation, input: h.input, output: h.output });
    }
  }
  // Fluent indexes follow text order, so sorting by first member sorts groups by text.
  groups.sort((a, b) => a.members[0]! - b.members[0]!);
  return { bits, groups };
}
