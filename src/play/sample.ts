/**
 * Random playouts of the ground game from its initial state (depth charges), recording every
 * visited state: the sample that the mutex stage refutes its candidate groups on.
 */
import type { Deadline } from '../deadline.js';
import { ruleCount } from '../ground/compact.js';
import type { GroundGame } from '../ground/types.js';
import { createFastSimulator } from './fast/simulator.js';
import { type GroundSimulator, createGroundSimulator } from './ground-sim.js';
import { createRandom } from './random.js';
import { keepRead, readFluentTerms } from './read-fluents.js';

/** Options of a sampling run, resolved by the caller. */
interface SampleOptions {
  readonly playouts: number;
  readonly seed: number;
  /** Joint moves per playout before it is cut off. */
  readonly maxSteps: number;
  /** Sampling stops early (with what it has) once the deadline passes (looked at every step). */
  readonly deadline: Deadline;
  /**
   * Rule evaluations sampling may spend, each step counting the game's ground rules (absent: no
   * cap): a count, unlike the deadline, stops at the same state whatever the machine's load.
   */
  readonly maxEvaluations?: number;
  /** The ground simulator to play, made once by the caller and shared (the mutex stage's walks); absent: made here. */
  readonly simulator?: () => GroundSimulator;
  /**
   * Only the fluents some rule reads kept in the states returned (read-fluents.ts): the others
   * took most of the sample's memory on factoringImpossibleTurtleBrain (7,300 of a state's fluents,
   * 547 read; the mutex stage drops them when it reads the states).
   */
  readonly readOnly?: boolean;
  /**
   * Asked with the states sampled so far each time their number reaches {@link FIRST_LOOK} and
   * each doubling of it: true stops sampling there (the mutex stage's test that the states have
   * stopped refuting its candidates, src/mutex/sample-enough.ts). Absent: never asked.
   */
  readonly enough?: (states: readonly (readonly number[])[]) => boolean;
  /**
   * Sampling also stops once `deadline` has passed and `states` states are sampled (absent: only
   * the deadline above): a share of the budget that still buys a few states when making the
   * simulator took most of it (the mutex stage with lazy axioms, src/pipeline/mutex-states.ts).
   */
  readonly soft?: { readonly deadline: Deadline; readonly states: number };
}

/** States sampled before {@link SampleOptions.enough} is first asked (then at every doubling). */
const FIRST_LOOK = 1024;

/**
 * The states visited by `playouts` random playouts, each as the term ids of its fluents (the
 * initial state first; none when the deadline passed before it was made). A playout ends in a terminal state, when a role has no legal move, or
 * after `maxSteps` joint moves.
 */
export function sampleStates(game: GroundGame, options: SampleOptions): number[][] {
  const random = createRandom(options.seed);
  const out: number[][] = [];
  try {
    // Inside the guard: a game with lazy axioms evaluates its static part when the simulator is
    // made and its lazy part for the initial state, either of which can outlast the budget.
    // A lazy part (docs/lazy.md) is played by the fast simulator with the term-table evaluator
    // (the same states: test/lazy-fast.test.ts): the ground simulator's Tau-Prolog evaluator took
    // 7 processor seconds to consult chess's lazy program and about 6 a state.
    // The ground simulator's compilation (seconds on the largest games) stops at the run's own
    // limits, not at the sampling budget: the initial state is sampled whatever the budget, as
    // it was before that compilation looked at a clock (test/mutex-lifted-alo.test.ts).
    const d = options.deadline;
    const sim = game.lazy !== undefined ? createFastSimulator(game, d) : options.simulator?.() ?? createGroundSimulator(game, d.withoutBudget());
    const read = options.readOnly === true ? readFluentTerms(game) : undefined;
    const terms = (state: Uint32Array): number[] => (read === undefined ? sim.fluentTerms(state) : keepRead(sim.fluentTerms(state), read));
    out.push(terms(sim.initialState()));
    // Steps left under the count of rule evaluations (a step evaluates the game's rules once).
    let steps = options.maxEvaluations === undefined ? Infinity : Math.floor(options.maxEvaluations / Math.max(1, ruleCount(game)));
    let look = FIRST_LOOK;
    // Asked at a count of states, never at a time: the same states stop it under any load.
    const done = (): boolean => {
      if (options.enough === undefined || out.length < look) return false;
      look *= 2;
      return options.enough(out);
    };
    const softDone = (n: number): boolean => options.soft !== undefined && n >= options.soft.states && options.soft.deadline.passed();
    for (let p = 0; p < options.playouts && steps > 0 && !options.deadline.passed(); p++) {
      let state = sim.initialState();
      for (let step = 0; step < options.maxSteps && steps-- > 0 && !options.deadline.passed(); step++) {
        const info = sim.info(state);
        if (info.terminal || info.legal.some((moves) => moves.length === 0)) break;
        state = sim.successor(state, info.legal.map((moves) => moves[random.below(moves.length)]!));
        out.push(terms(state));
        if (done() || softDone(out.length)) return out;
      }
    }
  } catch (err) {
    // A game with lazy axioms evaluates them inside a step, and that evaluation stops with a
    // limit error when the deadline passes there: sampling then ends with the states it has
    // (none when the budget passed before the initial state was made), as it does between
    // steps (the caller looks at the run's own deadline afterwards).
    if (!options.deadline.passed()) throw err;
  }
  return out;
}
