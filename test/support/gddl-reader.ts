/**
 * A second GDDL reader, for the tests only, written from docs/gddl.md alone: it imports nothing
 * from src/, so a writer and a reader that share a misreading of the grammar cannot agree by
 * accident (issue 31). It reads the three files strictly (the grammar of the page: `(NAME)`,
 * `(not F)`, `(and F F*)`, `(or F F*)`; rewards and players of declared roles only), decodes
 * names to KIF terms as the section Names says, and plays the game as the section Semantics
 * says. Its simulator has the shape of the project's `GameSimulator` (structurally), so the
 * project's verify harness can play it against the reasoner.
 */

/** An S-expression: a word or a list. */
type Sexp = string | Sexp[];

/** A formula compiled to postfix: push a predicate's value, or combine the top n values. */
type Op = { readonly op: 'pred'; readonly index: number } | { readonly op: 'not' } | { readonly op: 'and' | 'or'; readonly n: number };

interface MultiAction {
  readonly moves: readonly string[];
  readonly pre: readonly Op[];
  readonly effects: readonly { readonly pre: readonly Op[]; readonly fluent: number }[];
}

/** A GDDL game read by this reader. Predicates: `_true`, the fluents, the derived predicates. */
export interface IndependentGddl {
  readonly roles: readonly string[];
  readonly predicates: readonly string[];
  readonly derived: readonly { readonly index: number; readonly stratum: number; readonly cond: readonly Op[] }[];
  readonly actions: readonly MultiAction[];
  readonly rewards: readonly { readonly role: number; readonly value: string; readonly cond: readonly Op[] }[];
  readonly init: readonly number[];
  readonly terminal: readonly Op[];
  readonly partition: readonly { readonly status: string; readonly exactlyOne: boolean; readonly members: readonly number[] }[];
}

function fail(message: string): never {
  throw new Error(`independent GDDL reader: ${message}`);
}

/** Words and lists of one file; `;` comments; one top-level form expected. */
function parse(text: string): Sexp[] {
  const stack: Sexp[][] = [[]];
  const re = /;[^\n\r]*|\(|\)|[^\s();]+/g;
  for (const m of text.matchAll(re)) {
    const t = m[0];
    if (t.startsWith(';')) continue;
    if (t === '(') stack.push([]);
    else if (t === ')') {
      if (stack.length < 2) fail('unbalanced )');
      const list = stack.pop()!;
      stack[stack.length - 1]!.push(list);
    } else stack[stack.length - 1]!.push(t);
  }
  if (stack.length !== 1) fail('unbalanced (');
  return stack[0]!;
}

/** The one `(define (KIND NAME) ...)` form of a file: its name and sections. */
function defineForm(text: string, kind: string): { name: string; body: Sexp[] } {
  const forms = parse(text);
  const d = forms[0];
  if (forms.length !== 1 || !Array.isArray(d) || d[0] !== 'define') fail(`expected one define form (${kind})`);
  const head = d[1];
  if (!Array.isArray(head) || head.length !== 2 || head[0] !== kind || typeof head[1] !== 'string') fail(`expected (${kind} NAME)`);
  return { name: head[1], body: d.slice(2) };
}

/** Compiles a formula to postfix ops, iteratively; only the page's grammar is accepted. */
function compile(f: Sexp, index: ReadonlyMap<string, number>): Op[] {
  const out: Op[] = [];
  const todo: { s: Sexp; done: boolean }[] = [{ s: f, done: false }];
  while (todo.length > 0) {
    const { s, done } = todo.pop()!;
    if (!Array.isArray(s)) fail(`a word where a formula belongs: ${s}`);
    if (s.length === 1 && typeof s[0] === 'string') {
      const i = index.get(s[0]);
      if (i === undefined) fail(`undeclared predicate ${s[0]}`);
      out.push({ op: 'pred', index: i });
      continue;
    }
    const op = s[0];
    const ok = (op === 'not' && s.length === 2) || ((op === 'and' || op === 'or') && s.length >= 2);
    if (!ok) fail(`not a formula: (${s.map((x) => (typeof x === 'string' ? x : '(...)')).join(' ')})`);
    if (done) {
      out.push(op === 'not' ? { op: 'not' } : { op: op as 'and' | 'or', n: s.length - 1 });
      continue;
    }
    todo.push({ s, done: true });
    for (let i = s.length - 1; i >= 1; i--) todo.push({ s: s[i]!, done: false });
  }
  return out;
}

