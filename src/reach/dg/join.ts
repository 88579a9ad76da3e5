/**
 * Matching atom patterns against interned ground tuples, and joining the resulting binding
 * tables. Both the exact evaluation of static relations and reduceSupersetsDG are built on
 * these two operations; they differ only in which variables they keep.
 */
import { foldTerm } from '../../gdl/fold.js';
import type { Term } from '../../gdl/ast.js';
import { GdlError, diag } from '../../gdl/diagnostics.js';
import type { Pos } from '../../gdl/ast.js';
import { collectVars } from '../../gdl/terms.js';
import type { ReachLimits } from '../types.js';
import type { TermTable } from '../../datalog/terms.js';

/** Variable name -> id of its ground value. */
export type Bindings = Map<string, number>;

/** A table of bindings: one row of value ids per solution, one column per variable. */
export interface Constraint {
  readonly vars: readonly string[];
  readonly rows: readonly (readonly number[])[];
}

/** A `(distinct s t)` literal of a rule body. */
export interface DistinctLit {
  readonly left: Term;
  readonly right: Term;
}

/** Deadline and atom budget of one computation; `what` names the relation being worked on. */
export interface Guard {
  /** Relation (or step) currently computed, named in limit messages. */
  what: string;
  /** Position named in limit messages. */
  pos: Pos;
  /** Counts one unit of work; throws a limit error when the deadline has passed. */
  tick(): void;
  /** Counts `n` new ground atoms; throws a limit error beyond `maxAtoms`. */
  addAtoms(n: number): void;
  /** Throws a limit error with `message` (about the current relation). */
  fail(message: string): never;
}

/** Creates the guard of one computation over `file`. */
export function createGuard(file: string, limits: ReachLimits): Guard {
  let ticks = 0;
  let atoms = 0;
  const guard: Guard = {
    what: '',
    pos: { line: 1, col: 1 },
    tick() {
      // Date.now() on every step would dominate; every 4096 steps is precise enough.
      if ((++ticks & 4095) === 0 && Date.now() > limits.deadline) guard.fail('time limit reached');
    },
    addAtoms(n: number) {
      atoms += n;
      if (atoms > limits.maxAtoms) guard.fail(`more than ${limits.maxAtoms} ground atoms`);
    },
    fail(message: string): never {
      const where = guard.what === '' ? '' : ` while computing '${guard.what}'`;
      throw new GdlError([diag('error', file, guard.pos, `dependency-graph method: ${message}${where}`)], 'limit');
    },
  };
  return guard;
}

/**
 * Matches `pattern` against ground term `id`, extending `b`; every variable bound here is
 * pushed on `trail` so that the caller can undo a failed match.
 */
export function matchTerm(table: TermTable, pattern: Term, id: number, b: Bindings, trail: string[]): boolean {
  const stack: [Term, number][] = [[pattern, id]];
  while (stack.length > 0) {
    const [p, g] = stack.pop()!;
    if (p.kind === 'var') {
      const bound = b.get(p.name);
      if (bound === undefined) {
        b.set(p.name, g);
        trail.push(p.name);
      } else if (bound !== g) return false;
    } else {
      const args = table.args(g);
      if (table.name(g) !== p.name) return false;
      if (p.kind === 'const') {
        if (args.length !== 0) return false;
      } else {
        if (args.length !== p.args.length) return false;
        for (let i = 0; i < args.length; i++) stack.push([p.args[i]!, args[i]!]);
      }
    }
  }
  return true;
}

/** The id of `pattern` under `b`, or undefined when one of its variables is unbound. */
export function instantiateTerm(table: TermTable, pattern: Term, b: ReadonlyMap<string, number>): number | undefined {
  // An unbound variable makes every term above it undefined.
  return foldTerm<number | undefined>(pattern, (t, args) => {
    if (t.kind === 'var') return b.get(t.name);
    if (args.some((a) => a === undefined)) return undefined;
    return table.compound(t.name, args as number[]);
  });
}

/** Variables of a list of patterns, in order of first occurrence. */
export function patternVars(patterns: readonly Term[]): string[] {
  const out = new Set<string>();
  for (const p of patterns) collectVars(p, out);
  return [...out];
}

/**
 * The bindings of the `keep` variables of `patterns` over every tuple that matches them,
 * without duplicates. A pattern without kept variables yields one empty row when any tuple
 * matches, none otherwise: the literal is then only an existence test.
 */
export function matchConstraint(
  table: TermTable,
  patterns: readonly Term[],
  tuples: Iterable<readonly number[]>,
  keep: ReadonlySet<string>,
  guard: Guard,
): Constraint {
  const vars = patternVars(patterns).filter((v) => keep.has(v));
  const rows: number[][] = [];
  const seen = new Set<string>();
  const b: Bindings = new Map();
  const trail: string[] = [];
  for (const tuple of tuples) {
    guard.tick();
    let ok = true;
    for (let i = 0; i < patterns.length && ok; i++) ok = matchTerm(table, patterns[i]!, tuple[i]!, b, trail);
    if (ok) {
      const row = vars.map((v) => b.get(v)!);
      const key = row.join(',');
      if (!seen.has(key)) {
        seen.add(key);
        rows.push(row);
      }
    }
    b.clear();
    trail.length = 0;
    if (ok && vars.length === 0) break;
  }
  return { vars, rows };
}

