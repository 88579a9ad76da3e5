/**
 * The GDDL model of a game (Kissmann, slides 44-49; docs/gddl.md): a pure function of the game
 * without axioms and its mutex groups. Multi-actions join one move per role, with the
 * conjunction of their legal conditions as global precondition and one precondition/effect
 * pair per fluent that can hold after them (the `next` formula with `does` replaced by true or
 * false); rewards come from the `goal` rules; axioms kept as rules become derived predicates,
 * evaluated stratum by stratum, except those over `does`, which are substituted into the
 * specialized effects. Everything is sorted: the output is deterministic.
 */
import { atomsOf, gameParts, type GameParts } from './parts.js';
import type { Formula, Step } from '../../axioms/formula.js';
import type { FormulaGame } from '../../axioms/types.js';
import type { Deadline } from '../../deadline.js';
import { NO_POS } from '../../gdl/ast.js';
import { GdlError, deadlineError, diag } from '../../gdl/diagnostics.js';
import { compareCodePoints } from '../../gdl/terms.js';
import { stronglyConnectedComponents } from '../../gdl/scc.js';
import type { MutexGroup } from '../../mutex/index.js';
import { type Combinations, type ProvenGroups, type RoleMoves, combinations, describeSizes } from './combine.js';
import { necessaryLiterals } from './literals.js';
import { DERIVED_PREFIX, escapeSymbol, termName } from './names.js';
import { Specializer } from './specialize.js';
import type { GddlOptions } from './options.js';


/** A precondition/effect pair: `fluent` holds after the multi-action when `condition` holds before. */
interface GddlEffect {
  readonly condition: Formula;
  readonly fluent: string;
}

/** One multi-action: a move per role (index into {@link GddlModel.moves}), its preconditions and effects. */
interface MultiAction {
  readonly moves: Int32Array;
  readonly precondition: Formula;
  /** Sorted by fluent name; fluents whose condition simplified to false are left out. */
  readonly effects: readonly GddlEffect[];
}

/** A derived predicate (an axiom kept as a rule) with its stratum (1 first). */
interface GddlDerived {
  readonly name: string;
  readonly stratum: number;
  readonly condition: Formula;
}

/** A reward: `role` gets `value` in states where `condition` holds. */
interface GddlReward {
  readonly role: string;
  readonly value: string;
  readonly condition: Formula;
}

/** A group of the partition: proven or observed mutex group, or a singleton. */
interface GddlGroup {
  readonly status: 'proven' | 'observed' | 'singleton';
  readonly exactlyOne: boolean;
  readonly members: readonly string[];
}

/** Sizes for `--stats`. */
interface GddlStats {
  readonly movesPerRole: readonly number[];
  /** The product of the roles' move counts. */
  readonly crossProduct: bigint;
  /** Multi-actions written. */
  readonly written: number;
  /** Combinations the proven mutex groups left whose global precondition simplified to false. */
  readonly falsePreconditions: number;
  /** Per role, moves whose `does` occurs in no `next` formula (they change nothing: noops). */
  readonly noops: readonly number[];
  /** True when every multi-action has at most one role playing a move other than a noop. */
  readonly turnTaking: boolean;
  readonly derived: number;
  /** Compatibility tests the combination search made. */
  readonly tests: number;
}

/** The GDDL model of a game; formulas are over atom ids of the game, named by `atomName`. */
export interface GddlModel {
  /** The domain's name: the escaped base name of the game file. */
  readonly name: string;
  readonly roles: readonly string[];
  /** Per role, the names of its moves. */
  readonly moves: readonly (readonly string[])[];
  /** Every fluent's name, sorted. */
  readonly fluents: readonly string[];
  /** Per atom id, the name of its predicate in formulas (fluents, derived predicates); '' otherwise. */
  readonly atomName: readonly string[];
  readonly derived: readonly GddlDerived[];
  readonly actions: readonly MultiAction[];
  readonly rewards: readonly GddlReward[];
  /** Fluents of the initial state, sorted. */
  readonly init: readonly string[];
  readonly terminal: Formula;
  readonly groups: readonly GddlGroup[];
  readonly stats: GddlStats;
}

function formatError(file: string, message: string): GdlError {
  return new GdlError([diag('error', file, NO_POS, message)], 'limit', { kind: 'output' });
}

/** Names of atoms in formulas: `(true F)` is F's name, a kept axiom `_ax-` and its name. */
function atomNames(parts: GameParts): string[] {
  const { game } = parts;
  const kept = new Set(parts.kept);
  return game.atoms.map((a, i) => {
    if (game.terms.symbolName(a.rel) === 'true') return termName(game.terms, a.args[0]!);
    return kept.has(i) ? `${DERIVED_PREFIX}-${termName(game.terms, a.term)}` : '';
  });
}

