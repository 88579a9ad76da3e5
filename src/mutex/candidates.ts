/**
 * Candidate mutex groups as the documents find them (Kissmann, slides 33-34): for each fluent
 * relation, a hypothesis of which argument positions are input and which are output. Fluents
 * with identical input and different output arguments never hold together, e.g. `(cell ?x ?y
 * ?c)` with input x, y and output c. Each hypothesis partitions the relation's fluents into
 * groups (one per input key); simulated states then refute groups that ever have two members
 * true, and exactly-one claims of groups that are ever empty.
 */
import type { MutexView } from './view.js';
import { type PackedStates, packStates } from '../play/packed.js';

/** Widest relation whose input/output splits are all tried (2^n splits per relation). */
const MAX_SPLIT_ARITY = 8;

/** One hypothesis: a relation, its input positions (output = the rest), and its groups. */
export interface Hypothesis {
  readonly relation: string;
  readonly input: readonly number[];
  readonly output: readonly number[];
  /** The partition of the relation's fluents by input key, fluent indexes ascending. */
  readonly groups: readonly (readonly number[])[];
}

/**
 * The groups of the hypotheses held against the sampled states, one candidate per group,
 * numbered hypothesis by hypothesis in group order, with what the states said of each, in
 * typed arrays: a relation of arity 8 gives about a million groups (pancakes88, 247
 * hypotheses), which as one object each (and one more per verdict) made a heap of 3 GB.
 * A candidate's members are its hypothesis' group ({@link candidateMembers}).
 */
export interface Candidates {
  /** Per hypothesis, the number of its first candidate; the last entry is the count. */
  readonly start: Int32Array;
  /** Per candidate, its hypothesis (an index into the hypotheses held). */
  readonly hypothesis: Int32Array;
  /** Per candidate, 1 when no sampled state had two members true. */
  readonly atMostOne: Uint8Array;
  /**
   * Per candidate, 1 when every sampled state had a member true (held with `settleRefuted`, see
   * {@link refute}: only where `atMostOne` is 1 too).
   */
  readonly atLeastOne: Uint8Array;
}

/** The members (fluent indexes, ascending) of candidate `i`. */
export function candidateMembers(hyps: readonly Hypothesis[], c: Candidates, i: number): readonly number[] {
  const h = c.hypothesis[i]!;
  return hyps[h]!.groups[i - c.start[h]!]!;
}

/** The fluents of each relation with at least one argument, by relation, in fluent order. */
function byRelation(view: MutexView): Map<string, number[]> {
  const out = new Map<string, number[]>();
  view.fluents.forEach((f, i) => {
    if (f.args.length === 0) return;
    const list = out.get(f.relation);
    if (list === undefined) out.set(f.relation, [i]);
    else list.push(i);
  });
  return out;
}

/**
 * Every hypothesis with a proper input subset whose partition has a group of two or more.
 * `stop` is asked before each subset; when it says to stop, the hypotheses found so far are
 * returned (pancakes88 has 40,320 fluents of one relation of arity 8: 255 subsets, each a pass).
 */
export function hypotheses(view: MutexView, stop: () => boolean = () => false): Hypothesis[] {
  const out: Hypothesis[] = [];
  for (const [relation, members] of [...byRelation(view)].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    const arity = view.fluents[members[0]!]!.args.length;
    if (arity > MAX_SPLIT_ARITY) continue;
    // Subsets in order of size, then lexicographic, so that output is deterministic.
    const subsets: number[][] = [];
    for (let mask = 0; mask < (1 << arity) - 1; mask++) {
      subsets.push([...Array(arity).keys()].filter((i) => (mask >> i) & 1));
    }
    subsets.sort((a, b) => a.length - b.length || a.join(',').localeCompare(b.join(',')));
    const codes = argumentCodes(view, members, arity);
    for (const input of subsets) {
      if (stop()) return out;
      const groups = partition(members, input, codes);
      if (groups.every((g) => g.length < 2)) continue;
      const output = [...Array(arity).keys()].filter((i) => !input.includes(i));
      out.push({ relation, input, output, groups });
    }
  }
  return out;
}

/** Per argument position, a small number per member for its argument text, and how many there are. */
interface ArgumentCodes {
  readonly of: readonly Int32Array[];
  readonly sizes: readonly number[];
}

