/**
 * An RDDL model played as a game (GameSimulator), so that `verify` can compare it with the
 * original game under the reasoner (docs/rddl.md, "Reader and simulator"). One step: the
 * actions are set, derived and interm fluents and the next state are computed in dependency
 * order, then the reward; `x'` becomes `x`. The game reading of a state:
 * - legal moves: the action fluents (bool) that the preconditions allow when set alone, with
 *   every other action at its default; the empty action (all defaults), when allowed, is the
 *   move `(no action)`, which a GDL game never has, so it shows up as a difference;
 * - terminal: `gdl_terminal_action` is allowed;
 * - goal value (terminal states only): the reward paid over the episode when the terminal
 *   action is taken now and once more, counting only steps inside the horizon; it must equal
 *   GDL's goal value (the reward is paid once, in the step out of the terminal state).
 * The reader's RDDL has no role names; the simulator is given the original's roles.
 */
import { TERMINAL_ACTION, parseRddlName } from './names.js';
import { GdlError, diag } from '../../gdl/diagnostics.js';
import { stronglyConnectedComponents } from '../../gdl/scc.js';
import { compareCodePoints } from '../../gdl/terms.js';
import type { GameSimulator, StateInfo } from '../../play/types.js';
import { type Bound, bind, evaluate } from './eval.js';
import type { RddlModel, Variable } from './read.js';

/** A state of the RDDL game: state fluent values, reward paid so far, steps taken. */
interface RddlState {
  readonly values: Float64Array;
  readonly paid: number;
  readonly step: number;
}

/** A move: an action fluent's index among the actions, or -1 for the empty action. */
type RddlMove = number;

/** Text of the empty action as a move. */
export const NO_ACTION = '(no action)';

/** The model bound to slots: every fluent (and `x'` of each state fluent) has one. */
interface Compiled {
  readonly slots: number;
  readonly states: readonly { name: string; slot: number; next: number }[];
  readonly actions: readonly { name: string; slot: number; default: number }[];
  /** Derived fluents (state only, before the preconditions), then the other CPFs. */
  readonly derived: readonly { slot: number; expr: Bound }[];
  readonly cpfs: readonly { slot: number; expr: Bound }[];
  readonly preconditions: readonly Bound[];
  readonly reward: Bound;
  readonly init: Float64Array;
}

function compile(model: RddlModel, file: string): Compiled {
  const fail = (v: Variable | undefined, message: string): GdlError => new GdlError([diag('error', file, v?.pos ?? { line: 1, col: 1 }, message)]);
  const slotOf = new Map<string, number>();
  for (const v of model.variables) {
    if (slotOf.has(v.name)) throw fail(v, `'${v.name}' is declared twice`);
    slotOf.set(v.name, slotOf.size);
  }
  const stateVars = model.variables.filter((v) => v.kind === 'state-fluent');
  for (const v of stateVars) slotOf.set(`${v.name}'`, slotOf.size);
  const slot = (name: string): number | undefined => slotOf.get(name);
  const kindOf = new Map(model.variables.map((v) => [v.name, v.kind]));
  const cpfs: { slot: number; expr: Bound; deps: Set<number>; derived: boolean }[] = [];
  for (const [name, expr] of model.cpfs) {
    const base = name.endsWith("'") ? name.slice(0, -1) : name;
    const kind = kindOf.get(base);
    const ok = name.endsWith("'") ? kind === 'state-fluent' : kind === 'interm-fluent' || kind === 'derived-fluent' || kind === 'observ-fluent';
    if (!ok) throw fail(undefined, `CPF for '${name}', which is not a declared ${name.endsWith("'") ? 'state' : 'interm or derived'} fluent`);
    const deps = new Set<number>();
    cpfs.push({ slot: slotOf.get(name)!, expr: bind(expr, slot, file, deps), deps, derived: kind === 'derived-fluent' });
  }
  for (const v of model.variables) {
    const target = v.kind === 'state-fluent' ? `${v.name}'` : v.name;
    if ((v.kind === 'state-fluent' || v.kind === 'interm-fluent' || v.kind === 'derived-fluent') && !model.cpfs.has(target)) throw fail(v, `no CPF for '${target}'`);
  }
  const init = new Float64Array(slotOf.size);
  for (const v of model.variables) init[slotOf.get(v.name)!] = v.default;
  for (const [name, value] of model.init) {
    if (kindOf.get(name) !== 'state-fluent') throw fail(undefined, `init-state sets '${name}', which is not a state fluent`);
    init[slotOf.get(name)!] = value;
  }
  return {
    slots: slotOf.size,
    states: stateVars.map((v) => ({ name: v.name, slot: slotOf.get(v.name)!, next: slotOf.get(`${v.name}'`)! })),
    actions: model.variables.filter((v) => v.kind === 'action-fluent').map((v) => ({ name: v.name, slot: slotOf.get(v.name)!, default: v.default })),
    ...orderCpfs(cpfs, slotOf.size, file),
    preconditions: model.preconditions.map((e) => bind(e, slot, file)),
    reward: bind(model.reward, slot, file),
    init,
  };
}

