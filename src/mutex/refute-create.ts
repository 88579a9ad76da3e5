/**
 * False groups a "creating" move breaks, refuted by walks from the initial state (docs/mutex.md,
 * rook33). A move is creating for an "at most one" claim when a `next` rule makes a member true
 * from the move while reading no member of the claim in its positive body: it writes the member
 * whatever held before (alexChess's castlings write a king and a rook onto their squares, wherever
 * those pieces are). Played where another member holds and stays, it puts two members true.
 * Random play seldom plays it there: it is one move among dozens, legal in few states, and the
 * member must have been moved off the square it clears. So the walks play seeded random joint
 * moves, and in every state they reach, each legal creating move of a target (a claim with at most
 * {@link MAX_CREATING} creating moves) is tried on the side, once per move and member held
 * elsewhere. They start from an archive of states, one per cell (the targets' members that hold),
 * the least started from first, so that they spread over the cells rather than replay the first
 * moves (go-explore's archive). Every state is reached by legal joint moves from the initial state:
 * one with two members of an open claim true refutes it, and its joint moves are the witness. The
 * work is counted in rule evaluations as the other refuters count it, so the same states are
 * visited on every run.
 */
import type { Deadline } from '../deadline.js';
import { compactRules } from '../ground/compact.js';
import type { GroundGame } from '../ground/types.js';
import type { Claim, ClaimVerdict } from './prove.js';
import type { SearchRefutation } from './refute-search.js';
import { type Explorer, workMeter } from './refute-walks.js';
import { type MutexView, atomFluents, fluentIndexes, legalOfDoes } from './view.js';

/**
 * Rule evaluations the walks may spend: each simulator call counts the game's ground rules, and
 * a lazy game's queries (`Explorer.work`). On alexChess (267,524 rules, about 300 lazy calls at
 * 2,000 a call beside them, about 6 units of 267,524 a joint move) this is about 440 joint moves,
 * 2.5 processor s of the 3.4 s its stage left unused after the walks (docs/mutex.md, rook33).
 */
const CREATE_WORK = 700_000_000;
/**
 * Joint moves per walk. A walk starts from a state of the archive ({@link Archive}): the initial
 * state, or one a walk reached in a cell (the targets' members that hold) none had reached before.
 */
const LEG = 40;
/**
 * Claims with more creating moves than this are no target: their creating moves are ordinary
 * moves (a square's claim is created by every move into the square) that random play makes anyway,
 * and their members would split the archive's cells into one per state. alexChess's castlings
 * create a rook's member (1 move) or the white king's (2); its promotions, whose groups are true,
 * a promoted piece's (4 to 8). With 8, the targets were 35 and the walks refuted 3.3 of the 5 false
 * groups in 10 runs of the step; with 2, 3.7 (docs/mutex.md, rook33).
 */
const MAX_CREATING = 2;

/** What the rules say of the moves: per legal atom, the members of targets it creates (with their claims). */
interface Creating {
  readonly creates: ReadonlyMap<number, readonly (readonly [number, number])[]>;
  readonly targets: number;
  /** The members of the targets (a state's cell is those of them that hold). */
  readonly members: ReadonlySet<number>;
}

/** A state the walks reached: the explorer's handle, its fluents (ascending), and the joint move from its parent. */
interface Node {
  readonly state: unknown;
  readonly fluents: readonly number[];
  readonly parent: Node | undefined;
  readonly joint: readonly number[] | undefined;
}

/**
 * The states the walks start from, one per cell (the first reached): the next walk starts from
 * one of those started from least often (a seeded choice among them), so that the walks spread
 * over the cells instead of going over the first moves again (go-explore's archive).
 */
class Archive {
  private readonly cells = new Map<string, number>();
  private readonly nodes: Node[] = [];
  private readonly starts: number[] = [];

  /** Adds `node` as the state of `cell` unless the cell has one. */
  add(cell: string, node: Node): void {
    if (this.cells.has(cell)) return;
    this.cells.set(cell, this.nodes.length);
    this.nodes.push(node);
    this.starts.push(0);
  }

  /** The state to start the next walk from (counted as started from); `below` is the seeded choice. */
  next(below: (bound: number) => number): Node {
    let fewest = Infinity;
    for (const n of this.starts) fewest = Math.min(fewest, n);
    const least = this.starts.flatMap((n, i) => (n === fewest ? [i] : []));
    const i = least[below(least.length)]!;
    this.starts[i]!++;
    return this.nodes[i]!;
  }
}

