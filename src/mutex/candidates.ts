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
  /** Per candidate, 1 when every sampled state had a member true. */
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

/** States walked between two looks at the `stop` test of {@link refute}. */
const STATES_PER_LOOK = 256;

/**
 * Holds every group of every hypothesis against the sampled states (each a list of fluent
 * indexes; or packed, packed.ts): counts per state how many members are true. Linear in the states' sizes per
 * hypothesis: only the groups a state touches are counted and reset (pancakes88 has 40,361
 * fluents in tens of thousands of groups, and walking every group per state did not finish).
 * `stop` is asked every {@link STATES_PER_LOOK} states; when it says to stop, the hypotheses
 * not yet held against every state are left out: the hypotheses returned are those held, a
 * prefix of `hyps`, and the candidates are all of theirs.
 */
export function refute(
  view: MutexView, hyps: readonly Hypothesis[], given: readonly (readonly number[])[] | PackedStates, stop: () => boolean = () => false,
): { candidates: Candidates; hypotheses: readonly Hypothesis[] } {
  const states = packStates(given);
  const total = hyps.reduce((n, h) => n + h.groups.length, 0);
  const start = new Int32Array(hyps.length + 1);
  const hypothesis = new Int32Array(total);
  const atMostOne = new Uint8Array(total);
  const atLeastOne = new Uint8Array(total);
  const groupOf = new Int32Array(view.fluents.length);
  let n = 0;
  // The candidates of the first `held` hypotheses: views of the arrays, not copies.
  const upTo = (held: number): Candidates => ({
    start: start.subarray(0, held + 1), hypothesis: hypothesis.subarray(0, n), atMostOne: atMostOne.subarray(0, n), atLeastOne: atLeastOne.subarray(0, n),
  });
  for (let hi = 0; hi < hyps.length; hi++) {
    const h = hyps[hi]!;
    groupOf.fill(-1);
    h.groups.forEach((g, gi) => g.forEach((f) => (groupOf[f] = gi)));
    const held = holdGroups(groupOf, h.groups.length, states, stop);
    if (held === undefined) return { candidates: upTo(hi), hypotheses: hyps.slice(0, hi) };
    for (let g = 0; g < h.groups.length; g++, n++) {
      hypothesis[n] = hi;
      atMostOne[n] = held.many[g] === 0 ? 1 : 0;
      atLeastOne[n] = states.count > 0 && held.hit[g] === states.count ? 1 : 0;
    }
    start[hi + 1] = n;
  }
  return { candidates: upTo(hyps.length), hypotheses: hyps };
}

/**
 * Per group (of `groupOf`'s partition): whether some state has two members true (`many`), and
 * in how many states a member is true (`hit`); undefined when `stop` said to stop.
 */
function holdGroups(
  groupOf: Int32Array, groups: number, states: PackedStates, stop: () => boolean,
): { many: Uint8Array; hit: Int32Array } | undefined {
  const { ids, offsets } = states;
  const count = new Int32Array(groups);
  const hit = new Int32Array(groups);
  const many = new Uint8Array(groups);
  const touched: number[] = [];
  for (let s = 0; s < states.count; s++) {
    if (s % STATES_PER_LOOK === 0 && stop()) return undefined;
    for (let k = offsets[s]!; k < offsets[s + 1]!; k++) {
      const g = groupOf[ids[k]!]!;
      if (g < 0) continue;
      if (count[g]++ === 0) touched.push(g);
      else many[g] = 1;
    }
    for (const g of touched) {
      hit[g] = hit[g]! + 1;
      count[g] = 0;
    }
    touched.length = 0;
  }
  return { many, hit };
}