/**
 * Kept axioms with their strata: each recursive component is a stratum, dependencies first.
 * A kept axiom that depends on `does` (directly or through another) is no function of the
 * state, so it cannot be a derived predicate: it is returned in `inline` instead, to be
 * substituted into the `next` formulas as they are specialized to each multi-action (where
 * `does` becomes a constant). A recursive one cannot be substituted: a limit error.
 */
function derivedPredicates(parts: GameParts, names: readonly string[]): { derived: GddlDerived[]; inline: Map<number, Formula> } {
  const index = new Map(parts.kept.map((a, i) => [a, i]));
  const uses = parts.kept.map((a) => atomsOf(parts.definition.get(a)!));
  const succ = uses.map((atoms) => atoms.flatMap((b) => (index.has(b) ? [index.get(b)!] : [])));
  const out: GddlDerived[] = [];
  const inline = new Map<number, Formula>();
  const text = (v: number): string => parts.game.terms.text(parts.game.atoms[parts.kept[v]!]!.term);
  // Components come dependencies first, so whether a component depends on does is known from
  // its own definitions and the components before it.
  stronglyConnectedComponents(parts.kept.length, (v) => succ[v]!).forEach((component, s) => {
    const onDoes = component.some((v) => uses[v]!.some((b) => parts.isDoes[b] === 1 || inline.has(b)));
    if (!onDoes) {
      for (const v of component) out.push({ name: names[parts.kept[v]!]!, stratum: s + 1, condition: parts.definition.get(parts.kept[v]!)! });
      return;
    }
    if (component.length > 1 || succ[component[0]!]!.includes(component[0]!)) {
      throw formatError(parts.game.file, `GDDL: the kept axiom ${text(component[0]!)} is recursive and depends on does, which a derived predicate cannot express`);
    }
    inline.set(parts.kept[component[0]!]!, parts.definition.get(parts.kept[component[0]!]!)!);
  });
  return { derived: out.sort((x, y) => x.stratum - y.stratum || compareCodePoints(x.name, y.name)), inline };
}

/** The fluents of the game (of `init`, `true` and `next` atoms) by name, sorted. */
function fluentNames(parts: GameParts): Map<string, string> {
  const { game } = parts;
  const byText = new Map<string, string>();
  game.atoms.forEach((a) => {
    const rel = game.terms.symbolName(a.rel);
    if (rel !== 'true' && rel !== 'next') return;
    byText.set(game.terms.text(a.args[0]!), termName(game.terms, a.args[0]!));
  });
  return byText;
}

/** The partition: the mutex groups over the game's fluents, then a singleton for every other fluent. */
function partition(groups: readonly MutexGroup[], byText: ReadonlyMap<string, string>): GddlGroup[] {
  const out: GddlGroup[] = [];
  const placed = new Set<string>();
  for (const g of groups) {
    const members = g.members.flatMap((m) => (byText.has(m) && !placed.has(byText.get(m)!) ? [byText.get(m)!] : [])).sort(compareCodePoints);
    if (members.length === 0) continue;
    for (const m of members) placed.add(m);
    out.push({ status: g.proven ? 'proven' : 'observed', exactlyOne: g.exactlyOne, members });
  }
  for (const name of byText.values()) if (!placed.has(name)) out.push({ status: 'singleton', exactlyOne: false, members: [name] });
  return out.sort((x, y) => compareCodePoints(x.members[0]!, y.members[0]!));
}

/**
 * Per `true` atom in a proven group of two or more members or a proven exactly-one group, the
 * group's index; and the exactly-one groups' sizes (all members counted, those without a `true`
 * atom too: no move can need them false, so the group is never found empty by mistake).
 */
function provenGroups(game: FormulaGame, groups: readonly MutexGroup[]): ProvenGroups {
  const trueAtom = new Map<string, number>();
  game.atoms.forEach((a, i) => {
    if (game.terms.symbolName(a.rel) === 'true') trueAtom.set(game.terms.text(a.args[0]!), i);
  });
  const groupOf = new Map<number, number>();
  const exactlyOne = new Map<number, number>();
  groups.forEach((g, gi) => {
    if (!g.proven || (g.members.length < 2 && !g.exactlyOne)) return;
    if (g.exactlyOne) exactlyOne.set(gi, g.members.length);
    for (const m of g.members) {
      const atom = trueAtom.get(m);
      if (atom !== undefined) groupOf.set(atom, gi);
    }
  });
  return { groupOf, exactlyOne };
}

