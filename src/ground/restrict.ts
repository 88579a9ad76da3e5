/**
 * Restricting a ground game to a subset of its rules (pruning, unused-instance removal): the
 * atoms no kept rule, `init` or lazy input mentions go, the rest are renumbered in their order.
 * A subset of a sorted atom list is sorted, so renumbering is monotone: bodies stay ascending
 * and the game keeps its contract (types.ts) without a new canonicalization. Rules are only
 * sorted again when a caller changed a body (then checked in one pass, sorted only if needed),
 * and when nothing is dropped the game's own atoms, rules and vocabulary are reused: no second
 * copy of a game of millions of rules is made to say the same thing. Rules are read and made
 * compactly (compact.ts).
 */
import { Deadline } from '../deadline.js';
import { TICK_MASK, checkDeadline, deadlineTicker, strideTicker } from '../gdl/diagnostics.js';
import { lazyInputAtoms } from './atoms.js';
import { type CompactRules, atomTerms, canonicalNegatives, compactRules, gameFields, gameWithRules } from './compact.js';
import { renumberVocabulary } from './vocabulary.js';
import type { GroundGame } from './types.js';

const NONE: readonly number[] = Object.freeze([]);

/** Maps ascending ids through a monotone renumbering (they stay ascending and distinct). */
function mapIds(ids: readonly number[], renumber: Int32Array): readonly number[] {
  if (ids.length === 0) return NONE;
  const out = new Array<number>(ids.length);
  for (let i = 0; i < ids.length; i++) out[i] = renumber[ids[i]!]!;
  return out;
}

/** `rules` with every atom id mapped through a monotone renumbering (order and bodies stay canonical). */
function renumberRules(rules: CompactRules, renumber: Int32Array, tick: () => void): CompactRules {
  const heads = new Int32Array(rules.count);
  for (let i = 0; i < rules.count; i++) {
    if ((i & TICK_MASK) === 0) tick();
    heads[i] = renumber[rules.heads[i]!]!;
  }
  const lits = new Int32Array(rules.starts[rules.count]!);
  for (let k = 0; k < lits.length; k++) lits[k] = renumber[rules.lits[k]!]!;
  return { count: rules.count, heads, starts: rules.starts, negAt: rules.negAt, lits };
}

/** Numbers the atoms `used` marks in their order (-1: dropped); how many there are. */
function renumbering(used: Uint8Array, tick: () => void): { renumber: Int32Array; count: number } {
  const renumber = new Int32Array(used.length).fill(-1);
  let count = 0;
  for (let id = 0; id < used.length; id++) {
    if ((id & TICK_MASK) === 0) tick();
    if (used[id] === 0) continue;
    renumber[id] = count++;
  }
  return { renumber, count };
}

/** The renumbering of `n` atoms that keeps every one. */
function identity(n: number): Int32Array {
  const out = new Int32Array(n);
  for (let id = 0; id < n; id++) out[id] = id;
  return out;
}

/** `game` with `rules` over the atoms `used` marks, renumbered by `renumber` (its init and vocabulary too). */
function withAtoms(game: GroundGame, rules: CompactRules, renumber: Int32Array, count: number): GroundGame {
  const terms = atomTerms(game);
  const atoms = new Int32Array(count);
  for (let id = 0; id < terms.length; id++) if (renumber[id]! >= 0) atoms[renumber[id]!] = terms[id]!;
  return gameWithRules({ ...gameFields(game), init: mapIds(game.init, renumber), vocabulary: renumberVocabulary(game.vocabulary, renumber) }, atoms, rules);
}

/** What {@link restrictRules} keeps of a game's rules: how many rules and literals, whether a literal goes, the atoms used. */
interface Kept {
  readonly rules: number;
  readonly literals: number;
  readonly changed: boolean;
  readonly used: Uint8Array;
}

/**
 * Counts the rules `keep` marks and their literals, less the negative ones whose atom `keepNeg`
 * does not mark, and marks every atom they mention (heads and literals kept), in one pass.
 */
