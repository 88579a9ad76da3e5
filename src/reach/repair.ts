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
import { type Diagnostic, asRepair, diag } from '../gdl/diagnostics.js';
import { atomVars, compareCodePoints } from '../gdl/terms.js';
import { TermTable } from '../datalog/terms.js';
import type { NormalGame, NormalRule } from '../normalize/types.js';
import { createGuard } from './dg/guard.js';
import { argumentOf, callerDemand, type Demand } from './repair-demand.js';
import { type ArgumentRef, type ArgGraph, findPosition, positionText } from './dg/graph.js';
import type { Domains } from './dg/domains.js';
import type { Guard } from './dg/guard.js';
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
 * Binds the unbound head variables of every unsafe rule of `game` over their values:
 *   p(..V..) <= body        (V in no positive literal of body)
 *   ->  p(..V..) <= dom_k(V), body        dom_k(c) for each c in values(V's argument)
 *   values(arg) = the graph's domain of arg ∪ what the calls of p pass there (repair-demand.ts)
 * Rules without such variables are returned unchanged (and then no graph is computed). Throws
 * nothing where the values cannot be listed: that rule gets an error, and the caller refuses
 * the game.
 */
export function repairUnsafeHeads(game: NormalGame, limits: ReachLimits): UnsafeRepair {
  const unsafe = new Map(game.rules.map((r) => [r, unboundHeadVars(r)] as const).filter(([, vs]) => vs.length > 0));
  if (unsafe.size === 0) return { game, diagnostics: [] };
  const safe: NormalGame = { file: game.file, rules: game.rules.filter((r) => !unsafe.has(r)) };
  const { graph, domains } = dependencyGraph(safe, limits);
  const table = new TermTable();
  const guard = createGuard(game.file, limits);
  const heads = new Map([...unsafe].map(([r, vs]) => [r, new Map(vs.map((v) => [v, argumentOf(r.head, v)!]))] as const));
  const demand = callerDemand(game, heads, { graph, domains, table, guard, maxAtoms: limits.maxAtoms });
  const used = relationNames(game.rules);
  const made: DomainRelations = { names: new Map(), facts: [] };
  const seen = new Set<string>();
  const diagnostics: Diagnostic[] = [];
  const report = (d: Diagnostic): void => {
    const key = `${d.line}:${d.col}:${d.message}`;
    if (!seen.has(key)) (seen.add(key), diagnostics.push(d));
  };
  const rules = game.rules.map((rule) => {
    const vars = heads.get(rule);
    if (vars === undefined) return rule;
    const binders: NormalRule['body'][number][] = [];
    for (const [v, ref] of vars) {
      guard.pos = rule.pos;
      guard.what = rule.head.rel;
      const bound = bindingFor(rule, v, ref, { graph, domains, table, guard, limits, demand });
      if (bound.kind === 'error') {
        report(diag('error', game.file, rule.pos, `unsafe rule for '${rule.head.rel}': variable ${v} of the head is bound by no positive literal, ${bound.why}`));
        continue;
      }
      const key = positionText(ref);
      let name = made.names.get(key);
      if (name === undefined) {
        name = freshName(used);
        made.names.set(key, name);
        for (const id of bound.values) made.facts.push({ head: mkAtom(name, [table.toTerm(id)]), body: [], pos: rule.pos });
      }
      report(asRepair(diag('warning', game.file, rule.pos, `unsafe rule for '${rule.head.rel}': variable ${v} of the head is bound by no positive literal; repaired by binding it over ${bound.how} (${describePosition(ref)}; relation '${name}')`), 'unsafe-head'));
      binders.push({ kind: 'pos', atom: mkAtom(name, [{ kind: 'var', name: v, pos: rule.pos }], rule.pos) });
    }
    return { ...rule, body: [...binders, ...rule.body] };
  });
  return { game: { file: game.file, rules: [...rules, ...made.facts] }, diagnostics };
}

/** What binding one unsafe head variable needs: its values and how to say where they come from, or why not. */
type Binding = { kind: 'bound'; values: readonly number[]; how: string } | { kind: 'error'; why: string };

/** The values of unsafe argument `ref`: the graph's domain, then what callers ask for beyond it. */
function bindingFor(
  rule: NormalRule, v: string, ref: ArgumentRef,
  ctx: { graph: ArgGraph; domains: Domains; table: TermTable; guard: Guard; limits: ReachLimits; demand: Demand },
): Binding {
  const where = describePosition(ref);
  const key = positionText(ref);
  // A position the rest of the game never fills (not in the graph) has an empty domain.
  const pos = findPosition(ctx.graph, ref);
  const n = pos === undefined ? 0 : ctx.domains.count(pos);
  if (n === Infinity) return { kind: 'error', why: `and the domain of its position (${where}) is infinite, so it cannot be bound over it` };
  if (ctx.demand.infinite.has(key)) return { kind: 'error', why: `and a call of '${rule.head.rel}' passes a variable with infinitely many values to ${where}, so it cannot be bound over them` };
  const fromGraph = pos === undefined ? [] : ctx.domains.terms(pos, ctx.table, ctx.guard, ctx.limits.maxAtoms);
  const inGraph = new Set(fromGraph);
  const more = [...(ctx.demand.values.get(key) ?? [])].filter((id) => !inGraph.has(id));
  const total = fromGraph.length + more.length;
  if (total === 0 && ctx.demand.free.has(key)) {
    return { kind: 'error', why: `no call of '${rule.head.rel}' passes a value to ${where}, and no rule puts one there: binding it over nothing would delete the rule, which Prolog reads as true for any value` };
  }
  const values = (k: number): string => `${k} value${k === 1 ? '' : 's'}`;
  const how = more.length === 0
    ? `the ${values(n)} the dependency graph gives its position`
    : `the ${values(total)} its calls can ask for (${values(fromGraph.length)} the dependency graph gives its position, ${more.length} more passed by callers)`;
  return { kind: 'bound', values: [...fromGraph, ...more], how };
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
