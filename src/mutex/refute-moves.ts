/**
 * False candidate groups refuted before the proofs, by the moves that make two members true at
 * once (docs/mutex.md, "Moves that make two members true, before the proofs"). A move whose `does`
 * atom is in the body of a `next` rule of two members of one group would break the group in one
 * step, if legal where those rules fire; random playouts seldom draw it among thousands of moves
 * (amazonsTorus: a queen's move and an arrow shot round a clear ring back onto her square). From
 * the sampled states (reachable), spread over the sample, each legal such move is played once per
 * group and state; a successor with two members of a group true is a reachable state that refutes
 * it. After the first refutation, also the moves that make one member true beside one that holds,
 * and, for a candidate no single move breaks, a move that makes one member true where none holds,
 * followed up: the other roles' first moves, then a second member beside it (the refuting states
 * are seeded too, after the sampled ones).
 * The work is counted in rule evaluations (a state's legal moves: every ground rule; a successor:
 * the rules that read a move), so the same states are tried on every run; the stage's budget is
 * only a safety stop. A game with no such move never compiles the simulator.
 */
import type { Deadline } from '../deadline.js';
import { compactRules, ruleCount } from '../ground/compact.js';
import type { GroundGame } from '../ground/types.js';
import { type Candidates, type Hypothesis, candidateMembers, refute } from './candidates.js';
import { type Explorer, workMeter } from './refute-walks.js';
import { type MutexView, atomFluents, fluentIndexes, legalOfDoes } from './view.js';

/**
 * Rule evaluations the early refutation may spend: about 130 states' legal moves on amazonsTorus
 * (1.9 M rules, about 20 processor ms a state), which needed 75 to 94 seeds (200 to 230 million) to
 * refute all its false groups; 100 million (51 seeds) left a group of 3 or 10 fluents (docs/mutex.md).
 */
const MOVE_WORK = 250_000_000;

/**
 * The first round: when its seeds refute nothing, the rest of {@link MOVE_WORK} is not spent (the
 * games whose groups are all true, mineClearingSmall, crossers3, ttcc4_2player, chineseCheckers4,
 * have such moves, whose rules never fire together: they spent the whole work for nothing).
 */
const PROBE_SEEDS = 8;

/**
 * Per open candidate, the sampled states from which a move that makes one of its members true is
 * played and followed up (a second member then made true beside it): a few tries per candidate,
 * so that one candidate whose second member never comes cannot spend the work of the others.
 */
const REACH_TRIES = 4;

/**
 * Moves played per state beside a member of a candidate held there: a successor costs only the
 * rules that read its move, and the first such move may move the held member itself (amazonsTorus:
 * the black queen in row 5 moved along row 5, where another black queen could have come in).
 */
const BESIDE_TRIES = 8;

/**
 * Rule evaluations the follow-ups may spend beside {@link MOVE_WORK} (each followed-up state's legal
 * moves count every ground rule): about 20 states' legal moves on amazonsTorus.
 */
const FOLLOW_WORK = 120_000_000;

/** Joint moves played from a followed-up state before its second member is tried again (one: the other role's turn). */
const FOLLOW_DEPTH = 1;

/**
 * Share of the stage's processor time left when the step starts that the step may spend: the
 * proofs come after it (shogi_ctk, 5,299 fluents: with the work above and no share, the step's 190
 * million evaluations left no time to make the candidates, 1,903 -> 5,299 bits; amazonsTorus's
 * seeds and follow-ups fit in half of what is left).
 */
const STEP_SHARE = 0.5;

/**
 * Members of the open candidates, in all, above which the step is not taken: the double moves are
 * found per member (pancakes88: 1,078,850 candidates of a relation of 40,320 fluents, about ten
 * million members, took the stage past T + 10; amazonsTorus has under a thousand).
 */
const MEMBERSHIPS = 1_000_000;

/** What the moves found: the refuting states (fluent indexes), the work spent, states seeded. */
interface MoveRefutation {
  readonly states: readonly (readonly number[])[];
  readonly evaluations: number;
  readonly seeds: number;
  readonly cut: boolean;
}

/** What the rules say of the moves: per legal atom, the candidates it would break; the rules a successor evaluates. */
interface Doubles {
  /** Per legal atom of a move, the open candidates (ascending) it makes two members true of. */
  readonly of: Map<number, number[]>;
  /** Per legal atom, the members of open candidates a `next` rule reading its `does` atom makes true. */
  readonly makes: Map<number, readonly number[]>;
  /** Per legal atom, the rules that read its `does` atom (those a successor fires for it). */
  readonly readers: Map<number, number>;
  /** Rules that read a `does` atom only negated (a successor evaluates them whatever the move). */
  readonly always: number;
}

