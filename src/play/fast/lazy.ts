/**
 * The fast simulator's side of a ground game with lazy axioms (docs/lazy.md, docs/play.md).
 * Opaque lazy atoms are inputs of the net that start each state at 1, "not known yet": a
 * ground rule reads them only negatively, so an unknown atom blocks its rules. After the net
 * settles, a rule whose every other literal holds waits only for its unknown lazy atoms; those
 * are decided by the evaluator (lazy-hybrid.ts: term-table evaluation, demand-driven), set,
 * and the net settles again, until no rule waits. An atom never asked stays at 1, which is
 * harmless: each of its readers has another literal false. The heads lazy keyword rules make
 * enter the net as support from outside: legal, goal and terminal ones per state, next ones
 * once the joint move is set.
 */
import type { OutputKeyword } from '../../gdl/keywords.js';
import { Deadline } from '../../deadline.js';
import { lazyInputAtoms } from '../../ground/atoms.js';
import type { GroundGame } from '../../ground/types.js';
import { type HybridEvaluator, createHybridEvaluator } from '../lazy-hybrid.js';
import type { Net } from './net.js';
import type { Propagator } from './propagate.js';

/** What the fast simulator calls at each step of a game with a lazy part. */
export interface FastLazy {
  /**
   * After a state's true atoms are set and the does atoms cleared (`changed`: the state differs
   * from the one loaded before): next heads withdrawn, lazy atoms unknown again, legal, goal and
   * terminal heads set, the net settled with every waiting lazy atom decided.
   */
  loadState(fluents: readonly number[], changed: boolean): void;
  /** After the joint move's does atoms are set and the net settled: lazy atoms rules now wait for, next heads. */
  loadMoves(moves: ArrayLike<number>): void;
  /** The evaluator (its engine, for stats). */
  readonly evaluator: HybridEvaluator;
}

/** Per atom, 1 when it is an opaque lazy atom (decided on demand, not a head of a lazy rule). */
export function opaqueAtoms(game: GroundGame): Uint8Array {
  const heads = new Set(game.lazy?.heads ?? []);
  const mask = new Uint8Array(game.atoms.length);
  for (const id of lazyInputAtoms(game)) if (!heads.has(game.atoms[id]!.term)) mask[id] = 1;
  return mask;
}

/**
 * The rules reading opaque atoms: `counted` (their propagator counter is kept) and `other`
 * (cyclic heads), each once, ascending; per counted rule its number of opaque literals; per
 * opaque atom the counted rules reading it.
 */
function readersOf(net: Net, opaque: Uint8Array): { counted: Int32Array; other: Int32Array; opaqueCount: Int32Array; byAtomStart: Int32Array; byAtom: Int32Array } {
  const counted: number[] = [];
  const other: number[] = [];
  const opaqueCount = new Int32Array(net.rules);
  // (atom, rule) pairs, flat, for the CSR lists of byAtom.
  const pairs: number[] = [];
  for (let k = 0; k < net.rules; k++) {
    const cyclic = net.cyclic[net.comp[net.head[k]!]!] === 1;
    for (let i = net.negStart[k]!; i < net.negStart[k + 1]!; i++) {
      const q = net.neg[i]!;
      if (opaque[q] !== 1) continue;
      if (opaqueCount[k]!++ === 0) (cyclic ? other : counted).push(k);
      if (!cyclic) pairs.push(q, k);
    }
  }
  const byAtomStart = new Int32Array(net.atoms + 1);
  for (let i = 0; i < pairs.length; i += 2) byAtomStart[pairs[i]! + 1]!++;
  for (let a = 0; a < net.atoms; a++) byAtomStart[a + 1]! += byAtomStart[a]!;
  const byAtom = new Int32Array(pairs.length >> 1);
  const fill = byAtomStart.slice(0, net.atoms);
  for (let i = 0; i < pairs.length; i += 2) byAtom[fill[pairs[i]!]!++] = pairs[i + 1]!;
  return { counted: Int32Array.from(counted), other: Int32Array.from(other), opaqueCount, byAtomStart, byAtom };
}

/**
 * The counted readers grouped by a key atom, one of their positive literals: the one fewest
 * readers share (the likeliest to be false, a piece on a square rather than whose turn it is).
 * A group whose key is false has no waiting rule and is skipped whole. Rules without a positive
 * literal form the group of key -1, always looked at.
 */
function groupByKey(net: Net, counted: Int32Array): { keys: Int32Array; start: Int32Array; rules: Int32Array } {
  const uses = new Int32Array(net.atoms);
  for (const k of counted) for (let i = net.posStart[k]!; i < net.posStart[k + 1]!; i++) uses[net.pos[i]!]!++;
  const groups = new Map<number, number[]>();
  for (const k of counted) {
    let key = -1;
    for (let i = net.posStart[k]!; i < net.posStart[k + 1]!; i++) if (key < 0 || uses[net.pos[i]!]! < uses[key]!) key = net.pos[i]!;
    const list = groups.get(key);
    if (list === undefined) groups.set(key, [k]);
    else list.push(k);
  }
  const keys = [...groups.keys()].sort((x, y) => x - y);
  const start = new Int32Array(keys.length + 1);
  keys.forEach((key, g) => (start[g + 1] = start[g]! + groups.get(key)!.length));
  return { keys: Int32Array.from(keys), start, rules: Int32Array.from(keys.flatMap((key) => groups.get(key)!)) };
}

