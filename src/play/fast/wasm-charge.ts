/**
 * A whole depth charge in one WebAssembly call (docs/play.md, "A playout in one call"): the
 * loop of charge.ts's `chargeOneNet` and `chargeTurns` over the nets of one module
 * (wasm-propagate.ts's groups: a game's nets per control fluent share one memory), with the
 * random moves drawn inside by random.ts's generator written out in WebAssembly. Why: on
 * ticTacToe a playout is about eight steps of a few dozen counter updates each, and the calls
 * between JS and WebAssembly, the moves chosen in JS and the successor copied from one net's
 * memory into the next's by JS were about a fifth of its time.
 *
 * Why it plays the same games: the same operations as the JS loop in the same order: the
 * terminal test, then per role its legal count (none: the playout ends, after the numbers drawn
 * for the roles before it, as `chooseMoves` does), its move drawn (no number for a single
 * legal move), the net's `playNext`, the successor copied into the next net and its `advance`.
 * The generator is mulberry32 on the same 32-bit state (JS hands it in and takes it back), and
 * `below` is the same IEEE double arithmetic as `Math.floor(u / 2^32 × n)`, so the same numbers.
 */
import {
  type Code, type WasmFunction, add, and, c, call, ctz, eq, eqz, get, gset, gtS, memCopy, shl, ld, ld8, ltS, minS, mul, ne, or, pick, ret, scaleF64, seq, set, shrU, st, sub, when, whileDo, xor,
} from './wasm-encode.js';

/**
 * The group's header in memory (before every net's arrays): the generator's state, the net of
 * the state loaded, per net the does atoms its last move left set (`Machine.doesCount`), and per
 * net the restart's threshold (charge.ts's `Restart.cost`, rounded down: a whole cost above it
 * is above the cost).
 */
export const HEADER = { random: 0, turn: 4, counts: 8, thresholds: 32, bytes: 64 } as const;

/** The most nets a group holds (six control fluents, specialize.ts), as the header has room for. */
export const MAX_GROUP = 6;

/** What the charge reads of one net: its arrays' addresses and its functions' indices. */
export interface ChargeNet {
  readonly at: Readonly<Record<string, number>>;
  /** Index of the net's `playNext(roles)` and `advance(count)`. */
  readonly playNext: number;
  readonly advance: number;
  /** The global of its fired count; where its saved values lie (wasm-group.ts). */
  readonly fired: number;
  readonly savedAt: number;
}

/** What the charge reads of the game. */
interface ChargeShape {
  readonly roles: number;
  /** The terminal atom (-1: none). */
  readonly terminal: number;
  /** Words of a state. */
  readonly words: number;
  /** Whether the nets have the initial state and fluent costs in memory, for the restart. */
  readonly restart: boolean;
}

/** random.ts's `below(bound)` for `bound` in local b, into local out; locals t (scratch). */
function belowM(b: number, out: number, t: number): Code {
  return seq(
    set(t, add(ld(HEADER.random, c(0)), c(0x6d2b79f5))), st(HEADER.random, c(0), get(t)),
    set(t, mul(xor(get(t), shrU(get(t), c(15))), or(get(t), c(1)))),
    set(t, xor(get(t), add(get(t), mul(xor(get(t), shrU(get(t), c(7))), or(get(t), c(61)))))),
    set(out, scaleF64(xor(get(t), shrU(get(t), c(14))), get(b))),
    set(t, sub(get(b), c(1))),
    set(out, minS(get(t), get(out))),
  );
}

/**
 * One step of the playout on net i (no parameters; returns 1 when the playout ends there): the
 * terminal test, the moves drawn, the joint move played and its successor loaded into net
 * j = i + 1 mod the nets (the same net when there is one), and the turn set to j.
 */
