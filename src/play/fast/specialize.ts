/**
 * Net optimization passes of the fast simulator (docs/play.md, "Specialized nets"), on the
 * ground rules before they are compiled. Each keeps the value of every atom in every state the
 * net is used on, so the simulator stays equivalent to the ground game:
 *
 * - **constants** (`simplifyRules`): an atom fixed by assumption, or derived by no rule and not
 *   an input (`true`, `does`), or by a fact, has a constant value; a literal that is true on
 *   constants is dropped, a rule with a literal false on constants is dropped, until nothing
 *   changes. A head left with a rule of empty body is constant true (it keeps that one rule).
 * - **control** (`controlCycle`): the fluents that say whose turn it is, proved to rotate: each
 *   one's `next` is derived only from the one before, so the set that holds moves one place
 *   along the cycle per step (exactly one in most games). The simulator keeps one net per turn
 *   (`controlTurns`, `turnRules`), specialized by `simplifyRules` with the cycle's fluents fixed
 *   as the turn has them (ggplib's "combined" machine): a move of one role no longer touches the
 *   other roles' legal rules, and the turn changing touches nothing.
 */
import { keywordSymbols } from '../../ground/atoms.js';
import type { GroundGame, GroundRule } from '../../ground/types.js';

/**
 * At most this many control fluents: one net each. Six for six-player games: held-out
 * CHINESECHECKERS6_S rotates six control fluents, whose readers (with the rules they make the
 * mover's) did 570 of 815 counter updates per step on one net; on six nets 290, 1.2x the playouts
 * per CPU second (turns.ts decides, as for fewer).
 */
const MAX_CONTROL = 6;

/** The literal of atom a in a rule: 1 satisfied, 0 not, -1 unknown yet (values: 1, 0, -1 unknown). */
function literal(value: Int8Array, a: number, positive: boolean): number {
  const v = value[a]!;
  return v < 0 ? -1 : positive ? v : 1 - v;
}

/** Whether rule k is dead (some literal false), satisfied on constants (every literal true), or open. */
function ruleStatus(r: GroundRule, value: Int8Array): 'dead' | 'true' | 'open' {
  let open = false;
  for (const p of r.pos) {
    const l = literal(value, p, true);
    if (l === 0) return 'dead';
    if (l < 0) open = true;
  }
  for (const q of r.neg) {
    const l = literal(value, q, false);
    if (l === 0) return 'dead';
    if (l < 0) open = true;
  }
  return open ? 'open' : 'true';
}

/**
 * Atom values known before any rule is looked at: `fixed` ones, and false for an atom that is
 * no input and heads no rule.
 */
function initialValues(game: GroundGame, fixed: ReadonlyMap<number, 0 | 1>, live: Int32Array): Int8Array {
  const { true: trueSym, does } = keywordSymbols(game.terms);
  const value = new Int8Array(game.atoms.length).fill(-1);
  game.atoms.forEach((a, i) => {
    if (live[i] === 0 && a.rel !== trueSym && a.rel !== does) value[i] = 0;
  });
  for (const [a, v] of fixed) value[a] = v;
  return value;
}

/**
 * Fixes to false the does atoms of moves that are never legal (their legal atom false on
 * constants, or absent): a joint move is made of legal moves, so they are never set. In a net
 * per control fluent these are the other roles' moves but their noop: their rules go, and a
 * rule listing every move of the role to move becomes a fact (complement.ts). Whether it fixed any.
 */
function neverPlayed(game: GroundGame, value: Int8Array): boolean {
  let changed = false;
  for (const m of game.vocabulary.moves) {
    if (m.doesId < 0 || value[m.doesId]! >= 0) continue;
    if (m.legalId < 0 || value[m.legalId] === 0) (value[m.doesId] = 0), (changed = true);
  }
  return forcedPlayed(game, value) || changed;
}

/**
 * Fixes to true the does atom of a role's forced move: its legal atom true on constants (a fact)
 * and every other move of the role never legal. A joint move is one legal move per role, so that
 * does atom is set in every joint move; a rule reading it is decided by the rest of its body once
 * the move is set, as it is after the pass. Before the move is set the rule's head may differ, but
 * nothing reads it then (it depended on a does atom: legal, terminal and goal atoms never do; next
 * and sees atoms are read after the move). In a net per control fluent these are the noops of the
 * roles not to move: held-out CHINESECHECKERS6_S's frame rule `(next (thrive c p)) <= (true (thrive
 * c p))` under all six roles' noop read five noops that never change in a turn, and kept the cells
 * out of the frame masks (frames.ts). Whether it fixed any.
 */
