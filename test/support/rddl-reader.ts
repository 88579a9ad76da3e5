/**
 * A second RDDL reader, for the tests only, written from docs/rddl.md alone (issue 31): it
 * imports nothing from src/. It reads the ground dialect the page describes (bool state and
 * action fluents, derived fluents one step ahead or interm, `cpfs`, `reward`,
 * `action-preconditions`, `init-state`, `horizon`), evaluates expressions with the usual RDDL
 * precedences, and plays the game as an episode: legal moves are the actions the preconditions
 * allow alone, terminal is "the terminal action is allowed", and the goal value of a terminal
 * state is the reward the terminal action pays. Shaped like the project's `GameSimulator`.
 */

/** An expression tree. */
type Expr =
  | { readonly k: 'num'; readonly v: number }
  | { readonly k: 'var'; readonly name: string }
  | { readonly k: 'not' | 'neg'; readonly a: Expr }
  | { readonly k: 'bin'; readonly op: string; readonly a: Expr; readonly b: Expr }
  | { readonly k: 'if'; readonly c: Expr; readonly t: Expr; readonly e: Expr };

function fail(message: string): never {
  throw new Error(`independent RDDL reader: ${message}`);
}

const TOKEN = /\/\/[^\n]*|\s+|=>|<=>|==|~=|<=|>=|[A-Za-z][A-Za-z0-9_-]*'?|\d+(?:\.\d+)?|[{}();:,=^|~&+\-*/<>]/gy;

function tokenize(text: string): string[] {
  const out: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < text.length) {
    const at = TOKEN.lastIndex;
    const m = TOKEN.exec(text);
    if (m === null) fail(`unexpected character at ${at}: ${text.slice(at, at + 20)}`);
    if (!/^\s|^\/\//.test(m[0])) out.push(m[0]);
  }
  return out;
}

/** Binary operators, loosest first (RDDL: => <=>, |, ^ &, comparisons, + -, * /). */
const LEVELS: readonly (readonly string[])[] = [['=>', '<=>'], ['|'], ['^', '&'], ['==', '~=', '<', '>', '<=', '>='], ['+', '-'], ['*', '/']];

/** A cursor over tokens with an operator-precedence expression parser. */
class Tokens {
  private i = 0;
  constructor(private readonly t: readonly string[]) {}
  peek(): string | undefined {
    return this.t[this.i];
  }
  next(): string {
    return this.t[this.i++] ?? fail('unexpected end');
  }
  expect(s: string): void {
    const got = this.next();
    if (got !== s) fail(`expected ${s}, got ${got}`);
  }
  /** Skips to just after the matching close of the `{` or `(` just read. */
  skipBlock(open: string, close: string): void {
    for (let depth = 1; depth > 0; ) {
      const t = this.next();
      if (t === open) depth++;
      else if (t === close) depth--;
    }
  }
  expr(level = 0): Expr {
    if (level === LEVELS.length) return this.unary();
    let a = this.expr(level + 1);
    while (LEVELS[level]!.includes(this.peek() ?? '')) {
      const op = this.next();
      a = { k: 'bin', op, a, b: this.expr(level + 1) };
    }
    return a;
  }
  private unary(): Expr {
    const t = this.next();
    if (t === '~') return { k: 'not', a: this.unary() };
    if (t === '-') return { k: 'neg', a: this.unary() };
    if (t === '(') {
      const e = this.expr();
      this.expect(')');
      return e;
    }
    if (t === 'if') {
      this.expect('(');
      const c = this.expr();
      this.expect(')');
      this.expect('then');
      const th = this.expr();
      this.expect('else');
      return { k: 'if', c, t: th, e: this.expr() };
    }
    if (t === 'true' || t === 'false') return { k: 'num', v: t === 'true' ? 1 : 0 };
    if (/^\d/.test(t)) return { k: 'num', v: Number(t) };
    if (/^[A-Za-z]/.test(t)) return { k: 'var', name: t };
    return fail(`unexpected ${t}`);
  }
}

