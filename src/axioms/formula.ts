/**
 * Propositional formulas over ground atom ids, as the bodies of a game without axioms.
 * Formulas are hash-consed in a {@link FormulaTable}: equal formulas are one object with one
 * id, so duplicate tests are id comparisons and a definition substituted in many places is
 * shared, not copied. The constructors simplify as they build (constants, nested junctions,
 * duplicates, contradictions, subsumption), and every node carries its size and depth, so no
 * caller ever walks a formula to measure it.
 */

interface Common {
  /** Unique per table; children always have smaller ids than their parents. */
  readonly id: number;
  /** Nodes of the formula written as a tree: atoms, constants and connectives count 1 each. */
  readonly size: number;
  /** Nesting depth of the tree (an atom or constant has depth 1). */
  readonly depth: number;
}

/** A body formula: constants, a ground atom (by id), negation, conjunction, disjunction. */
export type Formula =
  | (Common & { readonly kind: 'true' })
  | (Common & { readonly kind: 'false' })
  | (Common & { readonly kind: 'atom'; readonly atom: number })
  | (Common & { readonly kind: 'not'; readonly arg: Formula })
  | (Common & { readonly kind: 'and' | 'or'; readonly args: readonly Formula[] });

/** Junctions with more arguments than this skip the pairwise subsumption test (quadratic). */
const SUBSUMPTION_LIMIT = 200;

type Junction = 'and' | 'or';

/** The other junction: its unit is this junction's zero (and: true/false; or: false/true). */
const dual = (kind: Junction): Junction => (kind === 'and' ? 'or' : 'and');

/** Hash-consing table and simplifying constructors of formulas; one per transformation run. */
export class FormulaTable {
  private readonly byKey = new Map<string, Formula>();
  private count = 0;
  /** The constant true. */
  readonly TRUE: Formula;
  /** The constant false. */
  readonly FALSE: Formula;

  constructor() {
    this.TRUE = this.intern('t', () => ({ kind: 'true', id: this.count, size: 1, depth: 1 }));
    this.FALSE = this.intern('f', () => ({ kind: 'false', id: this.count, size: 1, depth: 1 }));
  }

  private intern(key: string, make: () => Formula): Formula {
    let f = this.byKey.get(key);
    if (f === undefined) {
      f = make();
      this.count++;
      this.byKey.set(key, f);
    }
    return f;
  }

  /** The atom with id `atom`. */
  atom(atom: number): Formula {
    return this.intern(`a${atom}`, () => ({ kind: 'atom', atom, id: this.count, size: 1, depth: 1 }));
  }

  /** `(not f)`, with constants folded and double negation removed. */
  not(f: Formula): Formula {
    if (f.kind === 'true') return this.FALSE;
    if (f.kind === 'false') return this.TRUE;
    if (f.kind === 'not') return f.arg;
    return this.intern(`n${f.id}`, () => ({ kind: 'not', arg: f, id: this.count, size: f.size + 1, depth: f.depth + 1 }));
  }

  /** The conjunction of `args`, simplified. */
  and(args: readonly Formula[]): Formula {
    return this.junction('and', args);
  }

  /** The disjunction of `args`, simplified. */
  or(args: readonly Formula[]): Formula {
    return this.junction('or', args);
  }

  /**
   * Simplifies arguments by their siblings, which hold wherever the junction is read (written
   * for `and`; each step strictly shrinks the formula, so repeating it ends):
   *   and(s, not(and(s, x))) = and(s, not x)      and(s, or(not s, x)) = and(s, x)
   * Null when nothing changed.
   */
  private inContext(kind: Junction, flat: readonly Formula[], seen: ReadonlySet<number>): Formula[] | null {
    let changed = false;
    const out = flat.map((a): Formula => {
      if (a.kind === 'not' && a.arg.kind === kind) {
        const rest = a.arg.args.filter((b) => !seen.has(b.id));
        if (rest.length === a.arg.args.length) return a;
        changed = true;
        return this.not(this.junction(kind, rest));
      }
      if (a.kind === dual(kind)) {
        const rest = a.args.filter((b) => !(b.kind === 'not' && seen.has(b.arg.id)));
        if (rest.length === a.args.length) return a;
        changed = true;
        return this.junction(a.kind, rest);
      }
      return a;
    });
    return changed ? out : null;
  }

  /**
   * One constructor for both junctions, written for `and` (read `or` with the constants and
   * junctions swapped):
   *   and(..., true, ...) = and(...)          and(..., false, ...) = false
   *   and(a, and(b, c))   = and(a, b, c)      and(a, a) = a
   *   and(a, not a)       = false             and(a, or(a, b)) = a   (subsumption)
   *   and() = true                            and(a) = a
   *   and(s, not(and(s, x))) = and(s, not x) and(s, or(not s, x)) = and(s, x)
   * Arguments are sorted by id, so equal sets of arguments give one node.
   */
  private junction(kind: Junction, input: readonly Formula[]): Formula {
    const unit = kind === 'and' ? this.TRUE : this.FALSE;
    const zero = kind === 'and' ? this.FALSE : this.TRUE;
    const seen = new Set<number>();
    const flat: Formula[] = [];
    for (const a of input) {
      if (a === unit) continue;
      if (a === zero) return zero;
      for (const b of a.kind === kind ? a.args : [a]) {
        if (!seen.has(b.id)) {
          seen.add(b.id);
          flat.push(b);
        }
      }
    }
    // A literal next to its negation.
    for (const a of flat) if (a.kind === 'not' && seen.has(a.arg.id)) return zero;
    const reduced = this.inContext(kind, flat, seen);
    if (reduced !== null) return this.junction(kind, reduced);
    const args = subsume(flat, dual(kind), seen).sort((x, y) => x.id - y.id);
    if (args.length === 0) return unit;
    if (args.length === 1) return args[0]!;
    const key = `${kind === 'and' ? 'c' : 'd'}${args.map((a) => a.id).join(',')}`;
    return this.intern(key, () => {
      let size = 1;
      let depth = 0;
      for (const a of args) {
        size += a.size;
        depth = Math.max(depth, a.depth);
      }
      return { kind, args, id: this.count, size, depth: depth + 1 };
    });
  }
}

