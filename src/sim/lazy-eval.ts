/**
 * The term-table evaluator of a ground game's lazy part (docs/lazy.md): the non-ground rules
 * run top-down on the game's own term ids (src/datalog), `true` from the state, `does` from
 * the joint move, static facts indexed by their bound arguments. Every call (relation and
 * bound arguments) is tabled for the state (or, reading `does`, for the joint move): its
 * answers are computed once, all of them, or the first one only when the call is ground.
 * Negation is evaluated fully (the atom is ground by safety; the program is stratified).
 *
 * Recursion through a call still being evaluated (a cyclic call graph, e.g. connectivity on a
 * board with cycles) is not handled here: it throws {@link LazyUnsupported}, and lazy-hybrid.ts
 * then hands the game to the Tau-Prolog evaluator. Chess's recursion runs along the board, each
 * call with other arguments, so it terminates and never meets itself.
 */
import { Deadline } from '../deadline.js';
import { NO_POS } from '../gdl/ast.js';
import { deadlineError } from '../gdl/diagnostics.js';
import { type Pattern, UNBOUND, instantiatePattern, matchPattern } from '../datalog/pattern.js';
import { TermTable } from '../datalog/terms.js';
import type { GroundGame } from '../ground/types.js';
import type { LazyEvaluator } from './lazy.js';
import { type LazyLiteral, type LazyProgram, type LazyRule, compileLazyProgram, relKey } from './lazy-program.js';

/** The program needs what this evaluator does not do (recursion meeting itself, no term table). */
export class LazyUnsupported extends Error {}

/** Calls nested deeper than this are taken for unbounded recursion. */
const MAX_DEPTH = 2000;

type Pos = Extract<LazyLiteral, { kind: 'pos' | 'neg' }>;

/** The answers of one call: argument tuples, flat (`arity` ids each), each once. */
interface Answers {
  readonly tuples: number[];
  readonly seen: Set<string>;
  done: boolean;
}

/** Static facts of one relation, indexed on demand by the set of bound argument positions. */
interface FactIndex {
  readonly all: readonly number[];
  readonly set: ReadonlySet<number>;
  readonly byMask: Map<number, Map<string, number[]>>;
}

function factIndex(all: readonly number[]): FactIndex {
  return { all, set: new Set(all), byMask: new Map() };
}

/** The facts of `index` whose arguments at the positions of `mask` are `key` (values joined). */
function factsMatching(index: FactIndex, table: TermTable, mask: number, key: string, arity: number): readonly number[] {
  let byKey = index.byMask.get(mask);
  if (byKey === undefined) {
    byKey = new Map();
    for (const f of index.all) {
      const parts: number[] = [];
      for (let i = 0; i < arity; i++) if ((mask >>> i) & 1) parts.push(table.arg(f, i));
      const k = parts.join(',');
      const list = byKey.get(k);
      if (list === undefined) byKey.set(k, [f]);
      else list.push(f);
    }
    index.byMask.set(mask, byKey);
  }
  return byKey.get(key) ?? [];
}

/** Counters of the evaluator's work, for stats. */
export interface TermEvaluatorStats {
  calls: number;
}

/** The evaluator, for the ground simulators; `stats` counts its calls. */
export type TermEvaluator = LazyEvaluator & { readonly stats: TermEvaluatorStats };

