/**
 * Axiom removal (Kissmann, slides 35-41; Borowsky & Edelkamp 2008): every axiom that is not
 * recursive is replaced by its definition, in topological order of the dependency graph
 * (axioms that depend only on fluents and moves first), so that the rules of `next`, `legal`,
 * `goal` and `terminal` speak only of `true` and `does`. An axiom's definition is the
 * disjunction of its rule bodies, each the conjunction of its literals with the axioms in it
 * already replaced; a negated axiom becomes a negated formula, kept as `(not (or ...))` rather
 * than pushed into CNF or DNF. Recursive axioms, axioms whose definition would exceed
 * `maxFormula`, and those whose substitution would push the game's estimated total body size
 * over the growth budget stay rules. Past the deadline the stage throws a limit error.
 */
import { Deadline } from '../deadline.js';
import { NO_POS } from '../gdl/ast.js';
import { deadlineError } from '../gdl/diagnostics.js';
import { stronglyConnectedComponents } from '../gdl/scc.js';
import type { GroundGame, GroundRule } from '../ground/types.js';
import { type AtomKind, atomKind, atomRelation, isOutput } from './atoms.js';
import { atomText } from '../ground/atoms.js';
import { atomCount } from '../ground/compact.js';
import { type Formula, FormulaTable, type Step, bodySize, mapAtoms, postOrder } from './formula.js';
import {
  type AxiomOptions, type AxiomResult, type AxiomStats, DEFAULT_AXIOM_OPTIONS, type FormulaGame, type FormulaRule,
  type KeptReason, MAX_FORMULA_DEPTH, defaultGrowthBudget,
} from './types.js';
import { restrictAtoms, rulesByHead } from './unused.js';
import { renumberVocabulary } from '../ground/vocabulary.js';

/** The state of one run; its methods are the steps of the algorithm. */
class Removal {
  readonly table = new FormulaTable();
  readonly byHead: number[][];
  readonly kinds: AtomKind[];
  /** The definition substituted for an axiom; undefined: the atom itself is used (inputs, outputs, kept axioms). */
  readonly def: (Formula | undefined)[];
  readonly kept = new Map<number, KeptReason>();
  /** Kept axioms whose rules are still to be written. */
  readonly pending: number[] = [];
  /**
   * The growth estimate: each rule's body size if every axiom not yet decided stays a rule (a
   * rule of a substituted axiom counts 0), and their total, which starts as the input's size.
   */
  readonly ruleSize: Float64Array;
  total: number;
  readonly sizeBefore: number;
  readonly budget: number;
  /** Rule indices whose bodies mention each atom (once per literal). */
  private readonly users: number[][];

  constructor(
    readonly game: GroundGame,
    readonly options: AxiomOptions,
    readonly deadline: Deadline,
  ) {
    this.byHead = rulesByHead(game);
    // Atom kinds by id, without making the game's atom objects (compact.ts) before the first deadline check.
    this.kinds = Array.from({ length: atomCount(game) }, (_, id) => atomKind(game, id));
    this.def = new Array<Formula | undefined>(this.kinds.length).fill(undefined);
    this.users = Array.from({ length: this.kinds.length }, () => []);
    this.ruleSize = new Float64Array(game.rules.length);
    let total = 0;
    game.rules.forEach((r, i) => {
      for (const a of r.pos) this.users[a]!.push(i);
      for (const a of r.neg) this.users[a]!.push(i);
      total += this.ruleSize[i] = literalSize(r);
    });
    this.total = this.sizeBefore = total;
    this.budget = options.maxTotal ?? defaultGrowthBudget(total);
  }

  /** Throws the stage's limit error once the deadline has passed (reads the clock). */
  check(): void {
    if (this.deadline.passed()) throw deadlineError(this.deadline, this.game.file, NO_POS, 'axiom removal');
  }

  /** {@link check} for fine-grained steps (reads the clock rarely). */
  readonly step: Step = () => {
    if (this.deadline.tick()) throw deadlineError(this.deadline, this.game.file, NO_POS, 'axiom removal');
  };

  fits(f: Formula): boolean {
    return f.size <= this.options.maxFormula && f.depth <= MAX_FORMULA_DEPTH;
  }

  value(atom: number): Formula {
    const d = this.def[atom];
    return d === undefined ? this.table.atom(atom) : d;
  }

  body(rule: GroundRule): Formula {
    this.check();
    const t = this.table;
    return t.and([...rule.pos.map((p) => this.value(p)), ...rule.neg.map((n) => t.not(this.value(n)))]);
  }

