/**
 * A small WebAssembly module encoder, for code the project writes itself (the propagator of
 * wasm-propagate.ts): no toolchain, no dependency. A function body is written as nested
 * expressions that each return their bytes (the stack machine's order: operands first), with
 * only the opcodes the propagator needs: i32 arithmetic, loads and stores of i32 and u8 at a
 * constant offset (an array's base address in memory), blocks, loops, branches, calls, locals
 * and globals. Every value is an i32.
 */

/** Bytes of a piece of code, in the stack machine's order. */
export type Code = readonly number[];

/** Unsigned LEB128 of `n` (0 ≤ n < 2^32). */
export function uleb(n: number): number[] {
  const out: number[] = [];
  let v = n >>> 0;
  do {
    const byte = v & 0x7f;
    v >>>= 7;
    out.push(v === 0 ? byte : byte | 0x80);
  } while (v !== 0);
  return out;
}

/** Signed LEB128 of the 32-bit integer `n`. */
export function sleb(n: number): number[] {
  const out: number[] = [];
  let v = n | 0;
  for (;;) {
    const byte = v & 0x7f;
    v >>= 7;
    const done = (v === 0 && (byte & 0x40) === 0) || (v === -1 && (byte & 0x40) !== 0);
    out.push(done ? byte : byte | 0x80);
    if (done) return out;
  }
}

/** Concatenates pieces of code. */
export function seq(...parts: readonly Code[]): number[] {
  const out: number[] = [];
  for (const p of parts) for (const b of p) out.push(b);
  return out;
}

const I32 = 0x7f;
const VOID = 0x40;

/** The i32 constant n. */
export const c = (n: number): Code => [0x41, ...sleb(n)];
/** Reads local l. */
export const get = (l: number): Code => [0x20, ...uleb(l)];
/** Writes `v` into local l. */
export const set = (l: number, v: Code): Code => seq(v, [0x21, ...uleb(l)]);
/** Reads global g. */
export const gget = (g: number): Code => [0x23, ...uleb(g)];
/** Writes `v` into global g. */
export const gset = (g: number, v: Code): Code => seq(v, [0x24, ...uleb(g)]);

const binary = (op: number) => (a: Code, b: Code): Code => seq(a, b, [op]);
/** 1 when a = b. */
export const eq = binary(0x46);
/** 1 when a ≠ b. */
export const ne = binary(0x47);
/** 1 when a < b, signed. */
export const ltS = binary(0x48);
/** 1 when a > b, signed. */
export const gtS = binary(0x4a);
/** 1 when a ≥ b, signed. */
export const geS = binary(0x4e);
/** a + b (mod 2^32). */
export const add = binary(0x6a);
/** a - b (mod 2^32). */
export const sub = binary(0x6b);
/** Bitwise and. */
export const and = binary(0x71);
/** Bitwise or. */
export const or = binary(0x72);
/** Bitwise exclusive or. */
export const xor = binary(0x73);
/** a << (b mod 32). */
export const shl = binary(0x74);
/** a >> (b mod 32), signed. */
export const shrS = binary(0x75);
/** a >>> (b mod 32). */
export const shrU = binary(0x76);
/** a × b (mod 2^32), as Math.imul. */
export const mul = binary(0x6c);
/** The smaller of a and b, signed (`select`: both evaluated). */
export const minS = (a: Code, b: Code): Code => seq(a, b, a, b, [0x48, 0x1b]);
/**
 * ⌊u / 2^32 × n⌋ for the unsigned u and the signed n, computed in f64 as JavaScript computes
 * `Math.floor(u / 4294967296 * n)`: the same IEEE operations, so the same result for every u and n.
 */
export const scaleF64 = (u: Code, n: Code): Code =>
  seq(u, [0xb8], [0x44, 0, 0, 0, 0, 0, 0, 0xf0, 0x41], [0xa3], n, [0xb7], [0xa2], [0x9c], [0xaa]);
/** Copies `len` bytes of memory from `src` to `dst` (bulk memory's `memory.copy`). */
export const memCopy = (dst: Code, src: Code, len: Code): Code => seq(dst, src, len, [0xfc, 10, 0, 0]);
/** 1 when `a` is zero. */
export const eqz = (a: Code): Code => seq(a, [0x45]);
/** Count of trailing zero bits. */
export const ctz = (a: Code): Code => seq(a, [0x68]);

/** Element `idx` of the i32 array at byte address `base`. */
export const ld = (base: number, idx: Code): Code => seq(shl(idx, c(2)), [0x28, 2, ...uleb(base)]);
/** Stores `v` into element `idx` of the i32 array at `base`. */
export const st = (base: number, idx: Code, v: Code): Code => seq(shl(idx, c(2)), v, [0x36, 2, ...uleb(base)]);
/** Byte `idx` of the u8 array at `base`. */
export const ld8 = (base: number, idx: Code): Code => seq(idx, [0x2d, 0, ...uleb(base)]);
/** Stores the low byte of `v` into byte `idx` of the u8 array at `base`. */
export const st8 = (base: number, idx: Code, v: Code): Code => seq(idx, v, [0x3a, 0, ...uleb(base)]);