/** The joint moves from the initial state to `node`. */
function pathOf(node: Node): number[][] {
  const out: number[][] = [];
  for (let n: Node | undefined = node; n?.joint !== undefined; n = n.parent) out.push([...n.joint]);
  return out.reverse();
}

/**
 * Walks from the initial state toward two members of the open "at most one" claims (not proven,
 * not refuted in `done`), trying the creating moves of the claims few moves create a member of
 * ({@link creatingMoves}) on the side. `fluentOfTerm` maps a term id to its fluent index;
 * `stop` is the safety stop (the stage's budget), looked at before every simulator call. In the
 * searches' shape (refute-search.ts): `searches` counts the walks.
 */
export function refuteByCreating(
  game: GroundGame, view: MutexView, claims: readonly Claim[], verdicts: readonly ClaimVerdict[], done: Uint8Array | undefined,
  explorer: Explorer, fluentOfTerm: ReadonlyMap<number, number>, stop: Deadline,
): SearchRefutation {
  const refuted = new Uint8Array(claims.length);
  const open = claims.flatMap((c, k) => (c.kind === 'amo' && c.members.length >= 2 && verdicts[k] !== 'proven' && done?.[k] !== 1 ? [k] : []));
  const witnesses: { claim: number; state: readonly number[]; moves: readonly (readonly number[])[] }[] = [];
  const rules = Math.max(1, view.rules.length);
  const budget = Math.max(1, Math.floor(CREATE_WORK / rules));
  let evaluations = 0;
  let beyond = 0;
  let walks = 0;
  let cut = false;
  const out = (): SearchRefutation => ({ refuted, witnesses, searches: walks, evaluations: Math.min(evaluations + Math.floor(beyond), budget), cut });
  // Past the budget (chess's proofs spend it), not even the rules are read.
  if (open.length === 0 || stop.passed()) return out();
  const memberOf = memberIndex(view.fluents.length, claims, open);
  const creating = creatingMoves(game, view, claims, open, memberOf);
  // No claim a special move creates a member of: nothing to try, the simulator not made.
  if (creating.targets === 0) return out();
  const meter = workMeter(explorer);
  const spend = (): boolean => ++evaluations + (beyond += meter() / rules) <= budget && !(cut ||= stop.passed());
  let left = open.length;
  // The creating moves tried beside a member held elsewhere (`move fluent`), in {@link tryCreating}.
  const tried = new Set<string>();
  // Every open claim with two members true in `node`'s state is refuted.
  const look = (node: Node): void => {
    const count = new Map<number, number>();
    for (const f of node.fluents) {
      for (const k of memberOf[f]!) {
        const n = (count.get(k) ?? 0) + 1;
        count.set(k, n);
        if (n === 2 && refuted[k] === 0) (refuted[k] = 1), left--, witnesses.push({ claim: k, state: node.fluents, moves: pathOf(node) });
      }
    }
  };
  const fluents = (s: unknown): number[] => fluentIndexes(fluentOfTerm, explorer.terms(s)).sort((a, b) => a - b);
  // The states reached, one per cell: the members of targets that hold ({@link cellOf}).
  const archive = new Archive();
  try {
    const init = explorer.state(view.init.map((f) => view.fluents[f]!.term));
    // Undefined: an initial state the explorer cannot make whole (pipeline/mutex-explorer.ts).
    if (init === undefined) return out();
    archive.add(cellOf(view.init), { state: init, fluents: [...view.init], parent: undefined, joint: undefined });
    while (left > 0 && evaluations + beyond < budget && !(cut ||= stop.passed())) {
      walks++;
      walk(archive.next((n) => explorer.below(n)));
    }
  } catch (err) {
    // The explorer's simulator is made on first use, under the stage's budget: past it, a limit error.
    if (!stop.passed()) throw err;
    cut = true;
  }
  return out();

  // The cell of a state (fluent indexes): its members of targets, as a key.
  function cellOf(state: readonly number[]): string {
    return state.filter((f) => creating.members.has(f)).join(' ');
  }

  // One walk of up to {@link LEG} seeded random joint moves from `start`, the creating moves tried
  // on the side in each state ({@link tryCreating}); each state in a cell not seen yet joins the archive.
  function walk(start: Node): void {
    let node = start;
    for (let step = 0; step < LEG && left > 0; step++) {
      if (!spend()) return;
      const legal = explorer.legal(node.state);
      if (legal === undefined || !spend()) return;
      if (!tryCreating(node, legal)) return;
      const joint = legal.map((ms) => ms[explorer.below(ms.length)]!);
      const state = explorer.successor(node.state, joint);
      node = { state, fluents: fluents(state), parent: node, joint };
      look(node);
      archive.add(cellOf(node.fluents), node);
    }
  }

  // Each role's creating moves that would write a member of a target beside one held elsewhere,
  // played on trial (the others' first moves beside it), once per move and held member: a move
  // that clears that member as it writes (a castling from the rook's own square) fails the same
  // way again. False when the work is spent.
  function tryCreating(node: Node, legal: readonly (readonly number[])[]): boolean {
    const held = node.fluents;
    for (let role = 0; role < legal.length; role++) {
      for (const m of legal[role]!) {
        const beside = creating.creates.get(m)?.flatMap(([h, k]) => held.filter((f) => f !== h && memberOf[f]!.includes(k) && !tried.has(`${m} ${f}`))) ?? [];
        if (beside.length === 0) continue;
        beside.forEach((f) => tried.add(`${m} ${f}`));
        if (!spend()) return false;
        const joint = legal.map((ms, r) => (r === role ? m : ms[0]!));
        const state = explorer.successor(node.state, joint);
        look({ state, fluents: fluents(state), parent: node, joint });
      }
    }
    return true;
  }
}