/** Numbers each argument text per position, so that a group's key is arithmetic, not a joined string. */
function argumentCodes(view: MutexView, members: readonly number[], arity: number): ArgumentCodes {
  const of: Int32Array[] = [];
  const sizes: number[] = [];
  for (let p = 0; p < arity; p++) {
    const ids = new Map<string, number>();
    const codes = new Int32Array(members.length);
    members.forEach((f, k) => {
      const text = view.fluents[f]!.args[p]!;
      let id = ids.get(text);
      if (id === undefined) ids.set(text, (id = ids.size));
      codes[k] = id;
    });
    of.push(codes);
    sizes.push(ids.size);
  }
  return { of, sizes };
}

/**
 * The members grouped by their arguments at the `input` positions, groups in order of their
 * first member: the key is the arguments' numbers in mixed radix (a string of them when that
 * number could pass 2^52).
 */
function partition(members: readonly number[], input: readonly number[], codes: ArgumentCodes): number[][] {
  const byKey = new Map<number | string, number[]>();
  const exact = input.reduce((n, p) => n * codes.sizes[p]!, 1) < 2 ** 52;
  members.forEach((f, k) => {
    let key: number | string = 0;
    if (exact) for (const p of input) key = (key as number) * codes.sizes[p]! + codes.of[p]![k]!;
    else key = input.map((p) => codes.of[p]![k]!).join(',');
    const g = byKey.get(key);
    if (g === undefined) byKey.set(key, [f]);
    else g.push(f);
  });
  return [...byKey.values()];
}

/** States walked between two looks at the `stop` test of {@link refute} (and at what is settled). */
const STATES_PER_LOOK = 256;

/**
 * Hypotheses held in one pass over the states: a state's fluents are read once for all of them
 * (snake_2009: 15 hypotheses over 630,423 states of about 67 fluents each had one pass each, 2.7 s
 * of a profile). Past the budget, the pass under way is left out whole, so not more of them.
 */
const HYPOTHESES_PER_PASS = 16;

/** How {@link refute} may save work. */
interface RefuteOptions {
  /**
   * Stop following a group once a state had two of its members (its "at most one" refuted):
   * its "at least one" is then reported 0 whatever the states said. Every reader of the
   * candidates but a count of claims left (sample-enough.ts) reads "at least one" only of a group
   * whose "at most one" holds (claims, the choice, the lifted proofs), so for them nothing changes.
   */
  readonly settleRefuted?: boolean;
  /** Hypotheses per pass (default {@link HYPOTHESES_PER_PASS}; tests hold one at a time to compare). */
  readonly perPass?: number;
}

/**
 * Holds every group of every hypothesis against the sampled states (each a list of fluent
 * indexes; or packed, packed.ts): counts per state how many members are true. Linear in the
 * states' sizes per pass ({@link HYPOTHESES_PER_PASS} hypotheses a pass): only the groups a state
 * touches are counted and reset (pancakes88 has 40,361 fluents in tens of thousands of groups,
 * and walking every group per state did not finish), and a group nothing more can change is
 * dropped from the pass ({@link holdPass}). `stop` is asked every {@link STATES_PER_LOOK} states;
 * when it says to stop, the hypotheses not yet held against every state are left out: the
 * hypotheses returned are those held, a prefix of `hyps`, and the candidates are all of theirs.
 */
export function refute(
  view: MutexView, hyps: readonly Hypothesis[], given: readonly (readonly number[])[] | PackedStates, stop: () => boolean = () => false,
  options: RefuteOptions = {},
): { candidates: Candidates; hypotheses: readonly Hypothesis[] } {
  const states = packStates(given);
  const start = new Int32Array(hyps.length + 1);
  hyps.forEach((h, hi) => (start[hi + 1] = start[hi]! + h.groups.length));
  const total = start[hyps.length]!;
  const hypothesis = new Int32Array(total);
  hyps.forEach((_, hi) => hypothesis.fill(hi, start[hi]!, start[hi + 1]!));
  const atMostOne = new Uint8Array(total);
  const atLeastOne = new Uint8Array(total);
  // The candidates of the first `held` hypotheses: views of the arrays, not copies.
  const upTo = (held: number): Candidates => ({
    start: start.subarray(0, held + 1), hypothesis: hypothesis.subarray(0, start[held]!), atMostOne: atMostOne.subarray(0, start[held]!), atLeastOne: atLeastOne.subarray(0, start[held]!),
  });
  const perPass = options.perPass ?? HYPOTHESES_PER_PASS;
  for (let from = 0; from < hyps.length; from += perPass) {
    const to = Math.min(hyps.length, from + perPass);
    const pass = passOf(view.fluents.length, hyps, start, from, to);
    const held = holdPass(pass, states, stop, options.settleRefuted === true);
    if (held === undefined) return { candidates: upTo(from), hypotheses: hyps.slice(0, from) };
    for (let c = 0; c < pass.size.length; c++) {
      atMostOne[pass.first + c] = held.many[c] === 0 ? 1 : 0;
      atLeastOne[pass.first + c] = states.count > 0 && held.hit[c] === states.count && (options.settleRefuted !== true || held.many[c] === 0) ? 1 : 0;
    }
  }
  return { candidates: upTo(hyps.length), hypotheses: hyps };
}