function forcedPlayed(game: GroundGame, value: Int8Array): boolean {
  const open = new Map<number, number>();
  for (const m of game.vocabulary.moves) {
    if (m.legalId < 0 || value[m.legalId] === 0) continue;
    // A second move that may be legal, or one without a does atom: nothing is forced.
    open.set(m.role, open.has(m.role) || m.doesId < 0 || value[m.legalId] !== 1 ? -1 : m.doesId);
  }
  let changed = false;
  for (const d of open.values()) if (d >= 0 && value[d]! < 0) (value[d] = 1), (changed = true);
  return changed;
}

/**
 * The rules of `game` simplified on constants, `fixed` (atom → value) assumed: every atom keeps
 * its value in every state where the fixed atoms have theirs, after every joint move of legal
 * moves (the simulator's contract: `successor` takes legal moves). Not for games with a lazy part
 * (its opaque atoms are inputs the pass does not know).
 */
export function simplifyRules(game: GroundGame, fixed: ReadonlyMap<number, 0 | 1>): GroundRule[] {
  const rules = game.rules;
  const live = new Int32Array(game.atoms.length);
  for (const r of rules) live[r.head]!++;
  const value = initialValues(game, fixed, live);
  const dead = new Uint8Array(rules.length);
  // Passes until nothing changes; each settles what the constants found so far decide.
  for (let changed = true; changed; ) {
    changed = false;
    rules.forEach((r, k) => {
      if (dead[k] === 1 || value[r.head]! >= 0) return;
      const status = ruleStatus(r, value);
      if (status === 'true') (value[r.head] = 1), (changed = true);
      else if (status === 'dead' && (dead[k] = 1) && --live[r.head]! === 0) (value[r.head] = 0), (changed = true);
    });
    changed = neverPlayed(game, value) || changed;
  }
  const out: GroundRule[] = [];
  const madeFact = new Uint8Array(game.atoms.length);
  rules.forEach((r, k) => {
    if (dead[k] === 1 || fixed.has(r.head)) return;
    if (value[r.head] === 1) {
      if (madeFact[r.head] === 0) (madeFact[r.head] = 1), out.push({ head: r.head, pos: [], neg: [] });
      return;
    }
    if (value[r.head] === 0 || ruleStatus(r, value) === 'dead') return;
    out.push({ head: r.head, pos: r.pos.filter((p) => value[p]! < 0), neg: r.neg.filter((q) => value[q]! < 0) });
  });
  return out;
}

/** Fluent indices (as `trueAtom` numbers them) with their `true` and `next` atoms. */
interface FluentAtoms {
  readonly trueAtom: Int32Array;
  readonly nextAtoms: Int32Array;
  readonly nextFluent: Int32Array;
  readonly init: readonly number[];
}

/**
 * Per fluent f, the fluent g such that `(next f)` is derived only by rules `(next f) <= (true g)`
 * (g the same for all of them, one rule), or -1.
 */
function predecessors(game: GroundGame, fluents: FluentAtoms): Int32Array {
  const fluentOfTrue = new Int32Array(game.atoms.length).fill(-1);
  fluents.trueAtom.forEach((a, f) => {
    if (a >= 0) fluentOfTrue[a] = f;
  });
  const fluentOfNext = new Int32Array(game.atoms.length).fill(-1);
  fluents.nextAtoms.forEach((a, i) => (fluentOfNext[a] = fluents.nextFluent[i]!));
  const pred = new Int32Array(fluents.trueAtom.length).fill(-1);
  const rulesOf = new Int32Array(fluents.trueAtom.length);
  for (const r of game.rules) {
    const f = fluentOfNext[r.head]!;
    if (f < 0) continue;
    rulesOf[f]!++;
    const g = r.pos.length === 1 && r.neg.length === 0 ? fluentOfTrue[r.pos[0]!]! : -1;
    pred[f] = rulesOf[f] === 1 ? g : -1;
  }
  return pred;
}

