/**
 * Derived relations functional within one transition (docs/mutex.md, 2i): "at most one value of
 * a derived relation per (state, move)", proven on its rules with variables assuming the claims
 * of the current state. wargame's `(intendedLocation ?character ?x ?y)` (one square per character
 * and move: the soldier's step, a terrorist's two steps towards it) is not functional over all
 * states, so its bound (lifted-functional.ts) has no dependency, but it is in each state that
 * satisfies "one location per character"; the `next` rules of `location` and `health` need it.
 *
 * A claim (R, O): two true atoms of R in one (s, m) that agree outside the positions O agree at O.
 * It is proven like a hypothesis of 2a: every pair of R's rules (one with itself included),
 * renamed apart, their heads unified outside O, must close with the heads different at O. The
 * atoms of R's own component (recursive relations) in those bodies are renamed to a fresh
 * relation on which the component's claims are assumed: by strong induction on the larger
 * derivation height of the two atoms, the body atoms of both rules are derived lower.
 */
import { type Deadline, cpuMs } from '../deadline.js';
import type { Term } from '../gdl/ast.js';
import { stronglyConnectedComponents } from '../gdl/scc.js';
import type { Literal, NormalGame, NormalRule } from '../normalize/types.js';
import { type Assumed, type AssumedClaim, type StaticFacts, staticKey } from './lifted-core.js';
import { relKey } from './lifted-relax.js';
import { type Subst, renameRule, unify } from './lifted-terms.js';

/** Whether a conjunction closes (lifted.ts' pair check), with these claims assumed. */
type BodyCloser = (body: readonly Literal[], s: Subst, goal: readonly [Term[], Term[]], assumed: Assumed, deadline: Deadline) => boolean;

/** Relations never claimed: the state, the move, the next state, and what a player reads. */
const NOT_CLAIMED = new Set(['true', 'does', 'next', 'init', 'base', 'input', 'role', 'legal', 'goal', 'terminal']);

/** Largest arity claimed (outputs of one or two positions), and most rules of a relation claimed. */
const MAX_ARITY = 8;
const MAX_RULES = 16;
/**
 * Processor seconds one claim's proof may take, those it asks for on the way included: a failing
 * claim's pair checks can each run to the case limit (checkers' `single_jump_capture`, seconds).
 */
const CLAIM_SECONDS = 1;
/**
 * Processor seconds all claims of one proof may take together: on games where the claims fail
 * (the cylinder checkers), their seconds were the budget the later proofs needed (40 bits more).
 */
const TOTAL_SECONDS = 2;

/** Suffix of the fresh relation standing for a component's atoms derived lower (a space: no game has it). */
const LOWER = ' lower';

/** A claim proven (or none) and the state claims its proof took equalities from. */
interface Proven {
  readonly claims: readonly AssumedClaim[];
  readonly used: readonly AssumedClaim[];
}

/** The derived relations' components, each relation's rules, and which component it is in. */
interface Components {
  readonly rules: ReadonlyMap<string, readonly NormalRule[]>;
  readonly of: ReadonlyMap<string, readonly string[]>;
}

/** The derived relations (with rules, no static facts, not {@link NOT_CLAIMED}) and the components of those that read the state or the move. */
function components(normal: NormalGame, facts: StaticFacts): Components {
  const rules = new Map<string, NormalRule[]>();
  for (const r of normal.rules) {
    const k = relKey(r.head.rel, r.head.args.length);
    if (!NOT_CLAIMED.has(r.head.rel) && !facts.has(k)) rules.set(k, [...(rules.get(k) ?? []), r]);
  }
  const names = [...rules.keys()];
  const index = new Map(names.map((k, i) => [k, i]));
  const succ = names.map((k) => [...new Set(rules.get(k)!.flatMap((r) => r.body.flatMap((l) => {
    const j = l.kind === 'distinct' ? undefined : index.get(relKey(l.atom.rel, l.atom.args.length));
    return j === undefined ? [] : [j];
  })))]);
  const of = new Map<string, string[]>();
  // Components come out callees first, so whether a relation reads the state is known of those it reads.
  const stateful = new Set<string>();
  const reads = (k: string): boolean => rules.get(k)!.some((r) => r.body.some((l) => l.kind !== 'distinct' && (l.atom.rel === 'true' || l.atom.rel === 'does' || stateful.has(relKey(l.atom.rel, l.atom.args.length)))));
  for (const comp of stronglyConnectedComponents(names.length, (v) => succ[v]!)) {
    const rels = comp.map((v) => names[v]!);
    // A relation that reads neither the state nor the move means the same in every state: its bound is its model (lifted-functional.ts).
    if (!rels.some(reads)) continue;
    for (const k of rels) (of.set(k, rels), stateful.add(k));
  }
  return { rules, of };
}

