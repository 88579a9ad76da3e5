/**
 * Reads the three GDDL files (docs/gddl.md) back into a game that can be played: predicates by
 * index (fluents first, then derived predicates), formulas compiled to postfix code. Anything
 * not in the grammar is an invalid-input error with the file, line and column.
 */
import type { Pos } from '../../gdl/ast.js';
import { TRUE_NAME } from './names.js';
import { type Program, compileFormula } from './read-formula.js';
import { type SNode, parseSexprs, syntaxError } from '../sexpr.js';

/** A multi-action as read: one move name per role (in role order), its precondition and effects. */
interface GddlAction {
  readonly moves: readonly string[];
  readonly precondition: Program;
  readonly effects: readonly { readonly condition: Program; readonly fluent: number }[];
}

/** A GDDL game read back. Predicate indexes: fluents `0..fluents-1`, then the derived predicates. */
export interface GddlGame {
  readonly roles: readonly string[];
  readonly fluents: readonly string[];
  /** Derived predicates in the order of the file; predicate index `fluents.length + i`. */
  readonly derived: readonly { readonly name: string; readonly stratum: number; readonly condition: Program }[];
  readonly actions: readonly GddlAction[];
  readonly rewards: readonly { readonly role: number; readonly value: string; readonly condition: Program }[];
  readonly init: readonly number[];
  readonly terminal: Program;
  /** The partition: groups of fluent indexes. */
  readonly groups: readonly { readonly status: string; readonly exactlyOne: boolean; readonly members: readonly number[] }[];
}

/** The texts of the three files. */
interface GddlTexts {
  readonly domain: string;
  readonly problem: string;
  readonly partition: string;
}

type List = Extract<SNode, { kind: 'list' }>;

/** The words of a keyword list `(:key a :k2 b ...)` read one after another. */
class Reader {
  private i = 1;
  constructor(readonly list: List, readonly file: string) {}

  done(): boolean {
    return this.i >= this.list.items.length;
  }
  peekWord(): string | undefined {
    const n = this.list.items[this.i];
    return n?.kind === 'sym' ? n.text : undefined;
  }
  any(what: string): SNode {
    const n = this.list.items[this.i++];
    if (n === undefined) throw syntaxError(this.file, this.list.pos, `expected ${what} before ')'`);
    return n;
  }
  word(what: string): string {
    const n = this.any(what);
    if (n.kind !== 'sym') throw syntaxError(this.file, n.pos, `expected ${what}`);
    return n.text;
  }
  key(key: string): void {
    const n = this.any(key);
    if (n.kind !== 'sym' || n.text !== key) throw syntaxError(this.file, n.pos, `expected ${key}`);
  }
}

/** `(NAME)`: the name of a predicate written as an atom. */
function atomName(n: SNode, file: string): string {
  if (n.kind !== 'list' || n.items.length !== 1 || n.items[0]!.kind !== 'sym') throw syntaxError(file, n.pos, 'expected a predicate (NAME)');
  return n.items[0].text;
}

/** The sections of `(define (KIND NAME) sections...)`, the only top-level form of a file. */
function sections(text: string, file: string, kind: string): List[] {
  const top = parseSexprs(text, file);
  const def = top[0];
  if (top.length !== 1 || def === undefined || def.kind !== 'list') throw syntaxError(file, def?.pos ?? { line: 1, col: 1 }, `expected one (define (${kind} NAME) ...)`);
  const head = def.items[1];
  if (def.items[0]?.kind !== 'sym' || def.items[0].text !== 'define' || head?.kind !== 'list' || head.items[0]?.kind !== 'sym' || head.items[0].text !== kind) {
    throw syntaxError(file, def.pos, `expected (define (${kind} NAME) ...)`);
  }
  return def.items.slice(2).map((s) => {
    if (s.kind !== 'list' || s.items[0]?.kind !== 'sym' || !s.items[0].text.startsWith(':')) throw syntaxError(file, s.pos, 'expected a section (:KEYWORD ...)');
    return s;
  });
}

const keyOf = (s: List): string => (s.items[0] as { text: string }).text;

interface Names {
  readonly roles: string[];
  readonly fluents: string[];
  readonly index: Map<string, number>;
}

/** Roles, fluents and derived predicates of the domain, indexed (derived after fluents). */
function declarations(domain: readonly List[], file: string): Names {
  const roles: string[] = [];
  const predicates: { name: string; pos: Pos }[] = [];
  const derived: string[] = [];
  for (const s of domain) {
    const key = keyOf(s);
    if (key === ':roles') for (const r of s.items.slice(1)) roles.push(atomWord(r, file));
    else if (key === ':predicates') for (const p of s.items.slice(1)) predicates.push({ name: atomName(p, file), pos: p.pos });
    else if (key === ':derived') derived.push(atomName(s.items[1] ?? s, file));
  }
  const isDerived = new Set(derived);
  const fluents = predicates.filter((p) => p.name !== TRUE_NAME && !isDerived.has(p.name)).map((p) => p.name);
  const index = new Map<string, number>();
  for (const name of [...fluents, ...derived]) {
    if (index.has(name)) throw syntaxError(file, predicates.find((p) => p.name === name)?.pos ?? domain[0]!.pos, `predicate '${name}' declared twice`);
    index.set(name, index.size);
  }
  return { roles, fluents, index };
}

function atomWord(n: SNode, file: string): string {
  if (n.kind !== 'sym') throw syntaxError(file, n.pos, 'expected a name');
  return n.text;
}

