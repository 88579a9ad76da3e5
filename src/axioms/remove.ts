/**
 * Axiom removal (Kissmann, slides 35-41; Borowsky & Edelkamp 2008): every axiom that is not
 * recursive is replaced by its definition, in topological order of the dependency graph
 * (axioms that depend only on fluents and moves first), so that the rules of `next`, `legal`,
 * `goal` and `terminal` speak only of `true` and `does`. An axiom's definition is the
 * disjunction of its rule bodies, each the conjunction of its literals with the axioms in it
 * already replaced; a negated axiom becomes a negated formula, kept as `(not (or ...))` rather
 * than pushed into CNF or DNF. Recursive axioms, axioms whose definition would exceed
 * `maxFormula`, and those left when the deadline passes stay rules.
 */
import { Deadline } from '../deadline.js';
import { stronglyConnectedComponents } from '../gdl/scc.js';
import type { GroundGame, GroundRule } from '../ground/types.js';
import { type AtomKind, atomKind, atomRelation, atomText, isOutput } from './atoms.js';
import { type Formula, FormulaTable, bodySize, mapAtoms, postOrder } from './formula.js';
import {
  type AxiomOptions, type AxiomResult, type AxiomStats, DEFAULT_AXIOM_OPTIONS, type FormulaGame, type FormulaRule,
  type KeptReason, MAX_FORMULA_DEPTH,
} from './types.js';
import { restrictAtoms, rulesByHead } from './unused.js';

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
  /** Set once the deadline has passed while writing rules: from then on nothing is substituted. */
  private late = false;

  constructor(
    readonly game: GroundGame,
    readonly options: AxiomOptions,
    readonly deadline: Deadline,
  ) {
    this.byHead = rulesByHead(game);
    this.kinds = game.atoms.map((_, id) => atomKind(game, id));
    this.def = new Array<Formula | undefined>(game.atoms.length).fill(undefined);
  }

  fits(f: Formula): boolean {
    return f.size <= this.options.maxFormula && f.depth <= MAX_FORMULA_DEPTH;
  }

  value(atom: number): Formula {
    const d = this.def[atom];
    if (d === undefined) return this.table.atom(atom);
    // Late, a definition is no longer copied in: the axiom is kept (constants still fold).
    if (this.late && d.size > 1) {
      this.keep(atom, 'deadline');
      return this.table.atom(atom);
    }
    return d;
  }

  body(rule: GroundRule): Formula {
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
        else if (this.deadline.passed()) this.keep(a, 'deadline');
        else {
          const d = this.table.or(rules.map((r) => this.body(this.game.rules[r]!)));
          if (this.fits(d)) this.def[a] = d;
          else this.keep(a, 'size');
        }
      }
    }
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
      if (!this.late && this.deadline.passed()) this.late = true;
      rules.push(...this.rulesFor(h));
    };
    for (let h = 0; h < this.game.atoms.length; h++) {
      if (isOutput(this.kinds[h]!) && this.byHead[h]!.length > 0) write(h);
    }
    while (this.pending.length > 0) write(this.pending.pop()!);
    // Stable: rules of one head keep their order.
    return rules.sort((x, y) => x.head - y.head);
  }
}

/** Renumbers the atoms of `rules` and `init` to those mentioned, in GroundGame order. */
function finish(game: GroundGame, rules: readonly FormulaRule[]): FormulaGame {
  const keep = new Uint8Array(game.atoms.length);
  for (const id of game.init) keep[id] = 1;
  for (const r of rules) keep[r.head] = 1;
  postOrder(rules.flatMap((r) => r.body), (f) => {
    if (f.kind === 'atom') keep[f.atom] = 1;
  });
  const { atoms, renumber } = restrictAtoms(game.atoms, keep);
  // One call for all bodies, so subformulas shared between rules are rebuilt once.
  const mapped = mapAtoms(rules.flatMap((r) => r.body), new FormulaTable(), (a) => renumber[a]!);
  let next = 0;
  const out = rules.map((r) => ({ head: renumber[r.head]!, body: mapped.slice(next, (next += r.body.length)) }));
  return { file: game.file, terms: game.terms, roles: game.roles, atoms, init: game.init.map((id) => renumber[id]!), rules: out };
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
  const keptByReason: Record<KeptReason, number> = { recursive: 0, size: 0, deadline: 0 };
  for (const reason of run.kept.values()) keptByReason[reason]++;
  const kept = [...run.kept.entries()].sort((x, y) => x[0] - y[0]).map(([id, reason]) => ({ atom: atomText(game, id), reason }));
  const before = sizes(game.rules.map((r) => r.pos.length + 2 * r.neg.length + (r.pos.length + r.neg.length > 1 ? 1 : 0)));
  const after = sizes(out.rules.map((r) => bodySize(r.body)));
  return {
    axioms, removed: axioms - run.kept.size, keptByReason, kept,
    rulesBefore: game.rules.length, rulesAfter: out.rules.length,
    sizeBefore: before.total, sizeAfter: after.total, largestBefore: before.largest, largestAfter: after.largest,
  };
}

const WHY: Record<KeptReason, string> = {
  recursive: 'they are recursive',
  size: 'their substitution would exceed the formula size limit',
  deadline: 'the time limit was reached',
};

/** One warning per reason: how many axioms were kept, of which relations. */
function warnings(game: GroundGame, run: Removal, options: AxiomOptions): string[] {
  const out: string[] = [];
  for (const reason of ['recursive', 'size', 'deadline'] as const) {
    const rels = new Map<string, number>();
    for (const [id, r] of run.kept) if (r === reason) rels.set(atomRelation(game, id), (rels.get(atomRelation(game, id)) ?? 0) + 1);
    if (rels.size === 0) continue;
    const total = [...rels.values()].reduce((s, n) => s + n, 0);
    const list = [...rels.entries()].sort((x, y) => (x[0] < y[0] ? -1 : 1)).map(([rel, n]) => `${rel} (${n})`).join(', ');
    const limit = reason === 'size' ? ` of ${options.maxFormula} nodes` : '';
    out.push(`axiom removal: kept ${total} ground axioms as rules because ${WHY[reason]}${limit}: ${list}`);
  }
  return out;
}

/**
 * Replaces every non-recursive axiom of `game` by its definition; pure. The result plays
 * identically; its rule bodies mention, besides `true` and `does` (and output atoms that the
 * game's own rules read), only the axioms reported as kept.
 */
export function removeAxioms(game: GroundGame, options: AxiomOptions = DEFAULT_AXIOM_OPTIONS, deadline = Deadline.never()): AxiomResult {
  const run = new Removal(game, options, deadline);
  run.defineAxioms();
  const out = finish(game, run.writeRules());
  return { game: out, stats: statistics(game, run, out), warnings: warnings(game, run, options) };
}
