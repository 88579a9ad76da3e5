/**
 * The term-table evaluator of a ground game's lazy part (docs/lazy.md): the non-ground rules
 * run top-down on the game's own term ids (src/datalog), `true` from the state, `does` from
 * the joint move, static facts indexed by their bound arguments. Every call (relation and
 * bound arguments) is tabled for the state (or, reading `does`, for the joint move): its
 * answers are computed once, all of them, or the first one only when the call is ground.
 * Negation is evaluated fully (the atom is ground by safety; the program is stratified).
 *
 * A call that meets itself while still being evaluated (left recursion, connectivity over a
 * cyclic graph, alexChess's `nextPieceN`) gets the answers found so far, and the outermost
 * in-progress call of the cycle, its leader, runs its rules again until a whole pass finds no new
 * answer (the least fixpoint; negation only reads completed calls, the program being
 * stratified); calls completed inside the cycle are not final before their leader is
 * (lazy-scc.ts).
 */
import type { OutputKeyword } from '../gdl/keywords.js';
import { Deadline } from '../deadline.js';
import { NO_POS } from '../gdl/ast.js';
import { deadlineError } from '../gdl/diagnostics.js';
import { type Pattern, UNBOUND, instantiatePattern, matchPattern } from '../datalog/pattern.js';
import type { TermWriter } from '../datalog/terms.js';
import { overlayTerms } from './lazy-terms.js';
import type { GroundGame } from '../ground/types.js';
import type { LazyEvaluator } from './lazy.js';
import { type Answers, type Completion, createCompletion } from './lazy-scc.js';
import { type LazyLiteral, type LazyProgram, type LazyRule, compileLazyProgram, relKey } from './lazy-program.js';

/** The program needs what this evaluator does not do (calls nested too deep, negation through an unfinished call). */
export class LazyUnsupported extends Error {}

/**
 * Calls nested deeper than this are handed to Tau-Prolog: the evaluator recurses in JavaScript
 * (a few frames per body literal), so its depth must stay far from the engine's stack limit.
 * Chess nests about 10 deep (a line along the board).
 */
const MAX_DEPTH = 100;

