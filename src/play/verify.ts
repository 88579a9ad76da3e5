/**
 * Side-by-side random playouts of two simulators of the same game (the reasoner on the original
 * game and the ground simulator): in every visited state the roles' legal moves, terminal and
 * goal values are compared, then both take the same random joint move and their successor
 * states are compared. The first difference ends the run; nothing is printed here. Each
 * simulator keeps its own states and moves; they are compared through their texts, and the
 * ground simulator is given its own move whose text is that of the original's random move.
 */
import type { Deadline } from '../deadline.js';
import { checkDeadline } from '../gdl/diagnostics.js';
import { compareCodePoints } from '../gdl/terms.js';
import { createRandom } from './random.js';
import type { GameSimulator, SimulatorText, StateInfo } from './types.js';

/** Options of a verification run, resolved by the caller. */
export interface VerifyOptions {
  readonly playouts: number;
  /** Seed of the random joint moves; the same seed replays the same matches. */
  readonly seed: number;
  /** Joint moves per playout before it is cut off (when no terminal state comes first). */
  readonly maxSteps: number;
  /**
   * Proven mutex groups (members as fluent texts) to hold in every visited state: at most one
   * member true, exactly one for an exactly-one group. A violation is a bug in the proof.
   */
  readonly groups?: readonly MutexCheck[];
  /**
   * Compare legal moves only in non-terminal states where every role has one in the original
   * game: a game of joint moves (GDDL multi-actions) knows no legal move of one role alone.
   */
  readonly jointMovesOnly?: boolean;
  /**
   * The ground game pays one number per role (RDDL, docs/rddl.md): where the original defines
   * exactly one goal value it must be that one, where it defines none the ground must pay 0,
   * where several (GDL requires one, some games break it) one of them.
   */
  readonly oneGoalValue?: boolean;
  /** The run's deadline, looked at every step of a playout (past it: a limit error about `file`). */
  readonly limit?: { readonly deadline: Deadline; readonly file: string };
}

/** A group whose members (fluent texts) are never true together; exactly one when `exactlyOne`. */
interface MutexCheck {
  readonly members: readonly string[];
  readonly exactlyOne: boolean;
}

/**
 * What differs: roles, the initial state, one of the four things compared per state, or what a
 * role perceives after a joint move (`sees`, GDL-II: docs/gdl2.md).
 */
type DifferenceKind = 'roles' | 'init' | 'legal' | 'terminal' | 'goal' | 'next' | 'sees' | 'mutex';

/** The first difference found, located precisely. */
interface Difference {
  readonly kind: DifferenceKind;
  /** 1-based playout number. */
  readonly playout: number;
  /** Joint moves made in this playout before the state where the difference was seen. */
  readonly step: number;
  /** The state (fluent texts) in which it was seen; the predecessor state for 'next'. */
  readonly state: readonly string[];
  /** The joint move taken, for 'next' and 'sees' (one move text per role). */
  readonly moves?: readonly string[];
  /** The role concerned, for 'legal', 'goal' and 'sees'. */
  readonly role?: string;
  /** Elements only the original game (reasoner) has. */
  readonly onlyOriginal: readonly string[];
  /** Elements only the ground game has. */
  readonly onlyGround: readonly string[];
}

/** Counters of a run. */
interface VerifyStats {
  readonly playouts: number;
  /** States in which legal moves, terminal and goals were compared. */
  readonly states: number;
  /** Successor states compared. */
  readonly transitions: number;
  /** Playouts that reached a terminal state (the others hit maxSteps or a role without moves). */
  readonly terminals: number;
  /** Playouts that stopped in a non-terminal state where some role had no legal move. */
  readonly stuck: number;
}

/** The result of a run: identical, or the first difference. */
export type VerifyResult =
  | { readonly kind: 'same'; readonly stats: VerifyStats }
  | { readonly kind: 'different'; readonly difference: Difference; readonly stats: VerifyStats };

/** Symmetric difference of two sorted text lists. */
function diffTexts(a: readonly string[], b: readonly string[]): { onlyA: string[]; onlyB: string[] } {
  const sa = new Set(a);
  const sb = new Set(b);
  return { onlyA: a.filter((x) => !sb.has(x)), onlyB: b.filter((x) => !sa.has(x)) };
}

type Found = Omit<Difference, 'playout' | 'step' | 'state'>;

/** Compares two lists as sets; a difference of `kind` when they differ. */
function compareSets(kind: DifferenceKind, a: readonly string[], b: readonly string[], role?: string): Found | null {
  const { onlyA, onlyB } = diffTexts(a, b);
  if (onlyA.length === 0 && onlyB.length === 0 && a.length === b.length) return null;
  return { kind, onlyOriginal: onlyA, onlyGround: onlyB, ...(role === undefined ? {} : { role }) };
}

