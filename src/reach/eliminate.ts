/**
 * Existence parts of relaxed rules rewritten with relations of their own, their variables
 * eliminated one at a time (bucket elimination). A rule's positive literals fall into parts
 * linked through variables that are not in the head; a part whose head variables the other parts
 * bind too decides only whether some binding exists for a head the others make (the parts
 * head-first plans defer, src/reach/head-first.ts). racer4:
 *
 *   legal_speed(P, NX, NY) <= velx(P, DX), pmone(DX, NX), vely(P, DY), pmone(DY, NY), smaller(n2, NX),
 *                             posx(P, X), add(X, NX, X1), track(X1, Y1), add(Y, NY, Y1), posy(P, Y)
 *
 * Run as one clause, every round asks the track part again for each head the velocities allow
 * and no position reaches yet (7.2M join steps for 4 new facts over the game), and delta first
 * walks every position pair. Instead the part becomes
 *
 *   e1(P, NX, X1) <= posx(P, X), add(X, NX, X1)          (X eliminated)
 *   e2(P, NY, Y1) <= posy(P, Y), add(Y, NY, Y1)          (Y)
 *   e3(P, NX, Y1) <= e1(P, NX, X1), track(X1, Y1)        (X1)
 *   legal_speed(P, NX, NY) <= velx(P, DX), pmone(DX, NX), vely(P, DY), pmone(DY, NY), smaller(n2, NX),
 *                             e3(P, NX, Y1), e2(P, NY, Y1)
 *
 * and semi-naive rounds extend each small table by what is new in it. The last join of the part
 * (here over Y1, the buckets left when no bucket smaller than the whole remains) stays in the
 * rule, where head-first plans test it once per head the rest makes, under `once`: made a
 * relation of its own (`e4(P, NX, NY) <= e3(P, NX, Y1), e2(P, NY, Y1)`, before 2026-11-28), it
 * was derived for every head the positions allow, velocities or not, once per witness: 812,860
 * answers for 40,788 facts on racer4, where the rule needs 21,004 heads.
 *
 * **Same least model.** Each new relation is defined by one rule whose head holds the variables
 * its body shares with the rest of the rule (the variable eliminated, and any other found only
 * in the bucket, are in no other literal and not in the head). So `e(ū)` holds exactly when the
 * bucket has a binding extending ū, and replacing the bucket by `e(ū)` keeps every binding of
 * the rest: ∃x̄ (B(ū, x̄) ∧ R(ū, ȳ)) ⟺ (∃x̄ B(ū, x̄)) ∧ R(ū, ȳ). The rewritten program derives
 * the same facts of every relation of the game; the new relations are left out of the supersets.
 *
 * A bucket is eliminated only when its relation is no wider than its widest literal nor than the
 * part's head variables (wider ones grew large in checkers' and pentago's rules, and took longer
 * than the join), and every variable of its head and of its `distinct` literals is bound by one
 * of its positive literals (a rule must be safe); a part is rewritten only when some bucket
 * qualified.
 */
import type { Atom, Term } from '../gdl/ast.js';
import { NO_POS } from '../gdl/ast.js';
import { collectVars } from '../gdl/terms.js';
import { linkedGroups } from '../datalog/plan.js';
import type { RelaxedLiteral, RelaxedRule } from './relaxed-rule.js';

/** The rewritten rules and the keys (`rel/arity`) of the relations made for them. */
interface Eliminated {
  readonly rules: readonly RelaxedRule[];
  readonly auxiliary: ReadonlySet<string>;
}

/** Fewest local variables a part needs to be made a relation: one alone is a plain join. */
const MIN_LOCALS = 2;

/** Fewest positive literals such a part needs. */
const MIN_LITERALS = 3;

