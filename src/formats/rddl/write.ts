/**
 * A single-player game without recursive axioms (axiom removal, then `unrollRecursion`) as an
 * RDDL domain and instance, after Brand's design (section 3.2) on the ground game; the mapping
 * rule by rule is in docs/rddl.md. Deterministic byte for byte.
 */
import { atomKind } from '../../axioms/atoms.js';
import { READ_KEYWORDS } from '../../gdl/keywords.js';
import { atomText } from '../../ground/atoms.js';
import { type Formula, type Step } from '../../axioms/formula.js';
import type { FormulaGame } from '../../axioms/types.js';
import { Deadline } from '../../deadline.js';
import { NO_POS } from '../../gdl/ast.js';
import { GdlError, deadlineError, diag } from '../../gdl/diagnostics.js';
import { stronglyConnectedComponents } from '../../gdl/scc.js';
import type { Vocabulary } from '../../ground/vocabulary.js';
import { type AtomExpr, balanced, definitionText, definitionValue } from './expr.js';
import { defaultHorizon } from './horizon.js';
import { TERMINAL_ACTION, TERMINAL_STATE, rddlIdentifier, rddlName } from './names.js';

/** Options of the RDDL writer, resolved by the caller. */
export interface RddlOptions {
  /** Steps of an episode; undefined: the detected game length + 1, else 100 (horizon.ts). */
  readonly horizon?: number;
}

/** The two files of an RDDL translation, and what was decided on the way. */
export interface RddlFiles {
  /** `<game>_mdp.rddl`: the domain. */
  readonly domain: string;
  /** `<game>_inst.rddl`: the instance (initial state, horizon). */
  readonly instance: string;
  readonly horizon: number;
  /** True when the horizon came from a detected step counter. */
  readonly horizonDetected: boolean;
}

function invalid(game: FormulaGame, message: string): GdlError {
  return new GdlError([diag('error', game.file, NO_POS, message)]);
}

/** `legal`, `goal` and `terminal` atoms read in rule bodies are written as their definition. */
const isInlined = (game: FormulaGame, a: number): boolean => READ_KEYWORDS.has(atomKind(game, a));

/**
 * The axioms with rules, written as derived fluents, dependencies first, each marked
 * action-dependent (interm, with its level) or not. `legal`, `goal` and `terminal` atoms that
 * bodies read (some games test `(goal red 100)` or `(legal you m)` in other rules) are inlined
 * (their definitions are outputs of axiom removal: small, over the state), so a fluent's
 * dependencies are looked up through them.
 */
function orderAxioms(game: FormulaGame, rulesOf: readonly (readonly (readonly Formula[])[])[]): { order: number[]; interm: Map<number, number> } {
  const bodyAtoms: Set<number>[] = rulesOf.map((bodies) => {
    const seen = new Set<number>();
    for (const b of bodies) for (const f of b) collectAtoms(f, seen);
    return seen;
  });
  const isDerived = (a: number): boolean => atomKind(game, a) === 'axiom' && rulesOf[a]!.length > 0;
  // The atoms a head reads, seen through inlined outputs (iteratively; stratified, so finite).
  const reads = (head: number): Set<number> => {
    const out = new Set<number>();
    const stack = [...bodyAtoms[head]!];
    while (stack.length > 0) {
      const b = stack.pop()!;
      if (out.has(b)) continue;
      out.add(b);
      if (isInlined(game, b)) stack.push(...bodyAtoms[b]!);
    }
    return out;
  };
  const readSets = game.atoms.map((_, head) => (isDerived(head) ? reads(head) : new Set<number>()));
  const deps: number[][] = readSets.map((r) => [...r].filter(isDerived));
  const order: number[] = [];
  // Interm-fluent -> its level: 1 + the largest level of the interm-fluents it reads.
  const interm = new Map<number, number>();
  // Components come dependencies first; after unrolling each is one atom without a self-loop.
  for (const c of stronglyConnectedComponents(game.atoms.length, (v) => deps[v]!)) {
    const a = c[0]!;
    if (!isDerived(a)) continue;
    if (c.length > 1 || deps[a]!.includes(a)) throw invalid(game, `the axiom ${atomText(game, a)} is recursive: unroll the game first`);
    order.push(a);
    const usesDoes = [...readSets[a]!].some((b) => atomKind(game, b) === 'does');
    const below = deps[a]!.filter((d) => interm.has(d)).map((d) => interm.get(d)!);
    if (usesDoes || below.length > 0) interm.set(a, 1 + Math.max(0, ...below));
  }
  return { order, interm };
}

/** Adds the atom ids of `f` to `out` (iteratively; formulas can be deep). */
function collectAtoms(f: Formula, out: Set<number>): void {
  const stack = [f];
  while (stack.length > 0) {
    const g = stack.pop()!;
    if (g.kind === 'atom') out.add(g.atom);
    else if (g.kind === 'not') stack.push(g.arg);
    else if (g.kind === 'and' || g.kind === 'or') stack.push(...g.args);
  }
}

