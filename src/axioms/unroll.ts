/**
 * Unrolling of the recursive axioms that axiom removal keeps (docs/axioms.md, "recursive"):
 * a pure FormulaGame -> FormulaGame transform whose result has no cycle through axioms, for
 * targets without recursion (RDDL). Each recursive ground SCC C is replaced by the layers of
 * its least fixpoint: layer 0 is false everywhere, layer k of atom a is a's body with every
 * member of C read at layer k-1, and a itself is layer L = |C| (the bound; docs/rddl.md).
 *
 * Why L = |C| layers reach the fixpoint: within C every edge is positive (the game is
 * stratified), and the atoms below C are fixed when C is evaluated, so the layers form an
 * increasing chain of subsets of C (induction: layer 1 contains layer 0 = {}, and bodies are
 * monotone in C). A chain that stops growing has reached the least fixpoint; one that keeps
 * growing adds at least one atom per layer, so it cannot grow more than |C| times.
 */
import { NO_POS } from '../gdl/ast.js';
import { GdlError, deadlineError, diag } from '../gdl/diagnostics.js';
import { stronglyConnectedComponents } from '../gdl/scc.js';
import { compareCodePoints } from '../gdl/terms.js';
import { TermTable } from '../datalog/terms.js';
import type { GroundAtom } from '../ground/types.js';
import { groundVocabulary } from '../ground/vocabulary.js';
import { atomKind } from './atoms.js';
import { type Formula, FormulaTable, postOrder, substituteAtoms } from './formula.js';
import { Deadline } from '../deadline.js';
import type { FormulaGame, FormulaRule } from './types.js';

/** What unrolling did, for `--stats` and reports. */
export interface UnrollStats {
  /** Recursive ground SCCs unrolled. */
  readonly components: number;
  /** Ground axiom atoms in them. */
  readonly atoms: number;
  /** Largest number of layers of one component (its atom count). */
  readonly maxLayers: number;
  /** Rules added for the layers below the top one. */
  readonly rulesAdded: number;
}

/** Options of unrolling, resolved by the caller. */
interface UnrollOptions {
  /** Largest number of layer rules the unrolling may add (guards against quadratic blow-up). */
  readonly maxRules: number;
}

/** Default: at most a million layer rules. */
export const DEFAULT_UNROLL_OPTIONS: UnrollOptions = { maxRules: 1_000_000 };

/** The atom ids occurring in `body`. */
function bodyAtoms(body: readonly Formula[]): number[] {
  const out: number[] = [];
  postOrder(body, (f) => {
    if (f.kind === 'atom') out.push(f.atom);
  });
  return out;
}

/** The recursive components of the axiom dependency graph (more than one atom, or a self-loop). */
function recursiveComponents(game: FormulaGame, rulesOf: readonly (readonly FormulaRule[])[]): number[][] {
  const succ: number[][] = rulesOf.map((rules, head) => (rules.length === 0 || atomKind(game, head) !== 'axiom' ? [] : rules.flatMap((r) => bodyAtoms(r.body))));
  return stronglyConnectedComponents(game.atoms.length, (v) => succ[v]!).filter((c) => c.length > 1 || succ[c[0]!]!.includes(c[0]!));
}

/** A relation name not used in the game: `gdl_layer`, with `_` and a number added if taken. */
function freshRelation(game: FormulaGame): string {
  let name = 'gdl_layer';
  for (let i = 2; game.terms.findSymbol(name) >= 0; i++) name = `gdl_layer_${i}`;
  return name;
}

/** Negation inside a component would make the layers non-monotone; stratified games have none. */
function checkPositive(game: FormulaGame, members: ReadonlySet<number>, rules: readonly FormulaRule[]): void {
  for (const r of rules) {
    postOrder(r.body, (f) => {
      if (f.kind === 'not' && bodyAtoms([f.arg]).some((a) => members.has(a))) {
        throw new GdlError([diag('error', game.file, NO_POS, `recursion through negation in the ground axiom ${game.terms.text(game.atoms[r.head]!.term)}: it cannot be unrolled`)]);
      }
    });
  }
}

/**
 * Replaces every recursive ground SCC of axioms by the layers of its least fixpoint (see the
 * file comment). Layer k < L of atom a is the new atom `(gdl_layer k a)` (relation name made
 * fresh); the top layer keeps a's own atom, so every user of a is unchanged. Atoms follow the
 * GroundGame contract again (sorted by text, renumbered); a component whose layers would add
 * more than `options.maxRules` rules is a limit error, and so is the deadline (checked per layer).
 */