/** Orders constraints so that each one shares as many variables as possible with earlier ones. */
function joinOrder(constraints: readonly Constraint[]): Constraint[] {
  const left = [...constraints];
  const out: Constraint[] = [];
  const bound = new Set<string>();
  while (left.length > 0) {
    let best = 0;
    let bestScore = -Infinity;
    for (let i = 0; i < left.length; i++) {
      const c = left[i]!;
      const shared = c.vars.filter((v) => bound.has(v)).length;
      // Fully bound constraints are pure filters: take them first; then share, then size.
      const free = c.vars.length - shared;
      const score = (free === 0 ? 1e12 : 0) + shared * 1e9 - c.rows.length;
      if (score > bestScore) {
        bestScore = score;
        best = i;
      }
    }
    const c = left.splice(best, 1)[0]!;
    for (const v of c.vars) bound.add(v);
    out.push(c);
  }
  return out;
}

/** One join level: a constraint indexed by the values of its variables bound before it. */
interface Level {
  readonly boundCols: readonly number[];
  readonly freeCols: readonly number[];
  readonly vars: readonly string[];
  readonly index: Map<string, (readonly number[])[]>;
  readonly distincts: readonly DistinctLit[];
}

function buildLevels(order: readonly Constraint[], distincts: readonly DistinctLit[]): Level[] {
  const bound = new Set<string>();
  const pendingDistinct = distincts.map((d) => ({ d, vars: patternVars([d.left, d.right]) }));
  return order.map((c) => {
    const boundCols: number[] = [];
    const freeCols: number[] = [];
    c.vars.forEach((v, i) => (bound.has(v) ? boundCols : freeCols).push(i));
    const index = new Map<string, (readonly number[])[]>();
    for (const row of c.rows) {
      const key = boundCols.map((i) => row[i]!).join(',');
      const list = index.get(key);
      if (list === undefined) index.set(key, [row]);
      else list.push(row);
    }
    for (const v of c.vars) bound.add(v);
    // A distinct is checked at the first level where all its variables are bound.
    const ready: DistinctLit[] = [];
    for (let i = pendingDistinct.length - 1; i >= 0; i--) {
      if (pendingDistinct[i]!.vars.every((v) => bound.has(v))) ready.push(pendingDistinct.splice(i, 1)[0]!.d);
    }
    return { boundCols, freeCols, vars: c.vars, index, distincts: ready };
  });
}

/**
 * Calls `onSolution` once per assignment of the constraints' variables that agrees with a
 * row of every constraint and satisfies every `distinct` whose variables all get bound.
 * Distinct literals over variables no constraint binds are ignored (a relaxation).
 */
export function joinConstraints(
  table: TermTable,
  constraints: readonly Constraint[],
  distincts: readonly DistinctLit[],
  guard: Guard,
  onSolution: (b: ReadonlyMap<string, number>) => void,
): void {
  if (constraints.some((c) => c.rows.length === 0)) return;
  const levels = buildLevels(joinOrder(constraints), distincts);
  // Ground distincts (no variables) are decided before any level.
  for (const d of distincts) {
    if (patternVars([d.left, d.right]).length === 0 && instantiateTerm(table, d.left, new Map()) === instantiateTerm(table, d.right, new Map())) return;
  }
  const b: Bindings = new Map();
  // Iterative depth-first search: frame = level and the candidate rows left at that level.
  const frames: { rows: readonly (readonly number[])[]; next: number }[] = [];
  const candidates = (depth: number): readonly (readonly number[])[] => {
    const lv = levels[depth]!;
    const key = lv.boundCols.map((i) => b.get(lv.vars[i]!)!).join(',');
    return lv.index.get(key) ?? [];
  };
  if (levels.length === 0) {
    onSolution(b);
    return;
  }
  frames.push({ rows: candidates(0), next: 0 });
  while (frames.length > 0) {
    const depth = frames.length - 1;
    const frame = frames[depth]!;
    const lv = levels[depth]!;
    if (frame.next >= frame.rows.length) {
      frames.pop();
      for (const i of lv.freeCols) b.delete(lv.vars[i]!);
      continue;
    }
    guard.tick();
    const row = frame.rows[frame.next++]!;
    for (const i of lv.freeCols) b.set(lv.vars[i]!, row[i]!);
    if (!lv.distincts.every((d) => instantiateTerm(table, d.left, b) !== instantiateTerm(table, d.right, b))) continue;
    if (depth + 1 === levels.length) onSolution(b);
    else frames.push({ rows: candidates(depth + 1), next: 0 });
  }
}