/**
 * The candidates of one pass (numbered from 0, the first being candidate `first`), and per
 * fluent the candidates it is a member of: fluent f's are `of[at[f]]` up to `of[at[f] + len[f]]`.
 */
interface Pass {
  readonly first: number;
  /** Members per candidate. */
  readonly size: Int32Array;
  readonly at: Int32Array;
  readonly len: Int32Array;
  readonly of: Int32Array;
}

/** The pass over hypotheses `from` up to (not including) `to`, of `fluents` fluents; `start` as in {@link Candidates}. */
function passOf(fluents: number, hyps: readonly Hypothesis[], start: Int32Array, from: number, to: number): Pass {
  const first = start[from]!;
  const size = new Int32Array(start[to]! - first);
  const len = new Int32Array(fluents);
  for (let hi = from; hi < to; hi++) {
    hyps[hi]!.groups.forEach((g, gi) => {
      size[start[hi]! - first + gi] = g.length;
      for (const f of g) len[f] = len[f]! + 1;
    });
  }
  const at = new Int32Array(fluents + 1);
  for (let f = 0; f < fluents; f++) at[f + 1] = at[f]! + len[f]!;
  const of = new Int32Array(at[fluents]!);
  len.fill(0);
  for (let hi = from; hi < to; hi++) {
    hyps[hi]!.groups.forEach((g, gi) => {
      for (const f of g) of[at[f]! + len[f]!++] = start[hi]! - first + gi;
    });
  }
  return { first, size, at, len, of };
}

/**
 * Per candidate of `pass`: whether some state has two members true (`many`), and in how many
 * states a member is true (`hit`); undefined when `stop` said to stop. At each look, the
 * candidates nothing more can change are dropped from the fluents' lists: "at most one" refuted
 * (or a single member, never refuted) and "at least one" refuted (a state had no member), or,
 * with `settleRefuted`, "at most one" refuted alone. Their `many` is final and their `hit` below
 * the count of states, as it would have stayed. Once none is left, the other states are not read.
 */
function holdPass(pass: Pass, states: PackedStates, stop: () => boolean, settleRefuted: boolean): { many: Uint8Array; hit: Int32Array } | undefined {
  const { ids, offsets } = states;
  const { size, at, len, of } = pass;
  const candidates = size.length;
  const count = new Int32Array(candidates);
  const hit = new Int32Array(candidates);
  const many = new Uint8Array(candidates);
  const touched = new Int32Array(candidates);
  const open = Uint8Array.from(size, () => 1);
  let left = candidates;
  for (let s = 0; s < states.count && left > 0; s++) {
    if (s % STATES_PER_LOOK === 0) {
      if (stop()) return undefined;
      if (s > 0) left = settle(pass, open, many, hit, s, settleRefuted);
    }
    let t = 0;
    for (let k = offsets[s]!, end = offsets[s + 1]!; k < end; k++) {
      const f = ids[k]!;
      for (let m = at[f]!, last = m + len[f]!; m < last; m++) {
        const c = of[m]!;
        if (count[c]++ === 0) touched[t++] = c;
        else many[c] = 1;
      }
    }
    for (let i = 0; i < t; i++) {
      const c = touched[i]!;
      hit[c] = hit[c]! + 1;
      count[c] = 0;
    }
  }
  return { many, hit };
}

/**
 * Marks closed the open candidates of `pass` nothing more can change after `seen` states (see
 * {@link holdPass}), drops them from the fluents' lists, and returns how many are still open.
 */
function settle(pass: Pass, open: Uint8Array, many: Uint8Array, hit: Int32Array, seen: number, settleRefuted: boolean): number {
  const { size, at, len, of } = pass;
  let left = 0;
  for (let c = 0; c < open.length; c++) {
    if (open[c] === 0) continue;
    const amoFinal = many[c] === 1 || size[c]! < 2;
    if (amoFinal && (hit[c]! < seen || (settleRefuted && many[c] === 1))) open[c] = 0;
    else left++;
  }
  for (let f = 0; f < len.length; f++) {
    let n = 0;
    for (let m = at[f]!, last = m + len[f]!; m < last; m++) if (open[of[m]!] === 1) of[at[f]! + n++] = of[m]!;
    len[f] = n;
  }
  return left;
}
