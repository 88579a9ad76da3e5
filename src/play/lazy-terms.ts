/**
 * The term table of a lazy evaluator (docs/lazy.md): an overlay over the ground game's
 * read-only table. Terms the game has keep their ids; the terms evaluation makes (bindings of
 * the non-ground rules that no ground atom has) get ids of their own, from `base.size` up, and
 * live here, so that playing never adds to the game's terms. Each evaluator has its own.
 */
import type { TermReader, TermWriter } from '../datalog/terms.js';
import { NO_POS, type Term } from '../gdl/ast.js';
import { foldTerm } from '../gdl/fold.js';

const NO_ARGS: readonly number[] = Object.freeze([]);

/** The key of `sym(args...)` (the first `n` entries) among the overlay's own terms. */
function termKey(sym: number, args: ArrayLike<number>, n: number): string {
  let k = `${sym}`;
  for (let i = 0; i < n; i++) k += `,${args[i]!}`;
  return k;
}

/** The overlay's own symbols and terms, numbered after the base's. */
interface Own {
  readonly names: string[];
  readonly symbols: Map<string, number>;
  readonly functors: number[];
  readonly args: (readonly number[])[];
  readonly index: Map<string, number>;
}

/**
 * The value of `root` for every term below it, bottom-up without recursion (terms nest deep):
 * `make(id)` runs once all of id's arguments that are the overlay's own have their value in
 * `memo`; the base's terms are `fromBase`'s.
 */
function postOrder<T>(root: number, baseSize: number, own: Own, memo: Map<number, T>, fromBase: (id: number) => T, make: (id: number, value: (a: number) => T) => T): T {
  const value = (a: number): T => (a < baseSize ? fromBase(a) : memo.get(a)!);
  const stack = [root];
  while (stack.length > 0) {
    const id = stack[stack.length - 1]!;
    if (id < baseSize || memo.has(id)) {
      stack.pop();
      continue;
    }
    const missing = own.args[id - baseSize]!.filter((a) => a >= baseSize && !memo.has(a));
    if (missing.length > 0) {
      stack.push(...missing);
      continue;
    }
    stack.pop();
    memo.set(id, make(id, value));
  }
  return value(root);
}

/** A term table that reads `base` and adds its own terms beside it, never to it. */
export function overlayTerms(base: TermReader): TermWriter {
  const baseSize = base.size;
  const baseSymbols = base.symbolCount;
  const own: Own = { names: [], symbols: new Map(), functors: [], args: [], index: new Map() };
  const texts = new Map<number, string>();
  const asts = new Map<number, Term>();
  const symbolName = (sym: number): string => (sym < baseSymbols ? base.symbolName(sym) : own.names[sym - baseSymbols]!);
  const findSymbol = (name: string): number => {
    const b = base.findSymbol(name);
    return b >= 0 ? b : (own.symbols.get(name) ?? -1);
  };
  const find = (sym: number, args: ArrayLike<number> = NO_ARGS, n = args.length): number => {
    let inBase = sym < baseSymbols;
    for (let i = 0; inBase && i < n; i++) inBase = args[i]! < baseSize;
    const b = inBase ? base.find(sym, args, n) : -1;
    // Most lookups are of the base's terms: no key is made while the overlay has none of its own.
    if (b >= 0 || own.functors.length === 0) return b;
    return own.index.get(termKey(sym, args, n)) ?? -1;
  };
  const symbol = (name: string): number => {
    const found = findSymbol(name);
    if (found >= 0) return found;
    own.names.push(name);
    own.symbols.set(name, baseSymbols + own.names.length - 1);
    return baseSymbols + own.names.length - 1;
  };
  const make = (sym: number, args: ArrayLike<number> = NO_ARGS, n = args.length): number => {
    const found = find(sym, args, n);
    if (found >= 0) return found;
    // The base is read only: were it to grow, its new ids would be the overlay's.
    if (base.size !== baseSize) throw new Error('the term table under an overlay grew');
    own.functors.push(sym);
    own.args.push(n === 0 ? NO_ARGS : Object.freeze(Array.from({ length: n }, (_, i) => args[i]!)));
    const id = baseSize + own.functors.length - 1;
    own.index.set(termKey(sym, args, n), id);
    return id;
  };
  const functor = (id: number): number => (id < baseSize ? base.functor(id) : own.functors[id - baseSize]!);
  const argsOf = (id: number): readonly number[] => (id < baseSize ? base.args(id) : own.args[id - baseSize]!);
  const text = (root: number): string =>
    postOrder(root, baseSize, own, texts, (a) => base.text(a), (id, value) => {
      const list = own.args[id - baseSize]!;
      const name = symbolName(own.functors[id - baseSize]!);
      return list.length === 0 ? name : `(${[name, ...list.map(value)].join(' ')})`;
    });
  const toTerm = (root: number): Term =>
    postOrder<Term>(root, baseSize, own, asts, (a) => base.toTerm(a), (id, value) => {
      const list = own.args[id - baseSize]!;
      const name = symbolName(own.functors[id - baseSize]!);
      return list.length === 0 ? { kind: 'const', name, pos: NO_POS } : { kind: 'fn', name, args: list.map(value), pos: NO_POS };
    });
  const findTerm = (term: Term): number =>
    foldTerm<number>(term, (t, args) => {
      if (t.kind === 'var' || args.includes(-1)) return -1;
      const sym = findSymbol(t.name);
      return sym < 0 ? -1 : find(sym, args);
    });
  return {
    get size() {
      return baseSize + own.functors.length;
    },
    get symbolCount() {
      return baseSymbols + own.names.length;
    },
    findSymbol,
    symbolName,
    find,
    lookup: (name, args = NO_ARGS) => {
      const sym = findSymbol(name);
      return sym < 0 ? -1 : find(sym, args);
    },
    functor,
    name: (id) => symbolName(functor(id)),
    arity: (id) => (id < baseSize ? base.arity(id) : own.args[id - baseSize]!.length),
    arg: (id, i) => (id < baseSize ? base.arg(id, i) : own.args[id - baseSize]![i]!),
    args: argsOf,
    findTerm,
    toTerm,
    text,
    symbol,
    make,
    constant: (name) => make(symbol(name), NO_ARGS),
    compound: (name, args) => make(symbol(name), args),
  };
}