/** Evaluates an expression; the nesting the writer makes is shallow (balanced junctions). */
function evaluate(e: Expr, v: ReadonlyMap<string, number>): number {
  switch (e.k) {
    case 'num': return e.v;
    case 'var': return v.get(e.name) ?? fail(`unknown fluent ${e.name}`);
    case 'not': return evaluate(e.a, v) === 0 ? 1 : 0;
    case 'neg': return -evaluate(e.a, v);
    case 'if': return evaluate(e.c, v) !== 0 ? evaluate(e.t, v) : evaluate(e.e, v);
    case 'bin': {
      const a = evaluate(e.a, v);
      const b = evaluate(e.b, v);
      const ops: Record<string, number> = {
        '=>': Number(a === 0 || b !== 0), '<=>': Number((a !== 0) === (b !== 0)), '|': Number(a !== 0 || b !== 0),
        '^': Number(a !== 0 && b !== 0), '&': Number(a !== 0 && b !== 0), '==': Number(a === b), '~=': Number(a !== b),
        '<': Number(a < b), '>': Number(a > b), '<=': Number(a <= b), '>=': Number(a >= b), '+': a + b, '-': a - b, '*': a * b, '/': a / b,
      };
      return ops[e.op]!;
    }
  }
}

/** An RDDL game read by this reader. */
export interface IndependentRddl {
  readonly states: readonly string[];
  readonly actions: readonly string[];
  readonly interm: ReadonlySet<string>;
  /** CPFs by left-hand side (`x'` or an interm `x`), in file order. */
  readonly cpfs: readonly { readonly lhs: string; readonly e: Expr }[];
  readonly reward: Expr;
  readonly preconditions: readonly Expr[];
  readonly init: ReadonlySet<string>;
  readonly horizon: number;
}

function readDomain(text: string): Omit<IndependentRddl, 'init' | 'horizon'> {
  const t = new Tokens(tokenize(text));
  const states: string[] = [];
  const actions: string[] = [];
  const interm = new Set<string>();
  const cpfs: { lhs: string; e: Expr }[] = [];
  const preconditions: Expr[] = [];
  let reward: Expr | undefined;
  t.expect('domain');
  t.next();
  t.expect('{');
  while (t.peek() !== '}') {
    const section = t.next();
    if (section === 'requirements') {
      t.expect('=');
      t.expect('{');
      t.skipBlock('{', '}');
    } else if (section === 'pvariables') {
      t.expect('{');
      while (t.peek() !== '}') {
        const name = t.next();
        t.expect(':');
        t.expect('{');
        const kind = t.next();
        if (kind === 'state-fluent') states.push(name);
        else if (kind === 'action-fluent') actions.push(name);
        else if (kind === 'interm-fluent') interm.add(name);
        else fail(`unexpected fluent kind ${kind}`);
        t.skipBlock('{', '}');
        t.expect(';');
      }
      t.next();
    } else if (section === 'cpfs') {
      t.expect('{');
      while (t.peek() !== '}') {
        const lhs = t.next();
        t.expect('=');
        cpfs.push({ lhs, e: t.expr() });
        t.expect(';');
      }
      t.next();
    } else if (section === 'reward') {
      t.expect('=');
      reward = t.expr();
    } else if (section === 'action-preconditions') {
      t.expect('{');
      while (t.peek() !== '}') {
        preconditions.push(t.expr());
        t.expect(';');
      }
      t.next();
    } else fail(`unexpected section ${section}`);
    t.expect(';');
  }
  return { states, actions, interm, cpfs, reward: reward ?? fail('no reward'), preconditions };
}