/** Per fluent index, the claims of `open` it is a member of. */
function memberIndex(fluents: number, claims: readonly Claim[], open: readonly number[]): number[][] {
  const out = Array.from({ length: fluents }, (): number[] => []);
  for (const k of open) for (const f of claims[k]!.members) out[f]!.push(k);
  return out;
}

/** One `next` rule of a member, as {@link creatingMoves} reads it: its head's fluent, the moves and the fluents its positive body reads. */
interface NextRule {
  readonly head: number;
  readonly moves: readonly number[];
  readonly reads: readonly number[];
}

/**
 * The creating moves of the targets, read off the compact ground rules (a lazy rule's moves are
 * not seen). Targets: the open claims with 1 to {@link MAX_CREATING} creating moves. Per legal
 * atom: the members of targets it creates, each with its claim.
 */
function creatingMoves(game: GroundGame, view: MutexView, claims: readonly Claim[], open: readonly number[], memberOf: readonly (readonly number[])[]): Creating {
  const next = nextRules(game, view, memberOf);
  const creating = new Map<number, Set<number>>();
  const creates = (r: NextRule, k: number): boolean => !r.reads.some((g) => memberOf[g]!.includes(k));
  for (const r of next) {
    for (const k of memberOf[r.head]!) {
      if (!creates(r, k)) continue;
      const ms = creating.get(k) ?? creating.set(k, new Set()).get(k)!;
      // Past the cap the claim is no target: no need to count further.
      if (ms.size <= MAX_CREATING) r.moves.forEach((m) => ms.add(m));
    }
  }
  const target = new Set(open.filter((k) => (creating.get(k)?.size ?? 0) > 0 && creating.get(k)!.size <= MAX_CREATING));
  const made = new Map<number, [number, number][]>();
  for (const r of next) for (const k of memberOf[r.head]!) if (target.has(k) && creates(r, k)) for (const m of r.moves) made.set(m, [...(made.get(m) ?? []), [r.head, k]]);
  const members = new Set([...target].flatMap((k) => claims[k]!.members));
  return { creates: made, targets: target.size, members };
}

/** The `next` rules of members of open claims that read a `does` atom in their positive body. */
function nextRules(game: GroundGame, view: MutexView, memberOf: readonly (readonly number[])[]): NextRule[] {
  const legalOf = legalOfDoes(view);
  const { ofTrue: fluentOfTrue, ofNext: fluentOfNext } = atomFluents(view);
  const { count, heads, starts, negAt, lits } = compactRules(game);
  const out: NextRule[] = [];
  for (let i = 0; i < count; i++) {
    const head = fluentOfNext[heads[i]!]!;
    if (head < 0 || memberOf[head]!.length === 0) continue;
    const moves: number[] = [];
    const reads: number[] = [];
    for (let j = starts[i]!; j < negAt[i]!; j++) {
      const a = lits[j]!;
      if (legalOf[a]! >= 0) moves.push(legalOf[a]!);
      else if (fluentOfTrue[a]! >= 0) reads.push(fluentOfTrue[a]!);
    }
    if (moves.length > 0) out.push({ head, moves, reads });
  }
  return out;
}
