/**
 * The projection a state search runs on (docs/mutex.md 2m): a set P of fluents closed under "the
 * `next` rules of a fluent in P read only fluents in P, `does` and static facts", found by walks
 * of the ground rules' cones. Every step of a walk is charged to the pass's {@link Meter}, and the
 * caps (fluents in P, atoms a closure visits) are checked while P grows, never after.
 */
import type { Deadline } from '../deadline.js';
import type { MutexView } from './view.js';

/** Units of work between two looks at the clock: about two milliseconds of walking or evaluating. */
const CLOCK_UNITS = 1 << 16;

/**
 * The pass's counted work: every step charges units (an atom visited, a rule literal read, a
 * state's slot set); past `limit` or, looked at once per {@link CLOCK_UNITS}, past the deadline,
 * the pass is cut and stays cut.
 */
export class Meter {
  work = 0;
  states = 0;
  searches = 0;
  cut = false;
  private nextLook = CLOCK_UNITS;

  constructor(readonly limit: number, private readonly deadline: Deadline) {}

  /** Charges `units`; false once the pass must stop. */
  spend(units: number): boolean {
    this.work += units;
    if (this.cut) return false;
    if (this.work > this.limit) this.cut = true;
    else if (this.work >= this.nextLook) {
      this.nextLook = this.work + CLOCK_UNITS;
      this.cut = this.deadline.passed();
    }
    return !this.cut;
  }

  /** Whether `units` more still fit under the limit (the clock is not read). */
  fits(units: number): boolean {
    return !this.cut && this.work + units <= this.limit;
  }
}

/** Per atom, the rules whose head it is (indexes into `view.rules`), and what the atom is. */
export interface ConeIndex {
  readonly view: MutexView;
  /** CSR: rules of atom a are `ruleIds[ruleStart[a] .. ruleStart[a+1])`. */
  readonly ruleStart: Int32Array;
  readonly ruleIds: Int32Array;
  /** The fluent whose `true` atom it is, else -1. */
  readonly fluentOfAtom: Int32Array;
  /** The role whose `does` atom it is, else -1. */
  readonly roleOfDoes: Int32Array;
  /** Of a `does` atom, its move's `legal` atom (-1: none, the move is never legal). */
  readonly legalOfDoes: Int32Array;
  /** Scratch marks of the walks: atom a is seen in the current walk when `mark[a] === stamp.now`. */
  readonly mark: Int32Array;
  readonly stamp: { now: number };
}

/** The work of building the index: one unit per atom and per rule. */
export function coneIndexCost(view: MutexView): number {
  return 4 * view.atoms + 2 * view.rules.length;
}

/** Builds the index once per pass (its cost, {@link coneIndexCost}, charged by the caller). */
export function coneIndex(view: MutexView): ConeIndex {
  const n = view.atoms;
  const ruleStart = new Int32Array(n + 1);
  for (const r of view.rules) ruleStart[r.head + 1]!++;
  for (let a = 0; a < n; a++) ruleStart[a + 1]! += ruleStart[a]!;
  const fill = ruleStart.slice(0, n);
  const ruleIds = new Int32Array(view.rules.length);
  view.rules.forEach((r, i) => (ruleIds[fill[r.head]!++] = i));
  const fluentOfAtom = new Int32Array(n).fill(-1);
  view.fluents.forEach((f, i) => (fluentOfAtom[f.trueAtom] = i));
  const roleOfDoes = new Int32Array(n).fill(-1);
  const legalOfDoes = new Int32Array(n).fill(-1);
  view.moves.forEach((ms, r) => ms.forEach((m) => m.does >= 0 && ((roleOfDoes[m.does] = r), (legalOfDoes[m.does] = m.legal))));
  return { view, ruleStart, ruleIds, fluentOfAtom, roleOfDoes, legalOfDoes, mark: new Int32Array(n), stamp: { now: 0 } };
}

/** Caps of one closure: fluents in P and atoms visited per walk of its cone. */
interface ClosureCaps {
  readonly maxFluents: number;
  readonly maxAtoms: number;
}

/** A closed projection: P (sorted fluent indexes), the `does` atoms its cone reads, those whose legality P decides. */
export interface Closure {
  readonly fluents: readonly number[];
  readonly does: readonly number[];
  /** The `does` atoms whose `legal` atom's cone reads only fluents of P (no `does`): evaluated in the search. */
  readonly decided: readonly number[];
}

/** A fresh walk: a new stamp, so that no atom is seen yet. */
export function freshWalk(ix: ConeIndex): number {
  if (ix.stamp.now === 0x7fffffff) (ix.mark.fill(0), (ix.stamp.now = 0));
  return ++ix.stamp.now;
}

/** What a walk was told of each atom it reached: `true` to go on, false to stop the walk. */
interface Visitor {
  onTrue(f: number): boolean;
  onDoes(a: number): boolean;
}