/** The body with the positive atoms of the component's relations renamed to their lower stand-ins. */
function lowered(body: readonly Literal[], comp: ReadonlySet<string>): Literal[] {
  return body.map((l) => (l.kind === 'pos' && comp.has(relKey(l.atom.rel, l.atom.args.length)) ? { ...l, atom: { ...l.atom, rel: l.atom.rel + LOWER } } : l));
}

/**
 * Whether every pair of the relation's rules (one with itself included), renamed apart, closes
 * with the heads equal at the claim's inputs and different at its outputs, the claim assumed of
 * the atoms of the relation's component in the bodies (renamed to their lower stand-in) and
 * `outer` (the state's claims, the relations below) of the rest.
 */
function claimHolds(rel: string, claim: AssumedClaim, comps: Components, outer: Assumed, close: BodyCloser, deadline: Deadline): boolean {
  const rules = comps.rules.get(rel)!;
  const comp = new Set(comps.of.get(rel));
  const mine = staticKey(rel.slice(0, rel.lastIndexOf('/')) + LOWER, Number(rel.slice(rel.lastIndexOf('/') + 1)));
  const assumed: Assumed = {
    get: (k) => (k === mine ? [claim] : k.includes(LOWER + '/') ? undefined : outer.get(k)),
    has: (k) => k === mine || outer.has(k),
    use: (c, at) => outer.use?.(c, at),
    want: (k, same) => outer.want?.(k, same),
  };
  if (rules.length > MAX_RULES) return false;
  for (let x = 0; x < rules.length; x++) {
    for (let y = x; y < rules.length; y++) {
      if (deadline.passed()) return false;
      const a = renameRule(rules[x]!, 'f1');
      const b = renameRule(rules[y]!, 'f2');
      const s: Subst = new Map();
      if (!claim.input.every((i) => unify(a.head.args[i]!, b.head.args[i]!, s))) continue;
      const out = claim.output ?? [];
      const goal: [Term[], Term[]] = [out.map((j) => a.head.args[j]!), out.map((j) => b.head.args[j]!)];
      if (!close([...lowered(a.body, comp), ...lowered(b.body, comp)], s, goal, assumed, deadline) || deadline.passed()) return false;
    }
  }
  return true;
}

/**
 * The claims of the state read by a check, one text each: two checks with the same texts assume
 * the same of the state, so the derived relations' claims proven for one hold for the other. A
 * claim's text names its hypothesis, whose keys are fixed within one lifted proof (lifted.ts' `keysOf`).
 */
function claimTexts(assumed: Assumed, relations: readonly string[]): string[] {
  return relations.map((r) => (assumed.get(r) ?? []).map((c) => `${c.hypothesis ?? ''}:${c.input.join(',')}:${c.keys?.size ?? ''}`).join(';'));
}

/**
 * Whether the state claims `texts` (per relation, from {@link claimTexts}) are among those of a
 * check under which the claim failed (`failedUnder`), relation by relation. Fewer state claims
 * force fewer equalities, so the claim's proof would fail again: englishDraughts' `legal2`
 * [0] -> [1] failed four times in one lifted proof (0.2 to 0.6 processor seconds each), under
 * fewer state claims each time as the induction dropped them.
 */
function failsAgain(failedUnder: readonly (readonly string[])[] | undefined, texts: readonly string[]): boolean {
  const split = (t: string): string[] => (t === '' ? [] : t.split(';'));
  return (failedUnder ?? []).some((f) => texts.every((t, r) => {
    const had = new Set(split(f[r]!));
    return split(t).every((c) => had.has(c));
  }));
}

