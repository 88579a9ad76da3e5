/**
 * The default horizon of the RDDL instance: a bound on the game's length found from a step
 * counter, else {@link FALLBACK_HORIZON} (docs/rddl.md, "Horizon").
 *
 * A fluent m' is a *certain successor* of m when some rule of `(next m')` has the body
 * `(true m)` alone: whenever m holds, m' holds in the next state. Let S_0 be the initial state
 * and S_{t+1} the certain successors of S_t; then every fluent of S_t holds after t joint moves
 * (if the game has not ended before). When S_t contains a fluent t* such that `terminal` has a
 * rule whose body is `(true t*)` alone, the game is over after at most t moves. A step counter
 * `(<= (next (step ?y)) (true (step ?x)) (succ ?x ?y))` with `(<= terminal (true (step 10)))` is
 * exactly this pattern once ground. The horizon is then t + 1: t moves and the step that takes
 * `gdl_terminal_action` in the terminal state, in which the goal value is paid.
 */
import type { Formula } from '../../axioms/formula.js';
import type { FormulaGame } from '../../axioms/types.js';
import type { Vocabulary } from '../../ground/vocabulary.js';

/** Horizon used when no step counter bounds the game. */
const FALLBACK_HORIZON = 100;

/** Steps looked at before the search for a counter gives up. */
const MAX_COUNTER_STEPS = 100_000;

/** The atom of a body that is one positive atom, else -1. */
function singleAtom(body: readonly Formula[]): number {
  return body.length === 1 && body[0]!.kind === 'atom' ? body[0]!.atom : -1;
}

/**
 * The number of joint moves after which the game is certainly terminal, found from a step
 * counter as described above; undefined when there is none.
 */
function detectGameLength(game: FormulaGame, vocab: Vocabulary): number | undefined {
  // trueId -> the true ids of its certain successors.
  const nextToTrue = new Map<number, number>();
  for (const f of vocab.fluents) if (f.nextId >= 0) nextToTrue.set(f.nextId, f.trueId);
  const successors = new Map<number, number[]>();
  const triggers = new Set<number>();
  for (const r of game.rules) {
    const from = singleAtom(r.body);
    if (from < 0) continue;
    if (r.head === vocab.terminal) triggers.add(from);
    const to = nextToTrue.get(r.head);
    // A successor without a true atom is never read; it cannot trigger terminal.
    if (to !== undefined && to >= 0) successors.set(from, [...(successors.get(from) ?? []), to]);
  }
  if (triggers.size === 0) return undefined;
  let current = new Set(game.init);
  for (let t = 0; t <= MAX_COUNTER_STEPS && current.size > 0; t++) {
    for (const a of current) if (triggers.has(a)) return t;
    const next = new Set<number>();
    for (const a of current) for (const b of successors.get(a) ?? []) next.add(b);
    current = next;
  }
  return undefined;
}

/** The default horizon: a detected game length plus the terminal step, else {@link FALLBACK_HORIZON}. */
export function defaultHorizon(game: FormulaGame, vocab: Vocabulary): { horizon: number; detected: boolean } {
  const length = detectGameLength(game, vocab);
  return length === undefined ? { horizon: FALLBACK_HORIZON, detected: false } : { horizon: length + 1, detected: true };
}
