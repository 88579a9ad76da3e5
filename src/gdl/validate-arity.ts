/**
 * Arity checks: the GDL keywords are used with their arities (an error otherwise), and every
 * other relation constant and function constant with one number of arguments. A non-keyword
 * name used with several arities is read as distinct symbols by name and arity, as the Prolog
 * reasoners of the time did (`(cell ?x ?y)` as a term beside the fluent `(cell ?x ?y ?v)` in
 * tournament games), with a warning at the first use of each further arity: every later stage
 * keys relations by name and arity, and terms are told apart by functor and arity anyway.
 * Relation names, function names and object
 * constants are separate namespaces, as in GGP-Base: a name may be a relation and a function
 * (`(control x)` beside `(<= (control ?p) ...)`), and an object constant may share a function's
 * name (`(turn white move)` beside `(move 1 2 3 4)` in amazons); no later stage confuses them,
 * because each is told apart by its place and arity.
 */
import type { Atom, Pos, Rule, Term } from './ast.js';
import { type Diagnostic, diag } from './diagnostics.js';
import { forEachBodyAtom } from './relations.js';

/** The fixed arities of the GDL keywords (`distinct` is checked by the parser). */
const KEYWORD_ARITY: ReadonlyMap<string, number> = new Map([
  ['role', 1], ['init', 1], ['true', 1], ['next', 1], ['legal', 2], ['does', 2],
  ['goal', 2], ['terminal', 0], ['base', 1], ['input', 2], ['sees', 2],
]);

/** One use of a symbol with a number of arguments. */
interface Use {
  readonly name: string;
  readonly arity: number;
  readonly pos: Pos;
  /** Inside the percept of a `sees` head (GDL-II), where `(does R M)` is a usual percept. */
  readonly percept?: boolean;
}

function comparePos(a: Pos, b: Pos): number {
  return a.line - b.line || a.col - b.col;
}

/** Adds every function use inside `root` to `out` (iteratively: terms are deep). */
function collectTermUses(root: Term, out: Use[], percept = false): void {
  const stack: Term[] = [root];
  while (stack.length > 0) {
    const t = stack.pop()!;
    if (t.kind === 'fn') {
      out.push({ name: t.name, arity: t.args.length, pos: t.pos, ...(percept ? { percept } : {}) });
      for (const a of t.args) stack.push(a);
    }
  }
}

function collectUses(rules: readonly Rule[]): { relations: Use[]; functions: Use[] } {
  const relations: Use[] = [];
  const functions: Use[] = [];
  const noteAtom = (a: Atom, head = false): void => {
    relations.push({ name: a.rel, arity: a.args.length, pos: a.pos });
    a.args.forEach((t, i) => collectTermUses(t, functions, head && a.rel === 'sees' && i === 1));
  };
  for (const r of rules) {
    noteAtom(r.head, true);
    for (const b of r.body) {
      forEachBodyAtom(b, false, noteAtom);
      // `distinct` is no atom, but its terms use functions too.
      const stack = [b];
      while (stack.length > 0) {
        const f = stack.pop()!;
        if (f.kind === 'distinct') {
          collectTermUses(f.left, functions);
          collectTermUses(f.right, functions);
        } else if (f.kind === 'not') stack.push(f.arg);
        else if (f.kind === 'and' || f.kind === 'or') for (const a of f.args) stack.push(a);
      }
    }
  }
  return { relations: relations.sort((a, b) => comparePos(a.pos, b.pos)), functions: functions.sort((a, b) => comparePos(a.pos, b.pos)) };
}

function plural(n: number): string {
  return n === 1 ? '1 argument' : `${n} arguments`;
}

/**
 * For each name, the arity of its first use (in file order) is the norm; the first use of every
 * other arity is reported as a warning (the two are read as distinct symbols), naming where
 * the norm was set. One report per further arity, not per use.
 */
function reportClashes(uses: readonly Use[], what: string, file: string, out: Diagnostic[]): void {
  const first = new Map<string, Use>();
  const reported = new Set<string>();
  for (const u of uses) {
    const norm = first.get(u.name);
    if (norm === undefined) {
      first.set(u.name, u);
    } else if (norm.arity !== u.arity && !reported.has(`${u.name}/${u.arity}`)) {
      reported.add(`${u.name}/${u.arity}`);
      out.push(
        diag('warning', file, u.pos,
          `${what} '${u.name}' is used with ${plural(u.arity)} here but with ${plural(norm.arity)} at ${norm.pos.line}:${norm.pos.col}; read as distinct ${what}s ${u.name}/${norm.arity} and ${u.name}/${u.arity}`),
      );
    }
  }
}

/** Checks the arities of relations, functions and keywords; errors for keywords, warnings for names with several arities. */
export function checkArities(rules: readonly Rule[], file: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  const { relations, functions } = collectUses(rules);
  const keywordClash = new Set<string>();
  for (const u of relations) {
    const want = KEYWORD_ARITY.get(u.name);
    if (want !== undefined && want !== u.arity && !keywordClash.has(`${u.name}/${u.arity}`)) {
      keywordClash.add(`${u.name}/${u.arity}`);
      out.push(diag('error', file, u.pos, `'${u.name}' takes ${plural(want)}, not ${u.arity}`));
    }
  }
  reportClashes(relations.filter((u) => !KEYWORD_ARITY.has(u.name)), 'relation', file, out);
  const keywordFns = new Set<string>();
  for (const u of functions) {
    // A keyword inside a term is almost always a misplaced parenthesis, e.g. (true (true p)).
    // GDL-II percepts are terms that often name a move: (sees ?p (does ?q ?m)) is allowed.
    if (KEYWORD_ARITY.has(u.name) && u.percept !== true && !keywordFns.has(u.name)) {
      keywordFns.add(u.name);
      out.push(diag('error', file, u.pos, `keyword '${u.name}' is used as a function inside a term`));
    }
  }
  reportClashes(functions, 'function', file, out);
  return out;
}
