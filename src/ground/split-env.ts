/**
 * The state one instantiation run shares between rule splitting (split-run.ts) and the frame
 * rewrite (frame-run.ts). It lives apart from both so that neither module imports the other's
 * types: split-run.ts calls frame-run.ts, and frame-run.ts only reads this environment.
 */
import type { Atom } from '../gdl/ast.js';
import type { EarlyFrame } from './types.js';

/** Counts of the rewrites kept in one run (the `--stats` line `frame`). */
export interface FrameStats {
  /** Frame rules rewritten. */
  rules: number;
  /** Their estimates, summed, and the ground rules made for them (aux and head rules). */
  estimated: number;
  made: number;
  /**
   * Frame rules whose join could be estimated above the threshold over these stores or any
   * within them (frameCandidate, frame-run.ts): when there are any, the game is instantiated again
   * over the supersets read back from its pruned ground game, and the rewrites decided there
   * are the ones kept (docs/ground.md, "One decision for both methods").
   */
  candidates: number;
  /**
   * Frame rules estimated above the threshold but left as written because their rewrite could
   * reach fluents the rule does not ({@link keepsFluent}) and the run is over a method's own
   * supersets: the run over the read-back supersets must then be made (it may rewrite them).
   */
  deferred: number;
  /** Frame rules rewritten here that the run over the read-back supersets would have rewritten instead. */
  early: EarlyFrame[];
}

/** What a run of the splitter needs besides the instantiation context. */
export interface SplitEnv {
  /** Rules estimated above this many bindings are considered (Infinity: never). */
  readonly above: number;
  /** The prefix of auxiliary relation names (split.ts, auxPrefix). */
  readonly prefix: string;
  /** The relation key of an atom (relationKey of the game). */
  readonly key: (atom: Atom) => string;
  /** Auxiliary relations named so far in this run (numbers them). */
  readonly made: { count: number };
  /** Auxiliary rules instantiated so far: {@link auxKey} -> relation name; and the keys in order. */
  readonly memo: Map<string, string>;
  readonly journal: string[];
  /**
   * Auxiliary relations of join-tree steps at or after one whose heads were tested against the
   * rest (aux-demand.ts, demandRest): read again by another rule, they could be read where that
   * test does not hold, so reusing one ends the run with its conflict.
   */
  readonly tainted: Set<string>;
  /** Rules estimated above this many bindings are tried as frame rules first (frame-run.ts). */
  readonly frameAbove: number;
  /** The frame rewrites kept so far. */
  readonly frame: FrameStats;
  /** True in the run over read-back supersets: every frame rule may be rewritten (frame-run.ts). */
  readonly frameShared: boolean;
  /** True when frame rules with a `(next F)` head may be rewritten early (InstantiateLimits.frameNext). */
  readonly frameNext: boolean;
}