/** The multi-actions of the combinations kept, with the effect pairs specialized to each. */
function multiActions(parts: GameParts, combos: Combinations, spec: Specializer, step: Step): { actions: MultiAction[]; falsePreconditions: number } {
  const { table, game } = parts;
  const effects = parts.next
    .map((n) => ({ fluent: termName(game.terms, game.atoms[n]!.args[0]!), formula: parts.definition.get(n)! }))
    .sort((x, y) => compareCodePoints(x.fluent, y.fluent));
  const actions: MultiAction[] = [];
  let falsePreconditions = 0;
  for (const moves of combos.combos) {
    const chosen = parts.moves.map((ms, r) => ms[moves[r]!]!);
    const precondition = table.and(chosen.map((m) => parts.definition.get(m.legal)!));
    if (precondition.kind === 'false') {
      falsePreconditions++;
      continue;
    }
    const on = new Set(chosen.map((m) => m.does).filter((d) => d >= 0));
    const pairs: GddlEffect[] = [];
    for (const e of effects) {
      step();
      const condition = spec.specialize(e.formula, on);
      if (condition.kind !== 'false') pairs.push({ condition, fluent: e.fluent });
    }
    actions.push({ moves, precondition, effects: pairs });
  }
  return { actions, falsePreconditions };
}

/** Per role, how many moves are noops, and whether every multi-action moves at most one role. */
function turnTaking(parts: GameParts, actions: readonly MultiAction[], spec: Specializer): { noops: number[]; turnTaking: boolean } {
  const used = new Set<number>();
  for (const n of parts.next) for (const a of spec.movesIn(parts.definition.get(n)!)) used.add(a);
  const isNoop = parts.moves.map((ms) => ms.map((m) => m.does < 0 || !used.has(m.does)));
  const turn = actions.every((a) => isNoop.filter((noop, r) => !noop[a.moves[r]!]).length <= 1);
  return { noops: isNoop.map((ns) => ns.filter(Boolean).length), turnTaking: turn };
}

/**
 * The GDDL model of `game` (axioms removed, docs/axioms.md) with `groups` (mutex groups of its
 * fluents; only proven ones are used to drop combinations, all are written to the partition).
 * Throws a limit error beyond `options.maxActions` multi-actions, when a kept axiom depends on
 * `does`, or past `deadline`.
 */
export function buildGddl(game: FormulaGame, groups: readonly MutexGroup[], options: GddlOptions, deadline: Deadline): GddlModel {
  const step: Step = () => {
    if (deadline.tick()) throw deadlineError(deadline, game.file, NO_POS, 'writing GDDL');
  };
  const parts = gameParts(game, deadline);
  const names = atomNames(parts);
  const { derived, inline } = derivedPredicates(parts, names);
  const spec = new Specializer(parts.table, parts.isDoes, inline, step);
  const roles = game.roles.map((r) => termName(game.terms, r));
  const legal = parts.moves.map((ms) => necessaryLiterals(ms.map((m) => parts.definition.get(m.legal)!)));
  const roleMoves: RoleMoves[] = roles.map((role, r) => ({ role, literals: legal[r]! }));
  const combos = combinations(roleMoves, provenGroups(game, groups), { maxActions: options.maxActions, deadline, file: game.file });
  const pairs = combos.combos.length * parts.next.length;
  if (pairs > options.maxEffects) {
    throw formatError(game.file, `GDDL: ${combos.combos.length} multi-actions times ${parts.next.length} fluents = up to ${pairs} precondition/effect pairs, over the limit of ${options.maxEffects} (--max-effects): ${describeSizes(roleMoves)}`);
  }
  const { actions, falsePreconditions } = multiActions(parts, combos, spec, step);
  const byText = fluentNames(parts);
  const roleOrder = new Map(roles.map((r, i) => [r, i]));
  // Only roles get rewards: a goal atom of something else (a relaxed game can let the role
  // argument range over cell contents) is no reward; where a rule reads it, it was inlined.
  const rewards = parts.goals.flatMap((g) => {
    const a = game.atoms[g]!;
    const role = termName(game.terms, a.args[0]!);
    return roleOrder.has(role) ? [{ role, value: termName(game.terms, a.args[1]!), condition: parts.definition.get(g)! }] : [];
  });
  rewards.sort((x, y) => roleOrder.get(x.role)! - roleOrder.get(y.role)! || compareCodePoints(x.value, y.value));
  const tt = turnTaking(parts, actions, spec);
  return {
    name: escapeSymbol(baseName(game.file).replace(/\.[^.]*$/, '') || 'game'),
    roles,
    moves: parts.moves.map((ms) => ms.map((m) => termName(game.terms, m.term))),
    fluents: [...byText.values()].sort(compareCodePoints),
    atomName: names,
    derived,
    actions,
    rewards,
    init: game.init.map((i) => names[i]!).sort(compareCodePoints),
    terminal: parts.terminal < 0 ? parts.table.FALSE : parts.definition.get(parts.terminal)!,
    groups: partition(groups, byText),
    stats: {
      movesPerRole: parts.moves.map((ms) => ms.length),
      crossProduct: combos.crossProduct,
      written: actions.length,
      falsePreconditions,
      ...tt,
      derived: derived.length,
      tests: combos.tests,
    },
  };
}

/** The last segment of a `/`-separated path, as node:path's posix `basename` (the core imports no `node:` module). */
function baseName(file: string): string {
  return file.replace(/\/+$/, '').split('/').pop() ?? '';
}
