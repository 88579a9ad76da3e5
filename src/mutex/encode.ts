/**
 * One transition of the ground game as a SAT problem, cut down to the cone of a query: the
 * atoms the query's roots and `terminal` depend on through the rules (and, for every `does`
 * atom reached, its `legal` atom). A transition starts in a non-terminal state, a legal joint
 * move is made, one per role. In the cone, the current state's fluents and the joint move are free
 * variables and every other atom is defined by the Clark completion of its ground rules,
 *
 *   a <-> OR over the rules a <= body of (AND body)        (a is false when it has no rule)
 *
 * Every model of the program's stratified (perfect) semantics satisfies its completion,
 * recursive axioms included, so a query that is unsatisfiable here is impossible in the game:
 * that is what makes the proofs sound. Everything outside the cone is left out, and every
 * constraint that is added (moves, invariants) is one that holds in the game or a weakening of
 * one (at most one of a subset), so leaving things out only costs completeness, never soundness.
 */
import { SatSolver } from './sat.js';
import type { MutexView } from './view.js';

/** A solver holding one transition's cone; `atom(a)` is the variable of atom a (0 if outside). */
export interface ConeEncoding {
  readonly solver: SatSolver;
  readonly atom: (a: number) => number;
  /** The fluents (indexes) whose current value is a variable of the cone. */
  readonly fluents: readonly number[];
}

/** Clauses for `out <-> AND(lits)`. */
function defineAnd(s: SatSolver, out: number, lits: readonly number[]): void {
  for (const l of lits) s.addClause([-out, l]);
  s.addClause([out, ...lits.map((l) => -l)]);
}

/** Widest disjunction written as one clause; wider ones become a tree of disjunctions. */
const OR_WIDTH = 8;

/**
 * Clauses for `out <-> OR(lits)`. An atom with thousands of rules would give one clause of
 * thousands of literals, which unit propagation walks again and again while its literals turn
 * false one by one; a tree of narrow disjunctions keeps every clause short.
 */
function defineOr(s: SatSolver, out: number, lits: readonly number[]): void {
  let layer = lits;
  while (layer.length > OR_WIDTH) {
    const next: number[] = [];
    for (let i = 0; i < layer.length; i += OR_WIDTH) {
      const chunk = layer.slice(i, i + OR_WIDTH);
      if (chunk.length === 1) {
        next.push(chunk[0]!);
        continue;
      }
      const v = s.newVar();
      for (const x of chunk) s.addClause([-x, v]);
      s.addClause([-v, ...chunk]);
      next.push(v);
    }
    layer = next;
  }
  for (const x of layer) s.addClause([-x, out]);
  s.addClause([-out, ...layer]);
}

/**
 * At most one of `lits` true when `guard` holds (guard 0: always): pairwise for short lists,
 * otherwise the sequential counter (linear in the list).
 */
export function atMostOne(s: SatSolver, lits: readonly number[], guard = 0): void {
  const clause = guard === 0 ? (a: number, b: number): number[] => [a, b] : (a: number, b: number): number[] => [-guard, a, b];
  if (lits.length <= 6) {
    for (let i = 0; i < lits.length; i++) for (let j = i + 1; j < lits.length; j++) s.addClause(clause(-lits[i]!, -lits[j]!));
    return;
  }
  // seen_i: one of lits[0..i] is true.
  let prev = lits[0]!;
  for (let i = 1; i < lits.length; i++) {
    const seen = s.newVar();
    s.addClause(clause(-prev, seen));
    s.addClause(clause(-lits[i]!, seen));
    s.addClause(clause(-prev, -lits[i]!));
    prev = seen;
  }
}

/**
 * A fresh variable q with q -> (at least two of `lits` true):
 *   seen_i -> seen_{i-1} or lits[i];  two_i -> lits[i] and seen_{i-1};  q -> two_1 or ... or two_k.
 * Only this direction is needed: the proof assumes q and asks for a model.
 */
