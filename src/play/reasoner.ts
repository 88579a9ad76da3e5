/**
 * A reasoner for the original (non-ground) game on Tau-Prolog: top-down resolution with
 * negation as failure for non-recursive relations, semi-naive bottom-up saturation for
 * recursive ones (see src/play/prolog-program.ts), and the state and joint move held as
 * dynamic `true`/`does` facts. It is the reference `verify` holds the ground game against,
 * so it shares no code with reach or instantiation beyond the normalizer (whose output is
 * equivalent to the game) and the round driver of the semi-naive fixpoint (a loop that only
 * sequences queries: every derivation and every join is Tau-Prolog's).
 *
 * Tau-Prolog's assertz rebuilds a predicate's index on every call and retract rescans the
 * predicate, so both are quadratic in the size of a table; the state, the joint move and the
 * recursive relations are therefore the engine's hash-indexed tables (defineTable).
 */
import { Deadline } from '../deadline.js';
import { NO_POS, type Term } from '../gdl/ast.js';
import { GdlError, diag } from '../gdl/diagnostics.js';
import { termToString } from '../gdl/terms.js';
import { SEES } from '../gdl/keywords.js';
import { EngineLimitError, type PrologEngine, type TauTerm, createEngine, fromTau, makeTerm, tauArgs, tauKif, tauName, toTau } from '../engine/tau.js';
import type { NormalGame } from '../normalize/types.js';
import { semiNaive } from '../datalog/fixpoint.js';
import { type Component, type Phase, type Table, compileReasonerProgram, componentKey, predicate } from './prolog-program.js';
import { type GameState, type GroundItem, ITEM_TEXT, type ItemSimulator, type StateInfo, toItems } from './types.js';

/** Options of the reasoner. */
interface ReasonerOptions {
  /** The run's deadline (time and heap) for all its queries. */
  readonly deadline: Deadline;
}

/** Runs `fn`, turning the engine's time limit into a user-facing GdlError (exit code 3). */
function withinLimit<T>(file: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof EngineLimitError) {
      throw new GdlError([diag('error', file, NO_POS, `reasoner: ${err.message}`)], 'limit', { kind: err.reason });
    }
    throw err;
  }
}

/** All answers of `goal` for `vars`, as Tau terms. */
function rawAnswers(engine: PrologEngine, goal: string, vars: readonly string[]): TauTerm[][] {
  const out: TauTerm[][] = [];
  engine.solve(goal, vars, (values: TauTerm[]) => out.push(values));
  return out;
}

/** All answers of `goal` for `vars`, as GDL terms. */
function answers(engine: PrologEngine, goal: string, vars: readonly string[]): Term[][] {
  return rawAnswers(engine, goal, vars).map((values) => values.map(fromTau));
}

export const TRUE: Table = { name: 'gdl_true', arity: 1 };
export const DOES: Table = { name: 'gdl_does', arity: 2 };
export const DELTA: Table = { name: '$gdl_delta', arity: 2 };

/**
 * Fills the tables of recursive component `c` bottom-up, semi-naively, on the Datalog core's
 * round driver: the component is one "rule" whose round-0 query is `'$gdl_base'` and whose
 * delta query is `'$gdl_step'` (it reads the facts the previous round added, the delta);
 * duplicates are dropped here, by text, which is cheaper than a membership test in Prolog.
 */
export function saturateComponent(engine: PrologEngine, c: Component): void {
  const known = new Set<string>();
  for (const t of [...c.tables, DELTA]) engine.clearTable(t.name);
  const id = makeTerm(String(c.id), []);
  let found: TauTerm[][] = [];
  semiNaive<Component>({
    rules: [c],
    recursiveAtoms: () => ONLY_DELTA,
    fire: (_c, delta) => {
      found = rawAnswers(engine, `'$gdl_${delta < 0 ? 'base' : 'step'}'(${componentKey(c.id)},H)`, ['H']);
    },
    commit: () => {
      const fresh: TauTerm[] = [];
      for (const [h] of found) {
        const text = tauKif(h!).text;
        if (!known.has(text)) {
          known.add(text);
          fresh.push(h!);
        }
      }
      if (fresh.length === 0) return false;
      engine.clearTable(DELTA.name);
      for (const h of fresh) {
        engine.addToTable(tauName(h), tauArgs(h));
        engine.addToTable(DELTA.name, [id, h]);
      }
      return true;
    },
  });
}