/** Evaluates postfix ops over predicate values. */
function holds(ops: readonly Op[], v: Uint8Array): boolean {
  const stack: boolean[] = [];
  for (const o of ops) {
    if (o.op === 'pred') stack.push(v[o.index] === 1);
    else if (o.op === 'not') stack.push(!stack.pop()!);
    else {
      const args = stack.splice(stack.length - o.n, o.n);
      stack.push(o.op === 'and' ? args.every(Boolean) : args.some(Boolean));
    }
  }
  return stack[0]!;
}

/** Keyword-value pairs of a section: `:k v :k v ...` after its keyword. */
function pairs(items: readonly Sexp[]): [string, Sexp][] {
  if (items.length % 2 !== 0) fail('odd number of items in a section');
  const out: [string, Sexp][] = [];
  for (let i = 0; i < items.length; i += 2) {
    const k = items[i];
    if (typeof k !== 'string' || !k.startsWith(':')) fail(`expected a keyword, got ${String(k)}`);
    out.push([k, items[i + 1]!]);
  }
  return out;
}

const word = (s: Sexp | undefined): string => (typeof s === 'string' ? s : fail('expected a name'));
const atomName = (s: Sexp | undefined): string => (Array.isArray(s) && s.length === 1 && typeof s[0] === 'string' ? s[0] : fail('expected (NAME)'));

function readActions(sections: readonly Sexp[][], roles: readonly string[], index: ReadonlyMap<string, number>): MultiAction[] {
  return sections.filter((s) => s[0] === ':multi-action').map((s) => {
    const kv = pairs(s.slice(1));
    const moves: string[] = [];
    let pre: Op[] | undefined;
    const effects: { pre: Op[]; fluent: number }[] = [];
    for (let i = 0; i < kv.length; i++) {
      const [k, v] = kv[i]!;
      if (k === ':player') {
        if (word(v) !== roles[moves.length]) fail('players not in role order');
        const [k2, m] = kv[++i] ?? fail(':player without :action');
        if (k2 !== ':action') fail(':player without :action');
        moves.push(word(m));
      } else if (k === ':global-precondition') pre = compile(v, index);
      else if (k === ':precondition') {
        const [k2, e] = kv[++i] ?? fail(':precondition without :effect');
        if (k2 !== ':effect') fail(':precondition without :effect');
        const fluent = index.get(atomName(e));
        if (fluent === undefined || fluent === 0) fail(`effect on no fluent: ${atomName(e)}`);
        effects.push({ pre: compile(v, index), fluent });
      } else fail(`unknown keyword ${k} in a multi-action`);
    }
    if (moves.length !== roles.length || pre === undefined) fail('a multi-action needs one move per role and a global precondition');
    return { moves, pre, effects };
  });
}

/** Reads the three files of a GDDL output, strictly. */
export function readIndependentGddl(files: { domain: string; problem: string; partition: string }): IndependentGddl {
  const domain = defineForm(files.domain, 'domain');
  const sections = domain.body.map((s) => (Array.isArray(s) && typeof s[0] === 'string' ? s : fail('expected a section')));
  const section = (k: string): Sexp[] => sections.find((s) => s[0] === k) ?? fail(`no ${k}`);
  const roles = section(':roles').slice(1).map(word);
  const predicates = section(':predicates').slice(1).map(atomName);
  if (predicates[0] !== '_true') fail('(_true) must be the first predicate');
  const index = new Map(predicates.map((p, i) => [p, i]));
  if (index.size !== predicates.length) fail('a predicate declared twice');
  const derived = sections.filter((s) => s[0] === ':derived').map((s) => {
    const i = index.get(atomName(s[1])) ?? fail('derived predicate not declared');
    const kv = new Map(pairs(s.slice(2)));
    return { index: i, stratum: Number(word(kv.get(':stratum'))), cond: compile(kv.get(':condition') ?? fail('no :condition'), index) };
  });
  const rewards = sections.filter((s) => s[0] === ':reward').map((s) => {
    const kv = new Map(pairs(s.slice(1)));
    const role = roles.indexOf(word(kv.get(':player')));
    if (role < 0) fail(`reward of ${word(kv.get(':player'))}, which is no role`);
    return { role, value: word(kv.get(':value')), cond: compile(kv.get(':condition') ?? fail('no :condition'), index) };
  });
  const problem = defineForm(files.problem, 'problem');
  const pSection = (k: string): Sexp[] => (problem.body.find((s) => Array.isArray(s) && s[0] === k) as Sexp[] | undefined) ?? fail(`no ${k}`);
  const init = pSection(':init').slice(1).map((s) => index.get(atomName(s)) ?? fail('init of no fluent'));
  const terminal = compile(pSection(':terminal')[1]!, index);
  const partition = defineForm(files.partition, 'partition').body.flatMap((s) => {
    if (!Array.isArray(s) || s[0] !== ':group') return [];
    const status = word(s[1]);
    const exactlyOne = s[2] === ':exactly-one';
    const members = s.slice(exactlyOne ? 3 : 2).map((m) => index.get(atomName(m)) ?? fail('group member is no predicate'));
    return [{ status, exactlyOne, members }];
  });
  return { roles, predicates, derived, actions: readActions(sections, roles, index), rewards, init, terminal, partition };
}

