/**
 * Compiled patterns: an atom or term of a rule with its variables numbered, matched against
 * interned ground terms and instantiated under a binding (an array of term ids indexed by
 * variable number, -1 where unbound). Every walk is iterative.
 */
import { foldTerm, foldTree } from '../gdl/fold.js';
import type { Atom, Term } from '../gdl/ast.js';
import type { TermWriter } from './terms.js';
import { UNBOUND } from './join.js';

/** A compiled term: a ground subterm (an interned id), a numbered variable or a function. */
export type Pattern =
  | { readonly kind: 'ground'; readonly id: number }
  | { readonly kind: 'var'; readonly index: number }
  | { readonly kind: 'fn'; readonly name: string; readonly sym: number; readonly args: readonly Pattern[]; readonly flat: boolean; readonly buffer: Int32Array; readonly scratch: { program?: Program; match?: MatchProgram } };

export { UNBOUND } from './join.js';

/**
 * Compiles a term; variables get numbers from `vars` (new names are added in order of first
 * occurrence). Ground subterms are interned once here, so matching compares ids.
 */
export function compileTerm(root: Term, vars: Map<string, number>, table: TermWriter): Pattern {
  return foldTerm<Pattern>(root, (t, args) => {
    if (t.kind === 'var') {
      if (!vars.has(t.name)) vars.set(t.name, vars.size);
      return { kind: 'var', index: vars.get(t.name)! };
    }
    if (t.kind === 'const') return { kind: 'ground', id: table.compound(t.name, []) };
    return args.every((a) => a.kind === 'ground')
      ? { kind: 'ground', id: table.compound(t.name, args.map((a) => (a as { id: number }).id)) }
      : fnPattern(t.name, args, table);
  });
}

function fnPattern(name: string, args: readonly Pattern[], table: TermWriter): Pattern {
  // `buffer`, `scratch`: the argument buffer and the compiled programs of instantiatePattern and
  // matchPattern, working space only read within one call (so a pattern is not shared between threads).
  return { kind: 'fn', name, sym: table.symbol(name), args, flat: args.every((a) => a.kind !== 'fn'), buffer: new Int32Array(args.length), scratch: {} };
}

/** Compiles an atom as the term `rel(args...)`. */
export function compileAtom(atom: Atom, vars: Map<string, number>, table: TermWriter): Pattern {
  const root: Term =
    atom.args.length === 0
      ? { kind: 'const', name: atom.rel, pos: atom.pos }
      : { kind: 'fn', name: atom.rel, args: atom.args, pos: atom.pos };
  return compileTerm(root, vars, table);
}

/**
 * Matches `p` against the ground term `id`, extending `vals` (variables already set must agree).
 * On failure `vals` may be partly written; callers reset it.
 */
export function matchPattern(p: Pattern, id: number, table: TermWriter, vals: Int32Array): boolean {
  if (p.kind === 'ground') return p.id === id;
  if (p.kind === 'var') return bindVar(p.index, id, vals);
  if (p.flat) return matchFlat(p, id, table, vals);
  return runMatch(p.scratch.match ?? (p.scratch.match = compileMatch(p)), id, table, vals);
}

/** Binds variable `index` to `t`, or compares it when it is bound already. */
function bindVar(index: number, t: number, vals: Int32Array): boolean {
  const v = vals[index]!;
  if (v === UNBOUND) vals[index] = t;
  else if (v !== t) return false;
  return true;
}

/** Instructions of {@link MatchProgram}: test a ground id, bind or compare a variable, take a term apart. */
const MATCH_ID = 0;
const MATCH_VAR = 1;
const MATCH_FN = 2;

/**
 * A nested pattern as a pre-order program (`MATCH_ID id`, `MATCH_VAR index`, `MATCH_FN sym n`),
 * each instruction matching the term on top of its stack of term ids (`MATCH_FN` pushes the
 * term's arguments, the first on top, for the instructions of its argument patterns that follow).
 * Matching it allocates nothing: the generic walk made an array per node and per store entry
 * (every `true` and `does` block reads its store through a nested pattern).
 */