/** The one delta "atom" of a component's step query. */
const ONLY_DELTA: readonly number[] = Object.freeze([0]);

/** Groups `(role, item)` answers by the role's text, in the order of `roles`. */
function byRole(roles: readonly GroundItem[], pairs: readonly Term[][]): Term[][] {
  const index = new Map(roles.map((r, i) => [r.text, i]));
  const out: Term[][] = roles.map(() => []);
  for (const [role, x] of pairs) {
    const i = index.get(termToString(role!));
    if (i !== undefined) out[i]!.push(x!);
  }
  return out;
}

/** The roles in the order of the description (duplicates dropped). */
function queryRoles(engine: PrologEngine): GroundItem[] {
  const roles: GroundItem[] = [];
  for (const [r] of answers(engine, `${predicate('role')}(R)`, ['R'])) {
    const text = termToString(r!);
    if (!roles.some((x) => x.text === text)) roles.push({ text, term: r! });
  }
  return roles;
}

/**
 * Creates a reasoner for `game` (validated, then normalized). Consulting the program and
 * saturating the static recursive relations happen here, once.
 */
export function createReasoner(game: NormalGame, options: ReasonerOptions): ItemSimulator {
  const program = compileReasonerProgram(game);
  const engine = createEngine({ deadline: options.deadline });
  const run = <T>(fn: () => T): T => withinLimit(game.file, fn);
  const saturate = (phase: Phase): void => {
    for (const c of program.components) if (c.phase === phase) saturateComponent(engine, c);
  };
  const roles = run(() => {
    engine.consult(program.text);
    // Tables replace the `dynamic` declarations of the program text for the same predicates.
    for (const t of [TRUE, DOES, DELTA, ...program.components.flatMap((c) => c.tables)]) engine.defineTable(t.name, t.arity);
    saturate('static');
    return queryRoles(engine);
  });

  // The engine holds one state at a time; `current` avoids reloading it for successor().
  let current: GameState | undefined;
  const setState = (state: GameState): void => {
    if (current === state) return;
    current = undefined;
    engine.clearTable(TRUE.name);
    engine.clearTable(DOES.name);
    for (const f of state) engine.addToTable(TRUE.name, [toTau(f.term)]);
    saturate('state');
    current = state;
  };

  const info = (state: GameState): StateInfo<GroundItem, string> =>
    run(() => {
      setState(state);
      const legal = byRole(roles, answers(engine, `${predicate('legal')}(R,M)`, ['R', 'M']));
      const goals = byRole(roles, answers(engine, `${predicate('goal')}(R,V)`, ['R', 'V']));
      const terminal = engine.solve(`once(${predicate('terminal')})`, [], () => undefined) > 0;
      return {
        legal: legal.map((ms) => toItems(ms, termToString)),
        terminal,
        goals: goals.map((vs) => toItems(vs, termToString).map((v) => v.text)),
      };
    });

  // Loads `state` and the joint move `moves` and saturates what depends on the move.
  const play = (state: GameState, moves: readonly GroundItem[]): void => {
    setState(state);
    engine.clearTable(DOES.name);
    moves.forEach((m, i) => engine.addToTable(DOES.name, [toTau(roles[i]!.term), toTau(m.term)]));
    saturate('move');
  };

  const successor = (state: GameState, moves: readonly GroundItem[]): GameState =>
    run(() => {
      play(state, moves);
      return toItems(answers(engine, `${predicate('next')}(F)`, ['F']).map(([f]) => f!), termToString);
    });

  const percepts = (state: GameState, moves: readonly GroundItem[]): string[][] =>
    run(() => {
      play(state, moves);
      const seen = byRole(roles, answers(engine, `${predicate('sees')}(R,P)`, ['R', 'P']));
      return seen.map((ps) => toItems(ps, termToString).map((p) => p.text));
    });

  const initialState = (): GameState =>
    run(() => toItems(answers(engine, `${predicate('init')}(F)`, ['F']).map(([f]) => f!), termToString));

  // Only a GDL-II game has percepts to compare (docs/gdl2.md); others skip the extra queries.
  const gdl2 = game.rules.some((r) => r.head.rel === SEES);
  return { roles: roles.map((r) => r.text), initialState, info, successor, ...(gdl2 ? { percepts } : {}), text: ITEM_TEXT };
}