/** Everything the two files are written from. */
interface Model {
  readonly game: FormulaGame;
  readonly vocab: Vocabulary;
  readonly rulesOf: readonly (readonly (readonly Formula[])[])[];
  readonly order: readonly number[];
  /** The action-dependent derived fluents (interm-fluents) and their levels. */
  readonly interm: ReadonlyMap<number, number>;
  readonly step: Step;
  /** Texts of the inlined legal, goal and terminal atoms read in bodies, made once per emit. */
  readonly inlined: Map<string, string>;
}

/** How atom ids read in expressions: current state (`primed` false) or next state. */
function atomExpr(m: Model, primed: boolean): AtomExpr {
  const prime = primed ? "'" : '';
  return (a) => {
    const kind = atomKind(m.game, a);
    const text = atomText(m.game, a);
    if (kind === 'true') return rddlName('fluent', m.game.terms.text(m.game.atoms[a]!.args[0]!)) + prime;
    if (kind === 'does') {
      if (primed) throw invalid(m.game, `a derived fluent depends on a move through ${text}`);
      return rddlName('action', m.game.terms.text(m.game.atoms[a]!.args[1]!));
    }
    if (kind === 'next') throw invalid(m.game, `${text} is used in a rule body, which RDDL output does not support`);
    if (isInlined(m.game, a)) {
      const key = `${a}${prime}`;
      let t = m.inlined.get(key);
      if (t === undefined) m.inlined.set(key, (t = `(${definitionText(m.rulesOf[a]!, atomExpr(m, primed), m.step)})`));
      return t;
    }
    if (m.rulesOf[a]!.length === 0) return 'false';
    if (m.interm.has(a) && primed) throw invalid(m.game, `the action-dependent axiom ${text} is used where only the state may be read`);
    return rddlName('derived', text) + (m.interm.has(a) ? '' : prime);
  };
}

/** The goal value of a goal atom as a number (RDDL rewards are numbers). */
function goalValue(game: FormulaGame, text: string): number {
  const v = Number(text);
  if (!Number.isFinite(v) || text.trim() === '') throw invalid(game, `goal value ${text} is not a number`);
  return v;
}

/** KIF text of term `t` of the game (vocabulary entries hold term ids). */
function termText(m: Model, t: number): string {
  return m.game.terms.text(t);
}

function pvariables(m: Model): string[] {
  const lines = ['  pvariables {', `    ${TERMINAL_STATE} : { state-fluent, bool, default = false };`];
  for (const f of m.vocab.fluents) lines.push(`    ${rddlName('fluent', termText(m, f.term))} : { state-fluent, bool, default = false };`);
  for (const a of m.order) {
    const kind = m.interm.has(a) ? `interm-fluent, bool, level = ${m.interm.get(a)!}` : 'state-fluent, bool, default = false';
    lines.push(`    ${rddlName('derived', atomText(m.game, a))} : { ${kind} };`);
  }
  for (const mv of m.vocab.moves) lines.push(`    ${rddlName('action', termText(m, mv.action))} : { action-fluent, bool, default = false };`);
  lines.push(`    ${TERMINAL_ACTION} : { action-fluent, bool, default = false };`, '  };');
  return lines;
}

function cpfs(m: Model): string[] {
  const now = atomExpr(m, false);
  const next = atomExpr(m, true);
  // The terminal action is allowed exactly in terminal states, and there it is the only one:
  // taking it is what freezes the state.
  const lines = ['  cpfs {', `    ${TERMINAL_STATE}' = (${TERMINAL_STATE} | ${TERMINAL_ACTION});`];
  for (const f of m.vocab.fluents) {
    const name = rddlName('fluent', termText(m, f.term));
    const update = f.nextId < 0 ? 'false' : definitionText(m.rulesOf[f.nextId]!, now, m.step);
    lines.push(`    ${name}' = if (${TERMINAL_ACTION}) then ${name} else (${update});`);
  }
  for (const a of m.order) {
    const name = rddlName('derived', atomText(m.game, a));
    if (m.interm.has(a)) lines.push(`    ${name} = ${definitionText(m.rulesOf[a]!, now, m.step)};`);
    else lines.push(`    ${name}' = ${definitionText(m.rulesOf[a]!, next, m.step)};`);
  }
  lines.push('  };');
  return lines;
}

/** GDL's terminal over the current state (`false` without terminal rules). */
function terminalText(m: Model): string {
  return m.vocab.terminal < 0 ? 'false' : definitionText(m.rulesOf[m.vocab.terminal]!, atomExpr(m, false), m.step);
}

function reward(m: Model): string[] {
  const now = atomExpr(m, false);
  const role = m.game.terms.text(m.game.roles[0]!);
  let goals = '0';
  // Tested in reverse so that the text reads in goal order: the first goal that holds is paid.
  const mine = m.vocab.goals.filter((g) => termText(m, g.role) === role);
  for (let i = mine.length - 1; i >= 0; i--) {
    const g = mine[i]!;
    goals = `if (${definitionText(m.rulesOf[g.id]!, now, m.step)}) then ${goalValue(m.game, termText(m, g.value))} else ${goals}`;
  }
  return [`  reward = if (${TERMINAL_STATE}) then 0 else if (${terminalText(m)}) then (${goals}) else 0;`];
}