interface MatchProgram {
  readonly code: Int32Array;
  readonly stack: Int32Array;
}

function compileMatch(root: Pattern): MatchProgram {
  const code: number[] = [];
  let room = 1;
  const stack: Pattern[] = [root];
  while (stack.length > 0) {
    const q = stack.pop()!;
    if (q.kind === 'ground') code.push(MATCH_ID, q.id);
    else if (q.kind === 'var') code.push(MATCH_VAR, q.index);
    else {
      code.push(MATCH_FN, q.sym, q.args.length);
      room += q.args.length;
      for (let i = q.args.length - 1; i >= 0; i--) stack.push(q.args[i]!);
    }
  }
  return { code: Int32Array.from(code), stack: new Int32Array(room) };
}

function runMatch(prog: MatchProgram, id: number, table: TermWriter, vals: Int32Array): boolean {
  const { code, stack } = prog;
  let sp = 0;
  stack[sp++] = id;
  for (let pc = 0; pc < code.length; ) {
    const op = code[pc++]!;
    const t = stack[--sp]!;
    if (op === MATCH_ID) {
      if (code[pc++] !== t) return false;
    } else if (op === MATCH_VAR) {
      if (!bindVar(code[pc++]!, t, vals)) return false;
    } else {
      const sym = code[pc++]!;
      const n = code[pc++]!;
      if (table.arity(t) !== n || table.functor(t) !== sym) return false;
      for (let i = n - 1; i >= 0; i--) stack[sp++] = table.arg(t, i);
    }
  }
  return true;
}

/** {@link matchPattern} for `(f a1 .. an)` whose arguments are ground or variables: no stack. */
function matchFlat(p: Extract<Pattern, { kind: 'fn' }>, t: number, table: TermWriter, vals: Int32Array): boolean {
  const n = p.args.length;
  if (table.arity(t) !== n || table.functor(t) !== p.sym) return false;
  for (let i = 0; i < n; i++) {
    const q = p.args[i]!;
    const a = table.arg(t, i);
    if (q.kind === 'ground') {
      if (q.id !== a) return false;
    } else {
      const index = (q as { index: number }).index;
      const v = vals[index]!;
      if (v === UNBOUND) vals[index] = a;
      else if (v !== a) return false;
    }
  }
  return true;
}

/**
 * The id of `p` under `binding`: interned when `create` is true, otherwise -1 when the term was
 * never interned (so it cannot be in any store). Every variable of `p` must be bound.
 */
export function instantiatePattern(p: Pattern, binding: Int32Array, table: TermWriter, create: boolean): number {
  if (p.kind === 'ground') return p.id;
  if (p.kind === 'var') return binding[p.index]!;
  if (p.flat) {
    // The common flat case, `(cell ?x ?y b)`: no stack, no allocation (the table copies args).
    const n = p.args.length;
    const args = p.buffer;
    for (let i = 0; i < n; i++) {
      const a = p.args[i]!;
      args[i] = a.kind === 'ground' ? a.id : binding[(a as { index: number }).index]!;
    }
    return create ? table.make(p.sym, args, n) : table.find(p.sym, args, n);
  }
  return runProgram(p.scratch.program ?? (p.scratch.program = compileProgram(p)), binding, table, create);
}

/** Instructions of {@link Program}: push a ground id, push a variable's value, build a term. */
const PUSH_ID = 0;
const PUSH_VAR = 1;
const BUILD = 2;

/**
 * A nested pattern as a postfix program (`PUSH_ID id`, `PUSH_VAR index`, `BUILD sym n`) with
 * its value stack and argument buffer: instantiating it allocates nothing.
 */
interface Program {
  readonly code: Int32Array;
  readonly stack: Int32Array;
  readonly args: Int32Array;
}

