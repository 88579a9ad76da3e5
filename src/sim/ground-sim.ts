/**
 * A fast simulator for the ground game: rules over integer atom ids, evaluated in dependency
 * order of the atoms (their strongly connected components, bodies first). A component on a
 * positive cycle (ground instances of a recursive relation) gets its least fixpoint by
 * counting unsatisfied body atoms (Dowling-Gallier), so every evaluation is linear in the
 * size of the rules. Negation only reaches earlier components when the game is stratified;
 * a negative literal inside a component is refused.
 */
import { NO_POS } from '../gdl/ast.js';
import { GdlError, diag } from '../gdl/diagnostics.js';
import { stronglyConnectedComponents } from '../gdl/scc.js';
import { compareCodePoints, termToString } from '../gdl/terms.js';
import type { GroundGame, GroundRule } from '../ground/types.js';
import { type GameSimulator, type GameState, type GroundItem, type StateInfo, toItems } from './types.js';

/** One step of an evaluation plan: the rules of one component, with what the fixpoint needs. */
interface PlanStep {
  /** Indices (into the game's rules) of the rules whose head is in the component. */
  readonly rules: readonly number[];
  /** True when the component lies on a cycle. */
  readonly cyclic: boolean;
  /** For a cyclic step: per rule of `rules`, how many positive body atoms are in the component. */
  readonly internal: readonly number[];
  /** For a cyclic step: component atom -> positions in `rules` of the rules reading it positively. */
  readonly watchers: ReadonlyMap<number, readonly number[]>;
}

/** Evaluation plans: what depends only on the state, and what depends on the joint move. */
interface Plans {
  readonly state: readonly PlanStep[];
  readonly move: readonly PlanStep[];
  /** Heads evaluated by the move plan (reset before every joint move). */
  readonly moveHeads: readonly number[];
}

function ruleHolds(rule: GroundRule, val: Uint8Array): boolean {
  for (const p of rule.pos) if (val[p] === 0) return false;
  for (const q of rule.neg) if (val[q] === 1) return false;
  return true;
}

function makeStep(game: GroundGame, comp: readonly number[], byHead: readonly number[][], selfLoop: boolean): PlanStep | null {
  const rules = comp.flatMap((a) => byHead[a]!);
  if (rules.length === 0) return null;
  const cyclic = comp.length > 1 || selfLoop;
  const members = new Set(comp);
  const internal: number[] = [];
  const watchers = new Map<number, number[]>();
  if (cyclic) {
    rules.forEach((r, k) => {
      const rule = game.rules[r]!;
      if (rule.neg.some((q) => members.has(q))) {
        const text = game.atoms[rule.head]!.text;
        throw new GdlError([diag('error', game.file, NO_POS, `ground game is not stratified: ${text} depends negatively on itself`)]);
      }
      const own = rule.pos.filter((p) => members.has(p));
      internal.push(own.length);
      for (const p of own) watchers.set(p, [...(watchers.get(p) ?? []), k]);
    });
  }
  return { rules, cyclic, internal, watchers };
}

/** Builds the plans: components in dependency order, split by dependence on `does`. */
function buildPlans(game: GroundGame): Plans {
  const n = game.atoms.length;
  const byHead: number[][] = Array.from({ length: n }, () => []);
  const succ: number[][] = Array.from({ length: n }, () => []);
  game.rules.forEach((rule, r) => {
    byHead[rule.head]!.push(r);
    for (const b of [...rule.pos, ...rule.neg]) succ[b]!.push(rule.head);
  });
  // Atoms that depend on a `does` atom, found forwards from every `does` atom.
  const onDoes = new Uint8Array(n);
  const todo = game.atoms.flatMap((a, i) => (a.rel === 'does' ? [i] : []));
  for (const i of todo) onDoes[i] = 1;
  while (todo.length > 0) {
    for (const h of succ[todo.pop()!]!) {
      if (onDoes[h] === 0) {
        onDoes[h] = 1;
        todo.push(h);
      }
    }
  }
  const state: PlanStep[] = [];
  const move: PlanStep[] = [];
  const moveHeads: number[] = [];
  // Tarjan lists a component after everything it feeds; bodies must come first.
  const comps = stronglyConnectedComponents(n, (v) => succ[v]!).reverse();
  for (const comp of comps) {
    const selfLoop = comp.length === 1 && succ[comp[0]!]!.includes(comp[0]!);
    const step = makeStep(game, comp, byHead, selfLoop);
    if (step === null) continue;
    if (onDoes[comp[0]!] === 1) {
      move.push(step);
      moveHeads.push(...comp);
    } else state.push(step);
  }
  return { state, move, moveHeads };
}

