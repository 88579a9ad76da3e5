/**
 * The one module that talks to Tau-Prolog. It loads Prolog text and drives queries
 * synchronously: Tau-Prolog's own `answer` API hands every answer through `setTimeout`,
 * which costs about a millisecond each, so this module steps the machine itself. What an
 * engine offers (its interface and errors) is types.ts's; the callers import it from here.
 */
// tau-prolog ships CommonJS without types; only this module sees its shape. A default import
// is what both Node's ESM loader (module.exports) and a browser bundler (esbuild's CommonJS
// interop) give, so the core needs no createRequire from node:module. `#tau-prolog` is the
// package itself, or under Node lib/tau-prolog-node.cjs, which requires it (package.json
// "imports"): Node's scan of a CommonJS package imported from ESM cost 70-90 ms per process.
// @ts-expect-error tau-prolog has no type declarations
import tauProlog from '#tau-prolog';
import type { Term } from '../gdl/ast.js';
import { NO_POS } from '../gdl/ast.js';
import { foldTerm, foldTree } from '../gdl/fold.js';
import { ownPredicates } from './own.js';
import { callStates } from './call.js';
import type { TauTerm } from './term.js';
import { type EngineLimits, type EngineOptions, type PrologEngine, type TermText, EngineError, EngineLimitError } from './types.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const pl: any = tauProlog;

export type { TauTerm } from './term.js';
export type { ProjectionHistory } from './types.js';
export { EngineError, EngineLimitError, type PrologEngine } from './types.js';

/** Converts a ground Tau term to a GDL term (iteratively: terms may be deep). */
export function fromTau(root: TauTerm): Term {
  const constant = (name: string): Term => ({ kind: 'const', name, pos: NO_POS });
  // Most arguments are constants, and most fluents and moves one function term of constants
  // (`(cell 1 2 b)`): no fold for those.
  const name = constantName(root);
  if (name !== undefined) return constant(name);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const r = root as any;
  if (pl.type.is_term(r) && r.args.every((a: TauTerm) => constantName(a) !== undefined)) {
    return { kind: 'fn', name: r.id, args: r.args.map((a: TauTerm): Term => constant(constantName(a)!)), pos: NO_POS };
  }
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return foldTree<any, Term>(root, (t) => (pl.type.is_number(t) || pl.type.is_variable(t) ? null : t.args), (t, args) => {
    if (pl.type.is_number(t)) return constant(String(t.value));
    if (pl.type.is_variable(t)) throw new EngineError(`answer is not ground (variable ${t.id})`);
    return args.length === 0 ? constant(t.id) : { kind: 'fn', name: t.id, args, pos: NO_POS };
  });
}

/**
 * The name of a Tau atom (a term without arguments); undefined for anything else. Of Tau's
 * term kinds only Term has `args` (Var and Num have none): testing that is cheaper than
 * `instanceof`, and this runs for every argument a table indexes or an answer records.
 */
function constantName(t: TauTerm): string | undefined {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const args = (t as any).args;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return args !== undefined && args.length === 0 ? ((t as any).id as string) : undefined;
}

/** Builds the Tau term `functor(args...)` (an atom when `args` is empty). */
export function makeTerm(functor: string, args: readonly TauTerm[]): TauTerm {
  return new pl.type.Term(functor, [...args]) as TauTerm;
}

/** Builds the Tau variable `name` (for clauses made with {@link PrologEngine.addClause}). */
export function makeVar(name: string): TauTerm {
  return new pl.type.Var(name) as TauTerm;
}

/** Converts a ground GDL term to a Tau term (iteratively). */
export function toTau(root: Term): TauTerm {
  return foldTerm<TauTerm>(root, (t, args) => {
    if (t.kind === 'var') throw new EngineError(`toTau: variable ${t.name} in a ground term`);
    return makeTerm(t.name, args);
  });
}

