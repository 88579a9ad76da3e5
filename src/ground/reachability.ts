/**
 * Post-processing at the end of 9.1.3: reachability on the ground rules with negative
 * literals removed. Starting from the initial state, a rule fires once all its positive body
 * atoms are reached; `(next F)` reaches `(true F)` and `(legal R M)` reaches `(does R M)`, as in
 * the relaxed game of Algorithm 9.2. Afterwards the supersets and the ground game are the same
 * whichever method produced the supersets the rules were instantiated with.
 */
import type { Atom, Term } from '../gdl/ast.js';
import { KEYWORDS, NO_POS } from '../gdl/ast.js';
import { relationKeys, stateDependent } from '../gdl/relations.js';
import { atomToString, compareCodePoints } from '../gdl/terms.js';
import { type NormalGame, asRule } from '../normalize/types.js';
import type { Move, Supersets } from '../reach/types.js';
import { Deadline } from '../deadline.js';
import { TICK_MASK, deadlineTicker, strideTicker } from '../gdl/diagnostics.js';
import { lazyInputAtoms } from './atoms.js';
import { restrictRules } from './restrict.js';
import { relaxedBridges } from './vocabulary.js';
import type { GroundGame } from './types.js';
import { type CompactRules, atomCount, atomTerms, compactRules, gameFields, gameWithRules, prefixSums } from './compact.js';

/**
 * What a caller adds to the forward chaining of {@link reachableAtoms} (frame-reach.ts reads
 * early frame rewrites as the rules they replaced this way): waits beyond the positive bodies,
 * and a hook when a rule fires that may release waits of other rules.
 */
interface ChainHooks {
  /** Called once, after `waiting` holds each rule's positive body size: may add waits. */
  readonly prepare: (rules: CompactRules, waiting: Int32Array) => void;
  /** Rule `ri` fired (once); `release(rj)` takes one wait off rule `rj`. */
  readonly fired: (ri: number, release: (rj: number) => void) => void;
}

/**
 * The ids of the atoms reachable in the relaxed ground game (negative literals ignored), by
 * counting down each rule's unreached positive atoms (a linear-time forward chaining):
 *   reach(h) <= reach(p1), ..., reach(pn)   for every rule h <= p1..pn, not n1..nm
 *   reach((true F)) <= reach((next F))      reach((does R M)) <= reach((legal R M))
 * `hooks` add waits and act when a rule fires. Past a limit of `deadline` (looked at per rule
 * and per atom) it throws a limit error.
 */
export function reachableAtoms(game: GroundGame, deadline: Deadline, hooks?: ChainHooks): Uint8Array {
  return forwardChain(game, deadline, hooks).reached;
}

/**
 * {@link reachableAtoms}' chaining, with what it leaves per rule: `waiting[i]`, rule `i`'s
 * positive body atoms not reached (0: the rule fired), plus the waits `hooks` added.
 */
function forwardChain(game: GroundGame, deadline: Deadline, hooks?: ChainHooks): { reached: Uint8Array; waiting: Int32Array } {
  const tick = deadlineTicker(deadline, game.file, 'ground reachability');
  const n = atomCount(game);
  const rules = compactRules(game);
  const bridge = relaxedBridges(game.vocabulary, n);
  const waiting = new Int32Array(rules.count);
  const { start, list } = positiveWatchers(rules, n, waiting, strideTicker(deadline, game.file, 'ground reachability'));
  hooks?.prepare(rules, waiting);
  const reached = new Uint8Array(n);
  // The atoms reached and not yet followed: each is pushed once, so n entries suffice.
  const todo = new Int32Array(n);
  let top = 0;
  const seed = (id: number): void => {
    if (id < 0 || reached[id] === 1) return;
    reached[id] = 1;
    todo[top++] = id;
  };
  const heads = rules.heads;
  const release = (ri: number): void => {
    if (--waiting[ri]! === 0) fire(ri);
  };
  const fire = hooks === undefined
    ? (ri: number): void => seed(heads[ri]!)
    : (ri: number): void => {
      seed(heads[ri]!);
      hooks.fired(ri, release);
    };
  for (const id of game.init) seed(id);
  // Lazy atoms and the heads of lazy rules (docs/lazy.md) may hold in any state.
  for (const id of lazyInputAtoms(game)) seed(id);
  fireUnwaited(waiting, fire);
  while (top > 0) {
    const id = todo[--top]!;
    tick();
    seed(bridge[id]!);
    for (let k = start[id]!, end = start[id + 1]!; k < end; k++) release(list[k]!);
  }
  return { reached, waiting };
}

/** Fires every rule that waits for nothing (its own function: see {@link positiveWatchers}). */
function fireUnwaited(waiting: Int32Array, fire: (ri: number) => void): void {
  for (let i = 0; i < waiting.length; i++) if (waiting[i] === 0) fire(i);
}

/**
 * Per atom, the rules whose positive body holds it, as one list of rule indices with offsets
 * per atom (two typed arrays, not an array per atom); `waiting` gets each rule's body size.
 * Bodies are ascending without duplicates (the GroundGame contract): each atom counts once.
 * The offsets are filled from each list's end backwards, so they need no second array.
 */
function positiveWatchers(rules: CompactRules, atoms: number, waiting: Int32Array, tick: () => void): { start: Int32Array; list: Int32Array } {
  // First the count of each atom's rules, then the end of its list, then (filled) its start.
  // Each loop is a function of its own: V8 compiled a function of the three again for each
  // loop, having left the one before at code it had not seen run (docs/corpus.md, tail29).
  const start = new Int32Array(atoms + 1);
  const total = countWatchers(rules, waiting, start, tick);
  prefixSums(start);
  const list = new Int32Array(total);
  fillWatchers(rules, start, list, tick);
  return { start, list };
}

