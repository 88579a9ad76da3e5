/**
 * The depth charges' step of the fast simulator (docs/play.md, "The step of a playout"): the
 * compiled nets with the state loaded into each (`Machine`), the restart of a playout by copying
 * the initial state's saved values, the playout loop of a game played on one net, and the loop
 * of a turn-taking game played on one net per control fluent.
 */
import type { Random } from '../random.js';
import type { GroundState } from '../ground-sim.js';
import type { GoalSplit } from './goals.js';
import { type Frames, frameSuccessor } from './frames.js';
import type { Net } from './net.js';
import type { Outputs, Propagator } from './propagate.js';
import type { WasmCharge, WasmStep } from './wasm-group.js';

/** One compiled net with its values, outputs and the state loaded into it. */
export interface Machine {
  readonly net: Propagator;
  readonly out: Outputs;
  /** The state whose true atoms are set. */
  readonly loaded: Uint32Array;
  /** The does atoms set, `doesOn[0 .. doesCount-1]`. */
  readonly doesOn: Int32Array;
  doesCount: number;
  /** The goal part, evaluated only when goals are asked for (goals.ts), if the game has one. */
  readonly goals: GoalSplit | undefined;
  readonly compiled: Net;
  /** Per fluent, what changing its true atom costs (its readers), to weigh a restart by differences against a copy. */
  readonly fluentCost: Int32Array;
  /**
   * Per state word, the fluents whose true atom something reads (a rule of the net or of the goal
   * part, the lazy part): only these are set in the net when a state is loaded. The others
   * (beatMania's falling blocks, once frames.ts computes their successor) would only cost a write.
   */
  readonly watched: Uint32Array;
  /** The fluents taken out of the net as frames of moves (frames.ts), if any: their successor bits come from masks. */
  readonly frames: Frames | undefined;
  /** The step in WebAssembly when the net is (wasm-propagate.ts): `loaded` and `doesOn` are then its views. */
  readonly wasm: WasmStep | undefined;
}

/** The successor of the state loaded into `m` under the joint move set (its does atoms set, the net settled), into `into`. */
export function successorInto(m: Machine, into: Uint32Array): void {
  if (m.frames === undefined) into.set(m.out.nextBits);
  else frameSuccessor(m.frames, m.doesOn, m.doesCount, m.loaded, m.out.nextBits, into);
}

/**
 * The outputs of the initial state, copied when a playout restarts by copying (the net's own
 * values are saved in the propagator), with what the copy costs in the units of `fluentCost`.
 */
export interface Restart {
  readonly machine: Machine;
  readonly legalCount: Int32Array;
  readonly legalList: Int32Array;
  readonly legalPos: Int32Array;
  readonly nextBits: Uint32Array;
  readonly cost: number;
}

/**
 * Bytes copied per unit of `fluentCost` (one reader of a changed atom, a counter update):
 * measured on chomp, ticTacToe and connectFour, a reader costs about as much as copying this
 * many bytes.
 */
const BYTES_PER_READER = 64;

/** The {@link Machine.watched} mask: fluents whose true atom `net` or one of `more` (rules outside the net) reads. */
export function watchedFluents(net: Net, trueAtom: Int32Array, more: readonly { readonly pos: readonly number[]; readonly neg: readonly number[] }[]): Uint32Array {
  const outside = new Set<number>();
  for (const r of more) for (const a of [...r.pos, ...r.neg]) outside.add(a);
  const mask = new Uint32Array((trueAtom.length + 31) >>> 5);
  trueAtom.forEach((a, f) => {
    const read = a >= 0 && (a >= net.atoms || net.readStart[a + 1] !== net.readStart[a] || net.cycleReadStart[a + 1] !== net.cycleReadStart[a] || outside.has(a));
    if (read) mask[f >>> 5]! |= 1 << (f & 31);
  });
  return mask;
}

/** Per fluent, the readers of its true atom in `net` plus one (the change itself). */
export function fluentCosts(net: Net, trueAtom: Int32Array): Int32Array {
  const cost = new Int32Array(trueAtom.length);
  trueAtom.forEach((a, f) => {
    if (a >= 0) cost[f] = 1 + net.readStart[a + 1]! - net.readStart[a]! + net.cycleReadStart[a + 1]! - net.cycleReadStart[a]!;
  });
  return cost;
}

/** Saves the initial state's values of `m` (just loaded) for restarts by copying. */
export function saveRestart(m: Machine): Restart {
  m.net.save();
  const { legalCount, legalList, legalPos, nextBits } = m.out;
  const bytes = m.net.savedBytes() + legalCount.byteLength + legalList.byteLength + legalPos.byteLength + nextBits.byteLength;
  return { machine: m, legalCount: legalCount.slice(), legalList: legalList.slice(), legalPos: legalPos.slice(), nextBits: nextBits.slice(), cost: bytes / BYTES_PER_READER };
}

