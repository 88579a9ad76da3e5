/**
 * The false groups neither sampling nor the walks reached, refuted by a breadth-first search from
 * the initial state toward two of their members (docs/mutex.md, "Deep false groups refuted by a
 * targeted search", held20). For a pair of members of an "at most one" claim still open, the
 * projection P of the pair (projection-cone.ts: the fluents the pair's `next` rules read, closed)
 * names the moves that can change the pair: the search plays, per role, those of its legal moves
 * (and its first other legal move, so that the rest of the game can go on), from the initial state,
 * one state per projection onto P (the first, so the shallowest, kept). Every state it looks at is
 * reached by legal joint moves from the initial state, so a state with both members true is a
 * reachable witness that the group is false: the joint moves that lead to it are kept and can be
 * replayed (the test does, and `--stats` prints the first).
 */
import type { Deadline } from '../deadline.js';
import { type ConeIndex, Meter, closeProjection, coneIndex, coneIndexCost } from './projection-cone.js';
import type { Claim, ClaimVerdict } from './prove.js';
import { type Explorer, type refuteByWalks, workMeter } from './refute-walks.js';
import { type MutexView, fluentIndexes } from './view.js';

/** Rule evaluations the searches may spend in all (each simulator call counts the game's ground rules). */
const SEARCH_WORK = 20_000_000;
/** States one search (one pair) may look at, joint moves per state, pairs tried per claim. */
const MAX_STATES = 4_096;
const MAX_JOINT = 64;
const PAIRS_PER_CLAIM = 3;
/** Caps of a pair's projection: fluents, atoms a closure walk visits, and the closures' work in all. */
const CAPS = { maxFluents: 48, maxAtoms: 20_000 };
const CLOSURE_WORK = 4_000_000;

/** One refuting state: its claim, its fluents (indexes) and the joint moves (legal atoms) from the initial state. */
interface Witness {
  readonly claim: number;
  readonly state: readonly number[];
  readonly moves: readonly (readonly number[])[];
}

/** What the searches found: per claim, 1 when refuted; the witnesses; the work spent. */
export interface SearchRefutation {
  readonly refuted: Uint8Array;
  readonly witnesses: readonly Witness[];
  readonly searches: number;
  readonly evaluations: number;
  /** The safety stop (the stage's budget) ended the searches before their count did. */
  readonly cut: boolean;
}

/** A state of the search: the explorer's handle, its fluents, and how it was reached. */
interface Node {
  readonly state: unknown;
  readonly fluents: readonly number[];
  readonly parent: Node | undefined;
  readonly joint: readonly number[] | undefined;
}

/**
 * Searches for a reachable state refuting each "at most one" claim that is neither proven nor in
 * `done` (refuted before). `fluentOfTerm` maps a term id to its fluent index; `stop` is the safety
 * stop (the stage's budget), looked at before every simulator call.
 */
export function refuteBySearch(
  view: MutexView, claims: readonly Claim[], verdicts: readonly ClaimVerdict[], done: Uint8Array | undefined,
  explorer: Explorer, fluentOfTerm: ReadonlyMap<number, number>, stop: Deadline,
): SearchRefutation {
  const refuted = new Uint8Array(claims.length);
  const open = claims.flatMap((c, k) => (c.kind === 'amo' && c.members.length >= 2 && verdicts[k] !== 'proven' && done?.[k] !== 1 ? [k] : []));
  const witnesses: Witness[] = [];
  const out = (): SearchRefutation => ({ refuted, witnesses, searches, evaluations: Math.min(evaluations + Math.floor(beyond), budget), cut });
  const rules = Math.max(1, view.rules.length);
  const budget = Math.max(1, Math.floor(SEARCH_WORK / rules));
  let evaluations = 0;
  // The explorer's work beyond the ground rules (a lazy game's queries), in evaluations: 0 for other games.
  const meter = workMeter(explorer);
  let beyond = 0;
  let searches = 0;
  let cut = false;
  if (open.length === 0) return out();
  const closures = new Meter(CLOSURE_WORK, stop);
  if (!closures.spend(coneIndexCost(view))) return out();
  const ix = coneIndex(view);
  const spend = (): boolean => ++evaluations + (beyond += meter() / rules) <= budget && !(cut ||= stop.passed());
  const fluents = (s: unknown): number[] => fluentIndexes(fluentOfTerm, explorer.terms(s)).sort((a, b) => a - b);
  try {
    const init = explorer.state(view.init.map((f) => view.fluents[f]!.term));
    // Undefined: an initial state the explorer cannot make whole (pipeline/mutex-explorer.ts).
    if (init === undefined) return out();
    for (const k of open) {
      if (refuted[k] === 1) continue;
      for (const [f, g] of pairsOf(claims[k]!.members)) {
        if (evaluations + beyond >= budget || closures.cut || (cut ||= stop.passed())) return out();
        const cone = pairCone(ix, f, g, closures);
        if (cone === undefined) continue;
        searches++;
        const hit = search(explorer, { state: init, fluents: fluents(init), parent: undefined, joint: undefined }, cone, (n) => n.fluents.includes(f) && n.fluents.includes(g), spend, fluents);
        if (hit === undefined) continue;
        // The state may refute other open claims too.
        const inState = new Set(hit.fluents);
        for (const j of open) if (refuted[j] === 0 && claims[j]!.members.filter((m) => inState.has(m)).length >= 2) refuted[j] = 1, witnesses.push({ claim: j, state: hit.fluents, moves: pathOf(hit) });
        break;
      }
    }
  } catch (err) {
    // The explorer's simulator is made on first use, under the stage's budget: past it, a limit error.
    if (!stop.passed()) throw err;
    cut = true;
  }
  return out();
}