/** The CPFs in dependency order (a cycle is an error), derived fluents apart. */
function orderCpfs(cpfs: readonly { slot: number; expr: Bound; deps: Set<number>; derived: boolean }[], slots: number, file: string): Pick<Compiled, 'derived' | 'cpfs'> {
  const bySlot = new Map(cpfs.map((c) => [c.slot, c]));
  const succ = (s: number): number[] => [...(bySlot.get(s)?.deps ?? [])].filter((d) => bySlot.has(d));
  const order: { slot: number; expr: Bound; derived: boolean }[] = [];
  for (const comp of stronglyConnectedComponents(slots, succ)) {
    const c = bySlot.get(comp[0]!);
    if (c === undefined) continue;
    if (comp.length > 1 || c.deps.has(c.slot)) throw new GdlError([diag('error', file, { line: 1, col: 1 }, 'the CPFs depend on each other in a cycle')]);
    order.push(c);
  }
  return { derived: order.filter((c) => c.derived), cpfs: order.filter((c) => !c.derived) };
}

/** The simulator of a read model; `roles` names its one agent (RDDL files have no roles). */
export function createRddlSimulator(model: RddlModel, roles: readonly string[], file = model.domain): GameSimulator<RddlState, RddlMove, string> {
  const m = compile(model, file);
  const terminalAction = m.actions.findIndex((a) => a.name === TERMINAL_ACTION);
  /** Slot values for `state` with action `move` set alone (-1: none), derived fluents computed. */
  const load = (state: RddlState, move: RddlMove): Float64Array => {
    const v = new Float64Array(m.slots);
    for (const s of m.states) v[s.slot] = state.values[s.slot]!;
    for (const a of m.actions) v[a.slot] = a.default;
    if (move >= 0) v[m.actions[move]!.slot] = 1;
    for (const c of m.derived) v[c.slot] = evaluate(c.expr, v);
    return v;
  };
  const allowed = (state: RddlState, move: RddlMove): boolean => {
    const v = load(state, move);
    return m.preconditions.every((p) => evaluate(p, v) !== 0);
  };
  const step = (state: RddlState, move: RddlMove): { next: RddlState; reward: number } => {
    const v = load(state, move);
    for (const c of m.cpfs) v[c.slot] = evaluate(c.expr, v);
    const reward = evaluate(m.reward, v);
    const values = new Float64Array(m.slots);
    for (const s of m.states) values[s.slot] = v[s.next]!;
    return { next: { values, paid: state.paid, step: state.step + 1 }, reward };
  };
  /** Reward inside the horizon for the terminal action taken now and once more. */
  const finalValue = (state: RddlState): string => {
    const first = step(state, terminalAction);
    if (!allowed(first.next, terminalAction)) return `${state.paid + first.reward} (the terminal action is refused after it)`;
    const second = step(first.next, terminalAction);
    let total = state.paid;
    if (state.step < model.horizon) total += first.reward;
    if (state.step + 1 < model.horizon) total += second.reward;
    return state.step < model.horizon ? String(total) : `${total} (terminal after the horizon ${model.horizon})`;
  };
  const moveText = (move: RddlMove): string => (move < 0 ? NO_ACTION : parseRddlName(m.actions[move]!.name)?.text ?? m.actions[move]!.name);
  return {
    roles,
    initialState: () => ({ values: Float64Array.from(m.init), paid: 0, step: 0 }),
    info(state): StateInfo<RddlMove, string> {
      const legal: RddlMove[] = [];
      m.actions.forEach((a, i) => {
        if (i !== terminalAction && a.default === 0 && allowed(state, i)) legal.push(i);
      });
      if (allowed(state, -1)) legal.push(-1);
      const terminal = terminalAction >= 0 && allowed(state, terminalAction);
      return { legal: [legal], terminal, goals: [terminal ? [finalValue(state)] : []] };
    },
    successor(state, moves) {
      const { next, reward } = step(state, moves[0]!);
      return { ...next, paid: state.paid + (state.step < model.horizon ? reward : 0) };
    },
    text: {
      state: (state) => {
        const out: string[] = [];
        for (const s of m.states) {
          if (state.values[s.slot] === 0) continue;
          const parsed = parseRddlName(s.name);
          if (parsed === null) {
            if (!s.name.startsWith('gdl_')) out.push(s.name);
          } else if (parsed.kind === 'fluent') out.push(parsed.text);
        }
        return out.sort(compareCodePoints);
      },
      move: moveText,
      value: (value) => value,
    },
  };
}

/**
 * `sim` read as an RDDL episode: goal values only in terminal states (GDL defines goals
 * everywhere, the RDDL game pays them when the game ends) and no legal moves there (play ends;
 * the RDDL game allows only its terminal action).
 */
export function asEpisode<S, M, V>(sim: GameSimulator<S, M, V>): GameSimulator<S, M, V> {
  return {
    roles: sim.roles,
    initialState: () => sim.initialState(),
    info(state) {
      const info = sim.info(state);
      return info.terminal ? { ...info, legal: info.legal.map(() => []) } : { ...info, goals: info.goals.map(() => []) };
    },
    successor: (state, moves) => sim.successor(state, moves),
    text: sim.text,
  };
}