function keptRules(rules: CompactRules, keep: Uint8Array, keepNeg: Uint8Array, atoms: number, tick: () => void): Kept {
  const { heads, starts, negAt, lits } = rules;
  const used = new Uint8Array(atoms);
  let kept = 0;
  let literals = 0;
  let dropped = 0;
  for (let i = 0, n = rules.count; i < n; i++) {
    if ((i & TICK_MASK) === 0) tick();
    if (keep[i] === 0) continue;
    kept++;
    used[heads[i]!] = 1;
    // One loop, the same statements for positive and negative literals (as in selectKept).
    const neg = negAt[i]!;
    for (let k = starts[i]!, end = starts[i + 1]!; k < end; k++) {
      const a = lits[k]!;
      const mark = keepNeg[a]! | (k < neg ? 1 : 0);
      used[a]! |= mark;
      literals += mark;
      dropped += 1 - mark;
    }
  }
  return { rules: kept, literals, changed: dropped > 0, used };
}

/**
 * The rules `keep` marks (`size.rules` of them, `size.literals` literals), each without the
 * negative literals whose atom `keepNeg` does not mark, their atoms renumbered by `renumber`:
 * one copy into arrays of their exact size. Rules stay sorted by head and positive body (the
 * renumbering is monotone). Pruning selects through it. A rule's literals are copied in one
 * loop with the same statements for positive and negative ones (a negative one dropped is
 * written and then written over: the position does not move past it), so that the first
 * negative literal, late in the rules, does not make V8 compile the loop again.
 */
function selectKept(
  rules: CompactRules, keep: Uint8Array, keepNeg: Uint8Array, size: { readonly rules: number; readonly literals: number }, renumber: Int32Array, tick: () => void,
): CompactRules {
  const { heads, starts, negAt, lits } = rules;
  const outHeads = new Int32Array(size.rules);
  const outStarts = new Int32Array(size.rules + 1);
  const outNeg = new Int32Array(size.rules);
  const outLits = new Int32Array(size.literals);
  let n = 0;
  let k = 0;
  for (let i = 0, count = rules.count; i < count; i++) {
    if ((i & TICK_MASK) === 0) tick();
    if (keep[i] === 0) continue;
    const neg = negAt[i]!;
    outHeads[n] = renumber[heads[i]!]!;
    outStarts[n] = k;
    outNeg[n] = k + neg - starts[i]!;
    for (let m = starts[i]!, end = starts[i + 1]!; m < end; m++) {
      const a = lits[m]!;
      // Past the last literal kept (the array's end) a typed array ignores the write.
      outLits[k] = renumber[a]!;
      k += keepNeg[a]! | (m < neg ? 1 : 0);
    }
    n++;
  }
  outStarts[n] = k;
  return { count: n, heads: outHeads, starts: outStarts, negAt: outNeg, lits: outLits };
}

/**
 * The game restricted to the rules `keep` marks (by index, in their order), each without the
 * negative literals whose atom `keepNeg` does not mark (pruning: those over unreachable atoms,
 * always true), and to the atoms they, `init` and the lazy part mention, renumbered in order.
 * The rules are selected and renumbered in one copy of their exact size; rules that lost a
 * literal are sorted again only within their runs of equal head and positive body
 * (`canonicalNegatives`), the only place their order can change. When nothing is dropped the
 * game's own rules and atoms are kept. Past a limit of `deadline` it throws a limit error. The
 * result has the other fields of `game` as they are.
 */
export function restrictRules(game: GroundGame, keep: Uint8Array, keepNeg: Uint8Array, deadline: Deadline, what: string): GroundGame {
  const tick = deadlineTicker(deadline, game.file, what);
  // For the loops over every rule or atom, which call it once per TICK_MASK + 1 of them.
  const stride = strideTicker(deadline, game.file, what);
  const rules = compactRules(game);
  const terms = atomTerms(game);
  const n = terms.length;
  const kept = keptRules(rules, keep, keepNeg, n, stride);
  const used = kept.used;
  for (const id of game.init) used[id] = 1;
  // Lazy atoms and lazy rules' heads (docs/lazy.md) stay: the simulators read and make them.
  for (const id of lazyInputAtoms(game)) used[id] = 1;
  // Every atom used (pruning most large games): no renumbering is made.
  let all = true;
  for (let id = 0; id < n && all; id++) all = used[id] === 1;
  if (all) {
    const same = kept.rules === rules.count && !kept.changed;
    const selected = same ? rules : selectKept(rules, keep, keepNeg, kept, identity(n), stride);
    const out = kept.changed ? canonicalNegatives(selected, n, tick) : selected;
    checkDeadline(deadline, game.file, what);
    return gameWithRules(gameFields(game), terms, out);
  }
  const { renumber, count } = renumbering(used, stride);
  let out = selectKept(rules, keep, keepNeg, kept, renumber, stride);
  if (kept.changed) out = canonicalNegatives(out, count, tick);
  checkDeadline(deadline, game.file, what);
  return withAtoms(game, out, renumber, count);
}

