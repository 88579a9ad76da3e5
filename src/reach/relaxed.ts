/**
 * The relaxed game of section 9.1.2 and its evaluation plan. The relaxed game keeps the
 * normalized rules without their negative literals and without the goal and terminal rules;
 * its least model, with `true` fed by `init` and `next` and `does` fed by `legal`, is what
 * Algorithm 9.2 computes. The plan orders the relations by strongly connected components so
 * that every relation is complete before anything that depends on it is evaluated.
 */
import type { Atom, Pos } from '../gdl/ast.js';
import { relationComponents } from '../gdl/relations.js';
import type { NormalGame } from '../normalize/types.js';
import { signatureText } from '../gdl/relation-table.js';
import { BRIDGES, neededRules } from './relaxation.js';
import { dropSubsumed } from './subsume.js';
import { eliminateParts } from './eliminate.js';
import { eliminateLocals } from './eliminate-local.js';
import { type RelaxedLiteral, type RelaxedRule, keyOf } from './relaxed-rule.js';

export { type RelaxedLiteral, type RelaxedRule, keyOf } from './relaxed-rule.js';

/** A relation as stored: name and arity (`cell/3`). */
export interface RelationKey {
  readonly rel: string;
  readonly arity: number;
}

/** The key text `rel/arity` of a relation (made from its parts; the same text as {@link keyOf}). */
export function relationKeyText(r: RelationKey): string {
  return `${r.rel}/${r.arity}`;
}

/**
 * `true(F) <= init(F)`, `true(F) <= next(F)`, `does(R, M) <= legal(R, M)`: copies of facts,
 * between the relation keys `from` and `to` (`next/1` -> `true/1`).
 */
interface BridgeRule {
  readonly from: string;
  readonly to: string;
}

/** One strongly connected component of the relaxed program, evaluated as a unit. */
export interface Component {
  /** Relation keys (`rel/arity`) whose facts the component derives. */
  readonly relations: readonly string[];
  readonly rules: readonly RelaxedRule[];
  readonly bridges: readonly BridgeRule[];
  /** True when some rule or bridge of the component uses one of its own relations. */
  readonly recursive: boolean;
  /** True when the component depends on `true` or `does` (its facts may change with the state). */
  readonly stateDependent: boolean;
  /** True for the component that contains `true/1`: the loop of Algorithm 9.2. */
  readonly containsTrue: boolean;
}

/** The relaxed program in evaluation order. */
export interface RelaxedPlan {
  readonly components: readonly Component[];
  /** Every relation key of the program with its name and arity. */
  readonly relations: ReadonlyMap<string, RelationKey>;
  /** Position of the first rule of each relation key, for messages. */
  readonly firstRule: ReadonlyMap<string, Pos>;
  /** Keys of the relations made by src/reach/eliminate.ts: evaluated, left out of the supersets. */
  readonly auxiliary: ReadonlySet<string>;
}

/**
 * Drops negative literals; keeps goal/terminal/base/input rules only if some kept rule uses
 * them; leaves out rules another rule makes redundant (src/reach/subsume.ts: same least model),
 * unless `keepSubsumed` (the ablation of docs/reach.md measures what dropping them saves).
 */
export function relaxRules(game: NormalGame, keepSubsumed = false): RelaxedRule[] {
  const relaxed = neededRules(game.rules).map((r): RelaxedRule => ({
    head: r.head,
    body: r.body.filter((l): l is RelaxedLiteral => l.kind !== 'neg'),
    pos: r.pos,
  }));
  return keepSubsumed ? relaxed : dropSubsumed(relaxed);
}

/**
 * Builds the evaluation plan of the relaxed game (`keepSubsumed`: see {@link relaxRules};
 * `eliminate`: existence parts made relations of their own, src/reach/eliminate.ts).
 */
export function planRelaxedGame(game: NormalGame, keepSubsumed = false, eliminate = false): RelaxedPlan {
  const relaxed = relaxRules(game, keepSubsumed);
  const { rules, auxiliary } = eliminate ? eliminateAll(relaxed) : { rules: relaxed, auxiliary: new Set<string>() };
  const relations = new Map<string, RelationKey>();
  const firstRule = new Map<string, Pos>();
  const note = (a: Atom): string => {
    const k = keyOf(a);
    if (!relations.has(k)) relations.set(k, { rel: a.rel, arity: a.args.length });
    return k;
  };
  for (const r of rules) {
    const k = note(r.head);
    if (!firstRule.has(k)) firstRule.set(k, r.pos);
    for (const l of r.body) if (l.kind === 'pos') note(l.atom);
  }
  const bridges: BridgeRule[] = [];
  for (const b of BRIDGES) {
    const [from, to] = [signatureText(b.from), signatureText(b.to)];
    if (!relations.has(from)) continue;
    if (!relations.has(to)) relations.set(to, { rel: b.to.name, arity: b.to.arity });
    bridges.push({ from, to });
  }
  return { components: orderComponents(rules, bridges, relations), relations, firstRule, auxiliary };
}

