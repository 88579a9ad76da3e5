/**
 * Completion of tabled calls for the term-table evaluator (lazy-eval.ts, docs/lazy.md): the
 * least fixpoint of recursion that meets itself, the usual iteration over a strongly connected
 * set of calls in progress (as in SLG resolution's completion, without its scheduling).
 *
 * A call met again while still in progress (active) hands back the answers found so far, and
 * the callers between the two depend on it (Tarjan's low link, kept as a reference to the
 * call rather than a stack position, so that it stays right after the calls above it return).
 * A call that returns while depending on an active call below it is *incomplete*: its answers
 * may still grow, and it is not final until that call is. The outermost call of such a set, its
 * leader, runs its rules again, pass after pass, until a pass adds no answer anywhere; the calls
 * of the set evaluated in that last pass are then final (done), the others are forgotten (their
 * memo entry deleted, so a later call computes them afresh). Within a pass an incomplete call is
 * evaluated again once, then reused. A ground call (`once`) is final as soon as it has an answer:
 * answers only grow.
 */

/** The answers of one call, and where the call stands in its completion. */
export interface Answers {
  /** Argument tuples, flat (`arity` ids each), each once. */
  readonly tuples: number[];
  /** Answers found (a 0-ary relation has no tuple to show for its one answer). */
  count: number;
  /** Texts of the tuples, made only for a call with unbound arguments (a ground call has at most one answer). */
  readonly seen: Set<string> | undefined;
  /** `active`: being evaluated; `incomplete`: returned, but below an unfinished cycle; `done`: final. */
  state: 'active' | 'incomplete' | 'done';
  /** Position on the stack of active calls (while active). */
  index: number;
  /** The lowest active call this one depends on, itself when none (followed through incomplete calls). */
  low: Answers;
  /** A call met this one while it was active: it leads a cycle. */
  cyclic: boolean;
  /** The clock at its last evaluation. */
  ran: number;
  readonly memo: Map<string, Answers>;
  readonly key: string;
}

/** The completion state of one evaluator's calls (per state and joint move; reset with them). */
export interface Completion {
  /** New answers for `key` in `memo`, not yet evaluated. */
  fresh(memo: Map<string, Answers>, key: string, once: boolean): Answers;
  /** Whether `known` (tabled) can be returned as it is; false when it must be evaluated (again). */
  reuse(known: Answers): boolean;
  /** Evaluates `out` by `run` (its rules, adding answers), as a leader until its cycle is complete. */
  evaluate(out: Answers, run: () => void): void;
  /** Counts a new answer of `out` (and a pass that found one). */
  added(out: Answers): void;
}

/**
 * The call `a` depends on: itself when active or final, else the call its chain leads to. The chain
 * passes through incomplete calls, and through a ground call done early (`once`) inside a cycle,
 * whose answer is final but whose incomplete callees still depend on the cycle below it.
 */
function lowest(a: Answers): Answers {
  let x = a;
  while (x.state !== 'active' && x.low !== x) x = x.low;
  return x;
}

/** A completion with no call in progress. */
export function createCompletion(): Completion {
  const stack: Answers[] = [];
  // Incomplete calls, in the order they returned; a leader settles those after its mark.
  const members: Answers[] = [];
  let clock = 0;
  let answers = 0;
  // The clock when the innermost leader's current pass began (0 outside any pass).
  let passStart = 0;

  /** The active caller depends on `on` (an active call or an incomplete one's chain). */
  const depend = (on: Answers): void => {
    const caller = stack[stack.length - 1];
    const t = lowest(on);
    if (caller !== undefined && t.state === 'active' && t.index < caller.low.index) caller.low = t;
  };
  const finished = (a: Answers): boolean => a.seen === undefined && a.count > 0;

  /** Settles the incomplete calls after `mark` once their leader is: final if evaluated since `clean`, else forgotten. */
  const settle = (mark: number, clean: number): void => {
    for (const m of members.splice(mark)) {
      if (m.state !== 'incomplete') continue;
      if (m.ran > clean) (m.state = 'done'), (m.low = m);
      else if (m.memo.get(m.key) === m) m.memo.delete(m.key);
    }
  };

  /** Runs the leader `out`'s passes until one adds no answer; the clock its last pass began, or Infinity when it stopped otherwise. */
  const iterate = (out: Answers, run: () => void): number => {
    const outer = passStart;
    let clean = Infinity;
    while (out.low === out && !finished(out)) {
      const before = answers;
      passStart = ++clock;
      out.ran = passStart;
      run();
      if (answers === before) {
        clean = passStart;
        break;
      }
    }
    passStart = outer;
    return clean;
  };

  return {
    fresh: (memo, key, once) => {
      const a = { tuples: [], count: 0, seen: once ? undefined : new Set<string>(), state: 'active', index: -1, cyclic: false, ran: 0, memo, key } as Omit<Answers, 'low'> as Answers;
      a.low = a;
      return a;
    },
    reuse: (known) => {
      if (known.state === 'done') return true;
      if (known.state === 'active') {
        known.cyclic = true;
        depend(known);
        return true;
      }
      // Incomplete: evaluated again once per pass of its leader.
      if (known.ran <= passStart) return false;
      depend(known);
      return true;
    },
    evaluate: (out, run) => {
      out.state = 'active';
      out.index = stack.length;
      out.low = out;
      out.cyclic = false;
      out.ran = ++clock;
      stack.push(out);
      const mark = members.length;
      run();
      const clean = out.cyclic && out.low === out && !finished(out) ? iterate(out, run) : out.cyclic ? Infinity : clock;
      stack.pop();
      if (out.low !== out) {
        // Below an unfinished cycle: the caller depends on it too.
        out.state = finished(out) ? 'done' : 'incomplete';
        if (out.state === 'incomplete') members.push(out);
        depend(out.low);
        return;
      }
      settle(mark, clean);
      out.state = 'done';
    },
    added: (out) => {
      out.count++;
      answers++;
    },
  };
}