/**
 * The moves whose `does` atom is in the positive body of `next` rules of two members of one open
 * candidate (`groupsOf`: per fluent, its candidates), read off the compact rules (no rule objects).
 */
function doubleMoves(game: GroundGame, view: MutexView, groupsOf: readonly (readonly number[])[]): Doubles {
  // Per atom: the legal atom of its move when it is a does atom, the fluent when it is a next atom (-1: none).
  const legalOf = legalOfDoes(view);
  const fluentOfNext = atomFluents(view).ofNext;
  const { count, heads, starts, negAt, lits } = compactRules(game);
  // Per legal atom, the fluents a next rule reading its does atom makes true (direct bodies only).
  const made = new Map<number, Set<number>>();
  const readers = new Map<number, number>();
  let always = 0;
  for (let i = 0; i < count; i++) {
    const f = fluentOfNext[heads[i]!]!;
    let reads = false;
    for (let k = starts[i]!; k < negAt[i]!; k++) {
      const legal = legalOf[lits[k]!]!;
      if (legal < 0) continue;
      reads = true;
      readers.set(legal, (readers.get(legal) ?? 0) + 1);
      if (f >= 0 && groupsOf[f]!.length > 0) (made.get(legal) ?? made.set(legal, new Set()).get(legal)!).add(f);
    }
    if (!reads && readsNegated(legalOf, lits, negAt[i]!, starts[i + 1]!)) always++;
  }
  const of = new Map<number, number[]>();
  for (const [legal, fluents] of made) {
    const hit = twice(groupsOf, undefined, fluents);
    if (hit.length > 0) of.set(legal, hit);
  }
  return { of, makes: new Map([...made].map(([legal, fs]) => [legal, [...fs]])), readers, always };
}

/**
 * Per fluent, the candidates of two or more members, not refuted by sampling, it is a member of;
 * undefined when they have more than {@link MEMBERSHIPS} members in all (then no move is played).
 */
function memberships(view: MutexView, hyps: readonly Hypothesis[], cands: Candidates): number[][] | undefined {
  let total = 0;
  for (let i = 0; i < cands.hypothesis.length; i++) {
    const n = cands.atMostOne[i] === 0 ? 0 : candidateMembers(hyps, cands, i).length;
    if (n > 1 && (total += n) > MEMBERSHIPS) return undefined;
  }
  const of = Array.from({ length: view.fluents.length }, (): number[] => []);
  for (let i = 0; i < cands.hypothesis.length; i++) {
    if (cands.atMostOne[i] === 0) continue;
    const members = candidateMembers(hyps, cands, i);
    if (members.length > 1) for (const f of members) of[f]!.push(i);
  }
  return of;
}

/** Whether one of `lits[from .. to - 1]` is a does atom. */
function readsNegated(legalOf: Int32Array, lits: Int32Array, from: number, to: number): boolean {
  for (let k = from; k < to; k++) if (legalOf[lits[k]!]! >= 0) return true;
  return false;
}

/** The candidates (of `open`, when given) with two members among `fluents`, ascending. */
function twice(groupsOf: readonly (readonly number[])[], open: ReadonlySet<number> | undefined, fluents: Iterable<number>): number[] {
  const seen = new Map<number, number>();
  const hit: number[] = [];
  for (const f of fluents) {
    for (const c of groupsOf[f]!) {
      if (open !== undefined && !open.has(c)) continue;
      const n = (seen.get(c) ?? 0) + 1;
      seen.set(c, n);
      if (n === 2) hit.push(c);
    }
  }
  return hit.sort((a, b) => a - b);
}

/**
 * Plays, from the sampled states (fluent indexes, reachable) in order, the legal moves that make
 * two members of an open candidate true (the other roles' first legal moves beside it), once per
 * candidate and state, and returns the successors that refute a candidate. `fluentOfTerm` maps a
 * term id to its fluent index; `stageStop` is the stage's budget, of which the step takes
 * {@link STEP_SHARE}, looked at before every simulator call.
 */
