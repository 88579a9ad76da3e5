/**
 * The stages that play a game once it is ground: verification against the original (random
 * matches side by side), the mutex stage (states sampled by playouts, then proofs), and the
 * depth charges of `play`. Not re-exported by stages.ts: those modules (the mutex stage, the
 * simulators, the reasoner: about 70 of them) are loaded only by the commands that play, not by
 * `ground` or a batch of GDL (docs/corpus.md, gt15).
 */
import { checkDeadline } from '../gdl/diagnostics.js';
import type { GroundGame } from '../ground/types.js';
import { DEFAULT_MUTEX_OPTIONS, type MutexResult, type MutexTime, findMutexGroups } from '../mutex/index.js';
import { stateCount } from '../play/packed.js';
import type { NormalGame } from '../normalize/types.js';
import { createFastSimulator } from '../play/fast/simulator.js';
import { type GroundSimulator, createGroundSimulator } from '../play/ground-sim.js';
import { type PlayoutOptions, type PlayoutResult, fastPlayouts, simulatorPlayouts } from '../play/playouts.js';
import { createReasoner } from '../play/reasoner.js';
import { type VerifyOptions, type VerifyResult, verifyGame } from '../play/verify.js';

// For the commands that verify (the command line reaches play/ only through pipeline/).
export { formatDifference } from '../play/verify.js';
import type { StageTimer } from '../timer.js';
import { mutexExplorer } from './mutex-explorer.js';
import { MUTEX_EXTRA_SECONDS, type MutexSettings } from './mutex-settings.js';
import { mutexStates } from './mutex-states.js';
import type { PipelineOptions } from './options.js';

/**
 * Plays random matches of the original game (the Prolog reasoner, under the run's deadline)
 * and of its ground game side by side.
 */
export function verifyGrounding(normal: NormalGame, ground: GroundGame, options: PipelineOptions, verify: VerifyOptions): VerifyResult {
  const original = createReasoner(normal, { deadline: options.deadline });
  return verifyGame(original, createGroundSimulator(ground, options.deadline), { ...verify, limit: { deadline: options.deadline, file: normal.file } });
}

/**
 * Processor seconds of the stage's budget kept back for what follows its last look at the budget
 * (the SAT steps or lifted case until the next look, choosing the encoding, the stats), so that
 * the stage as a whole ends within its budget: the proofs stop this much before it. A tenth of
 * the run before the stage when that is more: what follows the last look (a cone's atom, the
 * garbage of a cone of millions of rules) grows with the game, and amazonsTorus (T about 17 to
 * 20 s) ended 1 to 2 s past its last look (docs/mutex.md, "The budget-bound games"). Two
 * seconds, not one, since 2026-11-28: the budget-bound games ended at T + 9 by design, and a
 * collection of a large heap between two looks (amazonsTorus: mark-compacts of 1 GB taking 0.4 to
 * 2.4 s under load) carried them past T + 10 (docs/mutex.md, "Cones the budget cannot pay for").
 */
const MUTEX_RESERVE_SECONDS = 2;
const MUTEX_RESERVE_SHARE_OF_BEFORE = 0.1;
/** The reserve is at most this share of the budget (a small `--mutex-seconds` keeps most of it). */
const MUTEX_RESERVE_SHARE_OF_BUDGET = 0.2;

/**
 * Step 6: mutex groups of the ground game's fluents. States are sampled by random playouts of
 * the ground simulator; the mutex stage refutes candidates on them, proves the survivors on
 * `normal`'s rules with variables first (the game `ground` came from), then inductively on the
 * ground rules (not for a game with lazy axioms: lifted proofs only), and chooses the encoding
 * with the fewest bits (docs/mutex.md). Every command
 * that needs mutex groups comes here, so they are the same groups proven the same way.
 *
 * The stage has a time budget of its own (`settings.seconds`, by default the processor time of
 * the run so far, `timer.processorSeconds()`, plus {@link MUTEX_EXTRA_SECONDS}: processor
 * seconds, as the budget counts them), sampling at most half of it: when it runs
 * out, the stage returns what it has proven. Only the run's deadline makes it fail. The proofs
 * stop {@link MUTEX_RESERVE_SECONDS} (or a tenth of the run before the stage when more; at most a
 * fifth of the budget) before it, for the work after their last look at the clock.
 */
