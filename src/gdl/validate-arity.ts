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
}

function comparePos(a: Pos, b: Pos): number {
  return a.line - b.line || a.col - b.col;
}

/**
 * The first use (in file order) of each name with each arity, and of each name whatever its
 * arity. Every check here reports only first uses, so these are all it keeps: a file of facts
 * has millions of uses, and an object per use sorted by position was most of its validation.
 */
interface FirstUses {
  /** Name, then arity: the earliest use. */
  readonly byArity: Map<string, Map<number, Pos>>;
  /** Name: the arity and position of its earliest use. */
  readonly first: Map<string, Use>;
}

function firstUses(): FirstUses {
  return { byArity: new Map(), first: new Map() };
}

/** Records a use; kept only where it is earlier than the use recorded so far. */
function note(uses: FirstUses, name: string, arity: number, pos: Pos): void {
  let arities = uses.byArity.get(name);
  if (arities === undefined) uses.byArity.set(name, (arities = new Map()));
  const known = arities.get(arity);
  if (known === undefined || comparePos(pos, known) < 0) arities.set(arity, pos);
  const first = uses.first.get(name);
  if (first === undefined || comparePos(pos, first.pos) < 0) uses.first.set(name, { name, arity, pos });
}

/** The uses of one kind of symbol, and where keyword names stand as functions outside percepts. */
interface Collected {
  readonly relations: FirstUses;
  readonly functions: FirstUses;
  /** Keyword name: its earliest use as a function, GDL-II percepts left out. */
  readonly keywordFns: Map<string, Pos>;
}

/** Notes every function use inside `root` (iteratively: terms are deep). */
function collectTermUses(root: Term, into: Collected, percept = false): void {
  const stack: Term[] = [root];
  while (stack.length > 0) {
    const t = stack.pop()!;
    if (t.kind === 'fn') {
      note(into.functions, t.name, t.args.length, t.pos);
      if (!percept && KEYWORD_ARITY.has(t.name)) {
        const known = into.keywordFns.get(t.name);
        if (known === undefined || comparePos(t.pos, known) < 0) into.keywordFns.set(t.name, t.pos);
      }
      for (const a of t.args) stack.push(a);
    }
  }
}

function collectUses(rules: readonly Rule[]): Collected {
  const into: Collected = { relations: firstUses(), functions: firstUses(), keywordFns: new Map() };
  // `flag` is true for the head and for body atoms under an odd number of `not`s (as before).
  const noteAtom = (a: Atom, flag = false): void => {
    note(into.relations, a.rel, a.args.length, a.pos);
    for (let i = 0; i < a.args.length; i++) collectTermUses(a.args[i]!, into, flag && a.rel === 'sees' && i === 1);
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
          collectTermUses(f.left, into);
          collectTermUses(f.right, into);
        } else if (f.kind === 'not') stack.push(f.arg);
        else if (f.kind === 'and' || f.kind === 'or') for (const a of f.args) stack.push(a);
      }
    }
  }
  return into;
}

function plural(n: number): string {
  return n === 1 ? '1 argument' : `${n} arguments`;
}

/** Diagnostics in the order of their positions (each check reports in file order). */
function byPosition(list: { pos: Pos; d: Diagnostic }[]): Diagnostic[] {
  return list.sort((a, b) => comparePos(a.pos, b.pos)).map((x) => x.d);
}

/**
 * For each name, the arity of its first use (in file order) is the norm; the first use of every
 * other arity is reported as a warning (the two are read as distinct symbols), naming where
 * the norm was set. One report per further arity, not per use.
 */
function reportClashes(uses: FirstUses, skip: (name: string) => boolean, what: string, file: string, out: Diagnostic[]): void {
  const found: { pos: Pos; d: Diagnostic }[] = [];
  for (const [name, arities] of uses.byArity) {
    if (arities.size < 2 || skip(name)) continue;
    const norm = uses.first.get(name)!;
    for (const [arity, pos] of arities) {
      if (arity === norm.arity) continue;
      found.push({
        pos,
        d: diag('warning', file, pos,
          `${what} '${name}' is used with ${plural(arity)} here but with ${plural(norm.arity)} at ${norm.pos.line}:${norm.pos.col}; read as distinct ${what}s ${name}/${norm.arity} and ${name}/${arity}`),
      });
    }
  }
  out.push(...byPosition(found));
}

/** Checks the arities of relations, functions and keywords; errors for keywords, warnings for names with several arities. */
export function checkArities(rules: readonly Rule[], file: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  const { relations, functions, keywordFns } = collectUses(rules);
  const keywordClash: { pos: Pos; d: Diagnostic }[] = [];
  for (const [name, want] of KEYWORD_ARITY) {
    for (const [arity, pos] of relations.byArity.get(name) ?? []) {
      if (arity !== want) keywordClash.push({ pos, d: diag('error', file, pos, `'${name}' takes ${plural(want)}, not ${arity}`) });
    }
  }
  out.push(...byPosition(keywordClash));
  reportClashes(relations, (name) => KEYWORD_ARITY.has(name), 'relation', file, out);
  // A keyword inside a term is almost always a misplaced parenthesis, e.g. (true (true p)).
  // GDL-II percepts are terms that often name a move: (sees ?p (does ?q ?m)) is allowed.
  out.push(...byPosition([...keywordFns].map(([name, pos]) => ({ pos, d: diag('error', file, pos, `keyword '${name}' is used as a function inside a term`) }))));
  reportClashes(functions, () => false, 'function', file, out);
  return out;
}