function refuteByMoves(
  game: GroundGame, view: MutexView, hyps: readonly Hypothesis[], cands: Candidates, sampled: readonly (readonly number[])[],
  explorer: Explorer, fluentOfTerm: ReadonlyMap<number, number>, stageStop: Deadline,
): MoveRefutation {
  const stop = stageStop.shareOfRest(STEP_SHARE);
  const members = memberships(view, hyps, cands);
  if (members === undefined) return { states: [], evaluations: 0, seeds: 0, cut: false };
  const groupsOf: readonly (readonly number[])[] = members;
  const { of, makes, readers, always } = doubleMoves(game, view, groupsOf);
  const states: number[][] = [];
  const rules = ruleCount(game);
  const open = new Set([...of.values()].flat());
  // The candidates one move can break: the others need two, a member made true, then a second.
  const doubled: ReadonlySet<number> = new Set(open);
  let wide = false;
  let evaluations = 0;
  let seeds = 0;
  let cut = false;
  // The explorer's work beyond the ground rules since the last spend (a lazy game's queries, 0 for
  // other games), counted in the count that spends next.
  const meter = workMeter(explorer);
  const spend = (work: number): boolean => (evaluations += work + meter()) <= MOVE_WORK && !(cut ||= stop.passed());
  // The follow-ups' own count, so that they never take the seeds' work (the double moves first).
  let followed = 0;
  const spendFollowing = (work: number): boolean => (followed += work + meter()) <= FOLLOW_WORK && !(cut ||= stop.passed());
  // States a move reached with a member of an open candidate newly true (`depth`: joint moves still to play from them).
  const follow: { state: unknown; fluents: readonly number[]; depth: number }[] = [];
  // Per candidate, the sampled states it was reached from ({@link REACH_TRIES} at most).
  const reached = new Map<number, number>();
  try {
    const order = spread(sampled.length);
    for (let k = 0; ; k++) {
      // After the sampled states, the refuting states found so far (reachable too; amazonsTorus
      // with 83 sampled states: its last square groups were refuted only from those).
      const seed = k < order.length ? sampled[order[k]!]! : states[k - order.length];
      if (seed === undefined) break;
      // The first round refuted nothing: no sign of a false group sampling missed, the rest not spent.
      if (open.size === 0 || (seeds === PROBE_SEEDS && states.length === 0)) break;
      // Undefined: a state the explorer cannot make whole (pipeline/mutex-explorer.ts), not seeded.
      const state = explorer.state(seed.map((f) => view.fluents[f]!.term));
      if (state === undefined) continue;
      if (!spend(rules)) break;
      seeds++;
      const legal = explorer.legal(state);
      if (legal !== undefined) play(legal, state, seed, true);
      followUp();
    }
  } catch (err) {
    // The explorer's simulator is made on first use, under the stage's budget: past it, a limit error.
    if (!stop.passed()) throw err;
    cut = true;
  }
  return { states, evaluations: Math.min(evaluations, MOVE_WORK) + Math.min(followed, FOLLOW_WORK), seeds, cut };

  // Each legal move that may break an open candidate, played once per candidate in this state;
  // from a sampled state (`reach`), in the wider set, also a move that makes a member of an open
  // candidate true where none holds: its successor is followed up ({@link followUp}).
  function play(legal: readonly (readonly number[])[], state: unknown, seed: readonly number[], reach: boolean): void {
    const tried = new Set<number>();
    // Per candidate held here, the moves played beside its member (the first may move that member away).
    const beside = new Map<number, number>();
    const held = wide ? heldIn(groupsOf, open, seed) : undefined;
    for (let role = 0; role < legal.length; role++) {
      for (const m of legal[role]!) {
        const targets = (of.get(m) ?? []).filter((c) => open.has(c) && !tried.has(c));
        const reaching: number[] = [];
        const besides: number[] = [];
        for (const f of held === undefined ? [] : makes.get(m) ?? []) {
          for (const c of groupsOf[f]!) {
            if (!open.has(c) || tried.has(c)) continue;
            if (held!.has(c)) held!.get(c) !== f && (beside.get(c) ?? 0) < BESIDE_TRIES && besides.push(c);
            else if (reach && !doubled.has(c) && followed < FOLLOW_WORK && (reached.get(c) ?? 0) < REACH_TRIES) reaching.push(c);
          }
        }
        if (targets.length === 0 && reaching.length === 0 && besides.length === 0) continue;
        const joint = legal.map((ms, r) => (r === role ? m : ms[0]!));
        if (!spend(joint.reduce((n, j) => n + (readers.get(j) ?? 0), always + 1))) return;
        targets.forEach((c) => tried.add(c));
        besides.forEach((c) => beside.set(c, (beside.get(c) ?? 0) + 1));
        reaching.forEach((c) => (tried.add(c), reached.set(c, (reached.get(c) ?? 0) + 1)));
        const after = explorer.successor(state, joint);
        const next = fluentsOf(after);
        if (!refutes(next) && reaching.length > 0) follow.push({ state: after, fluents: next, depth: FOLLOW_DEPTH });
      }
    }
  }

  // Whether the state `next` (reachable) has two members of an open candidate true: then it is kept.
  function refutes(next: number[]): boolean {
    const hit = twice(groupsOf, open, next);
    if (hit.length === 0) return false;
    hit.forEach((c) => open.delete(c));
    states.push(next);
    // A false group sampling missed: from now on, also the moves that make one member true beside one held.
    if (!wide) (wide = true), widen();
    return true;
  }

  // The states reached with a member newly true, last first: the moves that make a second member
  // true are played from each (the wider set), then the first legal joint move, {@link FOLLOW_DEPTH}
  // times (amazonsTorus: a black queen moved into row 1, white's first move, then a second black
  // queen into row 1), within {@link FOLLOW_WORK}.
  function followUp(): void {
    while (follow.length > 0 && open.size > 0) {
      const { state, fluents, depth } = follow.pop()!;
      if (!spendFollowing(rules)) break;
      const legal = explorer.legal(state);
      if (legal === undefined) continue;
      play(legal, state, fluents, false);
      if (depth === 0) continue;
      const joint = legal.map((ms) => ms[0]!);
      if (!spendFollowing(joint.reduce((n, j) => n + (readers.get(j) ?? 0), always + 1))) break;
      const after = explorer.successor(state, joint);
      const next = fluentsOf(after);
      if (!refutes(next)) follow.push({ state: after, fluents: next, depth: depth - 1 });
    }
    follow.length = 0;
  }

  // The fluent indexes of an explorer state, ascending.
  function fluentsOf(state: unknown): number[] {
    return fluentIndexes(fluentOfTerm, explorer.terms(state)).sort((a, b) => a - b);
  }

  // Every candidate a move makes a member of joins the open ones (those not refuted yet).
  function widen(): void {
    const refuted = new Set(states.flatMap((s) => twice(groupsOf, undefined, s)));
    for (const fs of makes.values()) for (const f of fs) for (const c of groupsOf[f]!) if (!refuted.has(c)) open.add(c);
  }
}