/**
 * The game restricted to the rules whose head `heads` marks, where every atom those rules
 * mention is marked too (unused-instance removal: the needed atoms are closed under rule
 * bodies), and to the atoms `heads`, `init` and the lazy part mark, renumbered in order. The
 * rules are selected and renumbered in one pass into arrays of their exact size (before: a copy
 * to select and a second to renumber, each tens of MiB, and a pass to find the atoms used).
 * When nothing is dropped the game's own rules and atoms are kept. Past a limit of `deadline`
 * it throws a limit error.
 */
export function restrictToHeads(game: GroundGame, heads: Uint8Array, deadline: Deadline, what: string): GroundGame {
  const tick = strideTicker(deadline, game.file, what);
  const rules = compactRules(game);
  const used = heads.slice();
  for (const id of game.init) used[id] = 1;
  // Lazy atoms and lazy rules' heads (docs/lazy.md) stay: the simulators read and make them.
  for (const id of lazyInputAtoms(game)) used[id] = 1;
  const { renumber, count } = renumbering(used, tick);
  const kept = rulesOfHeads(rules, heads);
  checkDeadline(deadline, game.file, what);
  if (count === used.length && kept.rules === rules.count) return gameWithRules(gameFields(game), atomTerms(game), rules);
  const out = kept.rules === rules.count ? renumberRules(rules, renumber, tick) : selectOfHeads(rules, heads, kept, renumber, tick);
  checkDeadline(deadline, game.file, what);
  return withAtoms(game, out, renumber, count);
}

/**
 * How many rules have a head `heads` marks, and their literals. Its own function, as every
 * loop over all rules here: this runs once per game, and V8 compiled a function of several
 * loops again for each (docs/corpus.md, tail29).
 */
function rulesOfHeads(rules: CompactRules, heads: Uint8Array): { readonly rules: number; readonly literals: number } {
  // The rules' arrays in locals: this loop runs once per game, partly unoptimized, where each
  // `rules.x` is a property load per rule.
  const { count, heads: ruleHeads, starts } = rules;
  let kept = 0;
  let literals = 0;
  for (let i = 0; i < count; i++) {
    const mark = heads[ruleHeads[i]!]!;
    kept += mark;
    literals += mark * (starts[i + 1]! - starts[i]!);
  }
  return { rules: kept, literals };
}

/**
 * The rules whose head `heads` marks (`size.rules` of them, `size.literals` literals), whole,
 * their atoms renumbered by `renumber`: one copy into arrays of their exact size, each rule's
 * literals (positive and negative alike: one range) in one loop.
 */
function selectOfHeads(rules: CompactRules, heads: Uint8Array, size: { readonly rules: number; readonly literals: number }, renumber: Int32Array, tick: () => void): CompactRules {
  const { heads: ruleHeads, starts, negAt, lits } = rules;
  const outHeads = new Int32Array(size.rules);
  const outStarts = new Int32Array(size.rules + 1);
  const outNeg = new Int32Array(size.rules);
  const outLits = new Int32Array(size.literals);
  let n = 0;
  let k = 0;
  for (let i = 0, count = rules.count; i < count; i++) {
    if ((i & TICK_MASK) === 0) tick();
    if (heads[ruleHeads[i]!] === 0) continue;
    outHeads[n] = renumber[ruleHeads[i]!]!;
    outStarts[n] = k;
    outNeg[n] = k + negAt[i]! - starts[i]!;
    for (let m = starts[i]!, end = starts[i + 1]!; m < end; m++) outLits[k++] = renumber[lits[m]!]!;
    n++;
  }
  outStarts[n] = k;
  return { count: n, heads: outHeads, starts: outStarts, negAt: outNeg, lits: outLits };
}
