// Mutations of GDL games for the fuzzer (scripts/fuzz.mjs, docs/testing.md "Fuzzing"). Pure
// and deterministic: the same game text, seed and index always give the same bytes, so a
// mutation that crashed a worker process can be made again by the parent and saved.

/** A small, fast PRNG (mulberry32); `next()` in [0, 1). */
export function rng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n) => Math.floor(next() * n);
  return { next, int, pick: (list) => list[int(list.length)], chance: (p) => next() < p };
}

/** The seed of mutation `index` of a run seeded `seed` (a 32-bit mix of both). */
export function mutationSeed(seed, index) {
  let h = (seed ^ 0x9e3779b9) >>> 0;
  h = Math.imul(h ^ index, 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
  return (h ^ (h >>> 16)) >>> 0;
}

/** KIF text as tokens: '(' ')' comments, whitespace and atoms, joined back losslessly. */
export function tokenize(text) {
  return text.match(/\(|\)|;[^\n]*|\s+|[^\s();]+/g) ?? [];
}

const isSpace = (t) => /^\s/.test(t);
const isComment = (t) => t.startsWith(';');
const isAtom = (t) => t !== '(' && t !== ')' && !isSpace(t) && !isComment(t);
const isSymbol = (t) => isAtom(t) && !t.startsWith('?');

/** Indexes of tokens satisfying `test`. */
function where(tokens, test) {
  const out = [];
  tokens.forEach((t, i) => {
    if (test(t)) out.push(i);
  });
  return out;
}

/** The index of the ')' closing the '(' at `open` (or the last token when unbalanced). */
function closing(tokens, open) {
  let depth = 0;
  for (let i = open; i < tokens.length; i++) {
    if (tokens[i] === '(') depth++;
    else if (tokens[i] === ')' && --depth === 0) return i;
  }
  return tokens.length - 1;
}

/** The elements between tokens `from` and `to` (exclusive): [start, end] token ranges, inclusive. */
function elements(tokens, from, to) {
  const out = [];
  for (let i = from; i < to; i++) {
    if (tokens[i] === '(') {
      const c = closing(tokens, i);
      out.push([i, c]);
      i = c;
    } else if (isAtom(tokens[i])) out.push([i, i]);
  }
  return out;
}

/** The elements of the list opened at `open`. */
const children = (tokens, open) => elements(tokens, open + 1, closing(tokens, open));

/** Top-level sentences as token ranges. */
const sentences = (tokens) => elements(tokens, 0, tokens.length);

const text = (tokens, [a, b]) => tokens.slice(a, b + 1).join('');
const splice = (tokens, [a, b], replacement) => [...tokens.slice(0, a), replacement, ...tokens.slice(b + 1)];
const opens = (tokens) => where(tokens, (t) => t === '(');

/** Lists with at least `n` elements (their '(' indexes). */
function listsWith(tokens, n) {
  return opens(tokens).filter((o) => children(tokens, o).length >= n);
}

/** Rules: top-level `(<= head body...)` ranges. */
function rules(tokens) {
  return sentences(tokens).filter(([a]) => tokens[a] === '(' && tokens[a + 1] === '<=');
}

const FRESH = ['zz_fresh', 'cell', 'true', 'does', 'role', 'next', 'legal', 'init', 'goal', 'terminal', 'base', 'input', 'distinct', 'not', 'or', '<=', '0', '100', '?x'];

/** Each mutation: (tokens, r) -> tokens, or a Buffer for byte-level ones. */
export const MUTATIONS = {
  deleteToken(tokens, r) {
    const at = where(tokens, (t) => !isSpace(t) && !isComment(t));
    return at.length === 0 ? tokens : tokens.filter((_, i) => i !== at[r.int(at.length)]);
  },
  duplicateToken(tokens, r) {
    const at = where(tokens, (t) => !isSpace(t) && !isComment(t));
    if (at.length === 0) return tokens;
    const i = at[r.int(at.length)];
    return [...tokens.slice(0, i + 1), ' ', tokens[i], ...tokens.slice(i + 1)];
  },
  deleteParen(tokens, r) {
    const at = where(tokens, (t) => t === '(' || t === ')');
    return at.length === 0 ? tokens : tokens.filter((_, i) => i !== at[r.int(at.length)]);
  },
  duplicateParen(tokens, r) {
    const at = where(tokens, (t) => t === '(' || t === ')');
    if (at.length === 0) return tokens;
    const i = at[r.int(at.length)];
    return [...tokens.slice(0, i + 1), tokens[i], ...tokens.slice(i + 1)];
  },
  swapArguments(tokens, r) {
    const lists = listsWith(tokens, 3);
    if (lists.length === 0) return tokens;
    const kids = children(tokens, r.pick(lists)).slice(1);
    const i = r.int(kids.length);
    let j = r.int(kids.length - 1);
    if (j >= i) j++;
    const [first, second] = i < j ? [kids[i], kids[j]] : [kids[j], kids[i]];
    return [...tokens.slice(0, first[0]), text(tokens, second), ...tokens.slice(first[1] + 1, second[0]), text(tokens, first), ...tokens.slice(second[1] + 1)];
  },
  renameSymbol(tokens, r) {
    const syms = [...new Set(tokens.filter(isSymbol))];
    if (syms.length === 0) return tokens;
    const from = r.pick(syms);
    const to = r.chance(0.5) ? r.pick(FRESH) : r.pick(syms);
    const all = r.chance(0.5);
    const at = where(tokens, (t) => t === from);
    const one = at[r.int(at.length)];
    return tokens.map((t, i) => (t === from && (all || i === one) ? to : t));
  },
  changeCase(tokens, r) {
    const at = where(tokens, (t) => isAtom(t) && /[a-z]/i.test(t));
    if (at.length === 0) return tokens;
    const i = r.pick(at);
    const t = tokens[i];
    const changed = r.chance(0.5) ? t.toUpperCase() : t[0] === '?' ? `?${t.slice(1, 2).toUpperCase()}${t.slice(2)}` : `${t[0].toUpperCase()}${t.slice(1)}`;
    return tokens.map((x, k) => (k === i ? changed : x));
  },
  changeArity(tokens, r) {
    const lists = listsWith(tokens, 2);
    if (lists.length === 0) return tokens;
    const kids = children(tokens, r.pick(lists));
    const victim = kids[1 + r.int(kids.length - 1)];
    if (r.chance(0.5)) return splice(tokens, victim, '');
    return [...tokens.slice(0, victim[1] + 1), ' ', text(tokens, r.pick(kids.slice(1))), ...tokens.slice(victim[1] + 1)];
  },
  moveRule(tokens, r) {
    const all = sentences(tokens);
    if (all.length < 2) return tokens;
    const s = r.pick(all);
    const moved = text(tokens, s);
    const rest = splice(tokens, s, '');
    const others = sentences(rest);
    if (r.chance(0.3)) {
      // Into the body of another rule (a sentence nested where a literal belongs).
      const host = rules(rest);
      if (host.length > 0) {
        const [, b] = r.pick(host);
        return [...rest.slice(0, b), ' ', moved, ...rest.slice(b)];
      }
    }
    const [a] = others.length === 0 ? [rest.length] : r.pick(others);
    return [...rest.slice(0, a), moved, '\n', ...rest.slice(a)];
  },
  insertConnective(tokens, r) {
    const hosts = rules(tokens);
    if (hosts.length === 0) return tokens;
    const [a] = r.pick(hosts);
    const kids = children(tokens, a);
    const vars = tokens.slice(a, closing(tokens, a)).filter((t) => t.startsWith('?'));
    const v = () => (vars.length > 0 && r.chance(0.7) ? r.pick(vars) : r.pick(['?new', 'a', '1', '?x']));
    const body = kids.slice(2);
    const kind = r.int(4);
    if (kind === 0 || body.length === 0) return [...tokens.slice(0, kids[kids.length - 1][1] + 1), ` (distinct ${v()} ${v()})`, ...tokens.slice(kids[kids.length - 1][1] + 1)];
    const lit = r.pick(body);
    if (kind === 1) return splice(tokens, lit, `(not ${text(tokens, lit)})`);
    if (kind === 2) return splice(tokens, lit, `(or ${text(tokens, lit)} (distinct ${v()} ${v()}))`);
    return splice(tokens, lit, `(not (or ${text(tokens, lit)} (not (distinct ${v()} ${v()}))))`);
  },
  deepNesting(tokens, r) {
    const depth = r.pick([100, 1000, 10_000, 50_000]);
    const atoms = where(tokens, isAtom).filter((i) => tokens[i - 1] !== '(');
    const inner = `${'(f '.repeat(depth)}x${')'.repeat(depth)}`;
    if (atoms.length === 0 || r.chance(0.3)) return [...tokens, `\n(init (deep ${inner}))\n`];
    const i = r.pick(atoms);
    return tokens.map((t, k) => (k === i ? `${'(f '.repeat(depth)}${t}${')'.repeat(depth)}` : t));
  },
  longLine(tokens, r) {
    if (r.chance(0.5)) return tokens.map((t) => (isSpace(t) ? ' ' : isComment(t) ? '' : t));
    const atoms = where(tokens, isSymbol);
    const long = 'a'.repeat(r.pick([1000, 100_000, 1_000_000]));
    if (atoms.length === 0) return [...tokens, long];
    const i = r.pick(atoms);
    return tokens.map((t, k) => (k === i ? long : t));
  },
  manyRoles(tokens, r) {
    const n = r.pick([50, 500, 5000]);
    const roles = Array.from({ length: n }, (_, i) => `(role r${i})`).join('\n');
    return [...tokens, `\n${roles}\n`];
  },
  wideArity(tokens, r) {
    const n = r.pick([20, 200, 2000]);
    const vars = Array.from({ length: n }, (_, i) => `?v${i}`).join(' ');
    const consts = Array.from({ length: n }, (_, i) => `c${i % 7}`).join(' ');
    const facts = Array.from({ length: 5 }, () => `(wide ${consts})`).join('\n');
    return [...tokens, `\n${facts}\n(init (w ${consts}))\n(<= (next (w ${vars})) (true (w ${vars})) (wide ${vars}))\n`];
  },
  recursiveChain(tokens, r) {
    const n = r.pick([100, 2000, 20_000]);
    const lines = [];
    if (r.chance(0.5)) {
      for (let i = 0; i < n; i++) lines.push(`(<= (p${i + 1} ?x) (p${i} ?x))`);
      lines.push('(p0 a)', `(<= (next (chain ?x)) (p${n} ?x))`);
    } else {
      for (let i = 0; i < n; i++) lines.push(`(succ n${i} n${i + 1})`);
      lines.push('(<= (lt ?x ?y) (succ ?x ?y))', '(<= (lt ?x ?z) (succ ?x ?y) (lt ?y ?z))', '(init (count n0))');
      lines.push('(<= (next (count ?y)) (true (count ?x)) (succ ?x ?y))', '(<= (next (pair ?x ?y)) (true (count ?x)) (lt ?x ?y))');
    }
    return [...tokens, `\n${lines.join('\n')}\n`];
  },
};

/** Byte-level mutation: bytes that are not UTF-8 (lone continuation, overlong, truncated). */
function nonUtf8(bytes, r) {
  const bad = r.pick([[0xff], [0xc3], [0x80], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80], [0x00]]);
  const at = r.int(bytes.length + 1);
  return Buffer.concat([bytes.subarray(0, at), Buffer.from(bad), bytes.subarray(at)]);
}