/**
 * Whether a claim proven already implies `claim`: its inputs among `claim`'s and `claim`'s
 * outputs among its. Two atoms that agree at `claim`'s inputs agree at its inputs, so (it holds)
 * at its outputs, `claim`'s among them; and lifted-core.ts' forcing with it alone unifies every
 * output `claim` would. wargame01's `intendedlocation` [0] -> [1, 2] implies [0, 1] -> [2] and
 * [0, 2] -> [1], whose own proofs failed after 0.3 to 0.7 processor seconds each.
 */
function impliedBy(proven: ReadonlyMap<string, Proven> | undefined, claim: AssumedClaim): boolean {
  const out = claim.output ?? [];
  return [...(proven?.values() ?? [])].some((p) => p.claims.some((c) => c.input.every((i) => claim.input.includes(i)) && out.every((j) => c.output?.includes(j) === true)));
}

/**
 * Per derived relation and output positions (`name/arity#positions`), the state claims
 * ({@link claimTexts}) of each check under which its claim failed, not for lack of time.
 */
export type DerivedFailures = Map<string, string[][]>;

/** Per derived relation (`name/arity`), per output positions asked for: the claim if proven, and the state claims its proof used. */
type Known = Map<string, Map<string, Proven>>;

/**
 * Per check, `assumed` with the derived relations' per-transition claims added, on demand: when
 * a case's two atoms of a derived relation agree at some positions and differ at one or two
 * others (lifted-core.ts' `want`), the claim "those positions determine these" is tried, once per
 * set of state claims. `relations` are the fluent relations whose claims the state may have;
 * `close` is the pair check of lifted.ts.
 */
export function transitionFunctions(
  normal: NormalGame, facts: StaticFacts, relations: readonly string[], close: BodyCloser, limit: () => Deadline, failed: DerivedFailures = new Map(),
): (assumed: Assumed) => Assumed {
  // The cylinder checkers' `single_jump_capture` (its middle square from its ends, true, but past
  // the closure's reach) ran out of CLAIM_SECONDS twice, 1 s each, for the capture given and for
  // its column given: tooCostly keeps such relations from being tried again.
  const run: ClaimRun = { comps: components(normal, facts), memo: new Map(), spent: 0, tooCostly: new Set(), failed, relations, close, limit };
  return (assumed) => withClaims(run, assumed);
}

/** What every check of one {@link transitionFunctions} shares. */
interface ClaimRun {
  readonly comps: Components;
  /** Per set of state claims ({@link claimTexts}, joined), the claims tried under it. */
  readonly memo: Map<string, Known>;
  /** Processor milliseconds the claims took so far, against TOTAL_SECONDS. */
  spent: number;
  /** Relations a claim of which ran out of its CLAIM_SECONDS: none of theirs is tried again. */
  readonly tooCostly: Set<string>;
  readonly failed: DerivedFailures;
  readonly relations: readonly string[];
  readonly close: BodyCloser;
  readonly limit: () => Deadline;
}

/** One check's claims: its state claims, what was tried under them, and the claim under way. */
interface CheckClaims {
  readonly run: ClaimRun;
  readonly assumed: Assumed;
  readonly texts: string[];
  readonly known: Known;
  /** The relations of the claims under way (kept out of the claims asked for inside their proofs). */
  readonly busy: Set<string>;
  /** The deadline of the claim under way (a claim asked for on the way shares it). */
  current: Deadline | undefined;
}

/** `assumed` with the derived relations' claims added on demand ({@link transitionFunctions}). */
function withClaims(run: ClaimRun, assumed: Assumed): Assumed {
  const texts = claimTexts(assumed, run.relations);
  const print = texts.join('|');
  const known: Known = run.memo.get(print) ?? new Map();
  run.memo.set(print, known);
  const check: CheckClaims = { run, assumed, texts, known, busy: new Set(), current: undefined };
  const top = new Set<AssumedClaim>();
  return {
    get: (k) => {
      const out = merged(check, k, top);
      top.forEach((c) => assumed.use?.(c));
      top.clear();
      return out;
    },
    has: (k) => hasClaims(check, k), use: (c, at) => assumed.use?.(c, at), want: (k, same) => demand(check, k, same),
  };
}

