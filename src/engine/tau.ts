/**
 * The one module that talks to Tau-Prolog. It loads Prolog text and drives queries
 * synchronously: Tau-Prolog's own `answer` API hands every answer through `setTimeout`,
 * which costs about a millisecond each, so this module steps the machine itself.
 */
import { createRequire } from 'node:module';
import type { Term } from '../gdl/ast.js';
import { NO_POS } from '../gdl/ast.js';

const require = createRequire(import.meta.url);
// tau-prolog ships CommonJS without types; only this module sees its shape.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const pl: any = require('tau-prolog');

/** A term as Tau-Prolog represents it (opaque outside this module). */
export type TauTerm = { readonly __tau: unique symbol };

/** Raised when a query exceeds its step budget or deadline. */
export class EngineLimitError extends Error {
  constructor(message: string, readonly reason: 'steps' | 'time') {
    super(message);
    this.name = 'EngineLimitError';
  }
}

/** Raised when Tau-Prolog rejects program text or a query throws a Prolog error. */
export class EngineError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EngineError';
  }
}

/** Limits on one engine; checked while stepping. */
export interface EngineLimits {
  /** Wall-clock deadline (ms since epoch); Infinity for none. */
  readonly deadline: number;
}

/** A Tau-Prolog session with synchronous consult and query. */
export interface PrologEngine {
  /** Loads program text; throws {@link EngineError} on a syntax error. */
  consult(text: string): void;
  /**
   * Runs `goal` (Prolog text without the final `.`) and calls `onAnswer` with the values of
   * `vars` for each answer, in Tau-Prolog's order. Returns the number of answers.
   */
  solve(goal: string, vars: readonly string[], onAnswer: (values: TauTerm[]) => void): number;
  /** Adds ground facts given as Tau terms (from {@link PrologEngine.solve} or {@link makeTerm}). */
  addFacts(facts: readonly TauTerm[]): void;
  /** Number of resolution steps taken so far. */
  steps(): number;
}

/** Quotes a GDL symbol as a Prolog atom, so `1`, `+` and `A` all stay plain constants. */
export function quoteAtom(name: string): string {
  return `'${name.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** Converts a ground Tau term to a GDL term (iteratively: terms may be deep). */
export function fromTau(root: TauTerm): Term {
  const done: Term[] = [];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const stack: { t: any; expanded: boolean }[] = [{ t: root, expanded: false }];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    const t = frame.t;
    if (pl.type.is_number(t)) {
      stack.pop();
      done.push({ kind: 'const', name: String(t.value), pos: NO_POS });
    } else if (pl.type.is_variable(t)) {
      throw new EngineError(`answer is not ground (variable ${t.id})`);
    } else if (t.args.length === 0) {
      stack.pop();
      done.push({ kind: 'const', name: t.id, pos: NO_POS });
    } else if (!frame.expanded) {
      frame.expanded = true;
      for (let i = t.args.length - 1; i >= 0; i--) stack.push({ t: t.args[i], expanded: false });
    } else {
      stack.pop();
      const args = done.splice(done.length - t.args.length, t.args.length);
      done.push({ kind: 'fn', name: t.id, args, pos: NO_POS });
    }
  }
  return done[0]!;
}

/** Builds the Tau term `functor(args...)` (an atom when `args` is empty). */
export function makeTerm(functor: string, args: readonly TauTerm[]): TauTerm {
  return new pl.type.Term(functor, [...args]) as TauTerm;
}

/** Converts a ground GDL term to a Tau term (iteratively). */
export function toTau(root: Term): TauTerm {
  const done: TauTerm[] = [];
  const stack: { t: Term; expanded: boolean }[] = [{ t: root, expanded: false }];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    const t = frame.t;
    if (t.kind === 'var') throw new EngineError(`toTau: variable ${t.name} in a ground term`);
    if (t.kind === 'const') {
      stack.pop();
      done.push(makeTerm(t.name, []));
    } else if (!frame.expanded) {
      frame.expanded = true;
      for (let i = t.args.length - 1; i >= 0; i--) stack.push({ t: t.args[i]!, expanded: false });
    } else {
      stack.pop();
      done.push(makeTerm(t.name, done.splice(done.length - t.args.length, t.args.length)));
    }
  }
  return done[0]!;
}

/** How often (in steps) the deadline is looked at; Date.now() per step would cost too much. */
const DEADLINE_CHECK_EVERY = 4096;

/** Creates a fresh engine. */
export function createEngine(limits: EngineLimits = { deadline: Infinity }): PrologEngine {
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
    let count = 0;
    for (;;) {
      while (thread.points.length > 0 && thread.head_point().goal !== null && !pl.type.is_error_state(thread.head_point())) {
        if (thread.step() === true) throw new EngineError(`query '${goal}' tried an asynchronous predicate`);
        if (++stepCount % DEADLINE_CHECK_EVERY === 0 && Date.now() > limits.deadline) {
          thread.points = [];
          throw new EngineLimitError(`time limit reached in query '${goal}'`, 'time');
        }
      }
      if (thread.points.length === 0) return count;
      const point = thread.points.pop();
      if (pl.type.is_error(point.goal)) {
        thread.points = [];
        throw new EngineError(`Prolog error in '${goal}': ${formatTau(point.goal.args[0])}`);
      }
      count++;
      onAnswer(vars.map((v) => point.substitution.lookup(v) as TauTerm));
    }
  }

  function addFacts(facts: readonly TauTerm[]): void {
    for (const f of facts) thread.add_rule(new pl.type.Rule(f, null), { from: '$gdl', context_module: 'user' });
  }

  return { consult, solve, addFacts, steps: () => stepCount };
}

function formatTau(x: unknown): string {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const t = x as any;
  if (t && typeof t.toString === 'function') return t.toString();
  return String(x);
}