function readInstance(text: string): { init: Set<string>; horizon: number } {
  const tokens = tokenize(text);
  const i = tokens.indexOf('init-state');
  const init = new Set<string>();
  if (i >= 0) {
    for (let j = i + 2; tokens[j] !== '}'; j++) if (tokens[j] !== ';') init.add(tokens[j]!);
  }
  const h = tokens.indexOf('horizon');
  return { init, horizon: h < 0 ? fail('no horizon') : Number(tokens[h + 2]) };
}

/** Reads a domain and an instance. */
export function readIndependentRddl(domain: string, instance: string): IndependentRddl {
  return { ...readDomain(domain), ...readInstance(instance) };
}

const TERMINAL_ACTION = 'gdl_terminal_action';

/** The KIF text of an `f-`/`a-` name (docs/rddl.md, Names). */
export function decodeRddlName(name: string): string {
  const body = name.slice(2);
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c === '-') out += ' ';
    else if (c !== '_') out += c;
    else {
      const e = body[++i];
      if (e === 'o') out += '(';
      else if (e === 'c') out += ')';
      else if (e === 'u') out += '_';
      else if (e === 'd') out += '-';
      else if (e === 'x') {
        out += String.fromCodePoint(parseInt(body.slice(i + 1, i + 7), 16));
        i += 6;
      } else fail(`bad escape in ${name}`);
    }
  }
  return out.includes(' ') ? `(${out})` : out;
}

/** A state: the values of the state fluents, the step number (for the horizon), the reward paid so far. */
interface State {
  readonly values: ReadonlyMap<string, number>;
  readonly step: number;
  readonly paid: number;
}

/** The game as an episode simulator shaped like the project's GameSimulator, for one role. */
export function independentRddlSimulator(g: IndependentRddl, role: string) {
  const withAction = (s: State, action: string | null): Map<string, number> => {
    const v = new Map(s.values);
    for (const a of g.actions) v.set(a, a === action ? 1 : 0);
    return v;
  };
  const allowed = (s: State, action: string): boolean => {
    const v = withAction(s, action);
    return g.preconditions.every((p) => evaluate(p, v) !== 0);
  };
  /** One step: interm and next-state CPFs in dependency order (repeated passes until all are known). */
  const step = (s: State, action: string): { next: State; reward: number } => {
    const v = withAction(s, action);
    const pending = [...g.cpfs];
    while (pending.length > 0) {
      const before = pending.length;
      for (let i = 0; i < pending.length; i++) {
        try {
          v.set(pending[i]!.lhs, evaluate(pending[i]!.e, v));
          pending.splice(i--, 1);
        } catch {
          // reads a CPF not computed yet: next pass
        }
      }
      if (pending.length === before) fail(`cyclic or unknown CPFs: ${pending[0]!.lhs}`);
    }
    const reward = evaluate(g.reward, v);
    return { next: { values: new Map(g.states.map((x) => [x, v.get(`${x}'`) ?? fail(`no CPF for ${x}`)])), step: s.step + 1, paid: s.paid + reward }, reward };
  };
  const moves = g.actions.filter((a) => a !== TERMINAL_ACTION);
  return {
    roles: [role],
    initialState: (): State => ({ values: new Map(g.states.map((x) => [x, g.init.has(x) ? 1 : 0])), step: 0, paid: 0 }),
    info(s: State) {
      const terminal = allowed(s, TERMINAL_ACTION);
      const legal = terminal ? [] : moves.filter((a) => allowed(s, a));
      // The goal is what the episode pays in all: so far, plus the step out of the terminal state.
      const goals = terminal ? [s.step < g.horizon ? String(s.paid + step(s, TERMINAL_ACTION).reward) : 'past the horizon'] : [];
      return { legal: [legal], terminal, goals: [goals] };
    },
    successor: (s: State, chosen: readonly string[]): State => step(s, chosen[0]!).next,
    text: {
      state: (s: State): string[] => g.states.filter((x) => x.startsWith('f-') && s.values.get(x) !== 0).map(decodeRddlName).sort(),
      move: (m: string): string => decodeRddlName(m),
      value: (x: string): string => x,
    },
  };
}
