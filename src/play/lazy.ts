/**
 * The evaluator of a ground game's lazy part (docs/lazy.md) for the ground simulator: the
 * non-ground rules and their static facts run on Tau-Prolog exactly as the reasoner runs a
 * game (src/play/prolog-program.ts: top-down, recursive components saturated bottom-up per
 * state or joint move), over the state and joint move the simulator gives. Lazy atoms are
 * asked one at a time, only when a ground rule's other literals hold (demand), and remembered
 * until the state or the joint move changes.
 */
import type { OutputKeyword } from '../gdl/keywords.js';
import { Deadline } from '../deadline.js';
import type { Atom, Term } from '../gdl/ast.js';
import { NO_POS } from '../gdl/ast.js';
import { GdlError, diag } from '../gdl/diagnostics.js';
import { EngineLimitError, createEngine, fromTau, toTau } from '../engine/tau.js';
import type { GroundGame, LazyPart } from '../ground/types.js';
import type { NormalGame, NormalRule } from '../normalize/types.js';
import { compileReasonerProgram, predicate, termText } from './prolog-program.js';
import { DELTA, DOES, TRUE, saturateComponent } from './reasoner.js';

/** What the ground simulator asks of the lazy part. */
export interface LazyEvaluator {
  /** Sets the state (term ids of its fluents); forgets everything asked before. */
  setState(fluents: readonly number[]): void;
  /** Sets the joint move (term ids of `(role, action)` pairs) in the current state. */
  setMoves(moves: readonly (readonly [role: number, action: number])[]): void;
  /** Whether the ground lazy atom with term id `atom` holds now. */
  holds(atom: number): boolean;
  /** Term ids of the atoms of keyword relation `rel` (`next`, `legal`, `goal`, `terminal`) that lazy rules make now. */
  heads(rel: OutputKeyword): number[];
}

function atomOf(term: Term): Atom {
  return term.kind === 'fn' ? { kind: 'atom', rel: term.name, args: term.args, pos: NO_POS } : { kind: 'atom', rel: term.name, args: [], pos: NO_POS };
}

/** The lazy part as a game the reasoner's compiler reads: its rules and its static facts. */
function lazyGame(game: GroundGame, lazy: LazyPart): NormalGame {
  const facts: NormalRule[] = lazy.facts.map((t) => ({ head: atomOf(game.terms.toTerm(t)), body: [], pos: NO_POS }));
  return { file: game.file, rules: [...lazy.rules, ...facts] };
}

/** Runs `fn`, turning the engine's limits into a limit error of the game. */
function withinLimit<T>(file: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof EngineLimitError) throw new GdlError([diag('error', file, NO_POS, `lazy axioms: ${err.message}`)], 'limit', { kind: err.reason });
    throw err;
  }
}

/** Creates the evaluator of `game.lazy` (which must be present); consults its program once. */
export function createLazyEvaluator(game: GroundGame, deadline: Deadline): LazyEvaluator {
  const program = compileReasonerProgram(lazyGame(game, game.lazy!));
  const engine = createEngine({ deadline });
  const { terms } = game;
  const run = <T>(fn: () => T): T => withinLimit(game.file, fn);
  run(() => {
    engine.consult(program.text);
    for (const t of [TRUE, DOES, DELTA, ...program.components.flatMap((c) => c.tables)]) engine.defineTable(t.name, t.arity);
    for (const c of program.components) if (c.phase === 'static') saturateComponent(engine, c);
  });
  let memo = new Map<number, boolean>();
  const saturate = (phase: 'state' | 'move'): void => {
    for (const c of program.components) if (c.phase === phase) saturateComponent(engine, c);
  };
  const goalText = (atom: number): string => {
    const args = terms.args(atom).map((a) => termText(terms.toTerm(a), new Map()));
    return args.length === 0 ? predicate(terms.name(atom)) : `${predicate(terms.name(atom))}(${args.join(',')})`;
  };
  const known = (id: number): number => {
    if (id < 0) throw new Error('lazy axioms: a lazy rule made an atom outside the ground game');
    return id;
  };
  return {
    setState: (fluents) => run(() => {
      memo = new Map();
      engine.clearTable(TRUE.name);
      engine.clearTable(DOES.name);
      for (const f of fluents) engine.addToTable(TRUE.name, [toTau(terms.toTerm(f))]);
      saturate('state');
    }),
    setMoves: (moves) => run(() => {
      memo = new Map();
      engine.clearTable(DOES.name);
      for (const [r, a] of moves) engine.addToTable(DOES.name, [toTau(terms.toTerm(r)), toTau(terms.toTerm(a))]);
      saturate('move');
    }),
    holds: (atom) => {
      const old = memo.get(atom);
      if (old !== undefined) return old;
      const value = run(() => engine.solve(`once(${goalText(atom)})`, [], () => undefined) > 0);
      memo.set(atom, value);
      return value;
    },
    heads: (rel) => run(() => {
      const sym = terms.findSymbol(rel);
      const arity = { next: 1, legal: 2, goal: 2, terminal: 0, sees: 2 }[rel];
      if (arity === 0) return engine.solve(`once(${predicate(rel)})`, [], () => undefined) > 0 ? [known(terms.find(sym, []))] : [];
      const out: number[] = [];
      engine.solveCall(`gdl_${rel}`, arity, (values) => {
        out.push(known(terms.find(sym, values.map((v) => known(terms.findTerm(fromTau(v)))))));
      });
      return out;
    }),
  };
}