export function mutexGroups(ground: GroundGame, normal: NormalGame, options: PipelineOptions, settings: MutexSettings, timer: StageTimer): MutexResult {
  // T in processor seconds, as the budget counts: a wall-clock T grows with the machine's load.
  const before = timer.processorSeconds();
  const seconds = settings.seconds ?? before + MUTEX_EXTRA_SECONDS;
  const reserve = Math.min(Math.max(MUTEX_RESERVE_SECONDS, before * MUTEX_RESERVE_SHARE_OF_BEFORE), seconds * MUTEX_RESERVE_SHARE_OF_BUDGET);
  const budget = options.deadline.within(Math.max(0, seconds - reserve));
  // The whole budget, reserve included: the choice of the encoding stops weighing there.
  const end = options.deadline.within(seconds);
  // Every reachable state of a small game first (mutex-states.ts), else sampled playouts.
  // One ground simulator for sampling and the walks (compiling it took seconds on amazonsTorus).
  let made: GroundSimulator | undefined;
  const simulator = (): GroundSimulator => (made ??= createGroundSimulator(ground, options.deadline.withoutBudget()));
  const { states, enumeration, held } = timer.run('sample', () => mutexStates(ground, settings, options.deadline, seconds, simulator), (s) => ({ states: stateCount(s.states) }));
  checkDeadline(options.deadline, ground.file, 'mutex groups: sampling');
  const sampled = timer.processorSeconds();
  return timer.run('mutex', () => {
    const reachable = enumeration?.end === 'complete';
    // The moves, walks and searches that refute what sampling and the proofs leave (docs/mutex.md);
    // with lazy axioms on the fast simulator (mutex-explorer.ts), its seeds made whole from the sampled states.
    const explorer = mutexExplorer(ground, budget, settings.seed, simulator, Array.isArray(states) ? states : undefined);
    const r = findMutexGroups(ground, states, { ...DEFAULT_MUTEX_OPTIONS, deadline: budget, end, lifted: normal, reachable, explorer }, held);
    checkDeadline(options.deadline, ground.file, 'mutex groups: proving');
    const time: MutexTime = { beforeSeconds: before, budgetSeconds: seconds, sampleSeconds: sampled - before, proofSeconds: timer.processorSeconds() - sampled };
    return { ...r, stats: { ...r.stats, time, ...(enumeration === undefined ? {} : { enumeration }) } };
  }, (r) => ({ fluents: r.fluents, bits: r.bits, groups: r.groups.length, proven: r.groups.filter((g) => g.proven).length }));
}

/** Plays random matches of two games (each through the Prolog reasoner) side by side. */
export function verifyAgainst(original: NormalGame, other: NormalGame, options: PipelineOptions, verify: VerifyOptions): VerifyResult {
  const limit = { deadline: options.deadline, file: original.file };
  return verifyGame(createReasoner(original, { deadline: options.deadline }), createReasoner(other, { deadline: options.deadline }), { ...verify, limit });
}

// ---- play (issue 16): Monte-Carlo depth charges, ground game against the reasoner ----------



/**
 * Depth charges of a ground game with the fast simulator (src/play/fast/): its network is
 * compiled first (stage `compile-sim`), then the playouts run (stage `play-ground`).
 */
export function playGroundGame(ground: GroundGame, options: PipelineOptions, playouts: PlayoutOptions, timer: StageTimer): PlayoutResult {
  // A game with lazy axioms plays here too, its lazy part decided on demand (src/play/fast/lazy.ts)
  // under the run's deadline: one query of the lazy part can take longer than the playing time.
  const sim = timer.run('compile-sim', () => createFastSimulator(ground, options.deadline));
  return timer.run('play-ground', () => fastPlayouts(sim, playouts), (r) => ({ playouts: r.playouts, states: r.states }));
}

/**
 * Depth charges of the original game with the Prolog reasoner (stage `play-prolog`), its
 * queries under the run's deadline (a limit error past it).
 */
export function playOriginalGame(normal: NormalGame, options: PipelineOptions, playouts: PlayoutOptions, timer: StageTimer): PlayoutResult {
  const sim = timer.run('reasoner', () => createReasoner(normal, { deadline: options.deadline }));
  return timer.run('play-prolog', () => simulatorPlayouts(sim, playouts), (r) => ({ playouts: r.playouts, states: r.states }));
}