export function unrollRecursion(game: FormulaGame, options: UnrollOptions = DEFAULT_UNROLL_OPTIONS, deadline: Deadline): { game: FormulaGame; stats: UnrollStats } {
  const rulesOf: FormulaRule[][] = game.atoms.map(() => []);
  for (const r of game.rules) rulesOf[r.head]!.push(r);
  const components = recursiveComponents(game, rulesOf);
  if (components.length === 0) return { game, stats: { components: 0, atoms: 0, maxLayers: 0, rulesAdded: 0 } };
  const rulesAdded = components.reduce((n, c) => n + (c.length - 1) * c.reduce((m, a) => m + rulesOf[a]!.length, 0), 0);
  if (rulesAdded > options.maxRules) {
    throw new GdlError([diag('error', game.file, NO_POS, `unrolling the recursive axioms would add ${rulesAdded} rules (limit ${options.maxRules})`)], 'limit', { kind: 'rules' });
  }
  // A new term table holding the game's atoms and the layer atoms (the game's table is read only).
  const terms = new TermTable();
  const copy = (id: number): number => terms.fromTerm(game.terms.toTerm(id));
  const layerRel = terms.symbol(freshRelation(game));
  const oldTerms = game.atoms.map((a) => copy(a.term));
  const layerTerm = (k: number, atom: number): number => terms.make(layerRel, [terms.constant(String(k)), oldTerms[atom]!]);
  // Every atom, old and new, keyed by its term; sorted by text they get their new ids.
  const all: { term: number; old: number; layer: number }[] = game.atoms.map((_, i) => ({ term: oldTerms[i]!, old: i, layer: -1 }));
  for (const c of components) for (let k = 1; k < c.length; k++) for (const a of c) all.push({ term: layerTerm(k, a), old: a, layer: k });
  all.sort((x, y) => compareCodePoints(terms.text(x.term), terms.text(y.term)));
  const newId = new Map<number, number>(all.map((e, i) => [e.term, i]));
  const atoms: GroundAtom[] = all.map((e) => ({ term: e.term, rel: terms.functor(e.term), args: terms.args(e.term) }));
  const table = new FormulaTable();
  const plain = (a: number): Formula => table.atom(newId.get(oldTerms[a]!)!);
  const rules: FormulaRule[] = [];
  const inComponent = new Map<number, number>();
  components.forEach((c, i) => c.forEach((a) => inComponent.set(a, i)));
  for (const r of game.rules) if (!inComponent.has(r.head)) rules.push({ head: newId.get(oldTerms[r.head]!)!, body: substituteAtoms(r.body, table, plain) });
  for (const c of components) {
    const members = new Set(c);
    checkPositive(game, members, c.flatMap((a) => rulesOf[a]!));
    const L = c.length;
    // Member b read at layer k < L: false at 0, else its layer atom.
    const at = (k: number) => (b: number): Formula => {
      if (!members.has(b)) return plain(b);
      return k === 0 ? table.FALSE : table.atom(newId.get(layerTerm(k, b))!);
    };
    for (let k = 1; k <= L; k++) {
      if (deadline.passed()) throw deadlineError(deadline, game.file, NO_POS, 'unrolling recursive axioms');
      for (const a of c) {
        const head = newId.get(k === L ? oldTerms[a]! : layerTerm(k, a))!;
        for (const r of rulesOf[a]!) {
          // Members read as false at layer 0 make some bodies false: those rules are dropped.
          const body = substituteAtoms(r.body, table, at(k - 1)).filter((f) => f !== table.TRUE);
          if (!body.includes(table.FALSE)) rules.push({ head, body });
        }
      }
    }
  }
  rules.sort((x, y) => x.head - y.head);
  const init = game.init.map((i) => newId.get(oldTerms[i]!)!).sort((x, y) => x - y);
  const roles = game.roles.map(copy);
  const maxLayers = Math.max(...components.map((c) => c.length));
  const out: FormulaGame = { file: game.file, terms, roles, atoms, init, rules, vocabulary: groundVocabulary({ terms, atoms }) };
  return { game: out, stats: { components: components.length, atoms: inComponent.size, maxLayers, rulesAdded } };
}
