/**
 * Functional dependencies of relations read off a set of rows (docs/mutex.md, 2a, "Functional
 * relations"): positions I determine position j when no two rows agree at I and differ at j.
 * For a static relation the rows are its facts (`succ`: a number has one successor; kalaha's
 * `nextpit`: a role's pit has one next pit, the pair determining it); for a derived relation
 * they are its bound (lifted-bounds.ts: every atom true in any reachable state under any joint
 * move is a row), whose dependencies hold of any subset of its rows, so of the atoms true in one
 * state: kalaha's `plus`, racer's `add` (two summands, one sum).
 */
import type { Term } from '../gdl/ast.js';
import type { NormalGame } from '../normalize/types.js';
import { type Assumed, type AssumedClaim, type Bounds, type StaticFacts, staticKey } from './lifted-core.js';
import { relKey } from './lifted-relax.js';
import { ground, key } from './lifted-terms.js';

/** Most positions whose pairs are tried as two-position inputs, and most rows read for them. */
const MAX_PAIR_ARITY = 8;
const MAX_PAIR_ROWS = 100_000;

/**
 * The dependencies of the rows (column c is the relation's position `positions[c]`): per single
 * position, the positions it determines; per pair of positions, those it determines that neither
 * does alone. One claim per input, its output the determined positions.
 */
function functionalClaims(rows: readonly (readonly Term[])[], positions: readonly number[]): AssumedClaim[] {
  const n = positions.length;
  if (rows.length === 0 || n < 2) return [];
  const texts = rows.map((row) => row.map((t) => key(t, new Map())));
  const determines = (input: readonly number[], j: number): boolean => {
    const seen = new Map<string, string>();
    return texts.every((row) => {
      const k = input.map((i) => row[i]!).join('\u0000');
      const v = seen.get(k);
      if (v === undefined) seen.set(k, row[j]!);
      return v === undefined || v === row[j];
    });
  };
  const single = [...Array(n).keys()].map((i) => [...Array(n).keys()].filter((j) => j !== i && determines([i], j)));
  const out: AssumedClaim[] = single.flatMap((js, i) => (js.length === 0 ? [] : [{ input: [positions[i]!], output: js.map((j) => positions[j]!) }]));
  if (n > MAX_PAIR_ARITY || rows.length > MAX_PAIR_ROWS) return out;
  for (let a = 0; a < n; a++) {
    for (let b = a + 1; b < n; b++) {
      const js = [...Array(n).keys()].filter((j) => j !== a && j !== b && !single[a]!.includes(j) && !single[b]!.includes(j) && determines([a, b], j));
      if (js.length > 0) out.push({ input: [positions[a]!, positions[b]!], output: js.map((j) => positions[j]!) });
    }
  }
  return out;
}

/** Relations that are no derived relation of the game's own (their atoms are the state, the move, or the game's next state). */
const NOT_DERIVED: ReadonlySet<string> = new Set(['true', 'does', 'next', 'init', 'base', 'input', 'role']);

/**
 * The functional dependencies of the static relations (defined by ground facts only), per
 * {@link staticKey}. Such relations mean the same in every state, so two of their atoms with
 * equal inputs have equal outputs in any state, as forcing assumes.
 */
export function functionalStatics(normal: NormalGame): Map<string, AssumedClaim[]> {
  const facts = new Map<string, Term[][]>();
  const derived = new Set<string>();
  for (const r of normal.rules) {
    const k = staticKey(r.head.rel, r.head.args.length);
    const isFact = r.body.length === 0 && r.head.args.every((t) => ground(t, new Map()));
    if (!isFact || ['true', 'does', 'next', 'init', 'legal', 'goal', 'terminal', 'role'].includes(r.head.rel)) derived.add(k);
    else facts.set(k, [...(facts.get(k) ?? []), [...r.head.args]]);
  }
  const out = new Map<string, AssumedClaim[]>();
  for (const [k, rows] of facts) {
    const claims = derived.has(k) ? [] : functionalClaims(rows, [...rows[0]!.keys()]);
    if (claims.length > 0) out.set(k, claims);
  }
  return out;
}

/**
 * The claims of the derived relations' dependencies, read off their bounds when first asked:
 * per {@link staticKey} of a relation with rules (not a static one of `facts`), its claims, or
 * undefined. Forcing asks only for a relation two atoms of which meet in a case agreeing at some
 * position and differing at another, so no bound is computed for the others.
 */
export function derivedFunctions(normal: NormalGame, facts: StaticFacts, over: Bounds): DerivedFunctions {
  const relOf = new Map<string, string>();
  for (const r of normal.rules) {
    const rel = relKey(r.head.rel, r.head.args.length);
    if (!NOT_DERIVED.has(r.head.rel) && r.head.args.length >= 2 && !facts.has(rel)) relOf.set(staticKey(r.head.rel, r.head.args.length), rel);
  }
  const memo = new Map<string, readonly AssumedClaim[] | undefined>();
  return {
    has: (k) => relOf.has(k),
    get: (k) => {
      const rel = relOf.get(k);
      if (rel === undefined) return undefined;
      if (!memo.has(k)) {
        const b = over.get(rel);
        const claims = b === undefined ? [] : functionalClaims(b.rows, b.keep);
        memo.set(k, claims.length === 0 ? undefined : claims);
      }
      return memo.get(k);
    },
  };
}

/** The derived relations' dependencies, per {@link staticKey}: whether a relation may have some, and its claims. */
interface DerivedFunctions {
  has(k: string): boolean;
  get(k: string): readonly AssumedClaim[] | undefined;
}

/** `assumed` with the derived relations' dependencies added (a relation with none stays as it was). */
export function withFunctions(assumed: Assumed, derived: DerivedFunctions): Assumed {
  return {
    get: (k) => assumed.get(k) ?? derived.get(k),
    has: (k) => assumed.has(k) || derived.has(k),
    use: (claim, at) => assumed.use?.(claim, at),
  };
}