/**
 * The control fluents of `game`, in turn order from an initial one, or undefined: fluents
 * c0 .. c(k-1), 2 ≤ k ≤ 6, where c0 and at most k-2 others hold initially and `(next c(i+1 mod
 * k))` is derived by the one rule `(next c(i+1)) <= (true c(i))`, each c(i) the body of that one
 * rule alone among them. By induction the set of those that hold moves one place along the
 * cycle per step, whatever the move ({@link controlTurns}): exactly one in most games, two in
 * held-out majorities (`control` and `lastcontrol`, each player moving twice in a row).
 */
export function controlCycle(game: GroundGame, fluents: FluentAtoms): number[] | undefined {
  if (game.lazy !== undefined) return undefined;
  const pred = predecessors(game, fluents);
  const succ = new Map<number, number>();
  const shared = new Set<number>();
  pred.forEach((g, f) => {
    if (g < 0) return;
    if (succ.has(g)) shared.add(g);
    succ.set(g, f);
  });
  for (const start of fluents.init) {
    const cycle = [start];
    for (let f = succ.get(start); f !== undefined && f !== start && cycle.length <= MAX_CONTROL; f = succ.get(f)) cycle.push(f);
    const closed = succ.get(cycle[cycle.length - 1]!) === start && cycle.length >= 2 && cycle.length <= MAX_CONTROL;
    const initial = fluents.init.filter((f) => cycle.includes(f)).length < cycle.length;
    if (closed && initial && cycle.every((f) => !shared.has(f) && fluents.trueAtom[f]! >= 0)) return cycle;
  }
  return undefined;
}

/**
 * The turns of a control cycle from {@link controlCycle}: per turn, which of the cycle's fluents
 * hold (1) and which do not (0), turn 0 the initial state's, turn t+1 turn t's moved one place
 * along the cycle (c(i) holds after a step exactly when c(i-1) held before it), until the first
 * comes back. With one control fluent holding, turn i is c(i) alone.
 */
export function controlTurns(cycle: readonly number[], init: readonly number[]): Uint8Array[] {
  const k = cycle.length;
  const first = Uint8Array.from(cycle, (f) => (init.includes(f) ? 1 : 0));
  const turns = [first];
  // At most k turns: the k-th rotation is the first again.
  for (let t = 1; t < k; t++) {
    const last = turns[t - 1]!;
    const next = Uint8Array.from(last, (_, i) => last[(i + k - 1) % k]!);
    if (next.every((v, i) => v === first[i])) break;
    turns.push(next);
  }
  return turns;
}

/**
 * The rules of the nets of a control cycle's turns ({@link controlTurns}), each simplified with
 * the cycle's fluents fixed as the turn has them, and per turn the index of its net in `rules`.
 * With one control fluent holding at a time, one net per turn, every cycle fluent fixed. With
 * several (held-out majorities: `control` read by every legal rule, `lastcontrol` read only by
 * the cycle's own next rules, four turns), only the fluents some other rule reads are fixed, and
 * turns that agree on them share a net: majorities plays on two (red's and blue's), each taking
 * in two steps' changes per visit instead of one net per turn taking in four.
 */
export function turnRules(game: GroundGame, cycle: readonly number[], turns: readonly Uint8Array[], fluents: FluentAtoms): { rules: GroundRule[][]; net: number[] } {
  const fixed = turns[0]!.reduce((n, v) => n + v, 0) === 1 ? cycle.map(() => true) : readOutsideCycle(game, cycle, fluents);
  const keys = turns.map((t) => cycle.map((_, i) => (fixed[i] ? t[i] : 2)).join(''));
  const distinct = [...new Set(keys)];
  const rules = distinct.map((key) => {
    const at = new Map<number, 0 | 1>();
    cycle.forEach((f, i) => key[i] !== '2' && at.set(fluents.trueAtom[f]!, key[i] === '1' ? 1 : 0));
    return simplifyRules(game, at);
  });
  return { rules, net: keys.map((k) => distinct.indexOf(k)) };
}

/** Per fluent of the cycle, whether a rule other than the cycle's own next rules reads its true atom. */
function readOutsideCycle(game: GroundGame, cycle: readonly number[], fluents: FluentAtoms): boolean[] {
  const own = new Set<number>();
  fluents.nextAtoms.forEach((a, i) => cycle.includes(fluents.nextFluent[i]!) && own.add(a));
  const read = new Set<number>();
  for (const r of game.rules) if (!own.has(r.head)) for (const a of [...r.pos, ...r.neg]) read.add(a);
  return cycle.map((f) => read.has(fluents.trueAtom[f]!));
}
