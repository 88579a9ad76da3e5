/**
 * A reader of ground RDDL (docs/rddl.md, "Reader and simulator"): a domain and an instance
 * without types, objects or parameters, boolean and numeric fluents, the expressions of
 * pyRDDLGym's grammar without quantifiers, aggregations and distributions (constants, fluents,
 * `~ ^ & | => <=>`, comparisons, `+ - * /`, `if then else`). Enough for every file the RDDL
 * writer makes, and for hand-written ground domains; anything else is a positioned error.
 */
import type { Pos } from '../../gdl/ast.js';
import { GdlError, diag } from '../../gdl/diagnostics.js';
import { type Token, tokenize } from './lexer.js';

/** The text of one RDDL file and its name (for error positions). */
export interface RddlSource {
  readonly text: string;
  readonly file: string;
}

/** Binary operators of expressions. */
export type BinOp = '<=>' | '=>' | '|' | '^' | '==' | '~=' | '<' | '<=' | '>' | '>=' | '+' | '-' | '*' | '/';

/** An expression; booleans are the numbers 1 and 0, as pyRDDLGym computes with them. */
export type Expr =
  | { readonly kind: 'const'; readonly value: number }
  | { readonly kind: 'var'; readonly name: string; readonly pos: Pos }
  | { readonly kind: 'not' | 'neg'; readonly arg: Expr }
  | { readonly kind: 'bin'; readonly op: BinOp; readonly left: Expr; readonly right: Expr }
  /** A chain `a ^ b ^ ...` or `a | b | ...`, kept flat so that evaluation is not deep. */
  | { readonly kind: 'and' | 'or'; readonly args: readonly Expr[] }
  | { readonly kind: 'if'; readonly cond: Expr; readonly then: Expr; readonly else: Expr };

/** What a pvariable is. */
type VariableKind = 'state-fluent' | 'action-fluent' | 'interm-fluent' | 'derived-fluent' | 'non-fluent' | 'observ-fluent';

/** A pvariable declaration. */
export interface Variable {
  readonly name: string;
  readonly kind: VariableKind;
  readonly range: 'bool' | 'int' | 'real';
  /** The default value (state, action and non-fluents); 0 when none is given. */
  readonly default: number;
  readonly pos: Pos;
}

/** A domain and its instance, read. */
export interface RddlModel {
  readonly domain: string;
  readonly instance: string;
  /** Declarations in the order of the file. */
  readonly variables: readonly Variable[];
  /** CPF per defined name: `x'` for a state fluent, `x` for interm and derived fluents. */
  readonly cpfs: ReadonlyMap<string, Expr>;
  readonly reward: Expr;
  /** Action preconditions and state-action constraints together (each must hold). */
  readonly preconditions: readonly Expr[];
  /** Values of the init-state block (the others take their defaults). */
  readonly init: ReadonlyMap<string, number>;
  readonly maxNondefActions: number;
  readonly horizon: number;
  readonly discount: number;
}

/** Nesting depth (parentheses, `~`, `if`) past which an expression is refused. */
const MAX_NESTING = 2000;

const LEVELS: readonly (readonly string[])[] = [['<=>'], ['=>'], ['|'], ['^', '&'], ['~'], ['==', '~=', '<', '<=', '>', '>='], ['+', '-'], ['*', '/']];
const NOT_LEVEL = 4;

/** A cursor over one file's tokens. */
class Cursor {
  private i = 0;
  constructor(private readonly tokens: readonly Token[], readonly file: string) {}
  peek(): Token {
    return this.tokens[this.i]!;
  }
  next(): Token {
    return this.tokens[Math.min(this.i++, this.tokens.length - 1)]!;
  }
  fail(message: string, token = this.peek()): GdlError {
    return new GdlError([diag('error', this.file, token.pos, `${message} (found '${token.text}')`)]);
  }
  is(text: string): boolean {
    const t = this.peek();
    return (t.kind === 'op' || t.kind === 'ident') && t.text === text;
  }
  expect(text: string): Token {
    if (!this.is(text)) throw this.fail(`expected '${text}'`);
    return this.next();
  }
  ident(what: string): Token {
    if (this.peek().kind !== 'ident') throw this.fail(`expected ${what}`);
    return this.next();
  }
  /** `;` after a section; RDDL files write it after most closing braces. */
  optionalSemi(): void {
    if (this.is(';')) this.next();
  }
}

