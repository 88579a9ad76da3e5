/**
 * WebAssembly propagators (wasm-propagate.ts's code) made as a group: one module and one memory
 * for a game's nets per control fluent (or for its one net), each net's arrays at its own place
 * in that memory and its functions at their own indices, and the playout in one call over them
 * (wasm-charge.ts). Why one memory: a turn's successor is written by one net and loaded by the
 * next, and a WebAssembly function reads only its own module's memory; with a memory per net
 * the successor was copied between them by JS, between two calls per step.
 */
import type { Net } from './net.js';
import type { Outputs, Propagator } from './propagate.js';
import { type StepTables, arraysOf, functions, layout, settleOf } from './wasm-propagate.js';
import { type ChargeNet, HEADER, MAX_GROUP, chargeFunctions } from './wasm-charge.js';
import { fillFrames } from './wasm-frames.js';
import { entryOf, widthsOf } from './wasm-counters.js';
import { type WasmFunction, instantiate } from './wasm-encode.js';

/** The playout in one call over a group's nets (wasm-charge.ts), with the header it reads and leaves. */
export interface WasmCharge {
  /** The header (wasm-charge.ts's `HEADER`) as i32: the generator's state, the turn, per net its does count. */
  readonly header: Int32Array;
  /** The nets of the group, in turn order. */
  readonly nets: number;
  /** Plays from the net in the header's turn, at most `maxSteps` joint moves; returns them. */
  charge(maxSteps: number): number;
  /**
   * Restarts every net from the initial state (charge.ts's `toInitial`: by copying its saved
   * values when the header's threshold says so, else by differences), then plays from net `turn`;
   * absent when the nets were made without the initial state.
   */
  readonly restartCharge: ((maxSteps: number, turn: number) => number) | undefined;
}

/** The step of a playout in WebAssembly (wasm-propagate.ts's `stepFunctions`), with its arrays as views on the module's memory. */
export interface WasmStep {
  readonly chosen: Int32Array;
  readonly doesOn: Int32Array;
  readonly loaded: Uint32Array;
  readonly scratch: Uint32Array;
  /** Sets the joint move `chosen`, fires it and settles; returns the number of does atoms set, in `doesOn`. */
  play(roles: number): number;
  /** Withdraws the `count` does atoms in `doesOn` and loads `scratch` by its differences from `loaded`, then settles. */
  advance(count: number): void;
  /** Writes into `scratch` the successor of `loaded` under the `count` does atoms in `doesOn` (the net settled with them set). */
  successor(count: number): void;
  /** `play`, then `successor`; returns the number of does atoms set. */
  playNext(roles: number): number;
  /** `play`, `successor`, then `advance`; returns the number of does atoms set. */
  step(roles: number): number;
  /** The group's playout in one call, and this net's place in its turn order. */
  readonly group: WasmCharge;
  readonly index: number;
}

/** The WebAssembly propagator, with its step. */
type WasmPropagator = Propagator & { readonly step: WasmStep };

/** One net of a group: the net, its outputs and what its step reads. */
interface GroupNet {
  readonly net: Net;
  readonly out: Outputs;
  readonly tables: StepTables;
}

/** Where one net lies in the group's memory and module. */
interface Placed {
  readonly at: Readonly<Record<string, number>>;
  /** End of its arrays, where its saved values start; end of those. */
  readonly bytes: number;
  readonly end: number;
  readonly sizes: Map<string, number>;
  readonly code: WasmFunction[];
  readonly first: number;
}

/** Lays out each net after the header, its saved values after its arrays, and numbers its functions. */
function place(items: readonly GroupNet[]): Placed[] {
  let base: number = HEADER.bytes;
  let first = 0;
  return items.map(({ net, out, tables }, i) => {
    const widths = widthsOf(net);
    const arrays = arraysOf(net, out, tables, widths);
    const { at, bytes } = layout(arrays, base);
    // The saved values and outputs (save, restore): from `val` to the end of `nextBits`.
    const end = bytes + at.nextBits! + 4 * out.nextBits.length - at.val!;
    const sizes = { rules: net.rules, atoms: net.atoms, words: out.nextBits.length, frames: tables.frames, widths };
    const code = functions(at, sizes, first, 2 + i).map((f) => (f.export === undefined ? f : { ...f, export: `${f.export}_${i}` }));
    const placed = { at, bytes, end, sizes: new Map(arrays.map(([name, count]) => [name, count])), code, first };
    base = (end + 7) & ~7;
    first += code.length;
    return placed;
  });
}

/**
 * The propagators of `items` in WebAssembly, one module and one memory, each settled as
 * createPropagator's is, with its outputs (`out`'s tables, fresh counts and lists) and its step's
 * arrays in that memory; undefined when a net has a cyclic component, there are more than
 * `MAX_GROUP` nets, or the platform refuses WebAssembly. The items share roles and terminal atom.
 */