/**
 * Walks the cone of `roots` iteratively, marking atoms with `stamp` (atoms already marked are not
 * walked again), each atom and rule literal charged to `meter`. False when a visitor stopped it,
 * more than `budget.left` atoms were visited, or the meter is cut.
 */
export function walkCone(ix: ConeIndex, roots: readonly number[], stamp: number, budget: { left: number }, meter: Meter, visit: Visitor, out?: number[]): boolean {
  const stack: number[] = [];
  for (const a of roots) if (a >= 0 && ix.mark[a] !== stamp) (ix.mark[a] = stamp), stack.push(a);
  while (stack.length > 0) {
    const a = stack.pop()!;
    out?.push(a);
    if (--budget.left < 0 || !meter.spend(1)) return false;
    if (ix.fluentOfAtom[a]! >= 0 ? !visit.onTrue(ix.fluentOfAtom[a]!) : ix.roleOfDoes[a]! >= 0 && !visit.onDoes(a)) return false;
    for (let k = ix.ruleStart[a]!; k < ix.ruleStart[a + 1]!; k++) {
      const r = ix.view.rules[ix.ruleIds[k]!]!;
      if (!meter.spend(1 + r.pos.length + r.neg.length)) return false;
      for (const b of r.pos) if (ix.mark[b] !== stamp) (ix.mark[b] = stamp), stack.push(b);
      for (const b of r.neg) if (ix.mark[b] !== stamp) (ix.mark[b] = stamp), stack.push(b);
    }
  }
  return true;
}

/** Rounds of {@link closeProjection}'s extension by the legal rules' fluents. */
const LEGAL_ROUNDS = 4;

/**
 * The closure of `seed`, or undefined past the caps (or the meter cut). Then extended move by
 * move: a move of P's cone whose `legal` atom reads fluents outside P has them added (and P
 * closed again) when that stays within the caps, so that P decides its legality; a move whose
 * extension does not fit is left to be taken as possibly legal.
 */
export function closeProjection(ix: ConeIndex, seed: readonly number[], caps: ClosureCaps, meter: Meter): Closure | undefined {
  let p = closeNext(ix, seed, caps, meter);
  for (let round = 0, grew = true; p !== undefined && grew && round < LEGAL_ROUNDS; round++) {
    grew = false;
    for (const a of p.does) {
      const read = legalReads(ix, a, p.inP, caps, meter);
      if (meter.cut) return undefined;
      if (read === undefined || read.length === 0) continue;
      const q = closeNext(ix, [...p.fluents, ...read], caps, meter);
      if (meter.cut) return undefined;
      if (q !== undefined) (p = q), (grew = true);
    }
  }
  if (p === undefined) return undefined;
  const decided: number[] = [];
  for (const a of p.does) {
    if (legalReads(ix, a, p.inP, caps, meter)?.length === 0) decided.push(a);
    if (meter.cut) return undefined;
  }
  return { fluents: p.fluents, does: p.does, decided };
}

/**
 * The fluents outside `inP` the `legal` atom of `does` atom `a` reads: undefined when it reads a
 * `does` atom, has no `legal` atom, or more than the caps allow (it would not fit in P).
 */
function legalReads(ix: ConeIndex, a: number, inP: ReadonlySet<number>, caps: ClosureCaps, meter: Meter): number[] | undefined {
  const legal = ix.legalOfDoes[a]!;
  if (legal < 0) return undefined;
  const read: number[] = [];
  const room = caps.maxFluents - inP.size;
  const visit: Visitor = { onTrue: (f) => inP.has(f) || (read.push(f), read.length <= room), onDoes: () => false };
  return walkCone(ix, [legal], freshWalk(ix), { left: caps.maxAtoms }, meter, visit) ? read : undefined;
}

/** The closure of `seed` under the `next` rules' reads, or undefined past the caps. */
function closeNext(ix: ConeIndex, seed: readonly number[], caps: ClosureCaps, meter: Meter): (Omit<Closure, 'decided'> & { inP: Set<number> }) | undefined {
  const { view } = ix;
  const inP = new Set<number>();
  const does = new Set<number>();
  const stamp = freshWalk(ix);
  const budget = { left: caps.maxAtoms };
  const added: number[] = [];
  // The cap is checked as each fluent joins: the walk stops at the first one too many.
  const addFluent = (f: number): boolean => inP.has(f) || (inP.add(f), added.push(f), inP.size <= caps.maxFluents);
  if (!seed.every(addFluent)) return undefined;
  const visit: Visitor = { onTrue: addFluent, onDoes: (a) => (does.add(a), true) };
  for (let i = 0; i < added.length; i++) if (!walkCone(ix, [view.fluents[added[i]!]!.nextAtom], stamp, budget, meter, visit)) return undefined;
  const fluents = [...inP].sort((a, b) => a - b);
  meter.spend(fluents.length + does.size);
  return { fluents, does: [...does].sort((a, b) => a - b), inP };
}