/** Parses one expression (operator precedence as in pyRDDLGym's grammar). */
function parseExpr(c: Cursor, depth = 0): Expr {
  if (depth > MAX_NESTING) throw c.fail(`expression nested deeper than ${MAX_NESTING}`);
  if (c.is('if')) {
    // pyRDDLGym: IF LPAREN expr RPAREN THEN expr ELSE expr.
    c.next();
    c.expect('(');
    const cond = parseExpr(c, depth + 1);
    c.expect(')');
    c.expect('then');
    const then = parseExpr(c, depth + 1);
    c.expect('else');
    return { kind: 'if', cond, then, else: parseExpr(c, depth + 1) };
  }
  return parseLevel(c, 0, depth);
}

function parseLevel(c: Cursor, level: number, depth: number): Expr {
  if (level === LEVELS.length) return parseUnary(c, depth);
  if (level === NOT_LEVEL) {
    if (c.is('~')) {
      c.next();
      if (depth > MAX_NESTING) throw c.fail(`expression nested deeper than ${MAX_NESTING}`);
      return { kind: 'not', arg: parseLevel(c, level, depth + 1) };
    }
    return parseLevel(c, level + 1, depth);
  }
  // Left-associative chains are read in a loop, not by recursion; ^ and | chains stay flat.
  let left = parseLevel(c, level + 1, depth);
  if (LEVELS[level]!.includes('|') || LEVELS[level]!.includes('^')) {
    const args = [left];
    while (c.peek().kind === 'op' && LEVELS[level]!.includes(c.peek().text)) {
      c.next();
      args.push(parseLevel(c, level + 1, depth));
    }
    return args.length === 1 ? left : { kind: LEVELS[level]!.includes('|') ? 'or' : 'and', args };
  }
  while (c.peek().kind === 'op' && LEVELS[level]!.includes(c.peek().text)) {
    const text = c.next().text;
    const op = (text === '&' ? '^' : text) as BinOp;
    left = { kind: 'bin', op, left, right: parseLevel(c, level + 1, depth) };
  }
  return left;
}

function parseUnary(c: Cursor, depth: number): Expr {
  if (depth > MAX_NESTING) throw c.fail(`expression nested deeper than ${MAX_NESTING}`);
  const t = c.peek();
  if (c.is('-')) {
    c.next();
    return { kind: 'neg', arg: parseUnary(c, depth + 1) };
  }
  if (c.is('(') || c.is('[')) {
    const close = c.next().text === '(' ? ')' : ']';
    const e = parseExpr(c, depth + 1);
    c.expect(close);
    return e;
  }
  if (c.is('if') || c.is('~')) return parseExpr(c, depth + 1);
  if (t.kind === 'number') return { kind: 'const', value: Number(c.next().text) };
  if (t.kind === 'ident') {
    c.next();
    if (t.text === 'true' || t.text === 'false') return { kind: 'const', value: t.text === 'true' ? 1 : 0 };
    if (c.is('(')) throw c.fail(`parameters of '${t.text}' are not supported (ground RDDL only)`);
    return { kind: 'var', name: t.text, pos: t.pos };
  }
  throw c.fail('expected an expression');
}

/** A constant of a declaration or init-state: true, false or a number. */
function parseConst(c: Cursor): number {
  const t = c.next();
  if (t.text === 'true') return 1;
  if (t.text === 'false') return 0;
  if (t.kind === 'number') return Number(t.text);
  if (t.text === '-' && c.peek().kind === 'number') return -Number(c.next().text);
  throw c.fail('expected true, false or a number', t);
}