/**
 * The claim that `same`'s positions of the derived relation of `k` (`static name/arity`)
 * determine the others, tried once per set of state claims unless it cannot be or need not be.
 */
function demand(check: CheckClaims, k: string, same: readonly boolean[]): void {
  const { run, known } = check;
  const rel = k.slice(7);
  const rels = run.comps.of.get(rel);
  const output = [...same.keys()].filter((i) => !same[i]);
  const id = output.join(',');
  if (!k.startsWith('static ') || rels === undefined || check.busy.has(rel) || run.tooCostly.has(rel) || same.length > MAX_ARITY || output.length > 2 || known.get(rel)?.has(id) === true) return;
  const claim: AssumedClaim = { input: [...same.keys()].filter((i) => same[i]), output };
  // A claim proven already that implies this one forces all it would force (`merged` hands it out): no proof.
  if (impliedBy(known.get(rel), claim)) return;
  // Asked for at the top (not inside another claim's proof, whose relations are kept out of it).
  if (check.current === undefined && failsAgain(run.failed.get(`${rel}#${id}`), check.texts)) {
    record(known, rel, id, { claims: [], used: [] });
    return;
  }
  prove(check, rel, rels, claim, id);
}

/** The proof of `claim` of `rel` (component `rels`) within its time, recorded in `known` (and in `failed` when it failed in time). */
function prove(check: CheckClaims, rel: string, rels: readonly string[], claim: AssumedClaim, id: string): void {
  const { run } = check;
  const outer = check.current;
  const used = new Set<AssumedClaim>();
  rels.forEach((r) => check.busy.add(r));
  if (outer === undefined && run.spent >= TOTAL_SECONDS * 1000) return;
  const start = outer === undefined ? cpuMs() : undefined;
  const current = (outer ?? run.limit()).within(CLAIM_SECONDS);
  check.current = current;
  const ok = claimHolds(rel, claim, run.comps, view(check, used), run.close, current);
  // Out of its own time, not refuted, nor stopped by the caller's deadline.
  if (!ok && current.passed() && !(outer ?? run.limit()).passed()) run.tooCostly.add(rel);
  else if (!ok && outer === undefined && !current.passed()) run.failed.set(`${rel}#${id}`, [...(run.failed.get(`${rel}#${id}`) ?? []), check.texts]);
  check.current = outer;
  if (start !== undefined) run.spent += (cpuMs() ?? start) - start;
  rels.forEach((r) => check.busy.delete(r));
  record(check.known, rel, id, { claims: ok ? [claim] : [], used: [...used] });
}

/** `known` with what was found of `rel`'s claim on output positions `id`. */
function record(known: Known, rel: string, id: string, proven: Proven): void {
  if (!known.has(rel)) known.set(rel, new Map());
  known.get(rel)!.set(id, proven);
}

/** The claims a proof assumes (or a check): the state's, and those of derived relations proven, their proofs' use collected in `used`. */
function merged(check: CheckClaims, k: string, used: Set<AssumedClaim>): readonly AssumedClaim[] | undefined {
  const inner = check.assumed.get(k);
  const proven = k.startsWith('static ') ? [...(check.known.get(k.slice(7))?.values() ?? [])].filter((p) => p.claims.length > 0) : [];
  proven.forEach((p) => p.used.forEach((c) => used.add(c)));
  return proven.length === 0 ? inner : [...(inner ?? []), ...proven.flatMap((p) => p.claims)];
}

/** Whether claims may be assumed of relation key `k`: the state's, or a derived relation's. */
function hasClaims(check: CheckClaims, k: string): boolean {
  return check.assumed.has(k) || (k.startsWith('static ') && check.run.comps.of.has(k.slice(7)));
}

/** What a claim's proof assumes: {@link merged}, its use collected in `used`, claims asked for on the way ({@link demand}). */
function view(check: CheckClaims, used: Set<AssumedClaim>): Assumed {
  return { get: (k) => merged(check, k, used), has: (k) => hasClaims(check, k), use: (c) => used.add(c), want: (k, same) => demand(check, k, same) };
}