/** The rules with their existence parts made relations (see the module comment). */
export function eliminateParts(rules: readonly RelaxedRule[]): Eliminated {
  const out: RelaxedRule[] = [];
  const made = new Map<string, Atom>();
  const auxiliary = new Set<string>();
  const names = { next: 0 };
  for (const rule of rules) {
    const body: RelaxedLiteral[] = [...rule.body];
    const added: RelaxedRule[] = [];
    for (const part of existenceParts(rule)) {
      const last = eliminate(rule, part, headVarsOf(rule), made, added, auxiliary, names);
      if (last === undefined) continue;
      body.splice(0, body.length, ...body.filter((l) => !part.includes(l)), ...last);
    }
    out.push(...added, body.length === rule.body.length && added.length === 0 ? rule : { ...rule, body });
  }
  return { rules: out, auxiliary };
}

/** Variables of terms, in order of first occurrence. */
function varsOf(terms: readonly Term[]): string[] {
  const out = new Set<string>();
  for (const t of terms) collectVars(t, out);
  return [...out];
}

/** Variables of a literal, in order of first occurrence. */
export function literalVars(l: RelaxedLiteral): string[] {
  return l.kind === 'pos' ? varsOf(l.atom.args) : varsOf([l.left, l.right]);
}

function headVarsOf(rule: RelaxedRule): Set<string> {
  return new Set(varsOf(rule.head.args));
}

/**
 * The parts of the body to make relations: linked through variables outside the head, with
 * enough local variables and literals, whose head variables the rest of the body binds, and
 * each of whose head variables one of its own positive literals binds.
 */
function existenceParts(rule: RelaxedRule): RelaxedLiteral[][] {
  const head = headVarsOf(rule);
  const groups = linkedGroups(rule.body.map(literalVars), (v) => head.has(v)).map((g) => g.map((i) => rule.body[i]!));
  if (groups.length < 2) return [];
  const chosen: RelaxedLiteral[][] = [];
  for (const g of groups) {
    const vars = new Set(g.flatMap(literalVars));
    const locals = [...vars].filter((v) => !head.has(v));
    const positives = g.filter((l) => l.kind === 'pos');
    if (locals.length < MIN_LOCALS || positives.length < MIN_LITERALS) continue;
    const rest = new Set(rule.body.filter((l) => !g.includes(l) && l.kind === 'pos').flatMap(literalVars));
    const bound = new Set(positives.flatMap(literalVars));
    const heads = [...vars].filter((v) => head.has(v));
    if (heads.every((v) => rest.has(v) && bound.has(v))) chosen.push(g);
  }
  return chosen;
}

/**
 * Eliminates the local variables of `part` bucket by bucket, adding a rule per bucket to `out`,
 * and returns the literals left (the part's last join, which the rule keeps: see the module
 * comment); undefined, with nothing added, when no bucket qualifies (the part as one relation
 * is one more table to fill for the same join: racer4's took longer than the clause it
 * replaced). A bucket equal to one made before (same literals up to renaming) reuses its relation.
 */
function eliminate(
  rule: RelaxedRule,
  part: readonly RelaxedLiteral[],
  head: ReadonlySet<string>,
  made: Map<string, Atom>,
  out: RelaxedRule[],
  auxiliary: Set<string>,
  names: { next: number },
): RelaxedLiteral[] | undefined {
  const keep = varsOf(part.flatMap((l) => (l.kind === 'pos' ? l.atom.args : [l.left, l.right]))).filter((v) => head.has(v));
  let lits = [...part];
  if (nextBucket(lits, keep) === undefined) return undefined;
  for (;;) {
    const bucket = nextBucket(lits, keep);
    if (bucket === undefined) break;
    const atom = relationFor(rule, bucket.literals, bucket.vars, made, out, auxiliary, names);
    lits = [...lits.filter((l) => !bucket.literals.includes(l)), { kind: 'pos', atom }];
  }
  return lits;
}

/**
 * The bucket of the local variable whose elimination makes the narrowest relation (ties: the
 * smaller bucket, then the first variable), among those that qualify; undefined when none does
 * or a bucket would hold every literal left (the part's own rule then takes them).
 */