/** Creates the term-table evaluator of `game.lazy`; throws {@link LazyUnsupported} when the game's table cannot take new terms. */
export function createTermEvaluator(game: GroundGame, deadline = Deadline.never()): TermEvaluator {
  if (!(game.terms instanceof TermTable)) throw new LazyUnsupported('the game has no term table to evaluate on');
  const table = game.terms;
  const program: LazyProgram = compileLazyProgram(game, table);
  const facts = new Map([...program.facts].map(([k, ids]) => [k, factIndex(ids)]));
  const stats: TermEvaluatorStats = { calls: 0 };
  let fluents: readonly number[] = [];
  let fluentSet = new Set<number>();
  let moves: readonly (readonly [number, number])[] = [];
  let stateMemo = new Map<string, Answers>();
  let moveMemo = new Map<string, Answers>();
  let depth = 0;

  /** The id of `p` under `b`, or UNBOUND when one of its variables is unbound. */
  const valueOf = (p: Pattern, vars: readonly number[], b: Int32Array): number => {
    for (const v of vars) if (b[v] === UNBOUND) return UNBOUND;
    return instantiatePattern(p, b, table, true);
  };
  const unbind = (vars: readonly number[], b: Int32Array, was: number): void => {
    // `was`: bit i set when vars[i] was bound before the literal matched.
    for (let i = 0; i < vars.length; i++) if (((was >>> i) & 1) === 0) b[vars[i]!] = UNBOUND;
  };
  const boundMask = (vars: readonly number[], b: Int32Array): number => {
    let m = 0;
    for (let i = 0; i < vars.length; i++) if (b[vars[i]!] !== UNBOUND) m |= 1 << i;
    return m;
  };

  /**
   * call(R, args): the answers of R with the given arguments bound (UNBOUND elsewhere):
   *   R(t) <= B  for each rule of R whose head matches args, B solved left to right.
   */
  const call = (rel: string, args: readonly number[]): Answers => {
    const memo = program.onDoes.has(rel) ? moveMemo : stateMemo;
    const key = `${rel}|${args.join(',')}`;
    const known = memo.get(key);
    if (known !== undefined) {
      if (!known.done) throw new LazyUnsupported(`recursion through ${rel} meets itself`);
      return known;
    }
    if (++depth > MAX_DEPTH) throw new LazyUnsupported(`calls nested deeper than ${MAX_DEPTH}`);
    if (deadline.tick()) throw deadlineError(deadline, game.file, NO_POS, 'evaluating lazy axioms');
    stats.calls++;
    const out: Answers = { tuples: [], seen: new Set(), done: false };
    memo.set(key, out);
    const once = !args.includes(UNBOUND);
    for (const rule of program.rules.get(rel) ?? []) if (runRule(rule, args, out, once) && once) break;
    out.done = true;
    depth--;
    return out;
  };

  /** Solves one rule for a call; true when an answer was found and `once` stops the search. */
  const runRule = (rule: LazyRule, args: readonly number[], out: Answers, once: boolean): boolean => {
    const b = new Int32Array(rule.vars).fill(UNBOUND);
    for (let i = 0; i < args.length; i++) if (args[i] !== UNBOUND && !matchPattern(rule.head[i]!, args[i]!, table, b)) return false;
    return body(rule.body, 0, b, () => {
      const tuple = rule.head.map((p) => instantiatePattern(p, b, table, true));
      const k = tuple.join(',');
      if (!out.seen.has(k)) out.seen.add(k), out.tuples.push(...tuple);
      return once;
    });
  };

  /** Matches the argument patterns of `lit` against `arity` ids from `get`, then goes on; resets what it bound. */
  const matchArgs = (lit: Pos, get: (i: number) => number, b: Int32Array, next: () => boolean): boolean => {
    const was = boundMask(lit.vars, b);
    let ok = true;
    for (let i = 0; ok && i < lit.args.length; i++) ok = matchPattern(lit.args[i]!, get(i), table, b);
    const stop = ok && next();
    unbind(lit.vars, b, was);
    return stop;
  };

  /** Whether the ground atom of `lit` under `b` holds. */
  const holdsLit = (lit: Pos, b: Int32Array): boolean => {
    const args = lit.args.map((p, i) => valueOf(p, lit.argVars[i]!, b));
    return holdsArgs(lit.rel, args);
  };

  const holdsArgs = (rel: string, args: readonly number[]): boolean => {
    if (rel === 'true/1') return fluentSet.has(args[0]!);
    if (rel === 'does/2') return moves.some(([r, a]) => r === args[0] && a === args[1]);
    const index = facts.get(rel);
    if (index !== undefined) {
      const sym = table.findSymbol(rel.slice(0, rel.lastIndexOf('/')));
      const id = sym < 0 ? -1 : table.find(sym, args);
      if (id >= 0 && index.set.has(id)) return true;
    }
    return program.rules.has(rel) && call(rel, args).tuples.length > 0;
  };

  /** Solves `lits[i..]` under `b`, calling `emit` per solution; true when `emit` asked to stop. */
  const body = (lits: readonly LazyLiteral[], i: number, b: Int32Array, emit: () => boolean): boolean => {
    if (i === lits.length) return emit();
    const lit = lits[i]!;
    const next = (): boolean => body(lits, i + 1, b, emit);
    if (lit.kind === 'distinct') {
      const l = instantiatePattern(lit.left, b, table, true);
      return l !== instantiatePattern(lit.right, b, table, true) && next();
    }
    if (lit.kind === 'neg') return !holdsLit(lit, b) && next();
    return positive(lit, b, next);
  };

  /** The answers of a positive literal under `b`, each followed by `next`. */
  const positive = (lit: Pos, b: Int32Array, next: () => boolean): boolean => {
    if (lit.rel === 'true/1') {
      for (const f of fluents) if (matchArgs(lit, () => f, b, next)) return true;
      return false;
    }
    if (lit.rel === 'does/2') {
      for (const m of moves) if (matchArgs(lit, (i) => m[i]!, b, next)) return true;
      return false;
    }
    const args = lit.args.map((p, i) => valueOf(p, lit.argVars[i]!, b));
    const index = facts.get(lit.rel);
    if (index !== undefined) {
      let mask = 0;
      args.forEach((a, i) => (mask |= a === UNBOUND ? 0 : 1 << i));
      const key = args.filter((a) => a !== UNBOUND).join(',');
      for (const f of factsMatching(index, table, mask, key, args.length)) if (matchArgs(lit, (i) => table.arg(f, i), b, next)) return true;
    }
    if (!program.rules.has(lit.rel)) return false;
    const answers = call(lit.rel, args);
    const n = args.length;
    const tuples = answers.tuples;
    for (let t = 0; t < tuples.length; t += n) if (matchArgs(lit, (i) => tuples[t + i]!, b, next)) return true;
    return false;
  };

  const known = (id: number): number => {
    if (id < 0) throw new Error('lazy axioms: a lazy rule made an atom outside the ground game');
    return id;
  };
  const headIds = (rel: 'next' | 'legal' | 'goal' | 'terminal'): number[] => {
    const arity = { next: 1, legal: 2, goal: 2, terminal: 0 }[rel];
    const sym = table.findSymbol(rel);
    const answers = call(relKey(rel, arity), new Array<number>(arity).fill(UNBOUND));
    if (arity === 0) return answers.seen.size > 0 ? [known(sym < 0 ? -1 : table.find(sym, []))] : [];
    const out: number[] = [];
    for (let t = 0; t < answers.tuples.length; t += arity) out.push(known(sym < 0 ? -1 : table.find(sym, answers.tuples.slice(t, t + arity))));
    return out;
  };

  return {
    stats,
    setState: (state) => {
      fluents = state;
      fluentSet = new Set(state);
      moves = [];
      stateMemo = new Map();
      moveMemo = new Map();
    },
    setMoves: (joint) => {
      moves = joint;
      moveMemo = new Map();
    },
    holds: (atom) => holdsArgs(relKey(table.name(atom), table.arity(atom)), table.args(atom)),
    heads: headIds,
  };
}