const NAMES = [...Object.keys(MUTATIONS), 'nonUtf8'];
/** The large-game mutations are applied rarely (they are slow to run), the rest evenly. */
const WEIGHTS = NAMES.map((n) => (['manyRoles', 'wideArity', 'recursiveChain', 'deepNesting', 'longLine'].includes(n) ? 1 : 3));
const TOTAL = WEIGHTS.reduce((a, b) => a + b, 0);

function pickMutation(r) {
  let x = r.int(TOTAL);
  for (let i = 0; i < NAMES.length; i++) {
    x -= WEIGHTS[i];
    if (x < 0) return NAMES[i];
  }
  return NAMES[0];
}

/**
 * Mutation `index` of a run seeded `seed`, applied to `source` (the game's text): one to three
 * mutations in a row. Returns the bytes and the names of the mutations applied.
 */
export function mutate(source, seed, index) {
  const r = rng(mutationSeed(seed, index));
  const count = 1 + r.int(3);
  const applied = Array.from({ length: count }, () => pickMutation(r));
  // Token mutations first, then the byte-level ones (which leave text behind).
  applied.sort((a, b) => Number(a === 'nonUtf8') - Number(b === 'nonUtf8'));
  let tokens = tokenize(source);
  let bytes;
  for (const name of applied) {
    if (name === 'nonUtf8') bytes = nonUtf8(bytes ?? Buffer.from(tokens.join(''), 'utf8'), r);
    else tokens = MUTATIONS[name](tokens, r);
  }
  return { bytes: bytes ?? Buffer.from(tokens.join(''), 'utf8'), applied };
}

/**
 * The top-level sentences of `source` in an order shuffled by `seed`, one a line, comments left
 * out: the same game written in another order (the determinism test grounds both). The `role`
 * facts keep their order among themselves, since the order of the roles is part of the game
 * (the order of the moves in a joint move); they are spread among the other sentences.
 */
export function shuffleSentences(source, seed) {
  const tokens = tokenize(source);
  const list = sentences(tokens).map((s) => text(tokens, s));
  const r = rng(seed);
  for (let i = list.length - 1; i > 0; i--) {
    const j = r.int(i + 1);
    [list[i], list[j]] = [list[j], list[i]];
  }
  const isRole = (s) => /^\(\s*role[\s(]/.test(s);
  const roles = sentences(tokens).map((s) => text(tokens, s)).filter(isRole);
  let k = 0;
  return `${list.map((s) => (isRole(s) ? roles[k++] : s)).join('\n')}\n`;
}
