/**
 * Move mutexes for frame rules (issue 17, docs/ground.md "Frame rules"), the shape part: a pure
 * rewrite of one normalized rule. A frame rule says "the cell stays as it is when the move made
 * does not touch it":
 *
 *   h(X) <= does(R, M), P(M), T(M, Xc), rest(X)
 *
 * with P the tests on the move alone, T the tests that relate the move to the head variables Xc
 * (distinct, static atoms, negated atoms), and rest the literals that bind Xc. Grounded as it
 * stands it makes |moves| x |cells| rules. In every joint move each role makes exactly one move
 * m0, so "some move m of R with P(m) and T(m, Xc)" is "P(m0) and T(m0, Xc)", which is
 *
 *   moved(R) and not touched(R, Xc)        moved(R)       <= does(R, M), P(M)
 *                                          touched(R, Xc) <= does(R, M), not T_i(M, Xc)   (each i)
 *
 * and touched has only |moves touching a cell| instances. The negation of a conjunct: of
 * `(distinct a b)` the unifier of a and b applied to the rule, of `(not a)` the atom a, of a
 * positive static atom its negation. A head variable that the negated conjunct does not bind is
 * bound by the positive static conjuncts of T with their move variables renamed apart ("dom",
 * static atoms vanish from ground rules and their private variables are existential); the head
 * rule then reads dom too, which keeps it exact: T implies dom, so
 * dom and not (dom and not T) is T.
 *
 * Conditions (else null, and the rule is left to rule splitting):
 * - one `does` literal in the part of the body connected to it through non-head variables;
 * - the move's variables are not head variables (the role's may be): a move that names the
 *   head's cell is an effect rule, not a frame rule;
 * - every literal of the part besides the `does` either has no head variable (it goes to P) or
 *   is a test over the `does` variables and head variables: `distinct`, a positive static atom,
 *   or a negated atom (of a relation that is not lazy: its atom becomes positive in touched);
 * - every head variable of the part is bound by a positive literal outside it (the cell comes
 *   from the rest of the rule), and by each touched rule (else the rule is left alone).
 * The relaxed game (negations dropped) of the rewrite may reach more head atoms than the
 * rule's (dom(Xc) stands for "some move passes the tests at Xc"); {@link keepsFluent} tells
 * when those add no fluent (frame-run.ts decides with it when a rule may be rewritten).
 * Only the static literals of P go into the touched rules: touched only matters where moved
 * holds, and static tests there keep the touched rules few.
 */
import type { Atom, Term } from '../gdl/ast.js';
import { atomToString, collectVars, substitute, substituteAtom } from '../gdl/terms.js';
import { unify } from '../normalize/unify.js';
import type { Literal, NormalRule } from '../normalize/types.js';
import { atomVarSet, auxAtom, components, literalVars, type SplitContext } from './split.js';

/** What the frame rewrite needs besides {@link SplitContext}. */
interface FrameContext extends SplitContext {
  /** True for an atom of a lazy relation (docs/lazy.md): it may stay negated only. */
  readonly isLazy: (atom: Atom) => boolean;
}

/** The literals of a frame rule's part around its `does`, classified. */
interface FramePart {
  readonly does: Atom;
  /** Indexes of the body literals in the part (the `does` included). */
  readonly indexes: readonly number[];
  /** Tests on the move alone. */
  readonly onMove: readonly Literal[];
  /** Tests relating the move to head variables. */
  readonly tests: readonly Literal[];
  /** Head variables the part uses (the cell), and the role's variables, in first-occurrence order. */
  readonly cell: readonly string[];
  readonly role: readonly string[];
}

const isDoes = (l: Literal): boolean => l.kind === 'pos' && l.atom.rel === 'does' && l.atom.args.length === 2;

function subset(a: Iterable<string>, b: ReadonlySet<string>): boolean {
  for (const x of a) if (!b.has(x)) return false;
  return true;
}

/** A test may relate the move to the cell if its negation is a literal the instantiator takes. */
function testKind(l: Literal, ctx: FrameContext): boolean {
  if (l.kind === 'distinct') return true;
  if (l.kind === 'pos') return ctx.isStatic(l.atom);
  return !ctx.isLazy(l.atom);
}

/**
 * True when the head of `rule` is `(next F)` and `(true F)` is a positive literal of its body:
 * then the relaxed game (negations dropped) of its frame rewrite reaches no fluent the rule's
 * does not (docs/ground.md, "One decision for both methods").
 */
