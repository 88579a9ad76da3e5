/**
 * The lazy part of a ground game (docs/lazy.md) compiled for the term-table evaluator
 * (lazy-eval.ts): every non-ground rule's head and body literals as patterns over the game's
 * term table (src/datalog/pattern.ts), the static facts by relation, and which relations read
 * `does` (their answers live only as long as the joint move). Relations are keyed
 * `name/arity`, so one name with two arities is two relations.
 */
import type { Atom, Term } from '../gdl/ast.js';
import { type Pattern, compileTerm, patternVars } from '../datalog/pattern.js';
import type { TermWriter } from '../datalog/terms.js';
import type { GroundGame } from '../ground/types.js';
import { type Literal, type NormalRule, asRule } from '../normalize/types.js';
import { dependents, relationGraph } from '../gdl/relations.js';

/** A body literal: a relation's atom read positively or negatively, or a `distinct`. */
export type LazyLiteral =
  | { readonly kind: 'pos' | 'neg'; readonly rel: string; readonly args: readonly Pattern[]; readonly argVars: readonly (readonly number[])[]; readonly vars: readonly number[] }
  | { readonly kind: 'distinct'; readonly left: Pattern; readonly right: Pattern; readonly vars: readonly number[] };

/** A compiled rule: head arguments, number of variables, body in evaluation order. */
export interface LazyRule {
  readonly head: readonly Pattern[];
  readonly vars: number;
  readonly body: readonly LazyLiteral[];
}

/** The compiled program. */
export interface LazyProgram {
  /** Rules by head relation key, in source order. */
  readonly rules: ReadonlyMap<string, readonly LazyRule[]>;
  /** Static facts (atom term ids) by relation key; `role` is one of them. */
  readonly facts: ReadonlyMap<string, readonly number[]>;
  /** Relations whose rules read `does`, directly or through others. */
  readonly onDoes: ReadonlySet<string>;
}

/** The key `name/arity` of an atom's relation. */
export function relKey(name: string, arity: number): string {
  return `${name}/${arity}`;
}

function atomKey(atom: Atom): string {
  return relKey(atom.rel, atom.args.length);
}

/** The variables of a list of patterns, each once. */
function varsOf(patterns: readonly Pattern[]): number[] {
  return [...new Set(patterns.flatMap((p) => patternVars(p)))];
}

function compileLiteral(l: Literal, vars: Map<string, number>, table: TermWriter): LazyLiteral {
  if (l.kind === 'distinct') {
    const left = compileTerm(l.left, vars, table);
    const right = compileTerm(l.right, vars, table);
    return { kind: 'distinct', left, right, vars: varsOf([left, right]) };
  }
  const args = l.atom.args.map((a: Term) => compileTerm(a, vars, table));
  return { kind: l.kind, rel: atomKey(l.atom), args, argVars: args.map((p) => patternVars(p)), vars: varsOf(args) };
}

/**
 * The body in evaluation order: positive literals in source order (the order the game's author
 * wrote for a top-down reasoner), each negative literal and `distinct` as soon as the positive
 * literals before it bind its variables (safety guarantees they do; head variables are not
 * counted as bound, since a call may leave them free).
 */
function order(body: readonly LazyLiteral[]): LazyLiteral[] {
  const out: LazyLiteral[] = [];
  const bound = new Set<number>();
  const waiting = body.filter((l) => l.kind !== 'pos');
  const flush = (): void => {
    for (let i = 0; i < waiting.length; ) {
      if (waiting[i]!.vars.every((v) => bound.has(v))) out.push(...waiting.splice(i, 1));
      else i++;
    }
  };
  flush();
  for (const l of body) {
    if (l.kind !== 'pos') continue;
    out.push(l);
    for (const v of l.vars) bound.add(v);
    flush();
  }
  return [...out, ...waiting];
}

function compileRule(rule: NormalRule, table: TermWriter): LazyRule {
  const vars = new Map<string, number>();
  const head = rule.head.args.map((a) => compileTerm(a, vars, table));
  const body = rule.body.map((l) => compileLiteral(l, vars, table));
  return { head, vars: vars.size, body: order(body) };
}

/** Relations of `rules` that read `does`, directly or through other relations of the program. */
function dependOnDoes(rules: readonly NormalRule[]): Set<string> {
  const graph = relationGraph(rules.map(asRule));
  const onDoes = dependents(graph.edges, ['does']);
  // The graph names a relation by name alone unless the name has several arities; the program keys it name/arity.
  return new Set(rules.filter((r) => onDoes.has(graph.key(r.head))).map((r) => atomKey(r.head)));
}

/** Compiles `game.lazy` (which must be present) over `table`, the evaluator's overlay of the game's term table. */
export function compileLazyProgram(game: GroundGame, table: TermWriter): LazyProgram {
  const lazy = game.lazy!;
  const rules = new Map<string, LazyRule[]>();
  for (const r of lazy.rules) {
    const key = atomKey(r.head);
    rules.set(key, [...(rules.get(key) ?? []), compileRule(r, table)]);
  }
  const facts = new Map<string, number[]>();
  const add = (id: number): void => {
    const key = relKey(table.name(id), table.arity(id));
    const list = facts.get(key) ?? [];
    list.push(id);
    facts.set(key, list);
  };
  for (const id of lazy.facts) add(id);
  // `role` facts are the game's roles, whether or not the lazy part lists them.
  if (!facts.has('role/1')) for (const r of game.roles) add(table.compound('role', [r]));
  return { rules, facts, onDoes: dependOnDoes(lazy.rules) };
}