/** Creates a fresh engine. */
export function createEngine(limits: EngineLimits, options: EngineOptions = {}): PrologEngine {
  const directSteps = options.directSteps ?? true;
  // A huge step limit: we enforce our own budget and deadline while stepping.
  const session = pl.create(Number.MAX_SAFE_INTEGER);
  const thread = session.thread;
  let stepCount = 0;

  function consult(text: string): void {
    let failure: unknown = null;
    // file/url/script off: otherwise Tau-Prolog would try to read `text` as a path, asynchronously.
    thread.consult(text, {
      file: false, url: false, script: false, html: false,
      success: () => undefined,
      error: (e: unknown) => { failure = e; },
    });
    if (failure !== null) throw new EngineError(`Prolog consult failed: ${formatTau(failure)}`);
    if (thread.warnings?.length) throw new EngineError(`Prolog consult warning: ${thread.warnings.map(formatTau).join('; ')}`);
  }

  function solve(goal: string, vars: readonly string[], onAnswer: (values: TauTerm[]) => void): number {
    let failure: unknown = null;
    thread.query(`${goal}.`, { success: () => undefined, error: (e: unknown) => { failure = e; } });
    if (failure !== null) throw new EngineError(`Prolog query '${goal}' failed to parse: ${formatTau(failure)}`);
    return drive(goal, vars, onAnswer);
  }

  function solveCall(name: string, arity: number, onAnswer: (values: TauTerm[]) => void): number {
    // The goal is built as a term: parsing query text costs more than answering small queries.
    const vars = Array.from({ length: arity }, (_, i) => `X${i}`);
    // The clause entered at once (src/engine/call.ts), or the call for Tau-Prolog to resolve.
    const entered = directSteps ? calls.enter(name, vars) : undefined;
    reset(entered ?? calls.call(name, vars));
    return drive(name, vars, onAnswer, entered);
  }

  /** Empties the machine and makes `state` its only choice point (what thread.add_goal does). */
  function reset(state: unknown): void {
    thread.points = [state];
    thread.debugger_states = [];
    thread.level = new pl.type.Term('top_level');
  }

  /**
   * Steps the machine through every answer of the goal just added. With direct steps, the
   * engine's own predicates hand most answers straight to `onAnswer` (own.ts, `AnswerSink`);
   * the rest are the states with an empty goal that the loop pops.
   */
  function drive(goal: string, vars: readonly string[], onAnswer: (values: TauTerm[]) => void, entered?: unknown): number {
    let count = 0;
    if (!directSteps) return stepAll(goal, vars, onAnswer);
    // Counted like a step: a long enumeration of one call reads the clock too.
    const tick = (): void => {
      if (limits.deadline.tick()) stopAtLimit(goal);
    };
    own.setSink((values) => {
      tick();
      count++;
      onAnswer(values as TauTerm[]);
    }, vars, tick);
    try {
      // A body of the engine's own goals is walked at once, without states (own.ts `solveEntered`).
      if (entered !== undefined && own.solveEntered(entered)) {
        thread.points = [];
        return count;
      }
      const popped = stepAll(goal, vars, onAnswer);
      return popped + count;
    } finally {
      own.setSink(null);
    }
  }

  /** Throws the limit error of the run's deadline, the machine emptied. */
  function stopAtLimit(goal: string): never {
    thread.points = [];
    throw new EngineLimitError(`${limits.deadline.describe()} in query '${goal}'`, limits.deadline.exceeded() ?? 'time');
  }

  /** The driver's loop: steps until no state is left, each state with an empty goal an answer. */
  function stepAll(goal: string, vars: readonly string[], onAnswer: (values: TauTerm[]) => void): number {
    let count = 0;
    for (;;) {
      // The head state is read afresh each step: Tau-Prolog's cut replaces thread.points.
      let point = thread.points[thread.points.length - 1];
      while (point !== undefined && point.goal !== null && point.error !== true) {
        if (!directSteps || !stepDirect(point)) {
          if (thread.step() === true) throw new EngineError(`query '${goal}' tried an asynchronous predicate`);
        }
        ++stepCount;
        if (limits.deadline.tick()) stopAtLimit(goal);
        point = thread.points[thread.points.length - 1];
      }
      if (point === undefined) return count;
      thread.points.pop();
      if (pl.type.is_error(point.goal)) {
        thread.points = [];
        throw new EngineError(`Prolog error in '${goal}': ${formatTau(point.goal.args[0])}`);
      }
      count++;
      onAnswer(vars.map((v) => point.substitution.lookup(v) as TauTerm));
    }
  }

  /**
   * Steps the head state directly when its goal calls one of this module's own predicates
   * (tables, `\\==`, resumptions): Tau-Prolog's generic step would first walk the ancestors
   * for the calling context and resolve modules, which these never need. Such a call does
   * exactly what `thread.step()` would: pop the state, push what the predicate pushes, with
   * the state as parent.
   */
  function stepDirect(point: { goal: { id: unknown; args: unknown[] } }): boolean {
    // The selected goal: the leftmost literal of the conjunction (what Term.select does).
    let atom = point.goal;
    while (atom.id === ',' && atom.args.length === 2) atom = atom.args[0] as typeof atom;
    const handler = typeof atom.id === 'string' ? direct.get(atom.id) : undefined;
    if (handler === undefined) return false;
    thread.points.pop();
    handler(thread, point, atom);
    return true;
  }

  function addFacts(facts: readonly TauTerm[]): void {
    for (const f of facts) thread.add_rule(new pl.type.Rule(f, null), { from: '$gdl', context_module: 'user' });
  }

  // Texts of ground terms, cached: fact arguments are shared objects, bound into answers and
  // looked up again and again by the tables' indexes. (Answers are not made texts: the fact
  // store keys them by term ids, src/reach/store.ts.)
  const texts = new WeakMap<object, TermText>();
  function kif(t: TauTerm): TermText {
    // Most arguments are constants, their own text: no cache needed.
    const name = constantName(t);
    if (name !== undefined) return { text: name, depth: 1 };
    const hit = texts.get(t);
    if (hit !== undefined) return hit;
    const computed = flatKif(t) ?? tauKif(t);
    texts.set(t, computed);
    return computed;
  }
  const own = ownPredicates(pl, session.modules.user, (t) => constantName(t) ?? kif(t).text);
  const direct = own.direct;
  const calls = callStates(pl, session.modules.user);

  function addClause(head: TauTerm, body: TauTerm): void {
    thread.add_rule(calls.made(new pl.type.Rule(head, body)), { from: '$gdl', context_module: 'user' });
  }

  const { defineTable, addToTable, tableSize, tableData, clearTable, probe, defineProjection } = own;
  return { consult, solve, solveCall, addClause, addFacts, steps: () => stepCount, defineTable, addToTable, tableSize, tableData, clearTable, probe, defineProjection, kif };
}