/** The first {@link PAIRS_PER_CLAIM} pairs of members: the first member with each of the next ones. */
function pairsOf(members: readonly number[]): [number, number][] {
  return members.slice(1, 1 + PAIRS_PER_CLAIM).map((g) => [members[0]!, g]);
}

/** The pair's projection P: its fluents, and the `legal` atoms of the moves its `next` rules read; undefined past the caps. */
function pairCone(ix: ConeIndex, f: number, g: number, meter: Meter): Cone | undefined {
  const p = closeProjection(ix, [f, g], CAPS, meter);
  if (p === undefined || p.does.length === 0) return undefined;
  return { fluents: new Set(p.fluents), moves: new Set(p.does.map((a) => ix.legalOfDoes[a]!).filter((l) => l >= 0)) };
}

/** A pair's projection, as the search reads it. */
interface Cone {
  readonly fluents: ReadonlySet<number>;
  readonly moves: ReadonlySet<number>;
}

/**
 * Breadth-first from `start` over the joint moves of {@link jointMoves}, one state per projection
 * onto the cone's fluents (the first reached, the shallowest: the cone's fluents change only with
 * them and the cone's moves), at most {@link MAX_STATES}; the first state `goal` accepts, or undefined.
 */
function search(
  explorer: Explorer, start: Node, cone: Cone, goal: (n: Node) => boolean, spend: () => boolean, fluents: (s: unknown) => number[],
): Node | undefined {
  const key = (n: Node): string => n.fluents.filter((f) => cone.fluents.has(f)).join(',');
  const seen = new Set<string>([key(start)]);
  const queue: Node[] = [start];
  for (let head = 0; head < queue.length; head++) {
    const node = queue[head]!;
    if (!spend()) return undefined;
    const legal = explorer.legal(node.state);
    if (legal === undefined) continue;
    for (const joint of jointMoves(legal, cone.moves)) {
      if (!spend()) return undefined;
      const state = explorer.successor(node.state, joint);
      const next: Node = { state, fluents: fluents(state), parent: node, joint };
      if (goal(next)) return next;
      const k = key(next);
      if (seen.has(k) || seen.size >= MAX_STATES) continue;
      seen.add(k);
      queue.push(next);
    }
  }
  return undefined;
}

/**
 * The joint moves tried in a state: per role, its legal moves among `moves` and its first legal
 * move not among them (one of the two kinds at least), at most {@link MAX_JOINT} combinations.
 */
function jointMoves(legal: readonly (readonly number[])[], moves: ReadonlySet<number>): number[][] {
  const options = legal.map((ms) => {
    const inCone = ms.filter((m) => moves.has(m));
    const other = ms.find((m) => !moves.has(m));
    return other === undefined ? inCone : [...inCone, other];
  });
  let out: number[][] = [[]];
  for (const ms of options) {
    const more: number[][] = [];
    for (const prefix of out) for (const m of ms) if (more.length < MAX_JOINT) more.push([...prefix, m]);
    out = more;
  }
  return out;
}

/** The joint moves from the initial state to `node`. */
function pathOf(node: Node): number[][] {
  const out: number[][] = [];
  for (let n: Node | undefined = node; n?.joint !== undefined; n = n.parent) out.push([...n.joint]);
  return out.reverse();
}

/** What the walks found (refute-walks.ts), as the rest of the stage reads it. */
type Walked = ReturnType<typeof refuteByWalks>;

/**
 * The walks' refutation with the searches' added (claims refuted by either, their states, a cut
 * by either): what the joint proof of 2h and the groups read. The walks' own when nothing more.
 */
export function withSearched(walked: Walked, searched: SearchRefutation): Walked {
  if (!searched.refuted.includes(1) && !searched.cut) return walked;
  const refuted = Uint8Array.from(walked.refuted, (x, k) => x | searched.refuted[k]!);
  return { ...walked, refuted, states: [...walked.states, ...searched.witnesses.map((w) => w.state)], cut: walked.cut || searched.cut };
}
