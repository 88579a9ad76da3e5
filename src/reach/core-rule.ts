/**
 * State-free rules of the relaxed game joined by the Datalog core (src/datalog/join.ts) over the
 * fact store's own id relations, instead of Tau-Prolog (issue 27, docs/corpus.md amaz25).
 * amazons' four recursive `*MoveIgnoring` lines, derived whole before the loop, took about 0.6
 * CPU s in Tau-Prolog for 147,000 facts (4 µs a fact); the core's join makes the same facts in
 * about a tenth of that.
 *
 * Only rules the core can read exactly are taken: every argument of the head and of the
 * positive literals a variable or a constant, `distinct` between such terms (function terms,
 * where Tau-Prolog's unification is needed, stay with it). A constant or a repeated variable in
 * a literal becomes a fresh variable and an equality test. Each variant reads the same rows as
 * Tau-Prolog's query of it would: the full tables as of the last round's end (the relation's
 * rows before the round's first new one) and, for a delta variant, the last round's new rows.
 * So the facts found are the same, round by round; only their order within a round may differ.
 */
import type { Atom, Term } from '../gdl/ast.js';
import { type JoinAtom, type JoinCheck, UNBOUND, join } from '../datalog/join.js';
import type { RelaxedRule } from './relaxed-rule.js';
import { keyOf } from './relaxed-rule.js';
import type { FactStore, RelationFacts } from './store.js';

/** An argument: a variable (`var` its number) or a constant by name. */
type Arg = { readonly kind: 'var'; readonly v: number } | { readonly kind: 'const'; readonly name: string };

/** A rule as the core joins it. */
export interface CoreRule {
  readonly nVars: number;
  readonly head: readonly Arg[];
  /** The positive literals: relation key and the variable of each column. */
  readonly atoms: readonly { readonly relKey: string; readonly vars: readonly number[] }[];
  /** Columns that must hold a constant: variable and constant name. */
  readonly constants: readonly { readonly v: number; readonly name: string }[];
  /** Pairs of variables that must be equal (a variable repeated in a literal). */
  readonly equal: readonly (readonly [number, number])[];
  /** `distinct` literals: both sides, each a variable or a constant. */
  readonly distinct: readonly (readonly [Arg, Arg])[];
}

/** The rule for the core, or undefined when it has a function term (Tau-Prolog runs it). */
export function coreRule(rule: RelaxedRule): CoreRule | undefined {
  const names = new Map<string, number>();
  let nVars = 0;
  const fresh = (): number => nVars++;
  const arg = (t: Term): Arg | undefined => {
    if (t.kind === 'const') return { kind: 'const', name: t.name };
    if (t.kind !== 'var') return undefined;
    let v = names.get(t.name);
    if (v === undefined) names.set(t.name, (v = fresh()));
    return { kind: 'var', v };
  };
  const atoms: { relKey: string; vars: number[] }[] = [];
  const constants: { v: number; name: string }[] = [];
  const equal: [number, number][] = [];
  const distinct: [Arg, Arg][] = [];
  for (const l of rule.body) {
    if (l.kind === 'distinct') {
      const [a, b] = [arg(l.left), arg(l.right)];
      if (a === undefined || b === undefined) return undefined;
      distinct.push([a, b]);
      continue;
    }
    const vars = literalVars(l.atom, arg, fresh, constants, equal);
    if (vars === undefined) return undefined;
    atoms.push({ relKey: keyOf(l.atom), vars });
  }
  const head: Arg[] = [];
  for (const t of rule.head.args) {
    const a = arg(t);
    if (a === undefined) return undefined;
    head.push(a);
  }
  return { nVars, head, atoms, constants, equal, distinct };
}

