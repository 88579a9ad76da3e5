/**
 * The values callers can ask for at an argument of a relation (docs/validation.md, repair 4).
 *
 * A rule `p(..V..) <= body` whose head variable V no positive literal binds holds, read the way
 * Prolog reads it, for every value of V: a call `p(..c..)` succeeds for whatever c the caller
 * passes. The dependency graph's domain of that argument holds only the values p's other rules
 * put there, which can be none at all (casanova's Othello: every call of `onalinep` passes a
 * colour that no rule of `onalinep` produces, so binding over the graph's domain deleted the
 * rule). Binding V over a superset of every value any call can pass answers every call the
 * game ever makes exactly as Prolog does, so the repair keeps the game.
 *
 *   demand(p/n, i) = ⋃ over every literal p(t1..tn) or not p(t1..tn) in a body of rule R:
 *                      the instances of t_i over the values of its variables in R
 *   values of a variable u of R = the smallest of: the graph's domain of a position where u
 *                      occurs in another positive literal of R, or the values of an unsafe
 *                      argument where it occurs there; else, when u is R's own unsafe head
 *                      variable, demand of that head argument (the callers of R ask for it)
 *
 * Unsafe arguments depend on each other through their callers, so the sets grow to a fixpoint.
 * A call that leaves its argument free (`(<= q (p ?z))` with ?z bound by nothing) asks for no
 * particular value, and is recorded so that the repair can refuse a rule it would otherwise bind
 * over no value at all.
 */
import type { Atom, Term } from '../gdl/ast.js';
import { collectVars, substitute } from '../gdl/terms.js';
import type { TermTable } from '../datalog/terms.js';
import type { NormalGame, NormalRule } from '../normalize/types.js';
import type { Guard } from './dg/guard.js';
import { type ArgGraph, type ArgumentRef, findPosition, positionText } from './dg/graph.js';
import type { Domains } from './dg/domains.js';

/** What the callers of each unsafe argument ask for, by `positionText` of the argument. */
export interface Demand {
  /** Term ids of `table`: every value some call passes there, beside the graph's domain. */
  readonly values: ReadonlyMap<string, ReadonlySet<number>>;
  /** Arguments some call passes a free variable to. */
  readonly free: ReadonlySet<string>;
  /** Arguments some call passes a variable with an infinite domain to. */
  readonly infinite: ReadonlySet<string>;
}

/** Everything the fixpoint reads, gathered once. */
interface Inputs {
  readonly rules: readonly NormalRule[];
  readonly graph: ArgGraph;
  readonly domains: Domains;
  readonly table: TermTable;
  readonly guard: Guard;
  readonly maxAtoms: number;
  /** Arguments whose demand is computed; pass-through arguments join while the fixpoint runs. */
  readonly targets: Map<string, ArgumentRef>;
}

/** The first argument position of `variable` in `atom`, depth first, or undefined. */
export function argumentOf(atom: Atom, variable: string): ArgumentRef | undefined {
  const at = (kind: 'rel' | 'fn', name: string, arity: number, index: number): ArgumentRef => ({ kind, name, arity, index });
  const stack: [Term, ArgumentRef][] = atom.args.map((t, i) => [t, at('rel', atom.rel, atom.args.length, i + 1)] as [Term, ArgumentRef]).reverse();
  while (stack.length > 0) {
    const [t, pos] = stack.pop()!;
    if (t.kind === 'var' && t.name === variable) return pos;
    if (t.kind === 'fn') for (let i = t.args.length - 1; i >= 0; i--) stack.push([t.args[i]!, at('fn', t.name, t.args.length, i + 1)]);
  }
  return undefined;
}

/**
 * The values the calls of the game pass to each target argument (relation arguments only:
 * a variable nested in a function term of the head keeps the graph's domain alone).
 */
export function callerDemand(
  game: NormalGame, unsafeHeads: ReadonlyMap<NormalRule, ReadonlyMap<string, ArgumentRef>>,
  ctx: { graph: ArgGraph; domains: Domains; table: TermTable; guard: Guard; maxAtoms: number },
): Demand {
  const targets = new Map<string, ArgumentRef>();
  for (const vars of unsafeHeads.values()) for (const ref of vars.values()) if (ref.kind === 'rel') targets.set(positionText(ref), ref);
  const inputs: Inputs = { rules: game.rules, targets, ...ctx };
  const values = new Map<string, Set<number>>([...targets.keys()].map((k) => [k, new Set<number>()]));
  const free = new Set<string>();
  const infinite = new Set<string>();
  // Each round can only add values, and the sets are bounded by maxAtoms: a fixpoint is reached.
  for (let changed = targets.size > 0; changed;) {
    changed = false;
    for (const [key, ref] of targets) {
      const into = values.get(key)!;
      const before = into.size;
      collectCalls(inputs, ref, values, into, () => free.add(key), () => infinite.add(key));
      if (into.size > ctx.maxAtoms) ctx.guard.fail(`the calls of ${ref.name}/${ref.arity} ask for more than ${ctx.maxAtoms} values of argument ${ref.index}`, { kind: 'atoms' });
      if (into.size !== before) changed = true;
    }
  }
  return { values, free, infinite };
}