const KINDS: readonly VariableKind[] = ['state-fluent', 'action-fluent', 'interm-fluent', 'derived-fluent', 'non-fluent', 'observ-fluent'];

function parseVariable(c: Cursor): Variable {
  const name = c.ident('a pvariable name');
  if (c.is('(')) throw c.fail(`parameters of '${name.text}' are not supported (ground RDDL only)`);
  c.expect(':');
  c.expect('{');
  const kind = c.ident('a fluent kind');
  if (!KINDS.includes(kind.text as VariableKind)) throw c.fail('expected a fluent kind', kind);
  c.expect(',');
  const range = c.ident('a range');
  if (range.text !== 'bool' && range.text !== 'int' && range.text !== 'real') throw c.fail('expected bool, int or real', range);
  let value = 0;
  while (c.is(',')) {
    c.next();
    const key = c.ident('default or level');
    c.expect('=');
    if (key.text === 'default') value = parseConst(c);
    else if (key.text === 'level') parseConst(c);
    else throw c.fail('expected default or level', key);
  }
  c.expect('}');
  c.expect(';');
  return { name: name.text, kind: kind.text as VariableKind, range: range.text, default: value, pos: name.pos };
}

/** `{ item; item; ... }` with an optional `;` after the brace. */
function block<T>(c: Cursor, item: (c: Cursor) => T): T[] {
  c.expect('{');
  const out: T[] = [];
  while (!c.is('}')) out.push(item(c));
  c.next();
  c.optionalSemi();
  return out;
}

function statement(c: Cursor): Expr {
  const e = parseExpr(c);
  c.expect(';');
  return e;
}

/** The domain block's sections. */
interface DomainPart {
  name: string;
  variables: Variable[];
  cpfs: Map<string, Expr>;
  reward?: Expr;
  preconditions: Expr[];
}

function parseDomain(c: Cursor): DomainPart {
  const out: DomainPart = { name: c.ident('the domain name').text, variables: [], cpfs: new Map(), preconditions: [] };
  c.expect('{');
  while (!c.is('}')) {
    const section = c.ident('a domain section');
    if (section.text === 'requirements') {
      if (c.is('=')) c.next();
      block(c, (k) => {
        const r = k.ident('a requirement');
        if (k.is(',')) k.next();
        return r;
      });
    } else if (section.text === 'pvariables') out.variables.push(...block(c, parseVariable));
    else if (section.text === 'cpfs' || section.text === 'cdfs') {
      for (const [name, e] of block(c, (k) => {
        const n = k.ident('a fluent name');
        k.expect('=');
        return [n, statement(k)] as const;
      })) {
        if (out.cpfs.has(name.text)) throw c.fail(`second CPF for ${name.text}`, name);
        out.cpfs.set(name.text, e);
      }
    } else if (section.text === 'reward') {
      c.expect('=');
      out.reward = statement(c);
    } else if (section.text === 'action-preconditions' || section.text === 'state-action-constraints') out.preconditions.push(...block(c, statement));
    else if (section.text === 'state-invariants' || section.text === 'termination') block(c, statement);
    else throw c.fail(`the domain section '${section.text}' is not supported`, section);
  }
  c.next();
  return out;
}

/** The instance block's sections. */
interface InstancePart {
  name: string;
  domain: string;
  nonFluents?: string;
  init: Map<string, number>;
  maxNondefActions: number;
  horizon: number;
  discount: number;
}

function initItem(c: Cursor): [string, number] {
  const negated = c.is('~');
  if (negated) c.next();
  const name = c.ident('a fluent name').text;
  if (c.is('(')) throw c.fail(`parameters of '${name}' are not supported (ground RDDL only)`);
  let value = negated ? 0 : 1;
  if (!negated && c.is('=')) {
    c.next();
    value = parseConst(c);
  }
  c.expect(';');
  return [name, value];
}