/** What holds in one state, as texts sorted per role (how the two simulators are compared). */
interface InfoTexts {
  readonly legal: readonly string[][];
  readonly terminal: boolean;
  readonly goals: readonly string[][];
}

function infoTexts<M, V>(info: StateInfo<M, V>, text: SimulatorText<unknown, M, V>): InfoTexts {
  const sorted = (xs: string[]): string[] => xs.sort(compareCodePoints);
  return {
    legal: info.legal.map((ms) => sorted(ms.map((m) => text.move(m)))),
    terminal: info.terminal,
    goals: info.goals.map((vs) => sorted(vs.map((v) => text.value(v)))),
  };
}

/** The first group that `state` (fluent texts) violates, as a difference listing its members that hold. */
function checkGroups(state: readonly string[], groups: readonly MutexCheck[]): Found | null {
  const holds = new Set(state);
  for (const g of groups) {
    const on = g.members.filter((m) => holds.has(m));
    if (on.length > 1 || (g.exactlyOne && on.length === 0)) {
      return { kind: 'mutex', onlyOriginal: on, onlyGround: [], role: `group ${g.exactlyOne ? 'exactly-one ' : ''}{${g.members.join(' ')}}` };
    }
  }
  return null;
}

/** The goal a game paying one number must pay (see {@link VerifyOptions.oneGoalValue}); null when it does. */
function compareOneGoal(a: readonly string[], b: readonly string[], role: string): Found | null {
  if (a.length > 1 && b.length === 1 && a.includes(b[0]!)) return null;
  return compareSets('goal', a.length === 0 && b.length > 0 ? ['0'] : a, b, role);
}

/** Compares what holds in one state. */
function compareInfo(roles: readonly string[], a: InfoTexts, b: InfoTexts, jointMovesOnly = false, oneGoalValue = false): Found | null {
  const playable = !a.terminal && a.legal.every((ms) => ms.length > 0);
  for (let i = 0; i < roles.length && (playable || !jointMovesOnly); i++) {
    const d = compareSets('legal', a.legal[i]!, b.legal[i]!, roles[i]!);
    if (d !== null) return d;
  }
  if (a.terminal !== b.terminal) {
    return { kind: 'terminal', onlyOriginal: a.terminal ? ['terminal'] : [], onlyGround: b.terminal ? ['terminal'] : [] };
  }
  for (let i = 0; i < roles.length; i++) {
    const d = oneGoalValue ? compareOneGoal(a.goals[i]!, b.goals[i]!, roles[i]!) : compareSets('goal', a.goals[i]!, b.goals[i]!, roles[i]!);
    if (d !== null) return d;
  }
  return null;
}

/** `ground`'s own moves with the texts of `chosen` (the legal moves were found equal by text). */
function sameMoves<MA, MB>(chosen: readonly MA[], a: SimulatorText<unknown, MA, unknown>, legal: readonly (readonly MB[])[], b: SimulatorText<unknown, MB, unknown>): MB[] {
  return chosen.map((m, i) => {
    const wanted = a.move(m);
    return legal[i]!.find((x) => b.move(x) === wanted)!;
  });
}

/**
 * GDL-II: what each role perceives after the same joint move, when the original game has
 * percepts (a ground simulator without them is taken to perceive nothing, so a ground game
 * that lost its `sees` rules differs).
 */
function comparePercepts<SA, MA, SB, MB>(
  original: GameSimulator<SA, MA, unknown>,
  ground: GameSimulator<SB, MB, unknown>,
  [stateA, movesA]: [SA, readonly MA[]],
  [stateB, movesB]: [SB, readonly MB[]],
): Found | null {
  if (original.percepts === undefined) return null;
  const a = original.percepts(stateA, movesA);
  const b = ground.percepts?.(stateB, movesB) ?? [];
  for (let i = 0; i < original.roles.length; i++) {
    const d = compareSets('sees', a[i] ?? [], b[i] ?? [], original.roles[i]!);
    if (d !== null) return d;
  }
  return null;
}