/** Adds to `into` the values every call of `ref`'s relation passes at `ref`'s argument. */
function collectCalls(
  inputs: Inputs, ref: ArgumentRef, values: Map<string, Set<number>>, into: Set<number>,
  onFree: () => void, onInfinite: () => void,
): void {
  for (const rule of inputs.rules) {
    for (const lit of rule.body) {
      if (lit.kind === 'distinct' || lit.atom.rel !== ref.name || lit.atom.args.length !== ref.arity) continue;
      inputs.guard.tick();
      const arg = lit.atom.args[ref.index - 1]!;
      const vars = [...collectVars(arg, new Set())];
      const choices: (readonly number[])[] = [];
      let state: 'ok' | 'free' | 'infinite' = 'ok';
      for (const v of vars) {
        const got = variableValues(inputs, rule, lit.atom, v, values);
        if (got === 'free' || got === 'infinite') {
          state = got;
          break;
        }
        choices.push(got);
      }
      if (state === 'free') onFree();
      else if (state === 'infinite') onInfinite();
      else for (const id of instances(inputs, arg, vars, choices)) into.add(id);
    }
  }
}

/** The values variable `v` of `rule` can take where `call` passes it, or why there are none to list. */
function variableValues(
  inputs: Inputs, rule: NormalRule, call: Atom, v: string, values: Map<string, Set<number>>,
): readonly number[] | 'free' | 'infinite' {
  let best: readonly number[] | undefined;
  let infinite = false;
  const consider = (ref: ArgumentRef): void => {
    const pos = findPosition(inputs.graph, ref);
    const fromGraph = pos === undefined ? [] : domainTerms(inputs, pos);
    if (fromGraph === 'infinite') return void (infinite = true);
    // An unsafe argument holds what the graph gives it and what its own callers ask for.
    const asked = ref.kind === 'rel' ? values.get(positionText(ref)) : undefined;
    const all = asked === undefined ? fromGraph : [...new Set([...fromGraph, ...asked])];
    if (best === undefined || all.length < best.length) best = all;
  };
  for (const lit of rule.body) {
    if (lit.kind !== 'pos' || lit.atom === call) continue;
    const ref = argumentOf(lit.atom, v);
    if (ref !== undefined) consider(ref);
  }
  if (best !== undefined) return best;
  if (infinite) return 'infinite';
  // Bound by nothing else in the body: a head variable of the caller passes on what the caller's
  // own callers ask for (an unsafe head variable, or one bound only by this call, whose answer
  // Prolog leaves free). Its argument joins the fixpoint as a target of its own.
  const headRef = argumentOf(rule.head, v);
  if (headRef?.kind === 'rel') return [...ensureTarget(inputs, values, headRef)];
  return 'free';
}

/** The demand set of `ref`, made a target of the fixpoint if it was not one. */
function ensureTarget(inputs: Inputs, values: Map<string, Set<number>>, ref: ArgumentRef): ReadonlySet<number> {
  const key = positionText(ref);
  let set = values.get(key);
  if (set === undefined) {
    set = new Set();
    values.set(key, set);
    inputs.targets.set(key, ref);
  }
  return set;
}

/** The graph's domain of `pos` as term ids, or 'infinite'. */
function domainTerms(inputs: Inputs, pos: number): readonly number[] | 'infinite' {
  const n = inputs.domains.count(pos);
  if (n === Infinity) return 'infinite';
  return inputs.domains.terms(pos, inputs.table, inputs.guard, inputs.maxAtoms);
}

/** The ground instances of `term` with `vars[k]` ranging over `choices[k]`, as term ids. */
function instances(inputs: Inputs, term: Term, vars: readonly string[], choices: readonly (readonly number[])[]): number[] {
  if (vars.length === 0) return [inputs.table.fromTerm(term)];
  const out: number[] = [];
  const index = vars.map(() => 0);
  if (choices.some((c) => c.length === 0)) return out;
  for (;;) {
    inputs.guard.tick();
    const binding = new Map(vars.map((v, k) => [v, inputs.table.toTerm(choices[k]![index[k]!]!)]));
    out.push(inputs.table.fromTerm(substitute(term, binding)));
    if (out.length > inputs.maxAtoms) inputs.guard.fail(`more than ${inputs.maxAtoms} values of one call`, { kind: 'atoms' });
    let k = vars.length - 1;
    while (k >= 0 && ++index[k]! === choices[k]!.length) index[k--] = 0;
    if (k < 0) return out;
  }
}
