/**
 * Repair of unsafe rules over dependency-graph domains (docs/validation.md, repair 4): a head
 * variable that no positive literal binds, such as ?y in `(<= (next (cell ?y)) (true (cell ?x)))`,
 * is read as ranging over the values its argument position takes in the rest of the game, the
 * domain the argument dependency graph computes for that position (Algorithm 9.3). It extends
 * the role-variable repair, where the domain is the roles. The repair adds a positive literal
 * over a fresh static relation holding that domain, which instantiation evaluates away, so the
 * ground output holds no trace of it; with an infinite domain the rule is refused.
 *
 * The validator defers exactly these variables (safety.ts): variables of negative literals or
 * of `distinct` that are not in the head stay errors there, because binding them over a domain
 * would change what Prolog-based players computed (`\+ q(X)` with X free means "no X at all").
 * It lives in src/reach/ because the domains are computed here; normalize must not import reach.
 */
import { mkAtom } from '../gdl/ast.js';
import type { Atom, Term } from '../gdl/ast.js';
import { type Diagnostic, diag } from '../gdl/diagnostics.js';
import { atomVars, compareCodePoints } from '../gdl/terms.js';
import { TermTable } from '../datalog/terms.js';
import type { NormalGame, NormalRule } from '../normalize/types.js';
import { createGuard } from './dg/guard.js';
import { type ArgumentRef, findPosition, positionText } from './dg/graph.js';
import { dependencyGraph } from './dg/index.js';
import type { ReachLimits } from './types.js';

/** The game with its unsafe head variables bound, the warnings of the repairs and the errors of refusals. */
interface UnsafeRepair {
  readonly game: NormalGame;
  readonly diagnostics: readonly Diagnostic[];
}

/** Head variables of `rule` that no positive body literal binds, sorted. */
function unboundHeadVars(rule: NormalRule): string[] {
  const bound = new Set<string>();
  for (const l of rule.body) if (l.kind === 'pos') atomVars(l.atom, bound);
  return [...atomVars(rule.head)].filter((v) => !bound.has(v)).sort(compareCodePoints);
}

/** The argument position of the first occurrence of `variable` in `head`, depth first. */
function positionOf(head: Atom, variable: string): ArgumentRef {
  const at = (kind: 'rel' | 'fn', name: string, arity: number, index: number): ArgumentRef => ({ kind, name, arity, index });
  const stack: [Term, ArgumentRef][] = head.args.map((t, i) => [t, at('rel', head.rel, head.args.length, i + 1)] as [Term, ArgumentRef]).reverse();
  while (stack.length > 0) {
    const [t, pos] = stack.pop()!;
    if (t.kind === 'var' && t.name === variable) return pos;
    if (t.kind === 'fn') for (let i = t.args.length - 1; i >= 0; i--) stack.push([t.args[i]!, at('fn', t.name, t.args.length, i + 1)]);
  }
  throw new Error(`variable ${variable} is not in the head`);
}

/** Every relation name of the game, so that the domain relations are fresh. */
function relationNames(rules: readonly NormalRule[]): Set<string> {
  const out = new Set<string>();
  for (const r of rules) {
    out.add(r.head.rel);
    for (const l of r.body) if (l.kind !== 'distinct') out.add(l.atom.rel);
  }
  return out;
}

/** Facts of the fresh domain relations, made once per position however many rules use it. */
interface DomainRelations {
  /** Domain relation by the text of its position. */
  readonly names: Map<string, string>;
  readonly facts: NormalRule[];
}

/**
 * Binds the unbound head variables of every unsafe rule of `game` over their domains:
 *   p(..V..) <= body        (V in no positive literal of body)
 *   ->  p(..V..) <= dom_k(V), body        dom_k(c) for each c in the domain of V's position
 * Rules without such variables are returned unchanged (and then no graph is computed). Throws
 * nothing for an infinite domain: that rule gets an error, and the caller refuses the game.
 */
export function repairUnsafeHeads(game: NormalGame, limits: ReachLimits): UnsafeRepair {
  const unsafe = new Map(game.rules.map((r) => [r, unboundHeadVars(r)] as const).filter(([, vs]) => vs.length > 0));
  if (unsafe.size === 0) return { game, diagnostics: [] };
  const safe: NormalGame = { file: game.file, rules: game.rules.filter((r) => !unsafe.has(r)) };
  const { graph, domains } = dependencyGraph(safe, limits);
  const table = new TermTable();
  const guard = createGuard(game.file, limits);
  const used = relationNames(game.rules);
  const made: DomainRelations = { names: new Map(), facts: [] };
  const seen = new Set<string>();
  const diagnostics: Diagnostic[] = [];
  const report = (d: Diagnostic): void => {
    const key = `${d.line}:${d.col}:${d.message}`;
    if (!seen.has(key)) (seen.add(key), diagnostics.push(d));
  };
  const rules = game.rules.map((rule) => {
    const vars = unsafe.get(rule);
    if (vars === undefined) return rule;
    const prefix = `unsafe rule for '${rule.head.rel}': variable`;
    const binders: NormalRule['body'][number][] = [];
    for (const v of vars) {
      const ref = positionOf(rule.head, v);
      // A position the rest of the game never fills (not in the graph) has an empty domain.
      const pos = findPosition(graph, ref);
      const n = pos === undefined ? 0 : domains.count(pos);
      if (n === Infinity) {
        report(diag('error', game.file, rule.pos, `${prefix} ${v} of the head is bound by no positive literal, and the domain of its position (${describePosition(ref)}) is infinite, so it cannot be bound over it`));
        continue;
      }
      guard.pos = rule.pos;
      guard.what = rule.head.rel;
      const key = positionText(ref);
      let name = made.names.get(key);
      if (name === undefined) {
        name = freshName(used);
        made.names.set(key, name);
        for (const id of pos === undefined ? [] : domains.terms(pos, table, guard, limits.maxAtoms)) made.facts.push({ head: mkAtom(name, [table.toTerm(id)]), body: [], pos: rule.pos });
      }
      report(diag('warning', game.file, rule.pos, `${prefix} ${v} of the head is bound by no positive literal; repaired by binding it over the ${n} value${n === 1 ? '' : 's'} the dependency graph gives its position (${describePosition(ref)}; relation '${name}')`));
      binders.push({ kind: 'pos', atom: mkAtom(name, [{ kind: 'var', name: v, pos: rule.pos }], rule.pos) });
    }
    return { ...rule, body: [...binders, ...rule.body] };
  });
  return { game: { file: game.file, rules: [...rules, ...made.facts] }, diagnostics };
}

/** A position in words: `argument 2 of function cell/3`. */
function describePosition(p: ArgumentRef): string {
  return `argument ${p.index} of ${p.kind === 'fn' ? 'function' : 'relation'} ${p.name}/${p.arity}`;
}

/** A relation name the game does not use: `domain_1`, `domain_2`, ... */
function freshName(used: Set<string>): string {
  let i = 1;
  while (used.has(`domain_${i}`)) i++;
  const name = `domain_${i}`;
  used.add(name);
  return name;
}