function stepCode(shape: ChargeShape, nets: readonly ChargeNet[], i: number): Code {
  const { at } = nets[i]!;
  const j = (i + 1) % nets.length;
  const next = nets[j]!;
  // Locals: r 0, count 1, pick 2, t 3, n 4, w 5.
  const [R, N, P, T, DOES, W] = [0, 1, 2, 3, 4, 5];
  const terminal = shape.terminal < 0 ? [] : when(ne(ld8(at.val!, c(shape.terminal)), c(0)), ret(c(1)));
  const choose = whileDo(ltS(get(R), c(shape.roles)),
    set(N, ld(at.legalCount!, get(R))),
    when(eqz(get(N)), ret(c(1))),
    when(eq(get(N), c(1)), set(P, c(0)), belowM(N, P, T)),
    st(at.chosen!, get(R), ld(at.legalList!, add(ld(at.legalBase!, get(R)), get(P)))),
    set(R, add(get(R), c(1))));
  const played = seq(set(DOES, call(nets[i]!.playNext, c(shape.roles))), st(HEADER.counts, c(i), get(DOES)));
  const copy = j === i ? [] : whileDo(ltS(get(W), c(shape.words)), st(next.at.scratch!, get(W), ld(at.scratch!, get(W))), set(W, add(get(W), c(1))));
  const advance = seq(call(next.advance, ld(HEADER.counts, c(j))), st(HEADER.counts, c(j), c(0)), st(HEADER.turn, c(0), c(j)));
  return seq(terminal, choose, played, copy, advance, c(0));
}

/**
 * Net i back to the initial state, as charge.ts's `toInitial` does it: the fluents that differ
 * from the state loaded weighed by their costs against the header's threshold; above it the
 * saved values copied back (`restore`, the fired count reset, the state and does count set),
 * else the initial state loaded by differences (`advance` from `init`).
 */
function restartCode(shape: ChargeShape, net: ChargeNet, i: number): Code {
  const { at } = net;
  const [W, DIFF, COST, COPY] = [0, 1, 2, 3];
  const words = (body: Code): Code => seq(set(W, c(0)), whileDo(ltS(get(W), c(shape.words)), body, set(W, add(get(W), c(1)))));
  const weigh = words(seq(
    set(DIFF, xor(ld(at.loaded!, get(W)), ld(at.init!, get(W)))),
    whileDo(ne(get(DIFF), c(0)),
      set(COST, add(get(COST), ld(at.fluentCost!, or(shl(get(W), c(5)), ctz(get(DIFF)))))),
      when(gtS(get(COST), ld(HEADER.thresholds, c(i))), seq(set(COPY, c(1)), set(W, c(shape.words)), set(DIFF, c(0))), set(DIFF, and(get(DIFF), sub(get(DIFF), c(1))))))));
  const from = at.val!, to = at.nextBits! + 4 * shape.words;
  const copy = seq(memCopy(c(from), c(net.savedAt), c(to - from)), gset(net.fired, c(0)), words(st(at.loaded!, get(W), ld(at.init!, get(W)))));
  const differences = seq(words(st(at.scratch!, get(W), ld(at.init!, get(W)))), call(net.advance, ld(HEADER.counts, c(i))));
  return seq(weigh, when(get(COPY), copy, differences), st(HEADER.counts, c(i), c(0)));
}

/**
 * The charge's functions, to be placed from index `first` of the module: one step per net, then
 * `charge(maxSteps)`, exported: the playout from the net in the header's turn, returning its
 * joint moves, the header left with the net of its last state; with the initial state in memory
 * also a restart per net and `restartCharge(maxSteps, turn)`, exported: every net restarted,
 * then the playout from net `turn`.
 */
export function chargeFunctions(shape: ChargeShape, nets: readonly ChargeNet[], first: number): WasmFunction[] {
  const steps = nets.map((_, i): WasmFunction => ({ params: 0, result: true, locals: 6, body: stepCode(shape, nets, i) }));
  // charge(maxSteps 0): depth 1, turn 2, stop 3.
  let dispatch: Code = call(first + nets.length - 1);
  for (let i = nets.length - 2; i >= 0; i--) dispatch = pick(eq(get(2), c(i)), call(first + i), dispatch);
  const charge = seq(
    whileDo(ltS(get(1), get(0)),
      set(2, ld(HEADER.turn, c(0))),
      when(ne(dispatch, c(0)), ret(get(1))),
      set(1, add(get(1), c(1)))),
    get(1),
  );
  const CHARGE = first + nets.length;
  const out: WasmFunction[] = [...steps, { params: 1, result: true, locals: 3, body: charge, export: 'charge' }];
  if (!shape.restart) return out;
  const restarts = nets.map((net, i): WasmFunction => ({ params: 0, result: false, locals: 4, body: restartCode(shape, net, i) }));
  // restartCharge(maxSteps 0, turn 1).
  const restartCharge = seq(...nets.map((_, i) => call(CHARGE + 1 + i)), st(HEADER.turn, c(0), get(1)), call(CHARGE, get(0)));
  return [...out, ...restarts, { params: 2, result: true, locals: 0, body: restartCharge, export: 'restartCharge' }];
}
