/**
 * Whether the joint passes of ground-exclusions.ts can prove none of the claims left open
 * (docs/mutex.md, catch29). Each of their queries asks whether a transition from a state
 * satisfying some assumed claims and pair facts violates a claim, on a cone of the game. Every
 * pair fact those passes assume ("a and b never both true", "a only with b") is one that every
 * state they were given holds (refuteOnStates there), so all of them are among the pair facts
 * that hold on every given state, here taken together. One query per open claim on the whole
 * game's transition (encode.ts with every fluent's next atom and every move, which holds every
 * clause of any cone's encoding), with every such pair fact, every proven claim and every open
 * claim assumed, is thus at least as strong as any query the passes could ask of that claim: when
 * it has a model, so has each of theirs, and the claim cannot be proven by them. catcha_mouse's
 * 26 groups of a cell (the mouse can step onto a trap) took 3,600-4,900 such queries for nothing.
 * A check that cannot be made within its caps, or a claim it does not show violated, says
 * nothing: the passes run as before.
 */
import type { Deadline } from '../deadline.js';
import { coneLiterals } from './cone-cost.js';
import { ConeTooLarge, EncodingStopped, atMostOne, encodeCone, ruleIndex } from './encode.js';
import { claimGoal } from './joint-cones.js';
import type { Claim } from './prove.js';
import type { SatSolver } from './sat.js';
import type { MutexView } from './view.js';

/** Most ground rules of a game the check is made on (its rule index and cone walk are over all of them). */
const MAX_RULES = 100_000;
/** Largest whole-game encoding, in estimated literals (cone-cost.ts), the check is made on. */
const MAX_ENCODING_LITERALS = 400_000;
/** Most word operations spent finding the pair facts (fluent pairs times words of state bits). */
const MAX_PAIR_WORK = 40_000_000;
/** Most pair facts assumed. */
const MAX_PAIR_FACTS = 100_000;

/** The check's outcome: whether every open claim is violated with everything assumed, and what it cost. */
interface JointCheck {
  readonly hopeless: boolean;
  readonly queries: number;
  readonly work: number;
}

/** What the check may spend: the passes' deadline, and the conflicts one query may take. */
interface CheckLimits {
  readonly deadline: Deadline;
  readonly maxConflicts: number;
}

/**
 * The pair facts that hold on every state of `states` (the initial one included), as clauses over
 * fluent indexes, between fluents some state shows true (the only ones the passes pair); undefined
 * past the caps. Per fluent a bit per state: "not both" when two fluents' bits are disjoint, "a
 * only with b" when a's are within b's.
 */
export function heldPairFacts(states: readonly (readonly number[])[]): (readonly [number, number])[] | undefined {
  const words = (states.length + 31) >>> 5;
  const bits = new Map<number, Uint32Array>();
  states.forEach((s, k) => {
    for (const f of s) {
      let b = bits.get(f);
      if (b === undefined) bits.set(f, (b = new Uint32Array(words)));
      b[k >>> 5]! |= 1 << (k & 31);
    }
  });
  const seen = [...bits.keys()].sort((x, y) => x - y);
  if ((seen.length * seen.length * words) / 2 > MAX_PAIR_WORK) return undefined;
  const out: (readonly [number, number])[] = [];
  for (let i = 0; i < seen.length; i++) {
    const a = seen[i]!;
    const ba = bits.get(a)!;
    for (let j = i + 1; j < seen.length; j++) {
      const b = seen[j]!;
      const bb = bits.get(b)!;
      let both = false;
      let aOnly = false;
      let bOnly = false;
      for (let w = 0; w < words; w++) {
        const x = ba[w]!;
        const y = bb[w]!;
        both ||= (x & y) !== 0;
        aOnly ||= (x & ~y) !== 0;
        bOnly ||= (y & ~x) !== 0;
      }
      // A literal is a fluent's index plus one, negated for "false".
      if (!both) out.push([-(a + 1), -(b + 1)]);
      if (!aOnly) out.push([-(a + 1), b + 1]);
      if (!bOnly) out.push([-(b + 1), a + 1]);
    }
    if (out.length > MAX_PAIR_FACTS) return undefined;
  }
  return out;
}

/** Adds claim `c` as a constraint of the current state (`now`: a fluent's variable, 0 outside the encoding). */
function assume(solver: SatSolver, c: Claim, now: (f: number) => number): void {
  const vars = c.members.map(now);
  if (c.kind === 'amo') atMostOne(solver, vars.filter((v) => v !== 0));
  else if (vars.every((v) => v !== 0)) solver.addClause(vars);
}

/**
 * Asks every claim of `open` (claim indexes) on the whole game's transition with the pair facts
 * of `states`, the claims `proven` and the open claims assumed of the current state; hopeless
 * when every one has a model (a transition that violates it), so that no joint pass can prove it.
 * Stops at the first claim without one.
 */
export function jointHopeless(view: MutexView, states: readonly (readonly number[])[], claims: readonly Claim[], open: readonly number[], proven: readonly boolean[], limits: CheckLimits): JointCheck {
  const none: JointCheck = { hopeless: false, queries: 0, work: 0 };
  const facts = open.length === 0 || view.rules.length > MAX_RULES ? undefined : heldPairFacts(states);
  if (facts === undefined) return none;
  const tick = (): boolean => limits.deadline.tick();
  let enc;
  try {
    const index = ruleIndex(view, tick);
    const roots = view.fluents.flatMap((f) => (f.nextAtom < 0 ? [] : [f.nextAtom]));
    enc = encodeCone(view, index, roots, true, tick, (atoms) => coneLiterals(view, index, atoms) <= MAX_ENCODING_LITERALS);
  } catch (err) {
    if (err instanceof ConeTooLarge || err instanceof EncodingStopped) return none;
    throw err;
  }
  const { solver, atom } = enc;
  const now = (f: number): number => atom(view.fluents[f]!.trueAtom);
  const lit = (l: number): number => (l > 0 ? now(l - 1) : -now(-l - 1));
  for (const [x, y] of facts) if (lit(x) !== 0 && lit(y) !== 0) solver.addClause([lit(x), lit(y)]);
  const isOpen = new Set(open);
  claims.forEach((c, k) => {
    if (proven[k] === true || isOpen.has(k)) assume(solver, c, now);
  });
  let queries = 0;
  for (const i of open) {
    const claim = claims[i]!;
    const goal = claimGoal(solver, claim, claim.members.map((f) => view.fluents[f]!.nextAtom), atom);
    const answer = solver.solve(goal, limits.maxConflicts, () => limits.deadline.passed());
    queries++;
    if (answer !== 'sat' || limits.deadline.passed()) return { hopeless: false, queries, work: solver.literalCount + solver.visitCount };
  }
  return { hopeless: true, queries, work: solver.literalCount + solver.visitCount };
}
