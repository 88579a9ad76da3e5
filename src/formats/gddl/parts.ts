/**
 * A game without axioms read by what GDDL needs of it: one formula per output atom (the
 * disjunction of its rule bodies) in one fresh formula table, and the roles, moves and fluents
 * by id. Formulas of the FormulaGame are rebuilt in that table, so that the multi-actions can
 * build on them with shared, simplified subformulas.
 */
import { atomKind } from '../../axioms/atoms.js';
import { type Formula, FormulaTable, type Step, mapAtoms, substituteAtoms } from '../../axioms/formula.js';
import type { FormulaGame } from '../../axioms/types.js';
import type { Deadline } from '../../deadline.js';
import { NO_POS } from '../../gdl/ast.js';
import { GdlError, deadlineError, diag } from '../../gdl/diagnostics.js';
import { stronglyConnectedComponents } from '../../gdl/scc.js';

/** A move of a role: its legal atom, its does atom (-1 when no rule mentions it), the move term. */
interface GameMove {
  readonly legal: number;
  readonly does: number;
  readonly term: number;
}

/** The game as the GDDL model reads it; every formula lives in `table`. */
export interface GameParts {
  readonly game: FormulaGame;
  readonly table: FormulaTable;
  /** Per head atom (legal, next, goal, terminal, kept axiom): the disjunction of its rule bodies. */
  readonly definition: ReadonlyMap<number, Formula>;
  /** Per role (in order), its moves in atom order (that is, sorted by the legal atom's text). */
  readonly moves: readonly (readonly GameMove[])[];
  /** The `next` atoms, in atom order. */
  readonly next: readonly number[];
  /** The `goal` atoms, in atom order. */
  readonly goals: readonly number[];
  /** The `terminal` atom, or -1 when the game has none. */
  readonly terminal: number;
  /** Axioms kept as rules (recursive or over budget), in atom order. */
  readonly kept: readonly number[];
  /** Per `does` atom id: true. */
  readonly isDoes: Uint8Array;
}

/** Reads `game` into {@link GameParts}; past `deadline` a limit error. */
export function gameParts(game: FormulaGame, deadline: Deadline): GameParts {
  const table = new FormulaTable();
  const step = (): void => {
    if (deadline.tick()) throw deadlineError(deadline, game.file, NO_POS, 'writing GDDL');
  };
  const bodies = new Map<number, Formula[]>();
  for (const r of game.rules) {
    const body = table.and(mapAtoms(r.body, table, (a) => a, step));
    const list = bodies.get(r.head);
    if (list === undefined) bodies.set(r.head, [body]);
    else list.push(body);
  }
  const definition = new Map<number, Formula>();
  for (const [head, list] of bodies) definition.set(head, table.or(list));
  inlineOutputReads(game, table, definition, step);
  const roleIndex = new Map(game.roles.map((r, i) => [r, i]));
  // The does atom of each legal atom, and which atoms are does atoms: the game's vocabulary.
  const doesOf = new Int32Array(game.atoms.length).fill(-1);
  const isDoes = new Uint8Array(game.atoms.length);
  for (const m of game.vocabulary.moves) {
    if (m.legalId >= 0) doesOf[m.legalId] = m.doesId;
    if (m.doesId >= 0) isDoes[m.doesId] = 1;
  }
  const moves: GameMove[][] = game.roles.map(() => []);
  const next: number[] = [];
  const goals: number[] = [];
  const kept: number[] = [];
  let terminal = -1;
  game.atoms.forEach((a, i) => {
    if (!definition.has(i)) return;
    const kind = atomKind(game, i);
    if (kind === 'legal') {
      const role = roleIndex.get(a.args[0]!);
      if (role !== undefined) moves[role]!.push({ legal: i, does: doesOf[i]!, term: a.args[1]! });
    } else if (kind === 'next') next.push(i);
    else if (kind === 'goal') goals.push(i);
    else if (kind === 'terminal') terminal = i;
    else if (kind === 'axiom') kept.push(i);
  });
  return { game, table, definition, moves, next, goals, terminal, kept, isDoes };
}

const READ_OUTPUTS = new Set(['legal', 'goal', 'terminal']);

/**
 * Replaces, in every definition, each `legal`, `goal` or `terminal` atom a body reads (some
 * games test `(goal red 100)` or `terminal` in other rules) by that atom's definition (false
 * without rules), as the RDDL writer does: these atoms have no GDDL name, and once axioms are
 * removed their definitions are formulas over the state. The definitions of the atoms read are
 * resolved dependencies first; a cycle among them (GDL's stratification allows a positive one)
 * is a limit error. Definitions that read no such atom keep their formula, so their output is
 * unchanged.
 */
function inlineOutputReads(game: FormulaGame, table: FormulaTable, definition: Map<number, Formula>, step: Step): void {
  const isRead = (a: number): boolean => READ_OUTPUTS.has(atomKind(game, a));
  const heads = [...definition.keys()];
  const reads = heads.map((h) => atomsOf(definition.get(h)!).filter(isRead));
  if (reads.every((r) => r.length === 0)) return;
  const node = new Map(heads.map((h, i) => [h, i]));
  const succ = reads.map((r) => r.flatMap((a) => (node.has(a) ? [node.get(a)!] : [])));
  const resolved = new Map<number, Formula>();
  const lookup = (a: number): Formula => (isRead(a) ? resolved.get(a) ?? table.FALSE : table.atom(a));
  for (const component of stronglyConnectedComponents(heads.length, (v) => succ[v]!)) {
    const v = component[0]!;
    if (component.length > 1 || succ[v]!.includes(v)) {
      const text = game.terms.text(game.atoms[heads[v]!]!.term);
      throw new GdlError([diag('error', game.file, NO_POS, `GDDL: ${text} reads itself through legal, goal or terminal atoms, which cannot be inlined`)], 'limit', { kind: 'output' });
    }
    const h = heads[v]!;
    const f = reads[v]!.length === 0 ? definition.get(h)! : substituteAtoms([definition.get(h)!], table, lookup, step)[0]!;
    definition.set(h, f);
    resolved.set(h, f);
  }
}

/** The atom ids a formula mentions, ascending, each once. */
export function atomsOf(f: Formula): number[] {
  const out = new Set<number>();
  const seen = new Set<number>();
  const stack = [f];
  while (stack.length > 0) {
    const g = stack.pop()!;
    if (seen.has(g.id)) continue;
    seen.add(g.id);
    if (g.kind === 'atom') out.add(g.atom);
    else if (g.kind === 'not') stack.push(g.arg);
    else if (g.kind === 'and' || g.kind === 'or') stack.push(...g.args);
  }
  return [...out].sort((a, b) => a - b);
}