/** Whether two states are the same. */
export function sameBits(a: GroundState, b: GroundState): boolean {
  if (a.length !== b.length) return false;
  for (let w = 0; w < a.length; w++) if (a[w] !== b[w]) return false;
  return true;
}

/** Whether undoing the differences between `loaded` and `init` costs more than copying. */
export function copyIsCheaper(restart: Restart, init: GroundState): boolean {
  const { loaded, fluentCost } = restart.machine;
  let cost = 0;
  for (let w = 0; w < init.length; w++) {
    for (let diff = loaded[w]! ^ init[w]!; diff !== 0; diff &= diff - 1) {
      cost += fluentCost[(w << 5) | (31 - Math.clz32(diff & -diff))]!;
      if (cost > restart.cost) return true;
    }
  }
  return false;
}

/** Returns `restart.machine` to the initial state by copying its saved values and outputs. */
export function restoreInitial(restart: Restart, init: GroundState): void {
  const m = restart.machine;
  m.net.restore();
  if (m.wasm === undefined) {
    m.out.legalCount.set(restart.legalCount);
    m.out.legalList.set(restart.legalList);
    m.out.legalPos.set(restart.legalPos);
    m.out.nextBits.set(restart.nextBits);
  }
  m.loaded.set(init);
  m.doesCount = 0;
}


/** What the loop of {@link chargeOneNet} reads besides its machine. */
interface ChargeGame {
  readonly roles: number;
  /** Id of the terminal atom, -1 when the game has none. */
  readonly terminal: number;
  /** Per legal atom, its does atom (-1 for none). */
  readonly doesOf: Int32Array;
  /** Per fluent, its true atom (-1 for none). */
  readonly trueAtom: Int32Array;
  /** Scratch: the joint move chosen, and the successor while it is loaded. */
  readonly chosen: Int32Array;
  readonly scratch: Uint32Array;
}

/**
 * Chooses each role's move uniformly among its legal ones into `chosen`, false when some role
 * has none (the playout ends). A role with one legal move (the noop of a role not to move)
 * draws no random number.
 */
export function chooseMoves(out: Outputs, roles: number, random: Random, chosen: Int32Array): boolean {
  const { legalCount, legalList, legalBase } = out;
  for (let r = 0; r < roles; r++) {
    const count = legalCount[r]!;
    if (count === 0) return false;
    chosen[r] = legalList[legalBase[r]! + (count === 1 ? 0 : random.below(count))]!;
  }
  return true;
}

/**
 * A depth charge from the state loaded into `m` (settled, no does atom set), for a game played
 * on this one net (no net per control fluent, no lazy part): the step of the simulator's
 * `play` then `load`, with the machine's arrays and operations held in locals, nothing looked
 * up per step that cannot change. Returns the joint moves made; `m` holds the last state.
 */
export function chargeOneNet(m: Machine, g: ChargeGame, random: Random, maxSteps: number, visit?: (state: GroundState) => void): number {
  if (m.wasm !== undefined) return chargeOneWasm(m, m.wasm, g, random, maxSteps, visit);
  const { val, setInput, fire, unfire, propagate } = m.net;
  const { out } = m;
  const { nextBits } = out;
  const { loaded, doesOn, frames, watched } = m;
  const { roles, terminal, doesOf, trueAtom, chosen, scratch } = g;
  const words = loaded.length;
  for (let depth = 0; ; depth++) {
    if (visit !== undefined) visit(loaded);
    if (depth >= maxSteps || (terminal >= 0 && val[terminal] === 1)) return depth;
    if (!chooseMoves(out, roles, random, chosen)) return depth;
    // The joint move: each does atom once, the triggered rules looked at once all are set.
    let set = 0;
    for (let r = 0; r < roles; r++) {
      const d = doesOf[chosen[r]!]!;
      if (d >= 0 && val[d] === 0) setInput(d, 1), (doesOn[set++] = d);
    }
    for (let i = 0; i < set; i++) fire(doesOn[i]!);
    propagate();
    // The successor, read before the move is withdrawn; then only the fluents that change set.
    if (frames === undefined) scratch.set(nextBits);
    else frameSuccessor(frames, doesOn, set, loaded, nextBits, scratch);
    unfire();
    for (let i = 0; i < set; i++) setInput(doesOn[i]!, 0);
    for (let w = 0; w < words; w++) {
      const now = scratch[w]!;
      for (let diff = (loaded[w]! ^ now) & watched[w]!; diff !== 0; diff &= diff - 1) {
        const b = 31 - Math.clz32(diff & -diff);
        const atom = trueAtom[(w << 5) | b]!;
        if (atom >= 0) setInput(atom, (now >>> b) & 1);
      }
      loaded[w] = now;
    }
    propagate();
  }
}

