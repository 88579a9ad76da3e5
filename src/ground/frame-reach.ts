/**
 * Ground reachability of a game whose first run made frame rewrites early (docs/ground.md, "One
 * decision for both methods"): each rewrite of a `(next F)` rule whose relaxed game may reach
 * more than the rule (`GroundGame.frame.early`) is read as the rule it replaced, so that the
 * supersets read back are those of the first run as it was before (the rule as written), and
 * the run over them is needed only when they are fewer than the supersets given.
 *
 * The rewrite of h(X) <= does(R, M), P(M), T(M, Xc), rest(X) is
 *   moved(R) <= does(R, M), P(M)            touched(R, Xc) <= does(R, M), not T_i(M, Xc)
 *   h(X) <= rest(X), moved(R), dom(Xc), not touched(R, Xc)
 * In the relaxed game of the rule as written, h(x) is reached when rest(x) is and some move m
 * of the role passes P with its atoms reached (a `moved` rule of m fires) and passes every
 * static test at the cell c: m has no `touched` rule for (r, c) whose only positive atom is its
 * `does` (a negated static test or a distinct, evaluated at instantiation; a negated test of a
 * state-dependent relation keeps that atom positive in `touched`, and in the relaxed game the
 * rule as written drops it). So each head rule waits, besides its positive atoms, for a witness
 * of its `touched` atom t: a move whose `moved` rule fired and which is not among t's statically
 * failing moves. A witness found stays one, so the forward chaining stays monotone; per move made
 * available only t's pending for its role are looked at, and each either gets its witness (and
 * leaves) or is among the move's failing ones.
 *
 * Everything else is the same in both runs: `next` atoms are read by no rule and filtered by the
 * fluents, so the early rewrite changes no other store, and reachability of the atoms of the
 * game's relations is that of the game instantiated with the rule as written (its split parts,
 * if split, are exact in the relaxed game too).
 */
import type { Deadline } from '../deadline.js';
import type { Supersets } from '../reach/types.js';
import { supersetSizes } from '../reach/handover.js';
import { type CompactRules, atomCount, atomTerms } from './compact.js';
import { reachableAtoms } from './reachability.js';
import type { EarlyFrame, GroundGame } from './types.js';

/** The witnesses the head rules of early rewrites wait for (see the module comment). */
interface Witnesses {
  /** Per rule: the `does` atom of a `moved` rule, else -1. */
  readonly movedDoes: Int32Array;
  /** Per `does` atom: the `touched` atoms it fails statically. */
  readonly failing: Map<number, number[]>;
  /** Per `moved` atom: the `touched` atoms of its head rules still without a witness. */
  readonly pending: Map<number, number[]>;
  /** Per `touched` atom: the head rules waiting for its witness. */
  readonly waiters: Map<number, number[]>;
  /** Moves made available, as `moved` atom × atoms + `does` atom. */
  readonly seen: Set<number>;
}

function push(map: Map<number, number[]>, key: number, value: number): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

/** Per atom, the index of its early rewrite when it is an atom of that rewrite's `moved` (`touched`) relation, else -1. */
function rewriteAtoms(game: GroundGame, early: readonly EarlyFrame[]): { moved: Int32Array; touched: Int32Array } {
  const { terms } = game;
  const movedSym = new Map<number, number>();
  const touchedSym = new Map<number, number>();
  early.forEach((e, k) => {
    movedSym.set(terms.findSymbol(e.moved), k);
    if (e.touched !== null) touchedSym.set(terms.findSymbol(e.touched), k);
  });
  const atoms = atomTerms(game);
  const moved = new Int32Array(atoms.length).fill(-1);
  const touched = new Int32Array(atoms.length).fill(-1);
  for (let id = 0; id < atoms.length; id++) {
    const sym = terms.functor(atoms[id]!);
    moved[id] = movedSym.get(sym) ?? -1;
    touched[id] = touchedSym.get(sym) ?? -1;
  }
  return { moved, touched };
}

/** The first literal of `lits[from .. to - 1]` that `pick` gives an index for, or -1. */
function firstOf(lits: Int32Array, from: number, to: number, pick: (id: number) => boolean): number {
  for (let k = from; k < to; k++) if (pick(lits[k]!)) return lits[k]!;
  return -1;
}

