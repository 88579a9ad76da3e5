/**
 * The relaxed game of section 9.1.2 and its evaluation plan. The relaxed game keeps the
 * normalized rules without their negative literals and without the goal and terminal rules;
 * its least model, with `true` fed by `init` and `next` and `does` fed by `legal`, is what
 * Algorithm 9.2 computes. The plan orders the relations by strongly connected components so
 * that every relation is complete before anything that depends on it is evaluated.
 */
import type { Atom, Pos } from '../gdl/ast.js';
import { stronglyConnectedComponents } from '../gdl/scc.js';
import type { Literal, NormalGame } from '../normalize/types.js';

/** A positive literal or a `distinct` of the relaxed game. */
export type RelaxedLiteral = Exclude<Literal, { kind: 'neg' }>;

/** A rule of the relaxed game: the normalized rule with its negative literals removed. */
export interface RelaxedRule {
  readonly head: Atom;
  readonly body: readonly RelaxedLiteral[];
  /** Position of the source rule, for messages. */
  readonly pos: Pos;
}

/** A relation as stored: name and arity (`cell/3`). */
export interface RelationKey {
  readonly rel: string;
  readonly arity: number;
}

/** `true(F) <= init(F)`, `true(F) <= next(F)`, `does(R, M) <= legal(R, M)`: copies of facts. */
export interface BridgeRule {
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
}

/** Relations whose rules Algorithm 9.2 leaves out unless another kept rule uses them. */
const LEFT_OUT: ReadonlySet<string> = new Set(['goal', 'terminal', 'base', 'input']);

/** The relation key `rel/arity` of an atom. */
export function keyOf(atom: Atom): string {
  return `${atom.rel}/${atom.args.length}`;
}

/** Drops negative literals; keeps goal/terminal/base/input rules only if some kept rule uses them. */
export function relaxRules(game: NormalGame): RelaxedRule[] {
  const relaxed = game.rules.map((r): RelaxedRule => ({
    head: r.head,
    body: r.body.filter((l): l is RelaxedLiteral => l.kind !== 'neg'),
    pos: r.pos,
  }));
  // A left-out relation used positively in a kept body is needed after all (else the relaxed
  // game would lose facts and no longer give supersets); this repeats until nothing changes.
  const needed = new Set<string>();
  let changed = true;
  while (changed) {
    changed = false;
    for (const r of relaxed) {
      if (LEFT_OUT.has(r.head.rel) && !needed.has(r.head.rel)) continue;
      for (const l of r.body) {
        if (l.kind === 'pos' && LEFT_OUT.has(l.atom.rel) && !needed.has(l.atom.rel)) {
          needed.add(l.atom.rel);
          changed = true;
        }
      }
    }
  }
  return relaxed.filter((r) => !LEFT_OUT.has(r.head.rel) || needed.has(r.head.rel));
}

/** Builds the evaluation plan of the relaxed game. */
export function planRelaxedGame(game: NormalGame): RelaxedPlan {
  const rules = relaxRules(game);
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
  for (const [from, to] of [['init/1', 'true/1'], ['next/1', 'true/1'], ['legal/2', 'does/2']] as const) {
    if (!relations.has(from)) continue;
    if (!relations.has(to)) relations.set(to, { rel: to.slice(0, -2), arity: Number(to.slice(-1)) });
    bridges.push({ from, to });
  }
  return { components: orderComponents(rules, bridges, relations), relations, firstRule };
}

/** Groups rules by strongly connected component of the relation graph, bodies before heads. */
function orderComponents(rules: readonly RelaxedRule[], bridges: readonly BridgeRule[], relations: ReadonlyMap<string, RelationKey>): Component[] {
  const names = [...relations.keys()].sort();
  const id = new Map(names.map((n, i) => [n, i]));
  const succ: number[][] = names.map(() => []);
  const edge = (from: string, to: string): void => void succ[id.get(from)!]!.push(id.get(to)!);
  for (const r of rules) for (const l of r.body) if (l.kind === 'pos') edge(keyOf(l.atom), keyOf(r.head));
  for (const b of bridges) edge(b.from, b.to);
  // Tarjan lists components with every edge pointing to an earlier one: reverse for bodies first.
  const comps = stronglyConnectedComponents(names.length, (v) => succ[v]!).reverse();
  const compOf = new Map<string, number>();
  comps.forEach((c, i) => c.forEach((v) => compOf.set(names[v]!, i)));
  // Components reached from true/does depend on the state.
  const dependent = new Set<number>();
  const todo = ['true/1', 'does/2'].filter((k) => id.has(k)).map((k) => id.get(k)!);
  const seen = new Set<number>(todo);
  while (todo.length > 0) {
    const v = todo.pop()!;
    dependent.add(compOf.get(names[v]!)!);
    for (const w of succ[v]!) if (!seen.has(w)) seen.add(w), todo.push(w);
  }
  return comps.map((c, i): Component => {
    const members = new Set(c.map((v) => names[v]!));
    const own = rules.filter((r) => members.has(keyOf(r.head)));
    const ownBridges = bridges.filter((b) => members.has(b.to));
    const recursive =
      own.some((r) => r.body.some((l) => l.kind === 'pos' && members.has(keyOf(l.atom)))) ||
      ownBridges.some((b) => members.has(b.from));
    return {
      relations: [...members].sort(),
      rules: own,
      bridges: ownBridges,
      recursive,
      stateDependent: dependent.has(i),
      containsTrue: members.has('true/1'),
    };
  });
}