/** What the loop of {@link chargeTurns} reads besides its {@link ChargeGame}: the nets, and the turn. */
export interface TurnGame extends ChargeGame {
  /** The net of each control fluent, in turn order: the successor of a state of net t is one of net t+1 (mod their number). */
  readonly machines: readonly Machine[];
  /** The net of the state loaded (the playout's first state before, its last after a charge). */
  turn: number;
}

/**
 * A depth charge from the state loaded into `g.machines[g.turn]`, for a game played on one net
 * per control fluent (specialize.ts): the joint move is set in the net of the turn, the
 * successor read, the move withdrawn, and the successor loaded into the next turn's net with
 * only the fluents that differ from the state that net had (the round's changes). The turn
 * comes from the proof of the control cycle (the successor of a state of control fluent c(i)
 * has c(i+1)), so no state is searched for its control fluent. Returns the joint moves made;
 * `g.turn` is the net of the last state.
 */
export function chargeTurns(g: TurnGame, random: Random, maxSteps: number, visit?: (state: GroundState) => void): number {
  // A loop, not `every` with a closure: on ticTacToe that closure was a tenth of a playout's time.
  let wasm = true;
  for (const m of g.machines) wasm &&= m.wasm !== undefined;
  if (wasm) return chargeTurnsWasm(g, random, maxSteps, visit);
  const { machines, roles, terminal, doesOf, trueAtom, chosen, scratch } = g;
  const words = scratch.length;
  let m = machines[g.turn]!;
  for (let depth = 0; ; depth++) {
    const { net, out, loaded, doesOn } = m;
    const val = net.val;
    if (visit !== undefined) visit(loaded);
    if (depth >= maxSteps || (terminal >= 0 && val[terminal] === 1)) return depth;
    if (!chooseMoves(out, roles, random, chosen)) return depth;
    let set = 0;
    for (let r = 0; r < roles; r++) {
      const d = doesOf[chosen[r]!]!;
      if (d >= 0 && val[d] === 0) net.setInput(d, 1), (doesOn[set++] = d);
    }
    m.doesCount = set;
    for (let i = 0; i < set; i++) net.fire(doesOn[i]!);
    net.propagate();
    successorInto(m, scratch);
    // The next turn's net: its last move withdrawn and the successor loaded, settled at once.
    g.turn = g.turn + 1 === machines.length ? 0 : g.turn + 1;
    m = machines[g.turn]!;
    const next = m.net;
    const into = m.loaded;
    next.unfire();
    for (let i = 0; i < m.doesCount; i++) next.setInput(m.doesOn[i]!, 0);
    m.doesCount = 0;
    for (let w = 0; w < words; w++) {
      const now = scratch[w]!;
      for (let diff = (into[w]! ^ now) & m.watched[w]!; diff !== 0; diff &= diff - 1) {
        const b = 31 - Math.clz32(diff & -diff);
        const atom = trueAtom[(w << 5) | b]!;
        if (atom >= 0) next.setInput(atom, (now >>> b) & 1);
      }
      into[w] = now;
    }
    next.propagate();
  }
}

/**
 * {@link chargeOneNet} on a net in WebAssembly: the whole playout one call (wasm-charge.ts)
 * unless each state is to be visited; else the moves chosen here (the same random numbers), the
 * rest of the step one call.
 */
function chargeOneWasm(m: Machine, w: WasmStep, g: ChargeGame, random: Random, maxSteps: number, visit?: (state: GroundState) => void): number {
  if (visit === undefined && w.group.nets === 1) return chargeInWasm(w.group, [m], 0, random, maxSteps);
  const val = m.net.val;
  const { loaded, out } = m;
  const { roles, terminal } = g;
  const { chosen } = w;
  for (let depth = 0; ; depth++) {
    if (visit !== undefined) visit(loaded);
    if (depth >= maxSteps || (terminal >= 0 && val[terminal] === 1)) return depth;
    if (!chooseMoves(out, roles, random, chosen)) return depth;
    w.step(roles);
  }
}

/**
 * `maxSteps` as the i32 bound of the loop in WebAssembly, stopping where `depth >= maxSteps`
 * stops the JS loop: a larger bound (no game plays 2^31 joint moves) or NaN (never reached) is as
 * good as none.
 */