  keep(atom: number, reason: KeptReason): void {
    this.def[atom] = undefined;
    this.kept.set(atom, reason);
    this.pending.push(atom);
  }

  /** Defines the axioms in topological order (dependencies first), or keeps them. */
  defineAxioms(): void {
    const succ = this.byHead.map((rules) => rules.flatMap((r) => [...this.game.rules[r]!.pos, ...this.game.rules[r]!.neg]));
    for (const comp of stronglyConnectedComponents(this.game.atoms.length, (v) => succ[v]!)) {
      // On a cycle of the ground dependency graph (through any relation, keywords included).
      const recursive = comp.length > 1 || succ[comp[0]!]!.includes(comp[0]!);
      for (const a of comp) {
        if (this.kinds[a] !== 'axiom') continue;
        const rules = this.byHead[a]!;
        // An axiom without rules never holds.
        if (rules.length === 0) this.def[a] = this.table.FALSE;
        else if (recursive) this.keep(a, 'recursive');
        else {
          const d = this.table.or(rules.map((r) => this.body(this.game.rules[r]!)));
          if (!this.fits(d)) this.keep(a, 'size');
          else if (!this.substitute(a, d)) this.keep(a, 'growth');
        }
      }
    }
  }

  /**
   * Substitutes `d` for axiom `a` if the estimated total stays within the budget. Every user of
   * `a` is still undecided or an output (topological order), so each of its literals grows by
   * `d.size - 1` nodes (a `not` around it was counted already), and `a`'s own rules go; that
   * is an upper bound of the growth, as simplification only shrinks. Deterministic: the order
   * and the sizes are.
   *   total' = total + uses(a) * (size(d) - 1) - sum of ruleSize over the rules of a
   */
  substitute(a: number, d: Formula): boolean {
    const uses = this.users[a]!;
    let growth = uses.length * (d.size - 1);
    for (const r of this.byHead[a]!) growth -= this.ruleSize[r]!;
    if (growth > 0 && this.total + growth > this.budget) return false;
    this.def[a] = d;
    this.total += growth;
    for (const r of uses) this.ruleSize[r] += d.size - 1;
    for (const r of this.byHead[a]!) this.ruleSize[r] = 0;
    return true;
  }

  /**
   * The body of `rule` with definitions substituted, within the size limit: while it is too
   * large, the largest axiom substituted into it is kept as a rule instead (its atom is used).
   * That axiom's other users, already built, keep its definition, which is still equivalent.
   */
  fittedBody(rule: GroundRule): Formula {
    for (;;) {
      const f = this.body(rule);
      if (this.fits(f)) return f;
      let largest = -1;
      for (const a of [...rule.pos, ...rule.neg]) {
        const d = this.def[a];
        if (d !== undefined && d.size > 1 && (largest < 0 || d.size > this.def[largest]!.size)) largest = a;
      }
      if (largest < 0) return f; // only inputs and kept atoms: nothing left to undo
      this.keep(largest, 'size');
    }
  }

  /**
   * The rules written for `head`: its rule bodies merged into one disjunction (simplified),
   * one rule per disjunct; each conjunction's members become the rule's body.
   */
  rulesFor(head: number): FormulaRule[] {
    const bodies = this.byHead[head]!.map((r) => this.fittedBody(this.game.rules[r]!));
    const merged = this.table.or(bodies);
    const disjuncts = this.fits(merged) ? (merged.kind === 'or' ? merged.args : [merged]) : bodies;
    const out: FormulaRule[] = [];
    for (const d of disjuncts) {
      if (d.kind === 'false') continue;
      out.push({ head, body: d.kind === 'true' ? [] : d.kind === 'and' ? d.args : [d] });
    }
    return out;
  }

  /** Rules of the outputs, then of every kept axiom (keeping may cascade), sorted by head. */
  writeRules(): FormulaRule[] {
    const rules: FormulaRule[] = [];
    const write = (h: number): void => {
      // A loop, not push(...list): one head can have more rules than a call has arguments.
      for (const r of this.rulesFor(h)) rules.push(r);
    };
    for (let h = 0; h < this.game.atoms.length; h++) {
      if (isOutput(this.kinds[h]!) && this.byHead[h]!.length > 0) write(h);
    }
    while (this.pending.length > 0) write(this.pending.pop()!);
    // Stable: rules of one head keep their order.
    return rules.sort((x, y) => x.head - y.head);
  }
}

/** The size of a ground rule's body as {@link bodySize} counts it: a literal 1, a negated one 2. */
function literalSize(r: GroundRule): number {
  return r.pos.length + 2 * r.neg.length + (r.pos.length + r.neg.length > 1 ? 1 : 0);
}