/** The join variable of each column of `atom`: fresh ones (with tests) for constants and repeats. */
function literalVars(
  atom: Atom, arg: (t: Term) => Arg | undefined, fresh: () => number,
  constants: { v: number; name: string }[], equal: [number, number][],
): number[] | undefined {
  const vars: number[] = [];
  for (const t of atom.args) {
    const a = arg(t);
    if (a === undefined) return undefined;
    if (a.kind === 'const') {
      const v = fresh();
      constants.push({ v, name: a.name });
      vars.push(v);
    } else if (vars.includes(a.v)) {
      const v = fresh();
      equal.push([v, a.v]);
      vars.push(v);
    } else vars.push(a.v);
  }
  return vars;
}

/** Rows `[lo, hi)` of a relation a variant reads (see the module comment). */
export type RowRange = readonly [number, number];

/**
 * Runs `rule` by the core: atom `deltaAt` (unless null) over `deltaRows` of its relation, every
 * other over `committed(relKey)` rows. Each head found is put into the store's buffer and
 * handed to `record` after the join (the relations do not change during it). Returns the
 * number of answers (one per distinct binding of the head's variables).
 */
export function fireCore(
  store: FactStore, rule: CoreRule, deltaAt: number | null, deltaRows: RowRange,
  committed: (relKey: string) => number, tick: () => void, record: (ids: Int32Array) => void,
): number {
  const atoms: JoinAtom[] = [];
  for (let i = 0; i < rule.atoms.length; i++) {
    const a = rule.atoms[i]!;
    const r: RelationFacts | undefined = store.relations.get(a.relKey);
    if (r === undefined) return 0;
    const [lo, hi] = i === deltaAt ? deltaRows : [0, committed(a.relKey)];
    if (hi <= lo) return 0;
    atoms.push({ rel: r.ids, vars: a.vars, lo, hi });
  }
  const checks = coreChecks(store, rule);
  if (checks === undefined) return 0;
  const found: number[] = [];
  const width = rule.head.length;
  // Only the head's variables shape a fact: one completion of the others is enough.
  const outputs = new Set(rule.head.flatMap((h) => (h.kind === 'var' ? [h.v] : [])));
  join(rule.nVars, atoms, checks, outputs, tick, (b) => {
    for (let i = 0; i < width; i++) {
      const h = rule.head[i]!;
      found.push(h.kind === 'var' ? b[h.v]! : UNBOUND);
    }
  });
  const n = found.length / width;
  const ids = new Int32Array(width);
  for (let k = 0; k < n; k++) {
    for (let i = 0; i < width; i++) {
      const h = rule.head[i]!;
      ids[i] = h.kind === 'var' ? found[k * width + i]! : constantId(store, h.name);
    }
    record(ids);
  }
  return n;
}

/** The tests of a rule; undefined when a literal's constant is in no fact (nothing can match). */
function coreChecks(store: FactStore, rule: CoreRule): JoinCheck[] | undefined {
  const checks: JoinCheck[] = [];
  for (const { v, name } of rule.constants) {
    const id = store.constants.get(name);
    if (id === undefined) return undefined;
    checks.push({ vars: [v], test: (b) => b[v] === id });
  }
  for (const [a, b] of rule.equal) checks.push({ vars: [a, b], test: (x) => x[a] === x[b] });
  // A constant in no fact is unequal to every fact's term and to every other constant: its own negative value.
  const absent = new Map<string, number>();
  for (const [l, r] of rule.distinct) {
    const side = (s: Arg): { vars: number[]; value: (b: Int32Array) => number } => {
      if (s.kind === 'var') return { vars: [s.v], value: (b) => b[s.v]! };
      let id = store.constants.get(s.name) ?? absent.get(s.name);
      if (id === undefined) absent.set(s.name, (id = -2 - absent.size));
      return { vars: [], value: () => id };
    };
    const [x, y] = [side(l), side(r)];
    checks.push({ vars: [...x.vars, ...y.vars], test: (b) => x.value(b) !== y.value(b) });
  }
  return checks;
}

/** The id of constant `name` in the store's table, interned when new (as an answer's would be). */
function constantId(store: FactStore, name: string): number {
  let id = store.constants.get(name);
  if (id === undefined) store.constants.set(name, (id = store.terms.constant(name)));
  return id;
}
