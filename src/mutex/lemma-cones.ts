/**
 * The lemma pass's queries (ground-joint.ts with `onDemand`) on cone encodings kept between
 * queries (docs/mutex.md, snake21). The pass asked each claim on its own cone encoded anew:
 * snake_2009_big's fixpoint took 3,166 queries and 10.6 processor s, most of it encoding cones
 * that the claims of one neighbourhood nearly share. Here a few encodings are kept and grown
 * (cone-grow.ts): a query's cone (the atoms its roots depend on) is asked on the kept encoding
 * holding most of it, grown by the rest when it holds half or more and stays within three times
 * its first size, else on a new one. Every claim a query assumes is added once, behind a selector
 * variable (its clauses hold only when the selector is true); a query assumes the selectors of the
 * claims proven or active now that its own cone encodes (as the pass did), and its goal. Atoms
 * outside its cone are defined by their completion, which every transition satisfies; what the
 * search learns follows from the clauses alone (selectors and goals are free variables there), so
 * it stays valid for later queries; unselected claims constrain nothing. So an "unsat" is a proof
 * as the cone encoded anew gave one, or a stronger one (cone-grow.ts' argument). It also says
 * which assumed claims it used (sat-core.ts): with only those selectors assumed the formula is
 * still unsatisfiable, so the pass asks a claim again only when one of those leaves. A model's
 * state is read on the query's own cone only (snake20: values far from the claim pulled in
 * lemmas from all over the board).
 */
import { GrowingCone } from './cone-grow.js';
import { type RuleIndex, atMostOne, cone } from './encode.js';
import { claimGoal } from './joint-cones.js';
import type { MutexView } from './view.js';

/** A claim of the pass: at most one, at least one, the first member only with the second, or a clause (`positive`: its literals' signs). */
interface ClaimLike {
  readonly kind: 'amo' | 'alo' | 'imp' | 'clause';
  readonly members: readonly number[];
  readonly positive?: readonly boolean[];
}

/** One kept encoding: the claims it can encode (their members in it), their selectors once made, the goals made. */
interface Kept {
  readonly enc: GrowingCone;
  /** Its index among the kept ones; -1: made for one query only (past the cap). */
  id: number;
  /** Atoms encoded when it was made, and now. */
  readonly first: number;
  atoms: number;
  /** Times it grew: a selector made at the same count covers the same members. */
  grown: number;
  /** The claims a query on it assumes when active: a group with two members in it, any other claim with all; undefined: to be read again (it grew). */
  encodable: readonly number[] | undefined;
  /** Per claim, its selector, how many of its members its clauses cover, and the `grown` count they were counted at. */
  readonly selector: Map<number, { readonly s: number; readonly covers: number; at: number }>;
  /** Per selector variable, its claim. */
  readonly claimOf: Map<number, number>;
  readonly goals: Map<number, readonly number[]>;
}

/** Where a query's roots are asked: the kept encoding holding their cone, and the fluents of that cone. */
interface Place {
  readonly kept: Kept;
  readonly fluents: readonly number[];
  /** The claims a query of these roots assumes when active (by their members in its own cone). */
  encodable?: readonly number[];
}

/** One query's answer: with a model (sat), the current state's true fluents of the query's own cone; with "unsat", the claims it used; the work it took. */
interface KeptConeAnswer {
  readonly answer: 'sat' | 'unsat' | 'unknown';
  readonly work: number;
  readonly now: readonly number[];
  readonly cone: readonly number[];
  readonly used: readonly number[];
}

/**
 * Clause literals the kept encodings may hold together; past it a cone no kept encoding holds is
 * encoded for its query only, as before (a count, not time: the same choice run to run).
 */
const MAX_KEPT_LITERALS = 3_000_000;
/** A kept encoding takes on a query's cone when it holds at least this share of the cone's atoms... */
const MIN_OVERLAP = 0.5;
/** ...and stays within this many times the atoms it was made with (its queries' search pays for all of it). */
const MAX_GROWTH = 3;