/** Element `idx` of the u16 array at `base`. */
export const ld16 = (base: number, idx: Code): Code => seq(shl(idx, c(1)), [0x2f, 1, ...uleb(base)]);
/** Stores the low 16 bits of `v` into element `idx` of the u16 array at `base`. */
export const st16 = (base: number, idx: Code, v: Code): Code => seq(shl(idx, c(1)), v, [0x3b, 1, ...uleb(base)]);

/** `if (cond) then else otherwise`, as a statement. */
export const when = (cond: Code, then: Code, otherwise?: Code): Code =>
  otherwise === undefined ? seq(cond, [0x04, VOID], then, [0x0b]) : seq(cond, [0x04, VOID], then, [0x05], otherwise, [0x0b]);
/** `cond ? a : b` as a value (both evaluated lazily: an if with an i32 result). */
export const pick = (cond: Code, a: Code, b: Code): Code => seq(cond, [0x04, I32], a, [0x05], b, [0x0b]);
/** A block: `br(depth)` to its end. */
const block = (...body: Code[]): Code => seq([0x02, VOID], ...body, [0x0b]);
/** A loop: `br(depth)` to its start. */
const loop = (...body: Code[]): Code => seq([0x03, VOID], ...body, [0x0b]);
/** Branch to the label `depth` levels out. */
const br = (depth: number): Code => [0x0c, ...uleb(depth)];
/** Branch when `cond` is not zero. */
const brIf = (depth: number, cond: Code): Code => seq(cond, [0x0d, ...uleb(depth)]);
/** `while (cond) body`: `br(1)` inside `body` leaves it, `br(0)` continues. */
export const whileDo = (cond: Code, ...body: Code[]): Code => block(loop(brIf(1, eqz(cond)), ...body, br(0)));
/** Calls function `fn` with the arguments' values. */
export const call = (fn: number, ...args: Code[]): Code => seq(...args, [0x10, ...uleb(fn)]);
/** Returns `v` (or nothing). */
export const ret = (v?: Code): Code => seq(v ?? [], [0x0f]);

/** A function of a module: i32 parameters, an i32 result or none, extra i32 locals, and its body. */
export interface WasmFunction {
  readonly params: number;
  readonly result: boolean;
  readonly locals: number;
  readonly body: Code;
  /** Exported under this name, if given. */
  readonly export?: string;
}

/** A module: its functions (called by their index in this list), mutable i32 globals (initially 0), and memory pages (exported as `memory`). */
interface WasmModule {
  readonly functions: readonly WasmFunction[];
  readonly globals: number;
  readonly pages: number;
}

/** A section: its id and its contents, prefixed by their length. */
function section(id: number, contents: readonly number[]): number[] {
  return [id, ...uleb(contents.length), ...contents];
}

/** A vector: its count, then its items. */
function vector(items: readonly (readonly number[])[]): number[] {
  return seq(uleb(items.length), ...items);
}

/** The name as bytes (ASCII names only). */
function name(s: string): number[] {
  return [...uleb(s.length), ...Array.from(s, (ch) => ch.charCodeAt(0))];
}

/** The binary of `m`. */
export function encodeModule(m: WasmModule): Uint8Array<ArrayBuffer> {
  const types = m.functions.map((f) => [0x60, ...uleb(f.params), ...Array(f.params).fill(I32), ...(f.result ? [1, I32] : [0])]);
  const funcs = m.functions.map((_, i) => uleb(i));
  const memory = [1, 0x00, ...uleb(m.pages)];
  const globals = Array.from({ length: m.globals }, () => [I32, 1, 0x41, 0, 0x0b]);
  const exports = [name('memory').concat([0x02, 0])];
  m.functions.forEach((f, i) => {
    if (f.export !== undefined) exports.push([...name(f.export), 0x00, ...uleb(i)]);
  });
  const bodies = m.functions.map((f) => {
    const locals = f.locals > 0 ? [1, ...uleb(f.locals), I32] : [0];
    const body = [...locals, ...f.body, 0x0b];
    return [...uleb(body.length), ...body];
  });
  const bytes = seq(
    [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    section(1, vector(types)),
    section(3, vector(funcs)),
    section(5, memory),
    m.globals > 0 ? section(6, vector(globals)) : [],
    section(7, vector(exports)),
    section(10, vector(bodies)),
  );
  return new Uint8Array(bytes);
}

/** The module's instance, or undefined when the platform has no WebAssembly or refuses it (a content security policy). */
export function instantiate(m: WasmModule): WebAssembly.Instance | undefined {
  if (typeof WebAssembly !== 'object') return undefined;
  try {
    return new WebAssembly.Instance(new WebAssembly.Module(encodeModule(m)), {});
  } catch {
    return undefined;
  }
}