/** Unescapes one symbol (docs/gddl.md, Names). */
function unescape(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    if (s[i] !== '_') {
      out += s[i];
      continue;
    }
    const c = s[++i];
    if (c === '_') out += '_';
    else if (c === 'd') out += '-';
    else if (c === 'u') out += s[++i]!.toUpperCase();
    else if (c === 'x') {
      const end = s.indexOf('_', i);
      out += String.fromCodePoint(parseInt(s.slice(i + 1, end), 16));
      i = end;
    } else fail(`bad escape in ${s}`);
  }
  return out;
}

/** The KIF text of a name: split at `-`; `_o` opens a compound (functor next), `_c` closes it. */
export function decodeName(name: string): string {
  const tokens = name.split('-');
  const frames: string[][] = [[unescape(tokens[0]!)]];
  for (let i = 1; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t === '_o') frames.push([unescape(tokens[++i] ?? fail(`bad name ${name}`))]);
    else if (t === '_c') {
      const done = frames.pop()!;
      if (frames.length === 0) fail(`bad name ${name}`);
      frames[frames.length - 1]!.push(`(${done.join(' ')})`);
    } else frames[frames.length - 1]!.push(unescape(t));
  }
  if (frames.length !== 1) fail(`bad name ${name}`);
  const root = frames[0]!;
  return root.length === 1 ? root[0]! : `(${root.join(' ')})`;
}

/** A state: the fluents that hold (predicate indexes). */
type State = readonly number[];

/** The game as a simulator shaped like the project's GameSimulator (moves and values are names). */
export function independentSimulator(g: IndependentGddl) {
  const strata = [...new Set(g.derived.map((d) => d.stratum))].sort((a, b) => a - b);
  const values = (s: State): Uint8Array => {
    const v = new Uint8Array(g.predicates.length);
    v[0] = 1;
    for (const f of s) v[f] = 1;
    for (const k of strata) {
      const mine = g.derived.filter((d) => d.stratum === k);
      for (let changed = true; changed; ) {
        changed = false;
        for (const d of mine) if (v[d.index] === 0 && holds(d.cond, v)) changed = Boolean((v[d.index] = 1));
      }
    }
    return v;
  };
  const applicable = (v: Uint8Array): MultiAction[] => g.actions.filter((a) => holds(a.pre, v));
  return {
    roles: g.roles.map(decodeName),
    initialState: (): State => [...g.init].sort((a, b) => a - b),
    info(s: State) {
      const v = values(s);
      const apps = applicable(v);
      return {
        legal: g.roles.map((_, r) => [...new Set(apps.map((a) => a.moves[r]!))]),
        terminal: holds(g.terminal, v),
        goals: g.roles.map((_, r) => g.rewards.filter((w) => w.role === r && holds(w.cond, v)).map((w) => w.value)),
      };
    },
    successor(s: State, moves: readonly string[]): State {
      const v = values(s);
      const a = applicable(v).find((x) => x.moves.every((m, i) => m === moves[i]));
      if (a === undefined) fail(`no applicable multi-action for ${moves.join(' ')}`);
      return [...new Set(a.effects.filter((e) => holds(e.pre, v)).map((e) => e.fluent))].sort((x, y) => x - y);
    },
    text: {
      state: (s: State): string[] => s.map((f) => decodeName(g.predicates[f]!)).sort(),
      move: (m: string): string => decodeName(m),
      value: (x: string): string => decodeName(x),
    },
  };
}