/** Each rule's positive body size into `waiting`, each atom's count of rules into `count`; the sum of the sizes. */
function countWatchers(rules: CompactRules, waiting: Int32Array, count: Int32Array, tick: () => void): number {
  const { starts, negAt, lits } = rules;
  let total = 0;
  for (let i = 0, n = rules.count; i < n; i++) {
    if ((i & TICK_MASK) === 0) tick();
    waiting[i] = negAt[i]! - starts[i]!;
    total += waiting[i]!;
    for (let k = starts[i]!; k < negAt[i]!; k++) count[lits[k]!]!++;
  }
  return total;
}

/** Each rule's index into the lists of its positive atoms, filled from their ends (`end`, moved down to their starts). */
function fillWatchers(rules: CompactRules, end: Int32Array, list: Int32Array, tick: () => void): void {
  const { starts, negAt, lits } = rules;
  for (let i = rules.count - 1; i >= 0; i--) {
    if ((i & TICK_MASK) === 0) tick();
    for (let k = starts[i]!; k < negAt[i]!; k++) list[--end[lits[k]!]!] = i;
  }
}

/**
 * Keeps the rules whose positive body atoms are all reachable (their heads then are too), drops
 * negative literals over unreachable atoms (they are always true), and restricts the game to
 * them (restrict.ts): the atoms left keep their relative order, which is text order already,
 * so the same game gives the same result byte for byte, whatever the superset method.
 * When every rule and literal stays, its rules are not copied. Past a limit of `deadline` it
 * throws a limit error.
 */
export function pruneUnreachable(game: GroundGame, deadline: Deadline): GroundGame {
  const { reached, waiting } = forwardChain(game, deadline);
  const rules = compactRules(game);
  // Without hooks a rule's wait counts its unreached positive atoms (each distinct, each
  // reached atom releasing the rule once): 0 exactly when all are reached. So the chaining's
  // own counts select the rules, with no second pass over their literals.
  const keep = new Uint8Array(rules.count);
  for (let i = 0, n = rules.count; i < n; i++) if (waiting[i] === 0) keep[i] = 1;
  // The frame statistics belong to the instantiation that made them, not to the pruned game.
  const { frame: _frame, ...fields } = gameFields(game);
  return restrictRules(gameWithRules(fields, atomTerms(game), rules), keep, reached, deadline, 'pruning');
}

/** Sorts `items` by their text, dropping none (the texts are unique). */
function byText<T>(items: Iterable<[string, T]>): T[] {
  return [...items].sort((x, y) => compareCodePoints(x[0], y[0])).map((e) => e[1]);
}

/**
 * The final supersets read off a ground game: the fluents, moves and axiom instances that are
 * reachable in its relaxed form. The ground game no longer holds static relations, so their
 * instances (`staticAxioms`, exact) are added to the axioms, as Algorithm 9.2 reports them.
 * Identity is by term id; text is made only to sort the output (its contract). `reached`: the
 * atoms read as reachable (by default the game's own ground reachability). Past a limit of
 * `deadline` it throws a limit error.
 */
export function groundSupersets(game: GroundGame, staticAxioms: readonly Atom[], deadline: Deadline, reached = reachableAtoms(game, deadline)): Supersets {
  const { terms, vocabulary } = game;
  const tick = deadlineTicker(deadline, game.file, 'reading the supersets back');
  const holds = (id: number): boolean => id >= 0 && reached[id] === 1;
  // Fluents and moves are the vocabulary's (fluents already in the text order of the output).
  const fluentList = vocabulary.fluents.filter((f) => holds(f.trueId) || holds(f.nextId)).map((f) => terms.toTerm(f.term));
  const moveList = byText<Move>(
    vocabulary.moves
      .filter((m) => holds(m.doesId) || holds(m.legalId))
      .map((m): [string, Move] => [`${terms.text(m.role)} ${terms.text(m.action)}`, { role: terms.toTerm(m.role), action: terms.toTerm(m.action) }]),
  );
  // The axioms: every other reachable atom that is not a keyword's.
  const axioms = new Map<string, Atom>();
  const atoms = atomTerms(game);
  for (let id = 0; id < atoms.length; id++) {
    tick();
    const t = atoms[id]!;
    if (reached[id] !== 1 || KEYWORDS.has(terms.symbolName(terms.functor(t)))) continue;
    const args: Term[] = [];
    for (let i = 0; i < terms.arity(t); i++) args.push(terms.toTerm(terms.arg(t, i)));
    axioms.set(terms.text(t), { kind: 'atom', rel: terms.symbolName(terms.functor(t)), args, pos: NO_POS });
  }
  // Static instances come from the method's supersets as syntax trees; their text is the key.
  for (const s of staticAxioms) axioms.set(atomToString(s), s);
  return { fluents: fluentList, moves: moveList, axioms: byText(axioms) };
}

/**
 * The final supersets of a method: what is reachable in the pruned ground game, plus the
 * static relations' instances from the method's own supersets (the ground game has none;
 * both methods compute them exactly). `reached`: the atoms of `ground` read as reachable, when
 * not its own ground reachability's (frame-reach.ts). Past a limit of `deadline` it throws a
 * limit error.
 */
export function finalSupersets(game: NormalGame, supersets: Supersets, ground: GroundGame, deadline: Deadline, reached?: Uint8Array): Supersets {
  const plain = game.rules.map(asRule);
  const dependent = stateDependent(plain);
  const key = relationKeys(plain);
  return groundSupersets(ground, supersets.axioms.filter((a) => !dependent.has(key(a))), deadline, reached);
}