/** Least fixpoint of a cyclic step; the literals outside the component are already final. */
function evaluateCyclic(game: GroundGame, step: PlanStep, val: Uint8Array): void {
  const missing = Int32Array.from(step.internal);
  const queue: number[] = [];
  const live = new Uint8Array(step.rules.length);
  step.rules.forEach((r, k) => {
    const rule = game.rules[r]!;
    // A rule is live when its literals outside the component hold; its inside atoms are false yet.
    const outside = rule.pos.every((p) => val[p] === 1 || step.watchers.has(p)) && !rule.neg.some((q) => val[q] === 1);
    if (!outside) return;
    live[k] = 1;
    if (missing[k] === 0 && val[rule.head] === 0) {
      val[rule.head] = 1;
      queue.push(rule.head);
    }
  });
  while (queue.length > 0) {
    for (const k of step.watchers.get(queue.pop()!) ?? []) {
      if (live[k] === 0 || --missing[k]! !== 0) continue;
      const head = game.rules[step.rules[k]!]!.head;
      if (val[head] === 0) {
        val[head] = 1;
        queue.push(head);
      }
    }
  }
}

function evaluate(game: GroundGame, plan: readonly PlanStep[], val: Uint8Array): void {
  for (const step of plan) {
    if (step.cyclic) evaluateCyclic(game, step, val);
    else for (const r of step.rules) if (ruleHolds(game.rules[r]!, val)) val[game.rules[r]!.head] = 1;
  }
}

/** Items of the atoms of relation `rel`, keyed by the text of their first argument (the role). */
function byFirstArg(game: GroundGame, rel: string): { id: number; role: string; item: GroundItem }[] {
  return game.atoms.flatMap((a, id) =>
    a.rel === rel && a.args.length === 2 ? [{ id, role: termToString(a.args[0]!), item: { text: termToString(a.args[1]!), term: a.args[1]! } }] : [],
  );
}

/** Creates a simulator for a ground game; the plans are built here, once. */
export function createGroundSimulator(game: GroundGame): GameSimulator {
  const plans = buildPlans(game);
  const val = new Uint8Array(game.atoms.length);
  const roles: GroundItem[] = game.roles.map((term) => ({ text: termToString(term), term }));
  const roleIndex = new Map(roles.map((r, i) => [r.text, i]));
  const trueIds = new Map<string, number>();
  const doesIds = new Map<string, number>();
  const nextIds: number[] = [];
  let terminalId = -1;
  game.atoms.forEach((a, id) => {
    if (a.rel === 'true' && a.args.length === 1) trueIds.set(termToString(a.args[0]!), id);
    else if (a.rel === 'does' && a.args.length === 2) doesIds.set(`${termToString(a.args[0]!)} ${termToString(a.args[1]!)}`, id);
    else if (a.rel === 'next' && a.args.length === 1) nextIds.push(id);
    else if (a.rel === 'terminal' && a.args.length === 0) terminalId = id;
  });
  const legalAtoms = byFirstArg(game, 'legal');
  const goalAtoms = byFirstArg(game, 'goal');

  // The simulator holds one state at a time; `current` avoids re-evaluating it for successor().
  let current: GameState | undefined;
  let doesSet: number[] = [];
  const load = (state: GameState): void => {
    if (current === state) return;
    val.fill(0);
    doesSet = [];
    for (const f of state) {
      const id = trueIds.get(f.text);
      if (id !== undefined) val[id] = 1;
    }
    evaluate(game, plans.state, val);
    current = state;
  };

  const info = (state: GameState): StateInfo => {
    load(state);
    const legal = roles.map((): GroundItem[] => []);
    const goals = roles.map((): GroundItem[] => []);
    for (const a of legalAtoms) if (val[a.id] === 1 && roleIndex.has(a.role)) legal[roleIndex.get(a.role)!]!.push(a.item);
    for (const a of goalAtoms) if (val[a.id] === 1 && roleIndex.has(a.role)) goals[roleIndex.get(a.role)!]!.push(a.item);
    return {
      legal: legal.map((ms) => toItems(ms.map((m) => m.term), termToString)),
      terminal: terminalId >= 0 && val[terminalId] === 1,
      goals: goals.map((vs) => vs.map((v) => v.text).sort(compareCodePoints)),
    };
  };

  const successor = (state: GameState, moves: readonly GroundItem[]): GameState => {
    load(state);
    for (const h of plans.moveHeads) val[h] = 0;
    for (const d of doesSet) val[d] = 0;
    doesSet = moves.flatMap((m, i) => {
      const id = doesIds.get(`${roles[i]!.text} ${m.text}`);
      return id === undefined ? [] : [id];
    });
    for (const d of doesSet) val[d] = 1;
    evaluate(game, plans.move, val);
    return toItems(nextIds.filter((id) => val[id] === 1).map((id) => game.atoms[id]!.args[0]!), termToString);
  };

  const initialState = (): GameState => toItems(game.init.map((id) => game.atoms[id]!.args[0]!), termToString);

  return { roles, initialState, info, successor };
}
