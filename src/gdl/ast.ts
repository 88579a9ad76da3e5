/**
 * The typed, immutable syntax tree of a GDL game description, shared by every stage.
 * Every node parsed from a file carries its 1-based source position; nodes made by a
 * later stage (ground terms from an engine) use {@link NO_POS}.
 */

/** A 1-based line and column in the source file. */
export interface Pos {
  readonly line: number;
  readonly col: number;
}

/** Position of nodes that were not read from a file. */
export const NO_POS: Pos = Object.freeze({ line: 0, col: 0 });

/** An object constant, such as `x`, `1` or `+`. Names are folded to lower case. */
interface Const {
  readonly kind: 'const';
  readonly name: string;
  readonly pos: Pos;
}

/** A variable; `name` keeps the leading `?`, folded to lower case. */
interface Var {
  readonly kind: 'var';
  readonly name: string;
  readonly pos: Pos;
}

/** A function constant applied to at least one argument, such as `(cell 1 2 b)`. */
interface Fn {
  readonly kind: 'fn';
  readonly name: string;
  readonly args: readonly Term[];
  readonly pos: Pos;
}

/** A term of GDL. */
export type Term = Const | Var | Fn;

/** An atomic sentence: a relation constant applied to terms (`args` empty for `terminal`). */
export interface Atom {
  readonly kind: 'atom';
  readonly rel: string;
  readonly args: readonly Term[];
  readonly pos: Pos;
}

/** `(not F)` in a rule body. */
interface Not {
  readonly kind: 'not';
  readonly arg: Formula;
  readonly pos: Pos;
}

/** `(and F ...)` or `(or F ...)` in a rule body. */
interface Junction {
  readonly kind: 'and' | 'or';
  readonly args: readonly Formula[];
  readonly pos: Pos;
}

/** `(distinct s t)`: true when the two ground terms differ. */
interface Distinct {
  readonly kind: 'distinct';
  readonly left: Term;
  readonly right: Term;
  readonly pos: Pos;
}

/** A body formula before normalization. */
export type Formula = Atom | Not | Junction | Distinct;

/** A rule `(<= head body...)`; a fact is a rule with an empty body. */
export interface Rule {
  readonly head: Atom;
  readonly body: readonly Formula[];
  readonly pos: Pos;
}

/** A parsed game description. */
export interface GameDescription {
  /** The file name used in messages. */
  readonly file: string;
  readonly rules: readonly Rule[];
}

/** The relation constants with a fixed meaning in GDL (listed once, in keywords.ts). */
export { KEYWORDS } from './keywords.js';

/** Makes a constant term. */
export function mkConst(name: string, pos: Pos = NO_POS): Const {
  return { kind: 'const', name, pos };
}

/** Makes a function term (or a constant, when `args` is empty). */
export function mkFn(name: string, args: readonly Term[], pos: Pos = NO_POS): Fn | Const {
  return args.length === 0 ? mkConst(name, pos) : { kind: 'fn', name, args, pos };
}

/** Makes an atom. */
export function mkAtom(rel: string, args: readonly Term[], pos: Pos = NO_POS): Atom {
  return { kind: 'atom', rel, args, pos };
}