type Pos = Extract<LazyLiteral, { kind: 'pos' | 'neg' }>;

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
function factsMatching(index: FactIndex, table: TermWriter, mask: number, key: string, arity: number): readonly number[] {
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
interface TermEvaluatorStats {
  calls: number;
}

/** The evaluator, for the ground simulators; `stats` counts its calls. */
type TermEvaluator = LazyEvaluator & { readonly stats: TermEvaluatorStats };

/**
 * Creates the term-table evaluator of `game.lazy`. The terms it makes go to a table of its own,
 * an overlay over the game's read-only one (lazy-terms.ts): the ground game is never changed.
 */
export function createTermEvaluator(game: GroundGame, deadline: Deadline): TermEvaluator {
  const table = overlayTerms(game.terms);
  const program: LazyProgram = compileLazyProgram(game, table);
  const facts = new Map([...program.facts].map(([k, ids]) => [k, factIndex(ids)]));
  const stats: TermEvaluatorStats = { calls: 0 };
  let fluents: readonly number[] = [];
  let fluentSet = new Set<number>();
  // Per state: fluent lists by functor and bound arguments (fluentsFor).
  let fluentIndex = new Map<string, readonly number[]>();
  let moves: readonly (readonly [number, number])[] = [];
  let stateMemo = new Map<string, Answers>();
  let moveMemo = new Map<string, Answers>();
  let depth = 0;
  let scc: Completion = createCompletion();

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
    if (known !== undefined && scc.reuse(known)) return known;
    if (++depth > MAX_DEPTH) throw new LazyUnsupported(`calls nested deeper than ${MAX_DEPTH}`);
    if (deadline.tick()) throw deadlineError(deadline, game.file, NO_POS, 'evaluating lazy axioms');
    stats.calls++;
    const once = !args.includes(UNBOUND);
    const out = known ?? scc.fresh(memo, key, once);
    if (known === undefined) memo.set(key, out);
    scc.evaluate(out, () => {
      for (const rule of program.rules.get(rel) ?? []) if (runRule(rule, args, out, once) && once) break;
    });
    depth--;
    return out;
  };

  /** Solves one rule for a call; true when an answer was found and `once` stops the search. */
  const runRule = (rule: LazyRule, args: readonly number[], out: Answers, once: boolean): boolean => {
    const b = new Int32Array(rule.vars).fill(UNBOUND);
    for (let i = 0; i < args.length; i++) if (args[i] !== UNBOUND && !matchPattern(rule.head[i]!, args[i]!, table, b)) return false;
    const n = rule.head.length;
    return body(rule.body, 0, b, () => {
      const at = out.tuples.length;
      for (let i = 0; i < n; i++) out.tuples.push(instantiatePattern(rule.head[i]!, b, table, true));
      if (out.seen !== undefined) {
        const k = out.tuples.slice(at).join(',');
        if (out.seen.has(k)) out.tuples.length = at;
        else out.seen.add(k), scc.added(out);
      } else if (out.count === 0) scc.added(out);
      return once;
    });
  };

  /** Matches the argument patterns of `lit` against `ids[at..]`, then solves `lits[i+1..]`; unbinds what it bound. */
  const matchThen = (lit: Pos, ids: ArrayLike<number>, at: number, lits: readonly LazyLiteral[], i: number, b: Int32Array, emit: () => boolean): boolean => {
    // More variables than bits in the mask: keep a copy of the binding instead.
    const copy = lit.vars.length > 30 ? b.slice() : undefined;
    const was = copy === undefined ? boundMask(lit.vars, b) : 0;
    let ok = true;
    for (let j = 0; ok && j < lit.args.length; j++) ok = matchPattern(lit.args[j]!, ids[at + j]!, table, b);
    const stop = ok && body(lits, i + 1, b, emit);
    if (copy !== undefined) b.set(copy);
    else unbind(lit.vars, b, was);
    return stop;
  };

  /** Whether the ground atom of `lit` under `b` holds. */
  const holdsLit = (lit: Pos, b: Int32Array): boolean => holdsArgs(lit.rel, argsOf(lit, b), true);

  /** The arguments of `lit` under `b`, UNBOUND where a variable is unbound. */
  const argsOf = (lit: Pos, b: Int32Array): number[] => {
    const out = new Array<number>(lit.args.length);
    for (let j = 0; j < out.length; j++) out[j] = valueOf(lit.args[j]!, lit.argVars[j]!, b);
    return out;
  };

  /** Whether `rel(args)` holds; `final`: the answer must not change (a negated literal). */
  const holdsArgs = (rel: string, args: readonly number[], final = false): boolean => {
    if (rel === 'true/1') return fluentSet.has(args[0]!);
    if (rel === 'does/2') return moves.some(([r, a]) => r === args[0] && a === args[1]);
    const index = facts.get(rel);
    if (index !== undefined) {
      const sym = table.functor(index.all[0]!); // the relation's symbol, read off one of its facts (never empty), not parsed from the key
      const id = sym < 0 ? -1 : table.find(sym, args);
      if (id >= 0 && index.set.has(id)) return true;
    }
    if (!program.rules.has(rel)) return false;
    const answers = call(rel, args);
    // Stratification puts a negated relation below the caller's cycle, so its call is complete.
    if (final && answers.state !== 'done') throw new LazyUnsupported(`negation through ${rel} while it is being evaluated`);
    return answers.count > 0;
  };

  /** Solves `lits[i..]` under `b`, calling `emit` per solution; true when `emit` asked to stop. */
  const body = (lits: readonly LazyLiteral[], i: number, b: Int32Array, emit: () => boolean): boolean => {
    if (i === lits.length) return emit();
    const lit = lits[i]!;
    if (lit.kind === 'distinct') {
      const l = instantiatePattern(lit.left, b, table, true);
      return l !== instantiatePattern(lit.right, b, table, true) && body(lits, i + 1, b, emit);
    }
    if (lit.kind === 'neg') return !holdsLit(lit, b) && body(lits, i + 1, b, emit);
    return positive(lit, lits, i, b, emit);
  };

  // One fluent as an id list for matchThen (read before anything else can write it).
  const one = [0];

  /**
   * The fluents `p` (the argument of a `true` literal) may match under `b`: for a flat
   * `(f ...)`, those with functor f and the bound arguments' values (indexed per state on
   * first use), otherwise all.
   */
  const fluentsFor = (p: Pattern, b: Int32Array): readonly number[] => {
    if (p.kind !== 'fn' || !p.flat) return fluents;
    let mask = 0;
    let key = `${p.sym}`;
    for (let j = 0; j < p.args.length; j++) {
      const a = p.args[j]!;
      const v = a.kind === 'ground' ? a.id : b[(a as { index: number }).index]!;
      if (v !== UNBOUND) (mask |= 1 << j), (key += `,${v}`);
    }
    key += `|${mask}`;
    let list = fluentIndex.get(key);
    if (list === undefined) {
      const groups = new Map<string, number[]>();
      for (const f of fluents) {
        if (table.functor(f) !== p.sym || table.arity(f) !== p.args.length) continue;
        let k = `${p.sym}`;
        for (let j = 0; j < p.args.length; j++) if ((mask >>> j) & 1) k += `,${table.arg(f, j)}`;
        k += `|${mask}`;
        const g = groups.get(k);
        if (g === undefined) groups.set(k, [f]);
        else g.push(f);
      }
      for (const [k, g] of groups) fluentIndex.set(k, g);
      list = groups.get(key) ?? [];
      if (!groups.has(key)) fluentIndex.set(key, list);
    }
    return list;
  };

  /** The answers of positive literal `lits[i]` under `b`, each followed by the rest of the body. */
  const positive = (lit: Pos, lits: readonly LazyLiteral[], i: number, b: Int32Array, emit: () => boolean): boolean => {
    const args = argsOf(lit, b);
    if (!args.includes(UNBOUND) && (lit.rel === 'true/1' || lit.rel === 'does/2' || facts.has(lit.rel))) return holdsArgs(lit.rel, args) && body(lits, i + 1, b, emit);
    if (lit.rel === 'true/1') {
      for (const f of fluentsFor(lit.args[0]!, b)) if (((one[0] = f), matchThen(lit, one, 0, lits, i, b, emit))) return true;
      return false;
    }
    if (lit.rel === 'does/2') {
      for (const m of moves) if (matchThen(lit, m, 0, lits, i, b, emit)) return true;
      return false;
    }
    const index = facts.get(lit.rel);
    if (index !== undefined) {
      let mask = 0;
      const parts: number[] = [];
      for (let j = 0; j < args.length; j++) if (args[j] !== UNBOUND) (mask |= 1 << j), parts.push(args[j]!);
      for (const f of factsMatching(index, table, mask, parts.join(','), args.length)) if (matchThen(lit, table.args(f), 0, lits, i, b, emit)) return true;
    }
    if (!program.rules.has(lit.rel)) return false;
    // A 0-ary relation's answer has no tuple to step over (alexChess's hasAnyLegalMoves).
    if (args.length === 0) return call(lit.rel, args).count > 0 && body(lits, i + 1, b, emit);
    const tuples = call(lit.rel, args).tuples;
    for (let t = 0; t < tuples.length; t += args.length) if (matchThen(lit, tuples, t, lits, i, b, emit)) return true;
    return false;
  };

  const known = (id: number): number => {
    if (id < 0) throw new Error('lazy axioms: a lazy rule made an atom outside the ground game');
    return id;
  };
  const headIds = (rel: OutputKeyword): number[] => {
    const arity = { next: 1, legal: 2, goal: 2, terminal: 0, sees: 2 }[rel];
    const sym = table.findSymbol(rel);
    const answers = call(relKey(rel, arity), new Array<number>(arity).fill(UNBOUND));
    if (arity === 0) return answers.count > 0 ? [known(sym < 0 ? -1 : table.find(sym, []))] : [];
    const out: number[] = [];
    for (let t = 0; t < answers.tuples.length; t += arity) out.push(known(sym < 0 ? -1 : table.find(sym, answers.tuples.slice(t, t + arity))));
    return out;
  };

  return {
    stats,
    setState: (state) => {
      fluents = state;
      fluentSet = new Set(state);
      fluentIndex = new Map();
      moves = [];
      stateMemo = new Map();
      moveMemo = new Map();
      // A run that threw (the deadline) may have left calls in progress.
      scc = createCompletion();
      depth = 0;
    },
    setMoves: (joint) => {
      moves = joint;
      moveMemo = new Map();
    },
    holds: (atom) => holdsArgs(relKey(table.name(atom), table.arity(atom)), table.args(atom)),
    heads: headIds,
  };
}