function stepBound(maxSteps: number): number {
  return maxSteps >= 0x7fffffff || Number.isNaN(maxSteps) ? 0x7fffffff : Math.ceil(maxSteps);
}

/**
 * The playout in one call over `machines`, the nets of `group` in their order, from the state
 * loaded into `machines[turn]`: the generator's state and the does counts handed in and taken
 * back, so that the JS side goes on as if its own loop had played. Returns the joint moves made;
 * the header's turn is the net of the last state.
 */
function chargeInWasm(group: WasmCharge, machines: readonly Machine[], turn: number, random: Random, maxSteps: number): number {
  group.header[1] = turn;
  return handedOver(group.header, machines, random, () => group.charge(stepBound(maxSteps)));
}

/** Runs `play` (a call into the group) with the generator's state and the does counts in `header`, and takes them back. */
function handedOver(header: Int32Array, machines: readonly Machine[], random: Random, play: () => number): number {
  header[0] = random.state | 0;
  for (let i = 0; i < machines.length; i++) header[2 + i] = machines[i]!.doesCount;
  const depth = play();
  random.state = header[0]!;
  for (let i = 0; i < machines.length; i++) machines[i]!.doesCount = header[2 + i]!;
  return depth;
}

/**
 * The depth charge from the initial state in one call, restart included (wasm-charge.ts's
 * `restartCharge`), over the machines of `restarts` when they are one group in WebAssembly made
 * with the initial state, and `turns` (the machine of each turn, in turn order) is that group's
 * nets in order: the module plays net i, then i + 1, so not when turns share a net. Else
 * undefined. `first` is the net of the initial state. The charge returns the joint moves made,
 * after which `turn()` is the net of the last state.
 */
export function restartInWasm(restarts: readonly Restart[], turns: readonly Machine[], first: number): { charge(random: Random, maxSteps: number): number; turn(): number } | undefined {
  const machines = restarts.map((r) => r.machine);
  if (machines.some((m) => m.wasm === undefined)) return undefined;
  const group = oneGroup(machines);
  const restartCharge = group?.restartCharge;
  if (group === undefined || restartCharge === undefined || oneGroup(turns) !== group) return undefined;
  const { header } = group;
  // The thresholds of copyIsCheaper: a whole cost above the cost rounded down is above the cost.
  restarts.forEach((r, i) => (header[8 + i] = Math.min(0x7fffffff, Math.floor(r.cost))));
  return {
    charge: (random, maxSteps) => handedOver(header, machines, random, () => restartCharge(stepBound(maxSteps), first)),
    turn: () => header[1]!,
  };
}

/** Whether `machines` are the nets of one group in its order (the simulator makes them so), to be played in one call. */
function oneGroup(machines: readonly Machine[]): WasmCharge | undefined {
  const group = machines[0]!.wasm!.group;
  if (group.nets !== machines.length) return undefined;
  for (let i = 0; i < machines.length; i++) if (machines[i]!.wasm!.group !== group || machines[i]!.wasm!.index !== i) return undefined;
  return group;
}

/**
 * {@link chargeTurns} on nets in WebAssembly: the whole playout one call when they are one
 * group and no state is to be visited; else the joint move played in the net of the turn
 * and its successor made there (one call), copied into the next net's scratch and loaded there (one call).
 */
function chargeTurnsWasm(g: TurnGame, random: Random, maxSteps: number, visit?: (state: GroundState) => void): number {
  const { machines, roles, terminal } = g;
  const group = visit === undefined ? oneGroup(machines) : undefined;
  if (group !== undefined) {
    const depth = chargeInWasm(group, machines, g.turn, random, maxSteps);
    g.turn = group.header[1]!;
    return depth;
  }
  let m = machines[g.turn]!;
  for (let depth = 0; ; depth++) {
    const { out, loaded } = m;
    if (visit !== undefined) visit(loaded);
    if (depth >= maxSteps || (terminal >= 0 && m.net.val[terminal] === 1)) return depth;
    const w = m.wasm!;
    if (!chooseMoves(out, roles, random, w.chosen)) return depth;
    m.doesCount = w.playNext(roles);
    g.turn = g.turn + 1 === machines.length ? 0 : g.turn + 1;
    const next = machines[g.turn]!;
    // Word by word: TypedArray.set's call costs more than a small state's few words.
    const from = w.scratch, into = next.wasm!.scratch;
    for (let i = 0; i < from.length; i++) into[i] = from[i]!;
    next.wasm!.advance(next.doesCount);
    next.doesCount = 0;
    m = next;
  }
}