/** The witnesses of `rules`, one more wait added to `waiting` for each head rule that has a `touched` atom. */
function witnesses(game: GroundGame, rules: CompactRules, early: readonly EarlyFrame[], waiting: Int32Array): Witnesses {
  const { moved, touched } = rewriteAtoms(game, early);
  const doesSym = game.terms.findSymbol('does');
  const atoms = atomTerms(game);
  const isDoes = (id: number): boolean => game.terms.functor(atoms[id]!) === doesSym;
  const { heads, starts, negAt, lits } = rules;
  const w: Witnesses = { movedDoes: new Int32Array(rules.count).fill(-1), failing: new Map(), pending: new Map(), waiters: new Map(), seen: new Set() };
  const paired = new Uint8Array(atoms.length);
  for (let i = 0; i < rules.count; i++) {
    const h = heads[i]!;
    if (moved[h]! >= 0) w.movedDoes[i] = firstOf(lits, starts[i]!, negAt[i]!, isDoes);
    else if (touched[h]! >= 0) {
      if (negAt[i]! - starts[i]! === 1 && isDoes(lits[starts[i]!]!)) push(w.failing, lits[starts[i]!]!, h);
    } else {
      const a = firstOf(lits, starts[i]!, negAt[i]!, (id) => moved[id]! >= 0);
      if (a < 0) continue;
      const t = firstOf(lits, negAt[i]!, starts[i + 1]!, (id) => touched[id] === moved[a]);
      if (t < 0) continue;
      waiting[i]!++;
      push(w.waiters, t, i);
      if (paired[t] === 0) (paired[t] = 1, push(w.pending, a, t));
    }
  }
  return w;
}

/**
 * Move `does` made available for the role of `moved` atom `a`: every `touched` atom pending
 * for `a` that `does` does not fail statically has its witness, and its head rules are
 * released (`release`).
 */
function available(w: Witnesses, atoms: number, a: number, does: number, stamp: Int32Array, release: (rule: number) => void): void {
  const key = a * atoms + does;
  if (w.seen.has(key)) return;
  w.seen.add(key);
  const pending = w.pending.get(a);
  if (pending === undefined || pending.length === 0) return;
  const mark = w.seen.size;
  for (const t of w.failing.get(does) ?? []) stamp[t] = mark;
  const still: number[] = [];
  for (const t of pending) {
    if (stamp[t] === mark) still.push(t);
    else for (const ri of w.waiters.get(t)!) release(ri);
  }
  w.pending.set(a, still);
}

/**
 * The ids of the atoms reachable in the relaxed ground game with each rewrite of `early` read
 * as the rule it replaced (module comment): reachableAtoms (reachability.ts) with each head rule
 * waiting for its witness too. Past a limit of `deadline` it throws a limit error.
 */
export function writtenReach(game: GroundGame, early: readonly EarlyFrame[], deadline: Deadline): Uint8Array {
  const n = atomCount(game);
  const stamp = new Int32Array(n);
  let w: Witnesses | undefined;
  let heads: Int32Array | undefined;
  return reachableAtoms(game, deadline, {
    prepare: (rules, waiting) => {
      w = witnesses(game, rules, early, waiting);
      heads = rules.heads;
    },
    // A head rule released by a witness is no `moved` rule, so this goes one call deep at most.
    fired: (ri, release) => {
      const does = w!.movedDoes[ri]!;
      if (does >= 0) available(w!, n, heads![ri]!, does, stamp, release);
    },
  });
}

/**
 * Whether the atoms `reached` of `game` (instantiated over `first`, hence within it) hold every
 * fluent and move of `first`: then the run over the supersets read back would be the first
 * run again (frame-run.ts, keepsFluentsAndMoves, counts the same on a pruned game).
 */
export function reachesAll(game: GroundGame, reached: Uint8Array, first: Supersets): boolean {
  const holds = (id: number): boolean => id >= 0 && reached[id] === 1;
  let fluents = 0;
  let moves = 0;
  for (const f of game.vocabulary.fluents) if (holds(f.trueId) || holds(f.nextId)) fluents++;
  for (const m of game.vocabulary.moves) if (holds(m.doesId) || holds(m.legalId)) moves++;
  const sizes = supersetSizes(first);
  return fluents === sizes.fluents && moves === sizes.moves;
}