/**
 * `0 .. n-1` in bit-reversed order (0, n/2, n/4, 3n/4, ...): the first seeds spread over the whole
 * sample, not the first steps of its first playout (amazonsTorus: three playouts in 325 states).
 */
function spread(n: number): number[] {
  let bits = 0;
  while (1 << bits < n) bits++;
  const out: number[] = [];
  for (let i = 0; i < 1 << bits; i++) {
    let r = 0;
    for (let b = 0; b < bits; b++) if ((i >> b) & 1) r |= 1 << (bits - 1 - b);
    if (r < n) out.push(r);
  }
  return out;
}

/** Per open candidate with a member true in `seed`, that member (a candidate not refuted has one at most). */
function heldIn(groupsOf: readonly (readonly number[])[], open: ReadonlySet<number>, seed: readonly number[]): Map<number, number> {
  const out = new Map<number, number>();
  for (const f of seed) for (const c of groupsOf[f]!) if (open.has(c)) out.set(c, f);
  return out;
}

/** The candidates held against the sampled states, as `refute` gives them. */
type Held = ReturnType<typeof refute>;

/** For `--stats`: the states that refuted a candidate, the sampled states seeded, the rule evaluations spent. */
export interface EarlyStats {
  readonly refuting: number;
  readonly seeds: number;
  readonly evaluations: number;
}

/** What {@link refuteEarly} reads of the stage's options. */
interface EarlyOptions {
  readonly explorer?: Explorer;
  readonly deadline: Deadline;
  readonly reachable?: boolean;
  /** The states are a complete search's, packed: every reachable state, nothing to refute. */
  readonly packed: boolean;
}

/**
 * The candidates `held` against `sampled`, held again with the states {@link refuteByMoves} found
 * added to the sampled ones (they are reachable); `held` and `sampled` themselves when it found
 * none, or did not run (no explorer; every reachable state given). A game with lazy axioms plays
 * the fast simulator (pipeline/mutex-explorer.ts); its double moves are read off its ground rules
 * only (a lazy rule's are not seen: fewer moves tried, each successor still a reachable state). `stop` is `refute`'s (the stage's budget, as for the first hold).
 */
export function refuteEarly(
  game: GroundGame, view: MutexView, held: Held, sampled: readonly (readonly number[])[], options: EarlyOptions, fluentOfTerm: ReadonlyMap<number, number>, stop: () => boolean,
): { held: Held; sampled: readonly (readonly number[])[]; stats?: EarlyStats } {
  if (options.explorer === undefined || options.reachable === true || options.packed) return { held, sampled };
  const moves = refuteByMoves(game, view, held.hypotheses, held.candidates, sampled, options.explorer, fluentOfTerm, options.deadline);
  const stats = moves.seeds === 0 ? undefined : { refuting: moves.states.length, seeds: moves.seeds, evaluations: moves.evaluations };
  if (moves.states.length === 0) return { held, sampled, ...(stats === undefined ? {} : { stats }) };
  const more = [...sampled, ...moves.states];
  return { held: refute(view, held.hypotheses, more, stop), sampled: more, ...(stats === undefined ? {} : { stats }) };
}
