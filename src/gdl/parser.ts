/**
 * Turns KIF text into a {@link GameDescription}: `(<= head body...)` rules and facts, with
 * `not`, `and`, `or` and `distinct` in bodies. Terms are built iteratively (they can be nested
 * thousands deep); logical connectives, which real games nest a few levels at most, have a
 * depth limit so that no input can exhaust the stack.
 */
import { type Atom, type Formula, type GameDescription, type Rule, type Term, mkAtom } from './ast.js';
import { type Diagnostic, diag } from './diagnostics.js';
import { Deadline } from '../deadline.js';
import { type ListNode, type SExpr, type SymNode, readSentences } from './lexer.js';

/** Deepest nesting of `not`/`and`/`or` accepted in one rule body. */
const MAX_FORMULA_DEPTH = 500;

/** The result of parsing: the rules that could be read, and every problem found. */
export interface ParseResult {
  readonly game: GameDescription;
  readonly diagnostics: readonly Diagnostic[];
}

class ParseFailure extends Error {
  constructor(readonly at: SExpr, message: string) {
    super(message);
  }
}

function isVarSym(s: SymNode): boolean {
  return s.text.startsWith('?');
}

/** Receives the warnings of a repair the parser made. */
type Warn = (at: SExpr, message: string) => void;

/**
 * Converts an S-expression to a term, post-order with an explicit stack. A function term
 * without arguments, `(gameover)`, is read as the constant `gameover` with a warning: some
 * real games write fluents so, and no GDL term can have zero arguments.
 */
function toTerm(root: SExpr, warn: Warn): Term {
  const done: Term[] = [];
  // Nodes still to read, and whether each (a list) has had its arguments pushed: two stacks,
  // no object per node (a large game has millions of terms).
  const nodes: SExpr[] = [root];
  const expanded: boolean[] = [false];
  while (nodes.length > 0) {
    const e = nodes[nodes.length - 1]!;
    if (e.kind === 'sym') {
      nodes.pop();
      expanded.pop();
      done.push(symTerm(e));
    } else if (!expanded[expanded.length - 1]) {
      const head = functorOf(e, 'function');
      if (e.items.length === 1) {
        warn(e, `function term '(${head.text})' has no arguments; read as the constant '${head.text}'`);
        nodes.pop();
        expanded.pop();
        done.push({ kind: 'const', name: head.text, pos: e.pos });
      } else if (flat(e)) {
        // Only symbols as arguments, the usual case: made at once.
        nodes.pop();
        expanded.pop();
        const args: Term[] = [];
        for (let i = 1; i < e.items.length; i++) args.push(symTerm(e.items[i] as SymNode));
        done.push({ kind: 'fn', name: head.text, args, pos: e.pos });
      } else {
        expanded[expanded.length - 1] = true;
        for (let i = e.items.length - 1; i >= 1; i--) {
          nodes.push(e.items[i]!);
          expanded.push(false);
        }
      }
    } else {
      nodes.pop();
      expanded.pop();
      const n = e.items.length - 1;
      const args = done.splice(done.length - n, n);
      done.push({ kind: 'fn', name: (e.items[0] as SymNode).text, args, pos: e.pos });
    }
  }
  return done[0]!;
}

/** A symbol as a term: a variable or a constant. */
function symTerm(e: SymNode): Term {
  return isVarSym(e) ? { kind: 'var', name: e.text, pos: e.pos } : { kind: 'const', name: e.text, pos: e.pos };
}

/** True when every argument of the list is a symbol. */
function flat(e: ListNode): boolean {
  for (let i = 1; i < e.items.length; i++) if (e.items[i]!.kind !== 'sym') return false;
  return true;
}

/** The leading symbol of a list, which must be a constant naming a relation or function. */
function functorOf(e: ListNode, what: string): SymNode {
  const head = e.items[0];
  if (head === undefined) throw new ParseFailure(e, `empty list '()' where a ${what} was expected`);
  if (head.kind !== 'sym') throw new ParseFailure(head, `a ${what} name was expected, not a list`);
  if (isVarSym(head)) throw new ParseFailure(head, `variable ${head.text} cannot name a ${what}`);
  return head;
}

const CONNECTIVES = new Set(['not', 'and', 'or', '<=']);

/** Converts an S-expression to an atom (a relation constant, optionally applied to terms). */
function toAtom(e: SExpr, role: string, warn: Warn): Atom {
  if (e.kind === 'sym') {
    if (isVarSym(e)) throw new ParseFailure(e, `variable ${e.text} cannot stand as ${role}`);
    return mkAtom(e.text, [], e.pos);
  }
  const head = functorOf(e, 'relation');
  if (CONNECTIVES.has(head.text) || head.text === 'distinct') {
    throw new ParseFailure(e, `'${head.text}' cannot stand as ${role}`);
  }
  return mkAtom(head.text, e.items.slice(1).map((a) => toTerm(a, warn)), e.pos);
}

function toFormula(e: SExpr, depth: number, warn: Warn): Formula {
  if (depth > MAX_FORMULA_DEPTH) throw new ParseFailure(e, `formula nested more than ${MAX_FORMULA_DEPTH} deep`);
  if (e.kind === 'list' && e.items[0]?.kind === 'sym') {
    const op = e.items[0].text;
    const args = e.items.slice(1);
    if (op === 'not') {
      if (args.length !== 1) throw new ParseFailure(e, `'not' takes one argument, not ${args.length}`);
      return { kind: 'not', arg: toFormula(args[0]!, depth + 1, warn), pos: e.pos };
    }
    if (op === 'and' || op === 'or') {
      return { kind: op, args: args.map((a) => toFormula(a, depth + 1, warn)), pos: e.pos };
    }
    if (op === 'distinct') {
      if (args.length !== 2) throw new ParseFailure(e, `'distinct' takes two arguments, not ${args.length}`);
      return { kind: 'distinct', left: toTerm(args[0]!, warn), right: toTerm(args[1]!, warn), pos: e.pos };
    }
  }
  return toAtom(e, 'a literal', warn);
}

function toRule(e: SExpr, warn: Warn): Rule {
  if (e.kind === 'list' && e.items[0]?.kind === 'sym' && e.items[0].text === '<=') {
    if (e.items.length < 2) throw new ParseFailure(e, "rule '(<=)' has no head");
    const head = toAtom(e.items[1]!, 'the head of a rule', warn);
    return { head, body: e.items.slice(2).map((b) => toFormula(b, 1, warn)), pos: e.pos };
  }
  if (e.kind === 'sym' && e.text === '<=') throw new ParseFailure(e, "'<=' outside a rule");
  return { head: toAtom(e, 'a fact', warn), body: [], pos: e.pos };
}

/**
 * Parses KIF text; `file` names the source in diagnostics. Never throws on bad input (only on
 * a limit of `deadline`). Each sentence becomes a rule as soon as the reader closes it.
 */
export function parseGdl(text: string, file = '<input>', deadline: Deadline): ParseResult {
  const read = (e: SExpr, problems: Diagnostic[]): Rule | undefined => {
    try {
      return toRule(e, (at, message) => problems.push(diag('warning', file, at.pos, message)));
    } catch (err) {
      if (!(err instanceof ParseFailure)) throw err;
      problems.push(diag('error', file, err.at.pos, err.message));
      return undefined;
    }
  };
  const { items, diagnostics } = readSentences(text, file, deadline, read);
  return { game: { file, rules: items }, diagnostics };
}
