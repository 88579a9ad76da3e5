/**
 * A claim's failing model, kept to answer the claim's query again without a search (prove.ts'
 * retry batch; docs/mutex.md, snake30). When a query finds a transition violating claim c, its
 * model is a state of the encoding's fluents (and a move and a successor) satisfying the claims
 * assumed then. Asked again on c's own cone (encoded anew, as `canViolate` does), with other claims
 * assumed, the query has that model still when the model's state satisfies every claim the new
 * query assumes: the cone's clauses are those the model satisfied (the encoding it came from was
 * c's own cone, or a larger one holding it: cone-grow.ts, whose clauses for the cone's atoms are
 * the cone's), the goal (c violated next) is unchanged, and the assumed claims are constraints on
 * the current state only. The answer is then "sat", as the search would give. Only "sat" is ever
 * read off a model, and a claim answered "sat" leaves: this proves nothing.
 */
import type { MutexView } from './view.js';

/** A claim of prove-query.ts as read here (prove-query.ts and prove.ts import this module: its own type would be a cycle). */
interface Claim {
  readonly kind: 'amo' | 'alo';
  readonly members: readonly number[];
}

/** The current state of a failing model: the encoding's fluents and those true in it. */
export interface FailingModel {
  readonly fluents: readonly number[];
  readonly on: readonly number[];
}

/** The model of `fluents` whose value `isOn` reads (after a "sat" answer). */
export function failingModel(fluents: readonly number[], isOn: (f: number) => boolean): FailingModel {
  return { fluents, on: fluents.filter(isOn) };
}

/** Fluents the failing models of one proof hold in all: past it, no more is kept (memory, not time: a count). */
const MODEL_ROOM = 4_000_000;

/** Per claim, the model of its last "sat" answer, while there is room. */
export class FailingModels {
  private readonly models: (FailingModel | undefined)[];
  /** Per atom, the fluent whose `true` atom it is (-1: none); made at the first look. */
  private ofTrue: Int32Array | undefined;
  /** Scratch, one byte per fluent, left zeroed. */
  private readonly mark: Uint8Array;
  private room = MODEL_ROOM;

  constructor(claims: number, private readonly view: MutexView) {
    this.models = Array.from({ length: claims }, () => undefined);
    this.mark = new Uint8Array(view.fluents.length);
  }

  /** Keeps `model` as claim `i`'s (the one kept before stays when there is no room). */
  keep(i: number, model: FailingModel): void {
    const size = model.fluents.length - (this.models[i]?.fluents.length ?? 0);
    if (size > this.room) return;
    this.room -= size;
    this.models[i] = model;
  }

  /** Whether claim `i` has a kept model (then {@link answers} may be asked). */
  has(i: number): boolean {
    return this.models[i] !== undefined;
  }

  /**
   * Whether claim `i`'s kept model answers its query on its own cone (`atoms`, encode.ts'
   * `queryCone`) again, `active` assumed: every fluent of the cone is one of the model's, and
   * every claim the query assumes holds on the model's state, read as prove.ts'
   * `assumeInvariants` weakens it to the cone (active, no "at least one" for an "at most one"
   * query, none marked `implied`; an "at most one" over its members in the cone, an "at least
   * one" only when all its members are).
   */
  answers(i: number, atoms: readonly number[], claims: readonly Claim[], active: readonly boolean[], implied: Uint8Array | undefined): boolean {
    const model = this.models[i];
    if (model === undefined) return false;
    const ofTrue = (this.ofTrue ??= atomFluents(this.view));
    const { mark } = this;
    // 1: of the model; 2: of the model and the cone, false; 3: ... true.
    for (const f of model.fluents) mark[f] = 1;
    let inside = true;
    const own: number[] = [];
    for (const a of atoms) {
      const f = ofTrue[a]!;
      if (f < 0) continue;
      if (mark[f] === 0) inside = false;
      own.push(f);
      mark[f] = 2;
    }
    for (const f of model.on) if (mark[f] === 2) mark[f] = 3;
    const holds = inside && holdOn(mark, claims, active, claims[i]!.kind, implied);
    for (const f of model.fluents) mark[f] = 0;
    for (const f of own) mark[f] = 0;
    return holds;
  }
}

/** Per atom, the fluent whose `true` atom it is, else -1. */
function atomFluents(view: MutexView): Int32Array {
  const out = new Int32Array(view.atoms).fill(-1);
  view.fluents.forEach((f, i) => (out[f.trueAtom] = i));
  return out;
}

/**
 * Whether a query of kind `query` assumes claim `i` (prove.ts' assumeInvariants and growingAsk, and
 * the models' check here): an active claim, no "at least one" for an "at most one" query, none
 * marked `implied` (its group inside a coarser one assumed for every key).
 */
export function assumes(query: Claim['kind'], claim: Claim, i: number, active: readonly boolean[], implied: Uint8Array | undefined): boolean {
  return active[i] === true && !(query === 'amo' && claim.kind === 'alo') && implied?.[i] !== 1;
}

/** Whether the claims a query of kind `query` assumes hold where `mark` is 2 (false in the cone) or 3 (true in it). */
function holdOn(mark: Uint8Array, claims: readonly Claim[], active: readonly boolean[], query: Claim['kind'], implied: Uint8Array | undefined): boolean {
  for (let i = 0; i < claims.length; i++) {
    const c = claims[i]!;
    if (!assumes(query, c, i, active, implied)) continue;
    let on = 0;
    let out = 0;
    for (const f of c.members) {
      if (mark[f] === 3) on++;
      else if (mark[f] !== 2) out++;
    }
    if (c.kind === 'amo' ? on > 1 : on === 0 && out === 0) return false;
  }
  return true;
}