/** The pass's queries on kept cone encodings; `stop` is asked per atom and rule encoded. */
export class KeptCones {
  private readonly all: Kept[] = [];
  /** Per atom, the kept encodings holding it (in the order made). */
  private readonly holders = new Map<number, number[]>();
  private readonly places = new Map<string, Place>();
  private kept = 0;
  /** Per atom, the fluent whose current-state atom it is (-1: none). */
  private readonly fluentOf: Int32Array;
  /** Per root atom, its cone (encode.ts' `cone`): a query's cone is the union of its roots' ({@link coneOf}). */
  private readonly rootCones = new Map<number, readonly number[]>();
  /** Per atom, the last union it joined (a stamp), and the stamp of the union being made. */
  private readonly unionMark: Int32Array;
  private unionStamp = 0;
  /** Per kept encoding (by id), the atoms of the cone being placed it holds; scratch of {@link closest}. */
  private overlap = new Int32Array(16);

  constructor(private readonly view: MutexView, private readonly index: RuleIndex, private readonly claims: readonly ClaimLike[], private readonly stop: () => boolean) {
    this.fluentOf = new Int32Array(view.atoms).fill(-1);
    view.fluents.forEach((f, i) => (this.fluentOf[f.trueAtom] = i));
    this.unionMark = new Int32Array(view.atoms);
  }

  /** Asks claim `i` with the claims `state` marks (1 proven, 2 active) assumed. */
  ask(i: number, state: readonly number[], maxConflicts: number, passed: () => boolean): KeptConeAnswer {
    const claim = this.claims[i]!;
    const nexts = claim.members.map((f) => this.view.fluents[f]!.nextAtom);
    const place = this.placeOf(nexts, claim.kind === 'alo');
    const { kept: k, fluents } = place;
    const { solver } = k.enc;
    const before = solver.literalCount + solver.visitCount;
    const assumptions: number[] = [];
    for (const j of this.ownEncodable(place)) if (state[j] !== 0) assumptions.push(this.select(k, j));
    assumptions.push(...this.goal(k, i, nexts));
    const answer = solver.solve(assumptions, maxConflicts, passed);
    const work = solver.literalCount + solver.visitCount - before;
    if (answer === 'sat') return { answer, work, now: fluents.filter((f) => solver.value(this.now(k, f))), cone: fluents, used: [] };
    const used = answer === 'unsat' ? solver.core.flatMap((l) => { const c = k.claimOf.get(l); return c === undefined ? [] : [c]; }) : [];
    return { answer, work, now: [], cone: fluents, used };
  }

  /** The current-state variable of fluent `f` in `k` (0: outside). */
  private now(k: Kept, f: number): number {
    return k.enc.atom(this.view.fluents[f]!.trueAtom);
  }

  /**
   * The kept encoding to ask the cone of `roots` on: one holding all its atoms, else the one
   * holding most of them grown by the rest (when it holds enough and may grow), else a new one.
   */
  private placeOf(roots: readonly number[], allMoves: boolean): Place {
    const key = `${allMoves ? 'a' : 'm'}${[...roots].sort((x, y) => x - y).join(' ')}`;
    const had = this.places.get(key);
    if (had !== undefined) return had;
    const { view, index } = this;
    const legals = allMoves ? view.moves.flatMap((role) => role.flatMap((m) => (m.legal >= 0 ? [m.legal] : []))) : [];
    const atoms = this.coneOf([...roots, ...legals, ...(index.useTerminal ? [view.terminal] : [])]);
    const k = this.closest(atoms) ?? this.made(atoms.length);
    const fresh = atoms.filter((a) => k.enc.atom(a) === 0);
    if (fresh.length > 0 || allMoves) {
      const literals = k.enc.solver.literalCount;
      k.enc.add(roots, allMoves);
      k.atoms += fresh.length;
      k.grown++;
      k.encodable = undefined;
      if (k.id >= 0) this.kept += k.enc.solver.literalCount - literals;
    }
    const place = { kept: k, fluents: this.fluentsOf(atoms) };
    if (k.id < 0 && this.kept + k.enc.solver.literalCount <= MAX_KEPT_LITERALS) {
      k.id = this.all.push(k) - 1;
      this.kept += k.enc.solver.literalCount;
    }
    if (k.id < 0) return place;
    for (const a of fresh) {
      const list = this.holders.get(a);
      if (list === undefined) this.holders.set(a, [k.id]);
      else list.push(k.id);
    }
    this.places.set(key, place);
    return place;
  }

  /**
   * The cone of `roots`: the union of each root's cone, each found once. A cone is the atoms a
   * root reaches through the rules' bodies, so the cone of several roots is the union of theirs
   * (the same set `cone` gives for all of them at once; its order is not read: the atoms are
   * counted, filtered and their fluents sorted).
   */
  private coneOf(roots: readonly number[]): number[] {
    const stamp = ++this.unionStamp;
    const out: number[] = [];
    for (const r of roots) {
      if (r < 0) continue;
      let c = this.rootCones.get(r);
      if (c === undefined) this.rootCones.set(r, (c = cone(this.index, this.view, [r], this.stop)));
      for (const a of c) if (this.unionMark[a] !== stamp) (this.unionMark[a] = stamp, out.push(a));
    }
    return out;
  }