/** Renumbers the atoms of `rules` and `init` to those mentioned, in GroundGame order. */
function finish(game: GroundGame, rules: readonly FormulaRule[], step: Step): FormulaGame {
  const keep = new Uint8Array(game.atoms.length);
  for (const id of game.init) keep[id] = 1;
  for (const r of rules) keep[r.head] = 1;
  postOrder(rules.flatMap((r) => r.body), (f) => {
    if (f.kind === 'atom') keep[f.atom] = 1;
  }, step);
  const { atoms, renumber } = restrictAtoms(game.atoms, keep);
  // One call for all bodies, so subformulas shared between rules are rebuilt once.
  const mapped = mapAtoms(rules.flatMap((r) => r.body), new FormulaTable(), (a) => renumber[a]!, step);
  let next = 0;
  const out = rules.map((r) => ({ head: renumber[r.head]!, body: mapped.slice(next, (next += r.body.length)) }));
  return { file: game.file, terms: game.terms, roles: game.roles, atoms, init: game.init.map((id) => renumber[id]!), rules: out, vocabulary: renumberVocabulary(game.vocabulary, renumber) };
}

/** Sizes of a rule list: total and largest body. */
function sizes(bodies: readonly number[]): { total: number; largest: number } {
  let total = 0;
  let largest = 0;
  for (const s of bodies) {
    total += s;
    largest = Math.max(largest, s);
  }
  return { total, largest };
}

function statistics(game: GroundGame, run: Removal, out: FormulaGame): AxiomStats {
  const axioms = run.kinds.filter((k, id) => k === 'axiom' && run.byHead[id]!.length > 0).length;
  const keptByReason: Record<KeptReason, number> = { recursive: 0, size: 0, growth: 0 };
  for (const reason of run.kept.values()) keptByReason[reason]++;
  const kept = [...run.kept.entries()].sort((x, y) => x[0] - y[0]).map(([id, reason]) => ({ atom: atomText(game, id), reason }));
  const before = sizes(game.rules.map(literalSize));
  const after = sizes(out.rules.map((r) => bodySize(r.body)));
  return {
    axioms, removed: axioms - run.kept.size, keptByReason, kept,
    rulesBefore: game.rules.length, rulesAfter: out.rules.length,
    sizeBefore: before.total, sizeAfter: after.total, largestBefore: before.largest, largestAfter: after.largest,
    budget: run.budget,
  };
}

const WHY: Record<KeptReason, string> = {
  recursive: 'they are recursive',
  size: 'their substitution would exceed the formula size limit',
  growth: 'their substitution would push the total body size over the budget',
};

/** One warning per reason: how many axioms were kept, of which relations. */
function warnings(game: GroundGame, run: Removal, options: AxiomOptions): string[] {
  const out: string[] = [];
  for (const reason of ['recursive', 'size', 'growth'] as const) {
    const rels = new Map<string, number>();
    for (const [id, r] of run.kept) if (r === reason) rels.set(atomRelation(game, id), (rels.get(atomRelation(game, id)) ?? 0) + 1);
    if (rels.size === 0) continue;
    const total = [...rels.values()].reduce((s, n) => s + n, 0);
    const list = [...rels.entries()].sort((x, y) => (x[0] < y[0] ? -1 : 1)).map(([rel, n]) => `${rel} (${n})`).join(', ');
    const limit = reason === 'size' ? ` of ${options.maxFormula} nodes` : reason === 'growth' ? ` of ${run.budget} nodes` : '';
    out.push(`axiom removal: kept ${total} ground axioms as rules because ${WHY[reason]}${limit}: ${list}`);
  }
  return out;
}

/**
 * Replaces every non-recursive axiom of `game` by its definition; pure. The result plays
 * identically; its rule bodies mention, besides `true` and `does` (and output atoms that the
 * game's own rules read), only the axioms reported as kept. Throws a limit `GdlError`
 * (`code: 'limit'`) once `deadline` has passed; it is checked per rule body built and every
 * few thousand formula nodes renumbered.
 */
export function removeAxioms(game: GroundGame, options: AxiomOptions = DEFAULT_AXIOM_OPTIONS, deadline: Deadline): AxiomResult {
  const run = new Removal(game, options, deadline);
  run.check();
  run.defineAxioms();
  const out = finish(game, run.writeRules(), run.step);
  return { game: out, stats: statistics(game, run, out), warnings: warnings(game, run, options) };
}