function readAction(s: List, names: Names, file: string): GddlAction {
  const r = new Reader(s, file);
  const byRole = new Map<string, string>();
  while (r.peekWord() === ':player') {
    r.key(':player');
    const role = r.word('a role');
    r.key(':action');
    if (byRole.has(role)) throw syntaxError(file, s.pos, `role '${role}' has two actions`);
    byRole.set(role, r.word('an action'));
  }
  const moves = names.roles.map((role) => {
    const m = byRole.get(role);
    if (m === undefined) throw syntaxError(file, s.pos, `no action of role '${role}'`);
    return m;
  });
  if (byRole.size !== names.roles.length) throw syntaxError(file, s.pos, 'an action of an undeclared role');
  r.key(':global-precondition');
  const precondition = compileFormula(r.any('a formula'), names.index, file);
  const effects: GddlAction['effects'][number][] = [];
  while (!r.done()) {
    r.key(':precondition');
    const condition = compileFormula(r.any('a formula'), names.index, file);
    r.key(':effect');
    const e = r.any('an effect (FLUENT)');
    const fluent = names.index.get(atomName(e, file));
    if (fluent === undefined || fluent >= names.fluents.length) throw syntaxError(file, e.pos, 'an effect must be a declared fluent');
    effects.push({ condition, fluent });
  }
  return { moves, precondition, effects };
}

function readDomain(domain: readonly List[], names: Names, file: string): Pick<GddlGame, 'derived' | 'actions' | 'rewards'> {
  const derived: { name: string; stratum: number; condition: Program }[] = [];
  const actions: GddlAction[] = [];
  const rewards: GddlGame['rewards'][number][] = [];
  const roleIndex = new Map(names.roles.map((r, i) => [r, i]));
  for (const s of domain) {
    const key = keyOf(s);
    const r = new Reader(s, file);
    if (key === ':derived') {
      const name = atomName(r.any('(NAME)'), file);
      r.key(':stratum');
      const stratum = Number(r.word('a stratum number'));
      if (!Number.isInteger(stratum) || stratum < 1) throw syntaxError(file, s.pos, 'a stratum is a whole number from 1');
      r.key(':condition');
      derived.push({ name, stratum, condition: compileFormula(r.any('a formula'), names.index, file) });
    } else if (key === ':multi-action') actions.push(readAction(s, names, file));
    else if (key === ':reward') {
      r.key(':player');
      const role = roleIndex.get(r.word('a role'));
      if (role === undefined) throw syntaxError(file, s.pos, 'reward of an undeclared role');
      r.key(':value');
      const value = r.word('a value');
      r.key(':condition');
      rewards.push({ role, value, condition: compileFormula(r.any('a formula'), names.index, file) });
    } else if (key !== ':roles' && key !== ':predicates') throw syntaxError(file, s.pos, `unknown section ${key}`);
  }
  return { derived, actions, rewards };
}

function readProblem(problem: readonly List[], names: Names, file: string): Pick<GddlGame, 'init' | 'terminal'> {
  let init: number[] | undefined;
  let terminal: Program | undefined;
  for (const s of problem) {
    const key = keyOf(s);
    if (key === ':init') {
      init = s.items.slice(1).map((n) => {
        const i = names.index.get(atomName(n, file));
        if (i === undefined || i >= names.fluents.length) throw syntaxError(file, n.pos, 'the initial state holds declared fluents only');
        return i;
      });
    } else if (key === ':terminal') terminal = compileFormula(s.items[1] ?? s, names.index, file);
    else if (key !== ':domain') throw syntaxError(file, s.pos, `unknown section ${key}`);
  }
  if (init === undefined || terminal === undefined) throw syntaxError(file, { line: 1, col: 1 }, 'the problem needs (:init ...) and (:terminal F)');
  return { init, terminal };
}

function readPartition(partition: readonly List[], names: Names, file: string): GddlGame['groups'] {
  const seen = new Uint8Array(names.fluents.length);
  const groups = partition.filter((s) => keyOf(s) === ':group').map((s) => {
    const status = s.items[1]?.kind === 'sym' ? s.items[1].text.slice(1) : '';
    if (!['proven', 'observed', 'singleton'].includes(status)) throw syntaxError(file, s.pos, 'a group is :proven, :observed or :singleton');
    const exactlyOne = s.items[2]?.kind === 'sym' && s.items[2].text === ':exactly-one';
    const members = s.items.slice(exactlyOne ? 3 : 2).map((n) => {
      const i = names.index.get(atomName(n, file));
      if (i === undefined || i >= names.fluents.length) throw syntaxError(file, n.pos, 'a group holds declared fluents only');
      if (seen[i] === 1) throw syntaxError(file, n.pos, `fluent '${names.fluents[i]}' is in two groups`);
      seen[i] = 1;
      return i;
    });
    return { status, exactlyOne, members };
  });
  const missing = seen.indexOf(0);
  if (missing >= 0) throw syntaxError(file, { line: 1, col: 1 }, `fluent '${names.fluents[missing]}' is in no group`);
  return groups;
}

/** Reads the three files; `dir` is where they are, for messages. */
export function readGddl(texts: GddlTexts, dir: string): GddlGame {
  const at = (name: string): string => `${dir}/${name}`;
  const domain = sections(texts.domain, at('domain.gddl'), 'domain');
  const names = declarations(domain, at('domain.gddl'));
  const body = readDomain(domain, names, at('domain.gddl'));
  const problem = readProblem(sections(texts.problem, at('problem.gddl'), 'problem'), names, at('problem.gddl'));
  const groups = readPartition(sections(texts.partition, at('partition.gddl'), 'partition'), names, at('partition.gddl'));
  return { roles: names.roles, fluents: names.fluents, ...body, ...problem, groups };
}
