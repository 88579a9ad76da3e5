/**
 * Where the GDL keywords may stand, and what they may depend on (GDL specification of 2008,
 * section 3, as GGP-Base's StaticValidator enforces it): `true` and `does` only in bodies,
 * `init`, `next`, `base`, `input` and GDL-II's `sees` only in heads, `role` only in facts; `legal`, `goal` and
 * `terminal` never depend on `does`, and `init`, `base` and `input` never on the state
 * (`true`, `does`, `next`, `legal`, `goal`, `terminal`); a game has roles, legal, goal and
 * terminal rules.
 */
import type { Pos, Rule } from './ast.js';
import { type Diagnostic, diag } from './diagnostics.js';
import { forEachBodyAtom, relationKeys } from './relations.js';
import { isGround } from './terms.js';

/** An edge of the dependency graph with the rule that makes it. */
interface Edge {
  readonly to: string;
  readonly rule: Rule;
}

const HEAD_ONLY: readonly string[] = ['init', 'next', 'base', 'input', 'sees'];
const BODY_ONLY: readonly string[] = ['true', 'does'];

/** Edges between relation keys (name, or name/arity for a name with several arities). */
function dependencyEdges(rules: readonly Rule[]): Map<string, Edge[]> {
  const key = relationKeys(rules);
  const out = new Map<string, Edge[]>();
  for (const rule of rules) {
    for (const b of rule.body) {
      forEachBodyAtom(b, false, (atom) => {
        const list = out.get(key(atom)) ?? [];
        if (list.length === 0) out.set(key(atom), list);
        list.push({ to: key(rule.head), rule });
      });
    }
  }
  return out;
}

/**
 * Breadth-first search downstream of `sources`; for each relation reached, the edge that first
 * reached it, so that a path can be shown. Shortest paths make the message short.
 */
function downstream(edges: ReadonlyMap<string, readonly Edge[]>, sources: readonly string[]): Map<string, { from: string; rule: Rule }> {
  const reached = new Map<string, { from: string; rule: Rule }>();
  const queue = [...sources];
  const seen = new Set(sources);
  for (let i = 0; i < queue.length; i++) {
    const r = queue[i]!;
    for (const e of edges.get(r) ?? []) {
      if (seen.has(e.to)) continue;
      seen.add(e.to);
      reached.set(e.to, { from: r, rule: e.rule });
      queue.push(e.to);
    }
  }
  return reached;
}

function pathTo(target: string, reached: ReadonlyMap<string, { from: string }>): string {
  const path = [target];
  let at = reached.get(target);
  while (at !== undefined) {
    path.push(at.from);
    at = reached.get(at.from);
  }
  return path.reverse().join(' -> ');
}

function checkPlacement(rules: readonly Rule[], file: string, out: Diagnostic[]): void {
  for (const rule of rules) {
    if (BODY_ONLY.includes(rule.head.rel)) {
      out.push(diag('error', file, rule.head.pos, `'${rule.head.rel}' cannot stand in the head of a rule or as a fact`));
    }
    if (rule.head.rel === 'role' && rule.body.length > 0) {
      out.push(diag('error', file, rule.pos, "roles must be given as facts, not by rules: 'role' cannot be the head of a rule"));
    }
    for (const b of rule.body) {
      forEachBodyAtom(b, false, (atom) => {
        if (HEAD_ONLY.includes(atom.rel)) {
          out.push(diag('error', file, atom.pos, `'${atom.rel}' cannot stand in the body of a rule`));
        }
      });
    }
  }
}

/**
 * GDL-II facts for `sees` must be ground (a fact with variables names no role and percept in
 * particular). Run on the rules as written: the safety repair would give such a fact a body.
 */
export function checkSeesFacts(rules: readonly Rule[], file: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const rule of rules) {
    if (rule.head.rel === 'sees' && rule.body.length === 0 && !rule.head.args.every(isGround)) {
      out.push(diag('error', file, rule.head.pos, "a 'sees' fact must be ground: what a role perceives is given by rules on 'true' and 'does'"));
    }
  }
  return out;
}

/**
 * Keyword dependencies, on the transitive closure of the dependency graph:
 *   error <- depends*(K, does), K in {legal, goal, terminal}
 *   error <- depends*(K, S), K in {init, base, input}, S in {true, does, next, legal, goal, terminal}
 */
function checkDependencies(rules: readonly Rule[], file: string, out: Diagnostic[]): void {
  const edges = dependencyEdges(rules);
  const fromDoes = downstream(edges, ['does']);
  for (const k of ['legal', 'goal', 'terminal']) {
    const hit = fromDoes.get(k);
    if (hit !== undefined) {
      out.push(diag('error', file, hit.rule.pos, `'${k}' must not depend on 'does' (the moves of the current step), but it does: ${pathTo(k, fromDoes)}`));
    }
  }
  const fromState = downstream(edges, ['true', 'does', 'next', 'legal', 'goal', 'terminal', 'sees']);
  for (const k of ['init', 'base', 'input']) {
    const hit = fromState.get(k);
    if (hit !== undefined) {
      out.push(diag('error', file, hit.rule.pos, `'${k}' must not depend on the state of the game, but it does: ${pathTo(k, fromState)}`));
    }
  }
}

function checkPresence(rules: readonly Rule[], file: string, out: Diagnostic[]): void {
  const heads = new Set(rules.map((r) => r.head.rel));
  const start: Pos = { line: 1, col: 1 };
  if (rules.length === 0) {
    // One message says it all; four "no ..." errors would hide the cause.
    out.push(diag('error', file, start, 'empty game: the file holds no rules or facts'));
    return;
  }
  const need: [string, string][] = [
    ['role', 'no roles: the game has no (role ...) facts'],
    ['legal', "no legal moves: the game has no rules or facts for 'legal'"],
    ['goal', "no goals: the game has no rules or facts for 'goal'"],
    ['terminal', "no end: the game has no rules or facts for 'terminal'"],
  ];
  for (const [rel, message] of need) if (!heads.has(rel)) out.push(diag('error', file, start, message));
}

/**
 * Relations used in a body that no rule or fact defines are always false; that is legal GDL
 * but usually a typing error, so it is a warning (nothing is changed).
 */
function checkUndefined(rules: readonly Rule[], file: string, out: Diagnostic[]): void {
  const heads = new Set(rules.map((r) => r.head.rel));
  const reported = new Set<string>();
  for (const rule of rules) {
    for (const b of rule.body) {
      forEachBodyAtom(b, false, (atom) => {
        if (heads.has(atom.rel) || reported.has(atom.rel) || BODY_ONLY.includes(atom.rel) || HEAD_ONLY.includes(atom.rel)) return;
        reported.add(atom.rel);
        out.push(diag('warning', file, atom.pos, `relation '${atom.rel}' has no rules or facts, so it is always false`));
      });
    }
  }
}

/**
 * Checks keyword placement, keyword dependencies and the presence of the required keywords.
 * With `complete` false (a file whose syntax errors lost some sentences) the checks that speak
 * of the whole game, missing keywords and relations without rules, are left out: a lost
 * sentence may hold what they miss. The others only grow with more rules, so what they find
 * in the sentences that were read stays true of the whole file.
 */
export function checkKeywords(rules: readonly Rule[], file: string, complete = true): Diagnostic[] {
  const out: Diagnostic[] = [];
  checkPlacement(rules, file, out);
  checkDependencies(rules, file, out);
  if (complete) {
    checkPresence(rules, file, out);
    checkUndefined(rules, file, out);
  }
  return out;
}