/** Existence parts made relations (src/reach/eliminate.ts), then buckets of whole bodies (src/reach/eliminate-local.ts). */
function eliminateAll(relaxed: readonly RelaxedRule[]): { rules: readonly RelaxedRule[]; auxiliary: ReadonlySet<string> } {
  const parts = eliminateParts(relaxed);
  const locals = eliminateLocals(parts.rules, parts.auxiliary);
  return { rules: locals.rules, auxiliary: new Set([...parts.auxiliary, ...locals.auxiliary]) };
}

/** Groups rules by strongly connected component of the relation graph, bodies before heads. */
function orderComponents(rules: readonly RelaxedRule[], bridges: readonly BridgeRule[], relations: ReadonlyMap<string, RelationKey>): Component[] {
  const edges: { from: string; to: string }[] = [...bridges];
  for (const r of rules) for (const l of r.body) if (l.kind === 'pos') edges.push({ from: keyOf(l.atom), to: keyOf(r.head) });
  const comps = relationComponents(relations.keys(), edges);
  // Components reached from true/does depend on the state (bodies come first, so one pass).
  const dependent = new Set(['true/1', 'does/2']);
  const feeds = new Map<string, string[]>();
  for (const e of edges) {
    const list = feeds.get(e.from);
    if (list === undefined) feeds.set(e.from, [e.to]);
    else list.push(e.to);
  }
  // Rules and bridges sorted into their components in one pass each, in their order: a filter
  // per component was quadratic (20,000 chained relations took minutes).
  const componentOf = new Map<string, number>();
  comps.forEach((c, i) => {
    for (const m of c.members) componentOf.set(m, i);
  });
  const ruleLists = comps.map((): RelaxedRule[] => []);
  for (const r of rules) ruleLists[componentOf.get(keyOf(r.head)) ?? -1]?.push(r);
  const bridgeLists = comps.map((): BridgeRule[] => []);
  for (const b of bridges) bridgeLists[componentOf.get(b.to) ?? -1]?.push(b);
  return comps.map((c, i): Component => {
    const members = new Set(c.members);
    const stateDependent = c.members.some((m) => dependent.has(m));
    if (stateDependent) for (const m of c.members) for (const to of feeds.get(m) ?? []) dependent.add(to);
    return {
      relations: c.members,
      rules: ruleLists[i]!,
      bridges: bridgeLists[i]!,
      recursive: c.recursive,
      stateDependent,
      containsTrue: members.has('true/1'),
    };
  });
}

/**
 * The whole program as one recursive component (the ablation of docs/reach.md: evaluation
 * without the dependency order, every relation read from its delta in every round).
 */
export function asOneComponent(plan: RelaxedPlan): RelaxedPlan {
  const all = plan.components;
  const one: Component = {
    relations: all.flatMap((c) => c.relations),
    rules: all.flatMap((c) => c.rules),
    bridges: all.flatMap((c) => c.bridges),
    recursive: true,
    stateDependent: all.some((c) => c.stateDependent),
    containsTrue: all.some((c) => c.containsTrue),
  };
  return { ...plan, components: all.length === 0 ? [] : [one] };
}

/** The relations whose facts are the fluents and moves, and the rules that make them. */
const LOOP_RELATIONS = ['true/1', 'does/2', 'legal/2', 'next/1'];

/**
 * The components that hold true, does, legal or next (the loop; legal need not read the state,
 * nor next the moves) and those they depend on: walked back over the body atoms of the rules.
 */
export function relevantComponents(components: readonly Component[]): Set<number> {
  const owner = new Map<string, number>();
  components.forEach((c, i) => c.relations.forEach((k) => owner.set(k, i)));
  const todo = LOOP_RELATIONS.flatMap((k) => (owner.has(k) ? [owner.get(k)!] : []));
  const wanted = new Set(todo);
  while (todo.length > 0) {
    const comp = components[todo.pop()!]!;
    const reads = [...comp.rules.flatMap((r) => r.body.flatMap((l) => (l.kind === 'pos' ? [keyOf(l.atom)] : []))), ...comp.bridges.map((b) => b.from)];
    for (const k of reads) {
      const i = owner.get(k);
      if (i !== undefined && !wanted.has(i)) (wanted.add(i), todo.push(i));
    }
  }
  return wanted;
}