  /** The kept encoding holding most of `atoms` (the first made among equals), when it holds enough of them and may grow by the rest. */
  private closest(atoms: readonly number[]): Kept | undefined {
    if (this.overlap.length < this.all.length) this.overlap = new Int32Array(2 * this.all.length);
    const overlap = this.overlap;
    overlap.fill(0, 0, this.all.length);
    for (const a of atoms) {
      const hs = this.holders.get(a);
      if (hs !== undefined) for (const h of hs) overlap[h]++;
    }
    let best = -1;
    let n = 0;
    for (let h = 0; h < this.all.length; h++) if (overlap[h]! > n) (best = h, n = overlap[h]!);
    const k = this.all[best];
    return k !== undefined && n >= MIN_OVERLAP * atoms.length && k.atoms + atoms.length - n <= MAX_GROWTH * k.first ? k : undefined;
  }

  /** A new encoding, empty. */
  private made(first: number): Kept {
    return { enc: new GrowingCone(this.view, this.index, this.stop), id: -1, first, atoms: 0, grown: 0, encodable: undefined, selector: new Map(), claimOf: new Map(), goals: new Map() };
  }

  /** The fluents whose current-state atom is among `atoms`, in index order. */
  private fluentsOf(atoms: readonly number[]): number[] {
    const out: number[] = [];
    for (const a of atoms) {
      const f = this.fluentOf[a]!;
      if (f >= 0) out.push(f);
    }
    return out.sort((x, y) => x - y);
  }

  /** The claims a query of `place` assumes: those its own cone can encode. */
  private ownEncodable(place: Place): readonly number[] {
    if (place.encodable !== undefined) return place.encodable;
    const inCone = new Set(place.fluents);
    place.encodable = this.encodable(place.kept).filter((j) => {
      const c = this.claims[j]!;
      let n = 0;
      for (const f of c.members) if (inCone.has(f)) n++;
      return c.kind === 'amo' ? n >= 2 : n === c.members.length;
    });
    return place.encodable;
  }

  /** The claims `k` can encode, read again after it grew. */
  private encodable(k: Kept): readonly number[] {
    if (k.encodable !== undefined) return k.encodable;
    const out: number[] = [];
    this.claims.forEach((c, j) => {
      let n = 0;
      for (const f of c.members) if (this.now(k, f) !== 0) n++;
      if (c.kind === 'amo' ? n >= 2 : n === c.members.length) out.push(j);
    });
    k.encodable = out;
    return out;
  }

  /**
   * Claim `j`'s selector in `k`, its clauses added behind it over its members in the encoding; a
   * group whose members grew gets a new one (the old one is then never assumed again).
   */
  private select(k: Kept, j: number): number {
    const had = k.selector.get(j);
    if (had !== undefined && had.at === k.grown) return had.s;
    const c = this.claims[j]!;
    const members = c.members.filter((f) => this.now(k, f) !== 0);
    if (had !== undefined && had.covers === members.length) return (had.at = k.grown, had.s);
    const { solver } = k.enc;
    const now = (f: number): number => this.now(k, f);
    const s = solver.newVar();
    if (c.kind === 'amo') atMostOne(solver, members.map(now), s);
    else if (c.kind === 'alo') solver.addClause([-s, ...members.map(now)]);
    else if (c.kind === 'imp') solver.addClause([-s, -now(c.members[0]!), now(c.members[1]!)]);
    else solver.addClause([-s, ...c.members.map((f, m) => (c.positive![m] ? now(f) : -now(f)))]);
    k.selector.set(j, { s, covers: members.length, at: k.grown });
    k.claimOf.set(s, j);
    return s;
  }

  /** The assumptions that make claim `i` false in the successor (ground-joint.ts' goals), made once per encoding. */
  private goal(k: Kept, i: number, nexts: readonly number[]): readonly number[] {
    const had = k.goals.get(i);
    if (had !== undefined) return had;
    const goal = claimGoal(k.enc.solver, this.claims[i]!, nexts, (a) => k.enc.atom(a));
    k.goals.set(i, goal);
    return goal;
  }
}