/** Plays one playout; returns a difference or how it ended. */
function playout<SA, MA, VA, SB, MB, VB>(
  original: GameSimulator<SA, MA, VA>,
  ground: GameSimulator<SB, MB, VB>,
  options: VerifyOptions,
  pick: (n: number) => number,
  count: { states: number; transitions: number },
): { difference: Found & { step: number; state: readonly string[] } } | { ended: 'terminal' | 'stuck' | 'cut' } {
  const ta = original.text;
  const tb = ground.text;
  let stateA = original.initialState();
  let stateB = ground.initialState();
  const init = compareSets('init', ta.state(stateA), tb.state(stateB));
  if (init !== null) return { difference: { ...init, step: 0, state: [] } };
  for (let step = 0; ; step++) {
    if (options.limit !== undefined) checkDeadline(options.limit.deadline, options.limit.file, `verify (playout step ${step})`);
    if (options.groups !== undefined) {
      const m = checkGroups(ta.state(stateA), options.groups);
      if (m !== null) return { difference: { ...m, step, state: ta.state(stateA) } };
    }
    const infoA = original.info(stateA);
    const infoB = ground.info(stateB);
    count.states++;
    const d = compareInfo(original.roles, infoTexts(infoA, ta), infoTexts(infoB, tb), options.jointMovesOnly, options.oneGoalValue);
    if (d !== null) return { difference: { ...d, step, state: ta.state(stateA) } };
    if (infoA.terminal) return { ended: 'terminal' };
    if (infoA.legal.some((ms) => ms.length === 0)) return { ended: 'stuck' };
    if (step >= options.maxSteps) return { ended: 'cut' };
    const moves = infoA.legal.map((ms) => ms[pick(ms.length)]!);
    const nextA = original.successor(stateA, moves);
    const movesB = sameMoves(moves, ta, infoB.legal, tb);
    const nextB = ground.successor(stateB, movesB);
    count.transitions++;
    const n = compareSets('next', ta.state(nextA), tb.state(nextB)) ?? comparePercepts(original, ground, [stateA, moves], [stateB, movesB]);
    if (n !== null) return { difference: { ...n, moves: moves.map((m) => ta.move(m)), step, state: ta.state(stateA) } };
    stateA = nextA;
    stateB = nextB;
  }
}

/**
 * Plays `options.playouts` random matches of `original` and `ground` side by side and returns
 * the first difference, or counters when every visited state agreed.
 */
export function verifyGame<SA, MA, VA, SB, MB, VB>(
  original: GameSimulator<SA, MA, VA>,
  ground: GameSimulator<SB, MB, VB>,
  options: VerifyOptions,
): VerifyResult {
  const random = createRandom(options.seed);
  const count = { states: 0, transitions: 0 };
  let terminals = 0;
  let stuck = 0;
  const stats = (played: number): VerifyStats => ({ playouts: played, ...count, terminals, stuck });
  const rolesA = original.roles;
  const rolesB = ground.roles;
  if (rolesA.join('\n') !== rolesB.join('\n')) {
    const { onlyA, onlyB } = diffTexts(rolesA, rolesB);
    const difference: Difference = { kind: 'roles', playout: 0, step: 0, state: [], onlyOriginal: onlyA, onlyGround: onlyB };
    return { kind: 'different', difference, stats: stats(0) };
  }
  for (let p = 1; p <= options.playouts; p++) {
    const result = playout(original, ground, options, (n) => random.below(n), count);
    if ('difference' in result) return { kind: 'different', difference: { ...result.difference, playout: p }, stats: stats(p) };
    if (result.ended === 'terminal') terminals++;
    if (result.ended === 'stuck') stuck++;
  }
  return { kind: 'same', stats: stats(options.playouts) };
}

/** A multi-line, human-readable account of a difference (for the CLI and test messages). */
export function formatDifference(d: Difference): string {
  if (d.kind === 'mutex') {
    return [
      `mutex group violated (a bug in the proof): playout ${d.playout}, step ${d.step}`,
      `  ${d.role ?? ''}`,
      `  state: ${d.state.length === 0 ? '(initial)' : d.state.join(' ')}`,
      `  members that hold: ${d.onlyOriginal.length === 0 ? '(none)' : d.onlyOriginal.join(' ')}`,
    ].join('\n');
  }
  const what = d.kind === 'next' ? 'successor state' : d.kind === 'sees' ? 'percepts (sees)' : d.kind;
  const lines = [`difference in ${what}: playout ${d.playout}, step ${d.step}`];
  if (d.role !== undefined) lines.push(`  role: ${d.role}`);
  lines.push(`  state: ${d.state.length === 0 ? '(initial)' : d.state.join(' ')}`);
  if (d.moves !== undefined) lines.push(`  joint move: ${d.moves.join(' ')}`);
  const show = (xs: readonly string[]): string => (xs.length === 0 ? '(nothing)' : [...xs].sort(compareCodePoints).join(' '));
  lines.push(`  only in the original game: ${show(d.onlyOriginal)}`);
  lines.push(`  only in the ground game:   ${show(d.onlyGround)}`);
  return lines.join('\n');
}