function parseInstance(c: Cursor): InstancePart {
  const out: InstancePart = { name: c.ident('the instance name').text, domain: '', init: new Map(), maxNondefActions: Infinity, horizon: 0, discount: 1 };
  c.expect('{');
  while (!c.is('}')) {
    const section = c.ident('an instance section');
    if (section.text === 'init-state') {
      for (const [n, v] of block(c, initItem)) out.init.set(n, v);
      continue;
    }
    c.expect('=');
    if (section.text === 'domain') out.domain = c.ident('a domain name').text;
    else if (section.text === 'non-fluents') out.nonFluents = c.ident('a non-fluents name').text;
    else if (section.text === 'max-nondef-actions') out.maxNondefActions = c.is('pos-inf') ? (c.next(), Infinity) : parseConst(c);
    else if (section.text === 'horizon') out.horizon = parseConst(c);
    else if (section.text === 'discount') out.discount = parseConst(c);
    else throw c.fail(`the instance section '${section.text}' is not supported`, section);
    c.expect(';');
  }
  c.next();
  return out;
}

/** A non-fluents block: its name and domain (ground RDDL has no objects or non-fluents). */
function parseNonFluents(c: Cursor): { name: string; domain: string } {
  const name = c.ident('the non-fluents name').text;
  let domain = '';
  c.expect('{');
  while (!c.is('}')) {
    const section = c.ident('domain');
    if (section.text !== 'domain') throw c.fail(`the non-fluents section '${section.text}' is not supported (ground RDDL only)`, section);
    c.expect('=');
    domain = c.ident('a domain name').text;
    c.expect(';');
  }
  c.next();
  return { name, domain };
}

/** Every domain, non-fluents and instance block of one file. */
interface FileParts {
  domains: DomainPart[];
  nonFluents: { name: string; domain: string }[];
  instances: InstancePart[];
}

function parseFile(source: RddlSource): FileParts {
  const c = new Cursor(tokenize(source.text, source.file), source.file);
  const out: FileParts = { domains: [], nonFluents: [], instances: [] };
  while (c.peek().kind !== 'eof') {
    const head = c.ident('domain, non-fluents or instance');
    if (head.text === 'domain') out.domains.push(parseDomain(c));
    else if (head.text === 'non-fluents') out.nonFluents.push(parseNonFluents(c));
    else if (head.text === 'instance') out.instances.push(parseInstance(c));
    else throw c.fail(`'${head.text}' blocks are not supported`, head);
  }
  return out;
}

/** Reads a domain and an instance (each file may hold either or both); positioned errors. */
export function readRddl(domainFile: RddlSource, instanceFile: RddlSource): RddlModel {
  const a = parseFile(domainFile);
  const b: FileParts = domainFile === instanceFile ? { domains: [], nonFluents: [], instances: [] } : parseFile(instanceFile);
  const domains = [...a.domains, ...b.domains];
  const instances = [...a.instances, ...b.instances];
  const nonFluents = [...a.nonFluents, ...b.nonFluents];
  const fail = (file: string, message: string): GdlError => new GdlError([diag('error', file, { line: 1, col: 1 }, message)]);
  if (domains.length !== 1) throw fail(domainFile.file, `expected one domain block, found ${domains.length}`);
  if (instances.length !== 1) throw fail(instanceFile.file, `expected one instance block, found ${instances.length}`);
  const d = domains[0]!;
  const inst = instances[0]!;
  if (inst.domain !== d.name) throw fail(instanceFile.file, `the instance names domain '${inst.domain}', the domain is '${d.name}'`);
  const nf = nonFluents.find((n) => n.name === inst.nonFluents);
  if (inst.nonFluents !== undefined && (nf === undefined || nf.domain !== d.name)) {
    throw fail(instanceFile.file, `the instance names non-fluents '${inst.nonFluents}', which is not a non-fluents block of domain '${d.name}'`);
  }
  if (d.reward === undefined) throw fail(domainFile.file, 'the domain has no reward');
  return {
    domain: d.name, instance: inst.name, variables: d.variables, cpfs: d.cpfs, reward: d.reward, preconditions: d.preconditions,
    init: inst.init, maxNondefActions: inst.maxNondefActions, horizon: inst.horizon, discount: inst.discount,
  };
}