/** The members of `f` seen as a `kind` junction: its arguments, or `f` alone. */
function members(f: Formula, kind: Junction): readonly Formula[] {
  return f.kind === kind ? f.args : [f];
}

/**
 * Drops the arguments of a junction that another argument subsumes. For a conjunction (`inner`
 * is `or`), a disjunct set that contains all of another argument's disjuncts is implied by it:
 * and(a, or(a, b)) = a and and(or(a, b), or(a, b, c)) = or(a, b). An argument that is a plain
 * member of the junction (`present`) subsumes every inner junction containing it; that test is
 * linear and always made, the pairwise one only up to {@link SUBSUMPTION_LIMIT} arguments.
 */
function subsume(args: Formula[], inner: Junction, present: ReadonlySet<number>): Formula[] {
  const compound = args.filter((a) => a.kind === inner);
  if (compound.length === 0) return args;
  let out = args.filter((a) => a.kind !== inner || !a.args.some((b) => present.has(b.id)));
  if (out.length > SUBSUMPTION_LIMIT) return out;
  const sets = out.map((a) => new Set(members(a, inner).map((b) => b.id)));
  const dropped = new Uint8Array(out.length);
  for (let i = 0; i < out.length; i++) {
    if (out[i]!.kind !== inner) continue;
    for (let j = 0; j < out.length; j++) {
      if (i === j || dropped[j] === 1 || sets[j]!.size >= sets[i]!.size) continue;
      if ([...sets[j]!].every((id) => sets[i]!.has(id))) {
        dropped[i] = 1;
        break;
      }
    }
  }
  out = out.filter((_, i) => dropped[i] === 0);
  return out;
}

/** Called once per step of a walk; throws to stop it (a deadline check). */
export type Step = () => void;

const NO_STEP: Step = () => {};

/**
 * Visits every distinct node reachable from `roots` once, children before parents, without
 * recursion (formulas can be deep); `step` is called once per node taken from the stack.
 */
export function postOrder(roots: readonly Formula[], visit: (f: Formula) => void, step: Step = NO_STEP): void {
  const done = new Set<number>();
  const stack: { f: Formula; expanded: boolean }[] = roots.map((f) => ({ f, expanded: false })).reverse();
  while (stack.length > 0) {
    step();
    const top = stack.pop()!;
    if (done.has(top.f.id)) continue;
    if (top.expanded) {
      done.add(top.f.id);
      visit(top.f);
      continue;
    }
    stack.push({ f: top.f, expanded: true });
    const kids = top.f.kind === 'not' ? [top.f.arg] : top.f.kind === 'and' || top.f.kind === 'or' ? top.f.args : [];
    for (let i = kids.length - 1; i >= 0; i--) if (!done.has(kids[i]!.id)) stack.push({ f: kids[i]!, expanded: false });
  }
}

/**
 * Rebuilds `roots` in `table` with every atom replaced by the formula `mapAtom(id)` gives (for
 * renumbering atoms and for substitution); shared subformulas stay shared. `step` as for
 * {@link postOrder}.
 */
export function substituteAtoms(roots: readonly Formula[], table: FormulaTable, mapAtom: (atom: number) => Formula, step: Step = NO_STEP): Formula[] {
  const out = new Map<number, Formula>();
  postOrder(roots, (f) => {
    const get = (g: Formula): Formula => out.get(g.id)!;
    let g: Formula;
    if (f.kind === 'true') g = table.TRUE;
    else if (f.kind === 'false') g = table.FALSE;
    else if (f.kind === 'atom') g = mapAtom(f.atom);
    else if (f.kind === 'not') g = table.not(get(f.arg));
    else g = f.kind === 'and' ? table.and(f.args.map(get)) : table.or(f.args.map(get));
    out.set(f.id, g);
  }, step);
  return roots.map((r) => out.get(r.id)!);
}

/**
 * Rebuilds `roots` in `table` with every atom id replaced by `mapAtom(id)` (for renumbering
 * atoms); shared subformulas stay shared. `step` as for {@link postOrder}.
 */
export function mapAtoms(roots: readonly Formula[], table: FormulaTable, mapAtom: (atom: number) => number, step: Step = NO_STEP): Formula[] {
  return substituteAtoms(roots, table, (a) => table.atom(mapAtom(a)), step);
}

/** The size of a rule body (a conjunction of formulas), as {@link Formula.size} counts it. */
export function bodySize(body: readonly Formula[]): number {
  let size = body.length > 1 ? 1 : 0;
  for (const f of body) size += f.size;
  return size;
}