/** Name (functor) of a ground Tau term; numbers give their text. */
export function tauName(t: TauTerm): string {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const x = t as any;
  return pl.type.is_number(x) ? String(x.value) : (x.id as string);
}

/**
 * The name of a ground Tau term without arguments (an atom; a number gives its text), or
 * undefined for a compound term. Throws {@link EngineError} on a variable: an answer that is
 * not ground (a rule the relaxation left unsafe).
 */
export function tauConstant(t: TauTerm): string | undefined {
  const name = constantName(t);
  if (name !== undefined) return name;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const x = t as any;
  if (pl.type.is_number(x)) return String(x.value);
  if (pl.type.is_variable(x)) throw new EngineError(`answer is not ground (variable ${x.id})`);
  return undefined;
}

/** Arguments of a Tau term (empty for atoms, numbers and variables). */
export function tauArgs(t: TauTerm): readonly TauTerm[] {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const x = t as any;
  return pl.type.is_term(x) ? (x.args as TauTerm[]) : [];
}

/**
 * KIF text of a function term of constants, `(cell 1 2 b)`, by concatenation (most fluents and
 * moves are such terms); undefined for any other term, which {@link tauKif} walks.
 */
function flatKif(t: TauTerm): TermText | undefined {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const args = (t as any).args as TauTerm[] | undefined;
  if (args === undefined) return undefined;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let text = `(${(t as any).id as string}`;
  for (const a of args) {
    const name = constantName(a);
    if (name === undefined) return undefined;
    text += ` ${name}`;
  }
  return { text: `${text})`, depth: 2 };
}

/**
 * KIF text of a ground Tau term (`(cell 1 2 b)`) and its depth, iteratively. Throws
 * {@link EngineError} on a variable. Stops with depth > `maxDepth` (text then partial), so a
 * runaway term costs no more than `maxDepth` levels.
 */
export function tauKif(root: TauTerm, maxDepth: number = Infinity): TermText {
  const name = constantName(root);
  if (name !== undefined) return { text: name, depth: 1 };
  const out: string[] = [];
  let depth = 0;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const stack: (any | string)[] = [root];
  const depths: number[] = [1];
  while (stack.length > 0) {
    const item = stack.pop();
    const d = depths.pop()!;
    if (typeof item === 'string') {
      out.push(item);
      continue;
    }
    if (d > depth) {
      depth = d;
      if (depth > maxDepth) return { text: out.join(''), depth };
    }
    if (pl.type.is_number(item)) out.push(String(item.value));
    else if (pl.type.is_variable(item)) throw new EngineError(`answer is not ground (variable ${item.id})`);
    else if (item.args.length === 0) out.push(item.id);
    else {
      out.push('(', item.id);
      stack.push(')');
      depths.push(d);
      for (let i = item.args.length - 1; i >= 0; i--) {
        stack.push(item.args[i], ' ');
        depths.push(d + 1, d);
      }
    }
  }
  return { text: out.join(''), depth };
}

function formatTau(x: unknown): string {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const t = x as any;
  if (t && typeof t.toString === 'function') return t.toString();
  return String(x);
}