export function atLeastTwo(s: SatSolver, lits: readonly number[]): number {
  const q = s.newVar();
  if (lits.length < 2) {
    s.addClause([-q]);
    return q;
  }
  const twos: number[] = [];
  let seen = lits[0]!;
  for (let i = 1; i < lits.length; i++) {
    const two = s.newVar();
    s.addClause([-two, lits[i]!]);
    s.addClause([-two, seen]);
    twos.push(two);
    if (i + 1 < lits.length) {
      const next = s.newVar();
      s.addClause([-next, seen, lits[i]!]);
      seen = next;
    }
  }
  s.addClause([-q, ...twos]);
  return q;
}

/** Rule indexes by head atom, and the `legal` atom of each `does` atom; computed once per game. */
export interface RuleIndex {
  readonly byHead: readonly (readonly number[])[];
  readonly legalOf: Int32Array;
  /** 1 for the free atoms: current fluents, moves and a lazy part's atoms (the view's `opaque`). */
  readonly free: Uint8Array;
  /**
   * Whether queries include `terminal` (asserted false): only when its cone is small, since in
   * games whose end is "no legal move" it is the whole game, in every query.
   */
  readonly useTerminal: boolean;
}

/**
 * Largest cone of `terminal`, in rules, that every query takes on. Breakthrough's (a piece on
 * the last row, 130 rules) helps its proofs; checkers' ("a player cannot move", tens of
 * thousands) would make each query cost as much as the whole game, for little gain.
 */
const MAX_TERMINAL_CONE_RULES = 5000;

/**
 * Builds the rule index of a view. `stop` is asked once per rule and per atom of `terminal`'s
 * cone (make it cheap, e.g. a Deadline's tick): a game of millions of ground rules takes
 * seconds here, past the budget when it was nearly spent; it ends with {@link EncodingStopped}.
 */
export function ruleIndex(view: MutexView, stop: () => boolean = () => false): RuleIndex {
  const byHead: number[][] = Array.from({ length: view.atoms }, () => []);
  const rules = view.rules;
  for (let i = 0; i < rules.length; i++) {
    if (stop()) throw new EncodingStopped();
    byHead[rules[i]!.head]!.push(i);
  }
  const legalOf = new Int32Array(view.atoms).fill(-1);
  const free = new Uint8Array(view.atoms);
  for (const f of view.fluents) free[f.trueAtom] = 1;
  // A lazy part's atoms (docs/lazy.md) are decided outside the ground rules: free, never completed.
  // Its heads' ground rules are only part of their definition; its relations' atoms have none.
  for (const a of view.opaque) free[a] = 1;
  for (const role of view.moves) {
    for (const m of role) {
      if (m.does < 0) continue;
      free[m.does] = 1;
      legalOf[m.does] = m.legal;
    }
  }
  const partial = { byHead, legalOf, free, useTerminal: false };
  const inCone = view.terminal < 0 ? 0 : cone(partial, view, [view.terminal], stop).reduce((n, a) => n + byHead[a]!.length, 0);
  return { ...partial, useTerminal: view.terminal >= 0 && inCone <= MAX_TERMINAL_CONE_RULES };
}

/** The atoms `roots` depend on (iteratively: rule chains are long), in discovery order. */
export function cone(
  index: RuleIndex, view: MutexView, roots: readonly number[], stop: () => boolean = () => false, known: (a: number) => boolean = () => false,
): number[] {
  const seen = new Uint8Array(view.atoms);
  const out: number[] = [];
  const todo = roots.filter((a) => a >= 0 && !known(a) && seen[a] === 0 && (seen[a] = 1));
  while (todo.length > 0) {
    if (stop()) throw new EncodingStopped();
    const a = todo.pop()!;
    out.push(a);
    const visit = (d: number): void => {
      if (seen[d] === 0 && !known(d)) {
        seen[d] = 1;
        todo.push(d);
      }
    };
    if (index.free[a] === 1) {
      if (index.legalOf[a]! >= 0) visit(index.legalOf[a]!);
      continue;
    }
    // Asked per rule too: one atom of gt_attrition has hundreds of thousands of rules.
    for (const r of index.byHead[a]!) {
      if (stop()) throw new EncodingStopped();
      const rule = view.rules[r]!;
      rule.pos.forEach(visit);
      rule.neg.forEach(visit);
    }
  }
  return out;
}

/** Raised when the `stop` test of an encoding says to stop (the run's deadline has passed). */
export class EncodingStopped extends Error {}

