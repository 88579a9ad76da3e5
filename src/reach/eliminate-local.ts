/**
 * Local variables eliminated from whole rule bodies (bucket elimination where the body is one
 * linked part, which src/reach/eliminate.ts leaves alone). kalaha_2009:
 *
 *   next(pit(P, N2)) <= does(R, clear(P2)), winpit(R, P), true(pit(P, N)), true(pit(P2, N1)), plus(N, N1, N2)
 *
 * `P2` is in two literals and not in the head, so the rule becomes
 *
 *   l1(R, N1) <= does(R, clear(P2)), true(pit(P2, N1))
 *   next(pit(P, N2)) <= l1(R, N1), winpit(R, P), true(pit(P, N)), plus(N, N1, N2)
 *
 * Semi-naive rounds joined each new pit count of every cleared pit with every known count of
 * every pit (about 178,000 answers per rule, none new at the end); now a count found in two
 * cleared pits is one fact of `l1`, joined once.
 *
 * **Same least model**, by the argument of src/reach/eliminate.ts: the bucket's variables other
 * than the relation's arguments occur in no other literal and not in the head, so
 * ∃v (B(ū, v) ∧ R(ū, ȳ)) ⟺ (∃v B(ū, v)) ∧ R(ū, ȳ). The new relations are left out of the
 * supersets.
 *
 * Conservative on purpose (a relation over variables the bucket does not link could be a cross
 * product the rest of the body would have cut): a bucket is taken only when it holds at least two
 * literals, all positive, not the whole body, and its relation has at most {@link MAX_WIDTH}
 * arguments, fewer than the bucket has variables.
 */
import type { Atom } from '../gdl/ast.js';
import { collectVars } from '../gdl/terms.js';
import { literalVars, relationFor } from './eliminate.js';
import { type RelaxedLiteral, type RelaxedRule, keyOf } from './relaxed-rule.js';

/** Widest relation a bucket may be made: wider ones risk products the rule's join never makes. */
const MAX_WIDTH = 2;

/** Relations made for buckets, shared by rules whose buckets are the same up to renaming. */
interface Made {
  readonly atoms: Map<string, Atom>;
  readonly rules: RelaxedRule[];
  readonly auxiliary: Set<string>;
  next: number;
}

/**
 * The rules with qualifying local variables eliminated (see the module comment), and the keys
 * of the relations made; rules whose head is in `skip` (relations made before) are kept as they are.
 */
export function eliminateLocals(rules: readonly RelaxedRule[], skip: ReadonlySet<string>): { rules: RelaxedRule[]; auxiliary: Set<string> } {
  const made: Made = { atoms: new Map(), rules: [], auxiliary: new Set(), next: 0 };
  const out: RelaxedRule[] = [];
  for (const rule of rules) {
    if (skip.has(keyOf(rule.head))) {
      out.push(rule);
      continue;
    }
    const before = made.rules.length;
    const body = eliminateRule(rule, made);
    out.push(...made.rules.slice(before), body === rule.body ? rule : { ...rule, body });
  }
  return { rules: out, auxiliary: made.auxiliary };
}

/** The body with buckets replaced one variable at a time until none qualifies. */
function eliminateRule(rule: RelaxedRule, made: Made): readonly RelaxedLiteral[] {
  const head = new Set<string>();
  for (const a of rule.head.args) collectVars(a, head);
  let body = rule.body;
  for (;;) {
    const bucket = nextBucket(body, head);
    if (bucket === undefined) return body;
    const atom = relationFor(rule, bucket.literals, bucket.vars, made.atoms, made.rules, made.auxiliary, made, 'local');
    body = [...body.filter((l) => !bucket.literals.includes(l)), { kind: 'pos', atom }];
  }
}

/** The first local variable (in order of first occurrence) whose bucket qualifies. */
function nextBucket(body: readonly RelaxedLiteral[], head: ReadonlySet<string>): { literals: RelaxedLiteral[]; vars: string[] } | undefined {
  const vars = body.map((l) => new Set(literalVars(l)));
  const seen = new Set<string>();
  for (const vs of vars) {
    for (const v of vs) {
      if (head.has(v) || seen.has(v)) continue;
      seen.add(v);
      const bucket = qualifying(body, vars, head, v);
      if (bucket !== undefined) return bucket;
    }
  }
  return undefined;
}

/** The bucket of `v` and its relation's variables, if it qualifies (module comment). */
function qualifying(
  body: readonly RelaxedLiteral[],
  vars: readonly Set<string>[],
  head: ReadonlySet<string>,
  v: string,
): { literals: RelaxedLiteral[]; vars: string[] } | undefined {
  const inside = body.map((_, i) => vars[i]!.has(v));
  const count = inside.filter(Boolean).length;
  if (count < 2 || count === body.length) return undefined;
  if (body.some((l, i) => inside[i] && l.kind !== 'pos')) return undefined;
  const rest = new Set<string>();
  body.forEach((_, i) => {
    if (!inside[i]) for (const u of vars[i]!) rest.add(u);
  });
  const all = new Set<string>();
  body.forEach((_, i) => {
    if (inside[i]) for (const u of vars[i]!) all.add(u);
  });
  const kept = [...all].filter((u) => head.has(u) || rest.has(u));
  if (kept.length === 0 || kept.length > MAX_WIDTH || kept.length >= all.size) return undefined;
  return { literals: body.filter((_, i) => inside[i]), vars: kept };
}