function nextBucket(lits: readonly RelaxedLiteral[], keep: readonly string[]): { literals: RelaxedLiteral[]; vars: string[] } | undefined {
  const kept = new Set(keep);
  const locals = varsOf(lits.flatMap((l) => (l.kind === 'pos' ? l.atom.args : [l.left, l.right]))).filter((v) => !kept.has(v));
  let best: { literals: RelaxedLiteral[]; vars: string[] } | undefined;
  for (const v of locals) {
    const literals = lits.filter((l) => literalVars(l).includes(v));
    if (literals.length === lits.length) continue;
    const rest = new Set(lits.filter((l) => !literals.includes(l)).flatMap(literalVars));
    const vars = varsOf(literals.flatMap((l) => (l.kind === 'pos' ? l.atom.args : [l.left, l.right]))).filter((u) => kept.has(u) || rest.has(u));
    const positives = literals.filter((l) => l.kind === 'pos');
    const bound = new Set(positives.flatMap(literalVars));
    if (positives.length === 0 || ![...new Set(literals.flatMap(literalVars))].every((u) => bound.has(u))) continue;
    if (vars.length > keep.length || vars.length > Math.max(...positives.map((l) => literalVars(l).length))) continue;
    if (best === undefined || vars.length < best.vars.length || (vars.length === best.vars.length && literals.length < best.literals.length)) best = { literals, vars };
  }
  return best;
}

/**
 * The atom of the relation defined by `body` over `vars`: made once per distinct body (its rule
 * added to `out`, its key to `auxiliary`), named `<head> <kind>N`; also eliminate-local.ts's.
 */
export function relationFor(
  rule: RelaxedRule,
  body: readonly RelaxedLiteral[],
  vars: readonly string[],
  made: Map<string, Atom>,
  out: RelaxedRule[],
  auxiliary: Set<string>,
  names: { next: number },
  kind = 'part',
): Atom {
  const args: Term[] = vars.map((name) => ({ kind: 'var', name, pos: NO_POS }));
  const key = canonical(args, body);
  const known = made.get(key.text);
  if (known !== undefined) return { ...known, args: known.args.map((a) => key.back.get((a as { name: string }).name) ?? a) };
  const atom: Atom = { kind: 'atom', rel: `${rule.head.rel} ${kind}${++names.next}`, args, pos: rule.pos };
  made.set(key.text, { ...atom, args: args.map((a, i) => ({ ...a, name: key.names[i]! }) as Term) });
  auxiliary.add(`${atom.rel}/${args.length}`);
  out.push({ head: atom, body, pos: rule.pos });
  return atom;
}

/**
 * A text equal for two bodies over head variables that differ only in variable names:
 * variables renamed `_0`, `_1`, ... in order of first occurrence, head first. `names` are the
 * canonical names of the head's variables, `back` maps them to this body's.
 */
function canonical(args: readonly Term[], body: readonly RelaxedLiteral[]): { text: string; names: string[]; back: Map<string, Term> } {
  const rename = new Map<string, string>();
  const back = new Map<string, Term>();
  const text = (t: Term): string => {
    if (t.kind === 'var') {
      if (!rename.has(t.name)) {
        rename.set(t.name, `_${rename.size}`);
        back.set(`_${rename.size - 1}`, t);
      }
      return rename.get(t.name)!;
    }
    return t.kind === 'const' ? t.name : `(${t.name} ${t.args.map(text).join(' ')})`;
  };
  const head = args.map(text).join(' ');
  const lits = body.map((l) => (l.kind === 'pos' ? `(${l.atom.rel} ${l.atom.args.map(text).join(' ')})` : `(distinct ${text(l.left)} ${text(l.right)})`));
  return { text: `${head} <= ${lits.join(' ')}`, names: args.map((a) => rename.get((a as { name: string }).name)!), back };
}
