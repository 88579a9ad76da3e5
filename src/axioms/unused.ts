/**
 * Elimination of unused ground instances (GGP book, end of 14.4): a ground rule is needed when
 * its head is a `next`, `legal`, `goal` or `terminal` atom, or an atom some needed rule reads;
 * everything else (rules and the atoms only they mention) can go without changing play.
 */
import { Deadline } from '../deadline.js';
import { TICK_MASK, checkDeadline, strideTicker } from '../gdl/diagnostics.js';
import { restrictToHeads } from '../ground/restrict.js';
import { atomCount, compactRules, prefixSums, ruleCount } from '../ground/compact.js';
import type { GroundAtom, GroundGame } from '../ground/types.js';
import { outputAtoms } from './atoms.js';

/** Rule indices per head atom. */
export function rulesByHead(game: GroundGame): number[][] {
  const byHead: number[][] = Array.from({ length: game.atoms.length }, () => []);
  game.rules.forEach((r, i) => byHead[r.head]!.push(i));
  return byHead;
}

/**
 * Rule indices per head atom as one list with offsets per atom (`start[id]` to `start[id + 1]`):
 * rules are sorted by head (the GroundGame contract), so they are the rules' own indices.
 */
function headRanges(heads: Int32Array, count: number, atoms: number, tick: () => void): Int32Array {
  const start = new Int32Array(atoms + 1);
  countHeads(heads, count, start, tick);
  prefixSums(start);
  return start;
}

/** Counts each head's rules into `start[head + 1]`. */
function countHeads(heads: Int32Array, count: number, start: Int32Array, tick: () => void): void {
  for (let i = 0; i < count; i++) {
    if ((i & TICK_MASK) === 0) tick();
    start[heads[i]! + 1]!++;
  }
}

/**
 * The atoms whose rules play needs: the outputs, then backwards through rule bodies.
 *   needed(H) :- rule(H, _), output(H).
 *   needed(B) :- needed(H), rule(H, Body), B in Body.
 * Each loop is a function of its own: this runs once per game, and V8 compiled a function of
 * several loops again for each loop, having left the one before at code it had not seen run
 * (three compiles here on amazons, emit's termBytes six; docs/corpus.md, tail29).
 */
export function neededAtoms(game: GroundGame, deadline: Deadline): Uint8Array {
  const tick = strideTicker(deadline, game.file, 'dropping unused instances');
  const rules = compactRules(game);
  const atoms = atomCount(game);
  const start = headRanges(rules.heads, rules.count, atoms, tick);
  const needed = new Uint8Array(atoms);
  // Each atom is pushed once, when first needed.
  const todo = new Int32Array(atoms);
  const top = seedOutputs(start, outputAtoms(game), needed, todo, tick);
  closeUnderBodies(start, rules.starts, rules.lits, needed, todo, top, tick);
  return needed;
}

/** Marks as needed and pushes on `todo` every output atom that has rules; how many were pushed. */
function seedOutputs(start: Int32Array, output: Uint8Array, needed: Uint8Array, todo: Int32Array, tick: () => void): number {
  let top = 0;
  for (let id = 0, atoms = needed.length; id < atoms; id++) {
    if ((id & TICK_MASK) === 0) tick();
    // Without a branch: the first output atom comes late (atoms are in text order, `does`
    // first), where a branch not yet run made V8 compile the loop again.
    const mark = (start[id + 1]! > start[id]! ? 1 : 0) & output[id]!;
    needed[id] = mark;
    todo[top] = id;
    top += mark;
  }
  return top;
}

/** Marks every atom in a body of a rule of a needed head, from the `top` atoms on `todo`. */
function closeUnderBodies(start: Int32Array, starts: Int32Array, lits: Int32Array, needed: Uint8Array, todo: Int32Array, top: number, tick: () => void): void {
  while (top > 0) {
    const h = todo[--top]!;
    for (let r = start[h]!; r < start[h + 1]!; r++) {
      if ((r & TICK_MASK) === 0) tick();
      // Both bodies: a rule's literals are one range, the positive ones first.
      for (let k = starts[r]!; k < starts[r + 1]!; k++) {
        const b = lits[k]!;
        if (needed[b] === 0) {
          needed[b] = 1;
          todo[top++] = b;
        }
      }
    }
  }
}

/**
 * Keeps the atoms with `keep[id] === 1`, renumbered in their present order. Because a subset of
 * a sorted list is sorted, the result keeps whatever order the atoms had (by text, per the
 * GroundGame contract) and renumbering is monotone: ascending bodies stay ascending.
 */
export function restrictAtoms(atoms: readonly GroundAtom[], keep: Uint8Array): { atoms: GroundAtom[]; renumber: Int32Array } {
  const renumber = new Int32Array(atoms.length).fill(-1);
  const out: GroundAtom[] = [];
  atoms.forEach((a, id) => {
    if (keep[id] === 1) {
      renumber[id] = out.length;
      out.push(a);
    }
  });
  return { atoms: out, renumber };
}

/** Counts of what {@link removeUnused} dropped. */
export interface UnusedStats {
  readonly rulesBefore: number;
  readonly rulesAfter: number;
  readonly atomsBefore: number;
  readonly atomsAfter: number;
}

/**
 * Drops every rule whose head is not needed and every atom no remaining rule or `init`
 * mentions; pure, and the result keeps the GroundGame contract (atoms in their order, bodies
 * ascending, rules sorted by head, then bodies). Play is unchanged: only atoms that no
 * output depends on lose their rules. Past a limit of `deadline` it throws a limit error.
 */
export function removeUnused(game: GroundGame, deadline: Deadline): { game: GroundGame; stats: UnusedStats } {
  const needed = neededAtoms(game, deadline);
  checkDeadline(deadline, game.file, 'dropping unused instances');
  // Kept rules (those of needed heads) are a subsequence with bodies unchanged, so they stay
  // sorted; every atom they mention is needed (the needed atoms are closed under bodies).
  const out = restrictToHeads(game, needed, deadline, 'dropping unused instances');
  const stats = { rulesBefore: ruleCount(game), rulesAfter: ruleCount(out), atomsBefore: atomCount(game), atomsAfter: atomCount(out) };
  return { game: out, stats };
}