/** The lazy side of the fast simulator over `net` and its propagator (whose opaque atoms are all still 0). */
export function fastLazy(game: GroundGame, net: Net, prop: Propagator, opaque: Uint8Array, deadline: Deadline): FastLazy {
  const evaluator = createHybridEvaluator(game, deadline);
  const atomOf = new Map(game.atoms.map((a, i) => [a.term, i]));
  const { counted, other, opaqueCount, byAtomStart, byAtom } = readersOf(net, opaque);
  const { val, unmet } = prop;
  // Per counted reader, its opaque literals not decided in the loaded state: each is at 1, so
  // it counts in unmet; the rule waits for them alone when unmet equals it.
  const undecided = opaqueCount.slice();
  const groups = groupByKey(net, counted);
  // decided[a] = 1 once opaque atom a was asked in the loaded state.
  const decided = new Uint8Array(game.atoms.length);
  const decidedList: number[] = [];
  let stateHeads: number[] = [];
  let nextHeads: number[] = [];
  for (let a = 0; a < opaque.length; a++) if (opaque[a] === 1) prop.setInput(a, 1);

  const support = (rel: OutputKeyword, into: number[]): void => {
    for (const t of evaluator.heads(rel)) {
      const a = atomOf.get(t);
      if (a !== undefined) prop.addSupport(a, 1), into.push(a);
    }
  };
  const withdraw = (list: number[]): void => {
    for (const a of list) prop.addSupport(a, -1);
    list.length = 0;
  };

  /** Whether rule k's literals other than its undecided opaque atoms hold, and it has such an atom. */
  const waits = (k: number): boolean => {
    for (let i = net.posStart[k]!; i < net.posStart[k + 1]!; i++) if (val[net.pos[i]!] === 0) return false;
    let unknown = false;
    for (let i = net.negStart[k]!; i < net.negStart[k + 1]!; i++) {
      const q = net.neg[i]!;
      if (opaque[q] === 1 && decided[q] === 0) unknown = true;
      else if (val[q] === 1) return false;
    }
    return unknown;
  };

  /** Decides rule k's unknown opaque atoms, in order, until one holds (then the rule is blocked anyway). */
  const decide = (k: number): void => {
    for (let i = net.negStart[k]!; i < net.negStart[k + 1]!; i++) {
      const q = net.neg[i]!;
      if (opaque[q] === 0 || decided[q] === 1) continue;
      decided[q] = 1;
      decidedList.push(q);
      for (let j = byAtomStart[q]!; j < byAtomStart[q + 1]!; j++) undecided[byAtom[j]!]!--;
      if (evaluator.holds(game.atoms[q]!.term)) return;
      prop.setInput(q, 0);
    }
  };

  /**
   * Until no rule waits:  waits(k) => decide(k);  then settle. A counted rule waits when
   * unmet(k) = undecided(k) > 0 (its other literals hold); a cyclic one is looked at literally.
   * Every round decides at least one atom, so it ends.
   */
  const demand = (): void => {
    prop.propagate();
    for (;;) {
      let asked = false;
      for (let g = 0; g < groups.keys.length; g++) {
        const key = groups.keys[g]!;
        if (key >= 0 && val[key] === 0) continue;
        for (let i = groups.start[g]!; i < groups.start[g + 1]!; i++) {
          const k = groups.rules[i]!;
          const u = undecided[k]!;
          if (u > 0 && unmet[k] === u) decide(k), (asked = true);
        }
      }
      for (let i = 0; i < other.length; i++) {
        const k = other[i]!;
        if (waits(k)) decide(k), (asked = true);
      }
      if (!asked) return;
      prop.propagate();
    }
  };

  return {
    evaluator,
    loadState: (fluents, changed) => {
      withdraw(nextHeads);
      if (changed) {
        for (const a of decidedList) {
          decided[a] = 0;
          if (val[a] === 0) prop.setInput(a, 1);
          for (let j = byAtomStart[a]!; j < byAtomStart[a + 1]!; j++) undecided[byAtom[j]!]!++;
        }
        decidedList.length = 0;
        evaluator.setState(fluents);
        withdraw(stateHeads);
        support('legal', stateHeads);
        support('goal', stateHeads);
        support('terminal', stateHeads);
      }
      demand();
    },
    loadMoves: (moves) => {
      const joint: (readonly [number, number])[] = [];
      for (let i = 0; i < moves.length; i++) {
        const args = game.atoms[moves[i]!]!.args;
        joint.push([args[0]!, args[1]!]);
      }
      evaluator.setMoves(joint);
      demand();
      support('next', nextHeads);
      prop.propagate();
    },
  };
}