function preconditions(m: Model): string[] {
  const now = atomExpr(m, false);
  const lines = ['  action-preconditions {'];
  const moves = m.vocab.moves.map((mv) => rddlName('action', termText(m, mv.action)));
  for (const mv of m.vocab.moves) {
    const legal = mv.legalId < 0 ? 'false' : definitionText(m.rulesOf[mv.legalId]!, now, m.step);
    lines.push(`    ${rddlName('action', termText(m, mv.action))} => (${legal});`);
  }
  // The terminal test is written twice, not once per move.
  const terminal = terminalText(m);
  if (moves.length > 0) lines.push(`    ${balanced(moves, '|', 'false')} => (~${TERMINAL_STATE} ^ ~(${terminal}));`);
  lines.push(`    ${TERMINAL_ACTION} => (${TERMINAL_STATE} | (${terminal}));`);
  lines.push(`    ${balanced([TERMINAL_ACTION, ...moves], '|', 'false')};`, '  };');
  return lines;
}

/** The initial state: the initial fluents and the derived fluents that hold in it. */
function initState(m: Model): string[] {
  const value = new Map<number, boolean>();
  for (const id of m.game.init) value.set(id, true);
  const get = (a: number): boolean => value.get(a) ?? false;
  const derived: string[] = [];
  for (const a of m.order) {
    if (m.interm.has(a)) continue;
    const v = definitionValue(m.rulesOf[a]!, get);
    value.set(a, v);
    if (v) derived.push(rddlName('derived', atomText(m.game, a)));
  }
  const fluents = m.vocab.fluents.filter((f) => f.trueId >= 0 && get(f.trueId)).map((f) => rddlName('fluent', termText(m, f.term)));
  // Fluents without a true atom are never read; those in init still hold initially.
  const initSet = new Set(m.game.init.map((id) => m.game.terms.text(m.game.atoms[id]!.args[0]!)));
  const unread = m.vocab.fluents.filter((f) => f.trueId < 0 && initSet.has(termText(m, f.term))).map((f) => rddlName('fluent', termText(m, f.term)));
  return [...fluents, ...unread, ...derived].sort();
}

/**
 * The RDDL domain and instance of `game` (one role, no recursive axioms), named after `base`
 * (the game file's base name). Past the deadline it throws a limit error.
 */
export function emitRddl(game: FormulaGame, base: string, options: RddlOptions = {}, deadline: Deadline): RddlFiles {
  if (game.roles.length !== 1) {
    throw invalid(game, `RDDL describes one agent; this game has ${game.roles.length} roles (${game.roles.map((r) => game.terms.text(r)).join(', ')})`);
  }
  const step: Step = () => {
    if (deadline.tick()) throw deadlineError(deadline, game.file, NO_POS, 'writing RDDL');
  };
  const vocab = game.vocabulary;
  const rulesOf: Formula[][][] = game.atoms.map(() => []);
  for (const r of game.rules) rulesOf[r.head]!.push([...r.body]);
  const { order, interm } = orderAxioms(game, rulesOf);
  const m: Model = { game, vocab, rulesOf, order, interm, step, inlined: new Map() };
  const name = rddlIdentifier(base);
  const found = defaultHorizon(game, vocab);
  const horizon = options.horizon ?? found.horizon;
  const domain = [
    `// ${base}: single-player game translated by gdl-grounder (names and mapping: docs/rddl.md)`,
    `domain ${name}_mdp {`,
    `  requirements = { reward-deterministic${interm.size > 0 ? ', intermediate-nodes' : ''}, constrained-state };`,
    ...pvariables(m), ...cpfs(m), ...reward(m), ...preconditions(m), '}',
  ];
  const init = initState(m);
  const instance = [
    `// ${base}: initial state and horizon${options.horizon === undefined ? (found.detected ? ' (game length from its step counter, + 1)' : ' (no step counter found: default)') : ' (--horizon)'}`,
    // A ground game has no objects or non-fluents, but pyRDDLGym wants a non-fluents block.
    `non-fluents ${name}_nf {`,
    `  domain = ${name}_mdp;`,
    '}',
    `instance ${name}_inst {`,
    `  domain = ${name}_mdp;`,
    `  non-fluents = ${name}_nf;`,
    ...(init.length === 0 ? [] : ['  init-state {', ...init.map((f) => `    ${f};`), '  };']),
    '  max-nondef-actions = 1;',
    `  horizon = ${horizon};`,
    '  discount = 1.0;',
    '}',
  ];
  return { domain: `${domain.join('\n')}\n`, instance: `${instance.join('\n')}\n`, horizon, horizonDetected: options.horizon === undefined && found.detected };
}