export function createWasmGroup(items: readonly GroupNet[]): WasmPropagator[] | undefined {
  if (items.length === 0 || items.length > MAX_GROUP || items.some(({ net }) => net.cyclic.some((x) => x === 1))) return undefined;
  const placed = place(items);
  const last = placed[placed.length - 1]!;
  const fn = (p: Placed, name: string): number => p.first + p.code.findIndex((f) => f.export?.startsWith(`${name}_`));
  const chargeNets: ChargeNet[] = placed.map((p, i) => ({ at: p.at, playNext: fn(p, 'playNext'), advance: fn(p, 'advance'), fired: 2 + i, savedAt: p.bytes }));
  const t = items[0]!.tables;
  const shape = { roles: t.roles, terminal: t.terminal ?? -1, words: items[0]!.out.nextBits.length, restart: items.every((item) => item.tables.init !== undefined && item.tables.fluentCost !== undefined) };
  const code = [...placed.flatMap((p) => p.code), ...chargeFunctions(shape, chargeNets, last.first + last.code.length)];
  const instance = instantiate({ functions: code, globals: 2 + items.length, pages: Math.ceil(last.end / 65536) });
  if (instance === undefined) return undefined;
  const ex = instance.exports as Record<string, unknown>;
  const buffer = (ex.memory as WebAssembly.Memory).buffer;
  const group: WasmCharge = {
    header: new Int32Array(buffer, 0, HEADER.bytes / 4), nets: items.length, charge: ex.charge as (maxSteps: number) => number,
    restartCharge: shape.restart ? (ex.restartCharge as (maxSteps: number, turn: number) => number) : undefined,
  };
  return items.map((item, i) => propagatorOf(item, placed[i]!, buffer, (name) => ex[`${name}_${i}`], { group, index: i }));
}

/** The propagator of one net of a group over its place in `buffer`; `fn(name)` its exported function. */
function propagatorOf({ net, out, tables }: GroupNet, p: Placed, buffer: ArrayBuffer, fn: (name: string) => unknown, where: { group: WasmCharge; index: number }): WasmPropagator {
  const { at, sizes: size } = p;
  const view = (name: string): Int32Array => new Int32Array(buffer, at[name], size.get(name)!);
  const u32 = (name: string): Uint32Array => new Uint32Array(buffer, at[name], size.get(name)!);
  const entries = view('entries');
  for (let i = 0; i < net.readers.length; i++) {
    const k = net.readers[i]! >> 1;
    entries[2 * i] = entryOf(net, net.readers[i]!);
    entries[2 * i + 1] = net.trigger[k]! >= 0 ? -1 : net.head[k]!;
  }
  view('readStart').set(net.readStart);
  view('settle').set(settleOf(net, out));
  new Uint8Array(buffer, at.kind, net.atoms).set(out.kind);
  view('legalRole').set(out.legalRole);
  view('legalBase').set(out.legalBase);
  view('nextFluent').set(out.nextFluent);
  for (const name of ['head', 'posStart', 'pos', 'negStart', 'neg', 'trigger', 'triggerStart', 'countedPos'] as const) view(name).set(net[name]);
  view('doesOf').set(tables.doesOf);
  view('trueAtom').set(tables.trueAtom);
  view('watched').set(tables.watched);
  if (tables.init !== undefined) u32('init').set(tables.init);
  if (tables.fluentCost !== undefined) view('fluentCost').set(tables.fluentCost);
  fillFrames(tables.frames, view);
  (fn('init') as () => void)();
  const widths = widthsOf(net);
  const step: WasmStep = {
    chosen: view('chosen'),
    doesOn: view('doesOn'),
    loaded: u32('loaded'),
    scratch: u32('scratch'),
    play: fn('play') as (roles: number) => number,
    advance: fn('advance') as (count: number) => void,
    step: fn('step') as (roles: number) => number,
    successor: fn('successor') as (count: number) => void,
    playNext: fn('playNext') as (roles: number) => number,
    ...where,
  };
  // The values and outputs lie in one range of memory, from `val` to the end of `nextBits`
  // (the stack inside it is empty whenever the net is settled, `fired` is read only up to its
  // count): saved and restored as one copy, to the place past the net's arrays.
  const from = at.val!;
  const to = at.nextBits! + 4 * size.get('nextBits')!;
  const savedAt = p.bytes;
  const bytesView = new Uint8Array(buffer);
  let saved = false;
  const resetFired = fn('resetFired') as () => void;
  return {
    val: new Uint8Array(buffer, at.val, net.atoms),
    unmet: widths.unmet === 1 ? new Uint8Array(buffer, at.unmet, net.rules) : widths.unmet === 2 ? new Uint16Array(buffer, at.unmet, net.rules) : view('unmet'),
    out: { ...out, legalCount: view('legalCount'), legalList: view('legalList'), legalPos: view('legalPos'), nextBits: u32('nextBits') },
    step,
    setInput: fn('setInput') as (a: number, v: number) => void,
    propagate: fn('propagate') as () => void,
    fire: fn('fire') as (d: number) => void,
    unfire: fn('unfire') as () => void,
    addSupport: () => {
      throw new Error('the WebAssembly propagator has no lazy part');
    },
    save: () => {
      bytesView.copyWithin(savedAt, from, to);
      saved = true;
    },
    restore: () => {
      if (!saved) return;
      bytesView.copyWithin(from, savedAt, savedAt + to - from);
      resetFired();
    },
    // As the interpreter counts them (its six arrays), so that both choose the same restarts
    // (copying or by differences, charge.ts) and play the same games, seed for seed.
    savedBytes: () => net.atoms * 9 + net.rules * 8 + net.triggers.length * 4,
  };
}