export function keepsFluent(rule: NormalRule): boolean {
  const { head, body } = rule;
  if (head.rel !== 'next' || head.args.length !== 1) return false;
  const fluent = atomToString({ ...head, rel: 'true' });
  return body.some((l) => l.kind === 'pos' && l.atom.rel === 'true' && atomToString(l.atom) === fluent);
}

/** The part of `rule` around its one `does` literal, or null when the rule is not a frame rule. */
function framePart(rule: NormalRule, ctx: FrameContext): FramePart | null {
  const body = rule.body;
  const headVars = atomVarSet(rule.head);
  const vars = body.map(literalVars);
  const at = body.findIndex(isDoes);
  if (at < 0) return null;
  const indexes = components(vars, headVars).find((c) => c.includes(at))!;
  if (indexes.length < 2 || indexes.filter((i) => isDoes(body[i]!)).length !== 1) return null;
  const does = (body[at] as { atom: Atom }).atom;
  const role = [...atomVarSet({ ...does, args: [does.args[0]!] })];
  const moveVars = atomVarSet({ ...does, args: [does.args[1]!] });
  const doesVars = new Set([...role, ...moveVars]);
  const cell: string[] = [];
  for (const i of indexes) for (const v of vars[i]!) if (headVars.has(v) && !cell.includes(v) && !role.includes(v)) cell.push(v);
  if (cell.length === 0 || cell.some((v) => moveVars.has(v))) return null;
  // The cell must come from the rest of the rule: a positive literal outside the part binds it.
  const outside = new Set(body.flatMap((l, i) => (l.kind === 'pos' && !indexes.includes(i) ? [...vars[i]!] : [])));
  if (!subset(cell, outside)) return null;
  const onMove: Literal[] = [];
  const tests: Literal[] = [];
  const allowed = new Set([...doesVars, ...cell]);
  for (const i of indexes) {
    if (i === at) continue;
    const l = body[i]!;
    if (!cell.some((v) => vars[i]!.has(v))) onMove.push(l);
    else if (testKind(l, ctx) && subset(vars[i]!, allowed)) tests.push(l);
    else return null;
  }
  return tests.length === 0 ? null : { does, indexes, onMove, tests, cell, role };
}

/** Variable names of the rule, so that renamed copies avoid them. */
function ruleVarNames(rule: NormalRule): Set<string> {
  const out = atomVarSet(rule.head);
  for (const l of rule.body) for (const v of literalVars(l)) out.add(v);
  return out;
}

/** The positive static tests with every non-cell variable renamed apart: the cell's domain. */
function domain(part: FramePart, taken: ReadonlySet<string>): Atom[] {
  const cell = new Set(part.cell);
  let n = 0;
  const fresh = (): Term => {
    let name: string;
    do name = `?frame${++n}`; while (taken.has(name));
    return { kind: 'var', name, pos: part.does.pos };
  };
  const seen = new Set<string>();
  return part.tests.flatMap((l) => {
    if (l.kind !== 'pos') return [];
    // Two tests of one relation may give the same domain (chess: both squares of the move).
    const blank = new Map<string, Term>();
    for (const v of atomVarSet(l.atom)) if (!cell.has(v)) blank.set(v, { kind: 'var', name: '?', pos: l.atom.pos });
    const key = atomToString(substituteAtom(l.atom, blank));
    if (seen.has(key)) return [];
    seen.add(key);
    const rename = new Map<string, Term>();
    for (const v of atomVarSet(l.atom)) if (!cell.has(v)) rename.set(v, fresh());
    return [substituteAtom(l.atom, rename)];
  });
}

function substituteLiteral(l: Literal, s: ReadonlyMap<string, Term>): Literal {
  if (l.kind === 'distinct') return { ...l, left: substitute(l.left, s), right: substitute(l.right, s) };
  return { kind: l.kind, atom: substituteAtom(l.atom, s) };
}

/**
 * The body of the touched rule for test `t`, under `s` (the unifier of a negated `distinct`,
 * else empty): the move, the negated test, the static tests on the move, and the domain atom
 * when the others leave an argument of the touched atom (`args`) unbound. Null when even the
 * domain does not bind them.
 */