function compileProgram(root: Pattern): Program {
  const code: number[] = [];
  let maxArgs = 0;
  // Iterative post-order walk: a node's arguments are emitted before the node.
  const stack: [Pattern, boolean][] = [[root, false]];
  while (stack.length > 0) {
    const [q, done] = stack.pop()!;
    if (q.kind === 'ground') code.push(PUSH_ID, q.id);
    else if (q.kind === 'var') code.push(PUSH_VAR, q.index);
    else if (done) {
      code.push(BUILD, q.sym, q.args.length);
      maxArgs = Math.max(maxArgs, q.args.length);
    } else {
      stack.push([q, true]);
      for (let i = q.args.length - 1; i >= 0; i--) stack.push([q.args[i]!, false]);
    }
  }
  return { code: Int32Array.from(code), stack: new Int32Array(code.length), args: new Int32Array(maxArgs) };
}

function runProgram(prog: Program, binding: Int32Array, table: TermWriter, create: boolean): number {
  const { code, stack, args } = prog;
  let sp = 0;
  for (let pc = 0; pc < code.length; ) {
    const op = code[pc++]!;
    if (op === PUSH_ID) stack[sp++] = code[pc++]!;
    else if (op === PUSH_VAR) stack[sp++] = binding[code[pc++]!]!;
    else {
      const sym = code[pc++]!;
      const n = code[pc++]!;
      sp -= n;
      for (let i = 0; i < n; i++) args[i] = stack[sp + i]!;
      const id = create ? table.make(sym, args, n) : table.find(sym, args, n);
      // A subterm that was never interned cannot be part of an interned term.
      if (id < 0) return -1;
      stack[sp++] = id;
    }
  }
  return stack[0]!;
}

/** The variable numbers of a pattern, ascending. */
export function patternVars(p: Pattern): number[] {
  const out = new Set<number>();
  const stack: Pattern[] = [p];
  while (stack.length > 0) {
    const q = stack.pop()!;
    if (q.kind === 'var') out.add(q.index);
    else if (q.kind === 'fn') stack.push(...q.args);
  }
  return [...out].sort((a, b) => a - b);
}

/**
 * Canonical text of a pattern with variables renamed `#0, #1, ...` by first occurrence, and the
 * original variable numbers in that order: two atoms with equal keys match the same instances.
 */
export function canonicalKey(p: Pattern): { key: string; order: number[] } {
  const order: number[] = [];
  const local = new Map<number, number>();
  const out: string[] = [];
  const stack: (Pattern | string)[] = [p];
  while (stack.length > 0) {
    const q = stack.pop()!;
    if (typeof q === 'string') out.push(q);
    else if (q.kind === 'ground') out.push(`${q.id}`);
    else if (q.kind === 'var') {
      if (!local.has(q.index)) {
        local.set(q.index, order.length);
        order.push(q.index);
      }
      out.push(`#${local.get(q.index)!}`);
    } else {
      out.push(`(${q.name.length}:${q.name}`);
      stack.push(')');
      for (let i = q.args.length - 1; i >= 0; i--) stack.push(q.args[i]!, ' ');
    }
  }
  return { key: out.join(''), order };
}

/** Renumbers the variables of `p` by `map` (old number -> new number). */
export function renumber(p: Pattern, map: ReadonlyMap<number, number>): Pattern {
  return foldPattern<Pattern>(p, (q, args) => {
    if (q.kind === 'var') return { kind: 'var', index: map.get(q.index)! };
    return q.kind === 'fn' ? { ...q, args, buffer: new Int32Array(args.length), scratch: {} } : q;
  });
}

/** Folds a pattern bottom-up (see foldTree). */
function foldPattern<R>(p: Pattern, combine: (q: Pattern, args: R[]) => R): R {
  return foldTree<Pattern, R>(p, (q) => (q.kind === 'fn' ? q.args : null), combine);
}