/** Raised when the `fits` test of an encoding refuses its cone, before any clause is built. */
export class ConeTooLarge extends Error {}

/**
 * The Clark completion of derived atom `a` over the variables `atom` gives (encodeCone and
 * cone-grow.ts' growing encoding); `stop` is asked per rule: one atom with hundreds of thousands
 * of rules took 15 processor seconds between two looks (gt_attrition).
 */
export function defineAtom(s: SatSolver, view: MutexView, index: RuleIndex, a: number, atom: (a: number) => number, stop: () => boolean): void {
  const bodies = index.byHead[a]!.map((i) => {
    if (stop()) throw new EncodingStopped();
    const r = view.rules[i]!;
    return [...r.pos.map(atom), ...r.neg.map((n) => -atom(n))];
  });
  if (bodies.some((b) => b.length === 0)) s.addClause([atom(a)]);
  else if (bodies.length === 0) s.addClause([-atom(a)]);
  else if (bodies.length === 1) defineAnd(s, atom(a), bodies[0]!);
  else {
    const aux = bodies.map((b) => {
      if (stop()) throw new EncodingStopped();
      if (b.length === 1) return b[0]!;
      const v = s.newVar();
      defineAnd(s, v, b);
      return v;
    });
    defineOr(s, atom(a), aux);
  }
}

/**
 * The atoms {@link encodeCone} encodes for `roots`: their cone, with `terminal`'s (transitions
 * start in non-terminal states: `terminal` and its cone join, asserted false, when that cone is
 * small: leaving it out only weakens the query) and, with `allMoves`, every move's legal atom's
 * (so that "one move per role" is exact).
 */
export function queryCone(view: MutexView, index: RuleIndex, roots: readonly number[], allMoves: boolean, stop: () => boolean = () => false): number[] {
  const legals = allMoves ? view.moves.flatMap((role) => role.flatMap((m) => (m.legal >= 0 ? [m.legal] : []))) : [];
  return cone(index, view, [...roots, ...legals, ...(index.useTerminal ? [view.terminal] : [])], stop);
}

/**
 * Encodes the cone of `roots`: the completion of its derived atoms and the move constraints
 * within it. `stop` is asked once per atom and per rule (make it cheap, e.g. a Deadline's tick)
 * and ends the encoding with {@link EncodingStopped}; `fits` is asked once, of the cone's atoms
 * before anything is encoded, and ends it with {@link ConeTooLarge} (cone-cost.ts).
 */
export function encodeCone(
  view: MutexView, index: RuleIndex, roots: readonly number[], allMoves = false, stop: () => boolean = () => false, fits: (atoms: readonly number[]) => boolean = () => true,
): ConeEncoding {
  const s = new SatSolver();
  const atoms = queryCone(view, index, roots, allMoves, stop);
  if (!fits(atoms)) throw new ConeTooLarge();
  const vars = new Map<number, number>();
  for (const a of atoms) vars.set(a, s.newVar());
  const atom = (a: number): number => vars.get(a) ?? 0;
  for (const a of atoms) {
    if (stop()) throw new EncodingStopped();
    if (index.free[a] === 1) {
      // Inputs first: every other variable of the cone is a function of them.
      s.prefer(atom(a));
      continue;
    }
    defineAtom(s, view, index, a, atom, stop);
  }
  for (const role of view.moves) {
    // One move per role: at most one of those in the cone, and at least one when all are; with
    // `allMoves` all are, a move no rule body reads getting a fresh variable.
    const chosen = role.filter((m) => (m.does >= 0 && vars.has(m.does)) || (allMoves && m.legal >= 0));
    const does = chosen.map((m) => (m.does >= 0 && vars.has(m.does) ? atom(m.does) : s.newVar()));
    atMostOne(s, does);
    if (chosen.length === role.length && does.length > 0) s.addClause(does);
    chosen.forEach((m, i) => s.addClause(m.legal < 0 || !vars.has(m.legal) ? [-does[i]!] : [-does[i]!, atom(m.legal)]));
  }
  if (index.useTerminal) s.addClause([-atom(view.terminal)]);
  const fluents = view.fluents.flatMap((f, i) => (vars.has(f.trueAtom) ? [i] : []));
  return { solver: s, atom, fluents };
}