function touchedBody(t: Literal, part: FramePart, dom: Atom | null, statics: readonly Literal[], s: ReadonlyMap<string, Term>, args: readonly Term[]): Literal[] | null {
  const negated: Literal[] = t.kind === 'distinct' ? [] : [{ kind: t.kind === 'pos' ? 'neg' : 'pos', atom: substituteAtom(t.atom, s) }];
  const body: Literal[] = [{ kind: 'pos', atom: substituteAtom(part.does, s) }, ...negated.filter((l) => l.kind === 'pos'), ...statics.map((l) => substituteLiteral(l, s))];
  const bound = new Set(body.flatMap((l) => (l.kind === 'pos' ? [...literalVars(l)] : [])));
  const need = new Set<string>();
  for (const a of args) collectVars(a, need);
  for (const l of [...negated, ...body]) if (l.kind !== 'pos') for (const v of literalVars(l)) need.add(v);
  if (!subset(need, bound) && dom !== null) {
    const atom = substituteAtom(dom, s);
    body.push({ kind: 'pos', atom });
    for (const v of atomVarSet(atom)) bound.add(v);
  }
  if (!subset(need, bound)) return null;
  return [...body, ...negated.filter((l) => l.kind === 'neg')];
}

/** A frame rule rewritten (see the module comment); every relation but `head`'s is new. */
interface FrameRewrite {
  /** The cell's domain, a static relation: dom(Xc) <= the positive static tests, renamed apart. */
  readonly dom: NormalRule | null;
  /** moved(R) <= does(R, M), P(M) */
  readonly moved: NormalRule;
  /** touched(R, Xc) <= does(R, M), not T_i(M, Xc), one rule per test that can fail. */
  readonly touched: readonly NormalRule[];
  /** h(X) <= rest(X), moved(R), dom(Xc), not touched(R, Xc) */
  readonly head: NormalRule;
}

/** Rewrites a frame rule, or returns null when it does not have the shape (module comment). */
export function frameRule(rule: NormalRule, ctx: FrameContext): FrameRewrite | null {
  const part = framePart(rule, ctx);
  if (part === null) return null;
  const domAtoms = domain(part, ruleVarNames(rule));
  const domVars = part.cell.filter((v) => domAtoms.some((a) => atomVarSet(a).has(v)));
  // dom(Xc) <= the positive static tests, renamed apart (a static relation)
  const dom = domAtoms.length === 0 ? null : { head: auxAtom(ctx.fresh(), domVars, rule.pos), body: domAtoms.map((atom): Literal => ({ kind: 'pos', atom })), pos: rule.pos };
  // Static tests on the move whose variables the move binds (or that bind their own).
  const doesVars = atomVarSet(part.does);
  const statics = part.onMove.filter((l) => (l.kind === 'distinct' || ctx.isStatic(l.atom)) && (l.kind === 'pos' || subset(literalVars(l), doesVars)));
  const keyVars = [...part.role, ...part.cell];
  const moved = auxAtom(ctx.fresh(), part.role, rule.pos);
  const touched = auxAtom(ctx.fresh(), keyVars, rule.pos);
  // touched(R, Xc) <= does(R, M), Ps(M), [dom(Xc)], not T_i(M, Xc)    (each test i)
  const touchedRules: NormalRule[] = [];
  for (const t of part.tests) {
    const s = t.kind === 'distinct' ? unify(t.left, t.right, new Map()) : new Map<string, Term>();
    if (s === null) continue; // never equal: this test never fails
    const args = keyVars.map((v) => substitute({ kind: 'var', name: v, pos: rule.pos }, s));
    const body = touchedBody(t, part, dom?.head ?? null, statics, s, args);
    if (body === null) return null;
    touchedRules.push({ head: { ...touched, args }, body, pos: rule.pos });
  }
  // h(X) <= rest(X), moved(R), dom(Xc), not touched(R, Xc);   moved(R) <= does(R, M), P(M)
  const rest = rule.body.filter((_, i) => !part.indexes.includes(i));
  const headBody: Literal[] = [...rest, { kind: 'pos', atom: moved }, ...(dom === null ? [] : [{ kind: 'pos' as const, atom: dom.head }])];
  if (touchedRules.length > 0) headBody.push({ kind: 'neg', atom: touched });
  return {
    dom,
    moved: { head: moved, body: [{ kind: 'pos', atom: part.does }, ...part.onMove], pos: rule.pos },
    touched: touchedRules,
    head: { head: rule.head, body: headBody, pos: rule.pos },
  };
}
