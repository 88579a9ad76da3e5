/**
 * Candidate mutex groups as the documents find them (Kissmann, slides 33-34): for each fluent
 * relation, a hypothesis of which argument positions are input and which are output. Fluents
 * with identical input and different output arguments never hold together, e.g. `(cell ?x ?y
 * ?c)` with input x, y and output c. Each hypothesis partitions the relation's fluents into
 * groups (one per input key); simulated states then refute groups that ever have two members
 * true, and exactly-one claims of groups that are ever empty.
 */
import type { MutexView } from './view.js';

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

/** A group with what the simulated states said of it. */
export interface Candidate {
  readonly hypothesis: number;
  readonly members: readonly number[];
  /** No sampled state had two members true. */
  readonly atMostOne: boolean;
  /** Every sampled state had a member true. */
  readonly atLeastOne: boolean;
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

/** Every hypothesis with a proper input subset whose partition has a group of two or more. */
export function hypotheses(view: MutexView): Hypothesis[] {
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
    for (const input of subsets) {
      const byKey = new Map<string, number[]>();
      for (const f of members) {
        const k = input.map((i) => view.fluents[f]!.args[i]).join('\u0000');
        const g = byKey.get(k);
        if (g === undefined) byKey.set(k, [f]);
        else g.push(f);
      }
      const groups = [...byKey.values()];
      if (groups.every((g) => g.length < 2)) continue;
      const output = [...Array(arity).keys()].filter((i) => !input.includes(i));
      out.push({ relation, input, output, groups });
    }
  }
  return out;
}

/**
 * Holds every group of every hypothesis against the sampled states (each a list of fluent
 * indexes): counts per state how many members are true.
 */
export function refute(view: MutexView, hyps: readonly Hypothesis[], states: readonly (readonly number[])[]): Candidate[] {
  const out: Candidate[] = [];
  const n = view.fluents.length;
  hyps.forEach((h, hi) => {
    const groupOf = new Int32Array(n).fill(-1);
    h.groups.forEach((g, gi) => g.forEach((f) => (groupOf[f] = gi)));
    const count = new Int32Array(h.groups.length);
    const many = new Uint8Array(h.groups.length);
    const empty = new Uint8Array(h.groups.length);
    for (const state of states) {
      count.fill(0);
      for (const f of state) {
        const g = groupOf[f]!;
        if (g >= 0 && ++count[g]! > 1) many[g] = 1;
      }
      for (let g = 0; g < count.length; g++) if (count[g] === 0) empty[g] = 1;
    }
    h.groups.forEach((members, g) => {
      out.push({ hypothesis: hi, members, atMostOne: many[g] === 0, atLeastOne: states.length > 0 && empty[g] === 0 });
    });
  });
  return out;
}
