/**
 * A small CDCL SAT solver (two watched literals, first-UIP learning, VSIDS with a heap, phase
 * saving, Luby restarts) with solving under assumptions, so one encoding of a ground game
 * answers many queries: learned clauses are implied by the clauses alone, so they stay valid
 * whatever is assumed next. Variables are 1-based; a literal is `v` or `-v` as in DIMACS.
 * The decision order (activities and their heap) is sat-order.ts's, the conflict analysis
 * sat-analyze.ts's.
 */
import { analyzeConflict } from './sat-analyze.js';
import { failedAssumptions } from './sat-core.js';
import { VarOrder } from './sat-order.js';

/** The answer of {@link SatSolver.solve}; 'unknown' when the conflict budget ran out. */
type SatResult = 'sat' | 'unsat' | 'unknown';

const UNDEF = 0;
const TRUE = 1;
const FALSE = -1;

/** Internal literal code: 2*(v-1) for v, 2*(v-1)+1 for -v. */
function code(lit: number): number {
  return lit > 0 ? 2 * (lit - 1) : 2 * (-lit - 1) + 1;
}

/**
 * Clause visits of unit propagation between two looks at a search's `stop` test, besides one
 * look per 1024 decisions and conflicts: on a large cone one decision's propagation visits
 * hundreds of thousands of clauses, and 1024 of them took about a processor second (racer, past
 * its `--timeout`). A look (the processor clock, about a microsecond) costs less than a hundred
 * visits: one look per 32,768 visits is under a percent of the search.
 */
const VISITS_PER_LOOK = 1 << 15;

/** The Luby sequence 1,1,2,1,1,2,4,... (restart intervals with good worst-case behaviour). */
function luby(i: number): number {
  let size = 1;
  let seq = 0;
  while (size < i + 1) {
    seq++;
    size = 2 * size + 1;
  }
  let x = i;
  while (size - 1 !== x) {
    size = (size - 1) >> 1;
    seq--;
    x %= size;
  }
  return 2 ** seq;
}

/** An incremental SAT solver; not shared between threads or runs. */
export class SatSolver {
  private nVars = 0;
  private clauses: number[][] = [];
  /** Per clause, where the search for a new watched literal resumes. */
  private searchFrom: number[] = [];
  /** Per clause, its two literal codes xor-ed when it has two (the other one is then `pair ^ falseLit`), else 0. */
  private pair: number[] = [];
  private watches: number[][] = [];
  private assign: Int8Array = new Int8Array(16);
  private level: Int32Array = new Int32Array(16);
  private reason: Int32Array = new Int32Array(16);
  private phase: Int8Array = new Int8Array(16);
  private readonly order = new VarOrder();
  private trail: number[] = [];
  private trailLim: number[] = [];
  private qhead = 0;
  private seen: Uint8Array = new Uint8Array(16);
  private marks: Int32Array = new Int32Array(64);
  private stampCount = 0;
  /** False once the clauses alone are unsatisfiable. */
  private ok = true;

  /** Conflicts met over all solve calls. */
  conflictCount = 0;
  /** Clause visits of unit propagation over all calls: a deterministic measure of the work done. */
  visitCount = 0;
  /** Literals of all clauses added: the work of building an encoding. */
  literalCount = 0;
  /** After an 'unsat' answer: assumptions it rests on (sat-core.ts; empty: the clauses alone). */
  core: readonly number[] = [];

  /** Number of variables created. */
  get variables(): number {
    return this.nVars;
  }

  /** A fresh variable (1-based). */
  newVar(): number {
    const v = this.nVars++;
    if (v >= this.assign.length) this.growVars(v + 1);
    this.watches.push([], []);
    this.reason[v] = -1;
    this.phase[v] = FALSE;
    this.order.add(v);
    return v + 1;
  }

  /**
   * Makes `v` a preferred decision variable: branching starts with these. Where the other
   * variables are functions of a few inputs (a circuit), deciding the inputs first lets unit
   * propagation assign the rest, instead of the search guessing gates.
   */
  prefer(v: number): void {
    this.order.prefer(v - 1);
  }

  /** Adds a clause (a disjunction of literals); call at decision level 0 only (between solves). */
  addClause(lits: readonly number[]): void {
    this.literalCount += lits.length;
    if (!this.ok) return;
    // Literal codes marked with this clause's stamp: duplicates and tautologies in one pass.
    const stamp = ++this.stampCount;
    const out: number[] = [];
    for (const lit of lits) {
      const c = code(lit);
      if (c + 1 >= this.marks.length) this.growMarks(c + 2);
      if (this.marks[c ^ 1] === stamp) return; // tautology
      if (this.marks[c] === stamp) continue;
      const val = this.litValue(c);
      if (val === TRUE) return;
      if (val === FALSE) continue;
      this.marks[c] = stamp;
      out.push(c);
    }
    if (out.length === 0) {
      this.ok = false;
      return;
    }
    if (out.length === 1) {
      this.enqueue(out[0]!, -1);
      if (this.propagate() >= 0) this.ok = false;
      return;
    }
    this.attach(out);
  }

  private growMarks(n: number): void {
    const m = new Int32Array(Math.max(n, this.marks.length * 2));
    m.set(this.marks);
    this.marks = m;
  }

  /**
   * Solves under `assumptions` (literals taken as true for this call only). 'unsat' means no
   * model extends the assumptions. `maxConflicts` bounds the work (then 'unknown'); `stop` is
   * asked every 1024 decisions and conflicts, and every {@link VISITS_PER_LOOK} clause visits,
   * and ends the search with 'unknown' when true.
   */
  solve(assumptions: readonly number[] = [], maxConflicts = Infinity, stop: () => boolean = () => false): SatResult {
    let steps = 0;
    let lookAt = this.visitCount + VISITS_PER_LOOK;
    // Every 1024 steps, or sooner once propagation has visited VISITS_PER_LOOK clauses.
    const stopNow = (): boolean => {
      if ((++steps & 1023) !== 0 && this.visitCount < lookAt) return false;
      lookAt = this.visitCount + VISITS_PER_LOOK;
      return stop();
    };
    this.core = [];
    if (!this.ok) return 'unsat';
    const assume = assumptions.map(code);
    let conflicts = 0;
    let restart = 0;
    let budget = 100 * luby(restart);
    for (;;) {
      const confl = this.propagate();
      if (confl >= 0) {
        conflicts++;
        this.conflictCount++;
        if (this.trailLim.length === 0) {
          this.ok = false;
          return 'unsat';
        }
        const { learnt, back } = analyzeConflict(confl, { trail: this.trail, trailLim: this.trailLim, level: this.level, reason: this.reason, clauses: this.clauses, seen: this.seen, order: this.order, variables: this.nVars });
        this.cancelUntil(back);
        if (learnt.length === 1) this.enqueue(learnt[0]!, -1);
        else this.enqueue(learnt[0]!, this.attach(learnt));
        this.order.decay();
        budget--;
        if (conflicts >= maxConflicts || stopNow()) {
          this.cancelUntil(0);
          return 'unknown';
        }
        continue;
      }
      // Restarts count conflicts, not decisions: a satisfiable query must assign everything.
      if (budget <= 0) {
        this.cancelUntil(0);
        budget = 100 * luby(++restart);
        continue;
      }
      // Assumptions are decided first, one level each, in order.
      let next = -1;
      while (this.trailLim.length < assume.length) {
        const a = assume[this.trailLim.length]!;
        const val = this.litValue(a);
        if (val === FALSE) {
          this.core = failedAssumptions(a, { trail: this.trail, trailLim: this.trailLim, level: this.level, reason: this.reason, clauses: this.clauses, seen: this.seen }).map((c) => ((c & 1) === 0 ? (c >> 1) + 1 : -((c >> 1) + 1)));
          this.cancelUntil(0);
          return 'unsat';
        }
        if (val === TRUE) {
          this.trailLim.push(this.trail.length);
          continue;
        }
        next = a;
        break;
      }
      if (next < 0) {
        const v = this.pickBranch();
        if (v < 0) {
          this.cancelUntil(0);
          return 'sat';
        }
        next = 2 * v + (this.phase[v] === TRUE ? 0 : 1);
      }
      if (stopNow()) {
        this.cancelUntil(0);
        return 'unknown';
      }
      this.trailLim.push(this.trail.length);
      this.enqueue(next, -1);
    }
  }

  private growVars(n: number): void {
    let size = this.assign.length;
    while (size < n) size *= 2;
    const g8 = (a: Int8Array): Int8Array => {
      const b = new Int8Array(size);
      b.set(a);
      return b;
    };
    const g32 = (a: Int32Array, fill: number): Int32Array => {
      const b = new Int32Array(size).fill(fill);
      b.set(a);
      return b;
    };
    this.assign = g8(this.assign);
    this.phase = g8(this.phase);
    this.level = g32(this.level, 0);
    this.reason = g32(this.reason, -1);
    this.order.grow(size);
    const seen = new Uint8Array(size);
    seen.set(this.seen);
    this.seen = seen;
  }

  private litValue(c: number): number {
    const a = this.assign[c >> 1]!;
    return a === UNDEF ? UNDEF : (c & 1) === 0 ? a : -a;
  }

  private enqueue(c: number, reason: number): void {
    const v = c >> 1;
    this.assign[v] = (c & 1) === 0 ? TRUE : FALSE;
    this.level[v] = this.trailLim.length;
    this.reason[v] = reason;
    this.trail.push(c);
  }

  private attach(clause: number[]): number {
    const index = this.clauses.length;
    this.clauses.push(clause);
    this.searchFrom.push(2);
    this.pair.push(clause.length === 2 ? clause[0]! ^ clause[1]! : 0);
    this.watches[clause[0]! ^ 1]!.push(index);
    this.watches[clause[1]! ^ 1]!.push(index);
    return index;
  }

  /** Unit propagation; the index of a conflicting clause, or -1. */
  private propagate(): number {
    while (this.qhead < this.trail.length) {
      const p = this.trail[this.qhead++]!; // p became true: clauses watching ~p
      const list = this.watches[p]!;
      this.visitCount += list.length;
      let keep = 0;
      for (let i = 0; i < list.length; i++) {
        const ci = list[i]!;
        const falseLit = p ^ 1;
        // Two literals (most clauses of an encoding): the other one is read without the clause,
        // which is written (other first, as below) only when it implies or conflicts, where it is read.
        const pair = this.pair[ci]!;
        if (pair !== 0 && this.litValue(pair ^ falseLit) === TRUE) {
          list[keep++] = ci;
          continue;
        }
        const c = this.clauses[ci]!;
        if (c[0] === falseLit) {
          c[0] = c[1]!;
          c[1] = falseLit;
        }
        if (this.litValue(c[0]!) === TRUE) {
          list[keep++] = ci;
          continue;
        }
        // The search for a new watch resumes where the last one stopped and wraps around
        // (Gent 2013): long clauses, such as an atom's completion over thousands of rule
        // bodies, would otherwise be rescanned from the start at every step, quadratically.
        let moved = false;
        const n = c.length;
        if (n > 2) {
          const start = this.searchFrom[ci]!;
          let k = start;
          do {
            if (this.litValue(c[k]!) !== FALSE) {
              c[1] = c[k]!;
              c[k] = falseLit;
              this.watches[c[1]! ^ 1]!.push(ci);
              this.searchFrom[ci] = k;
              moved = true;
              break;
            }
            k = k + 1 === n ? 2 : k + 1;
          } while (k !== start);
        }
        if (moved) continue;
        list[keep++] = ci;
        if (this.litValue(c[0]!) === FALSE) {
          for (let j = i + 1; j < list.length; j++) list[keep++] = list[j]!;
          list.length = keep;
          this.qhead = this.trail.length;
          return ci;
        }
        this.enqueue(c[0]!, ci);
      }
      if (keep !== list.length) list.length = keep;
    }
    return -1;
  }

  private cancelUntil(level: number): void {
    if (this.trailLim.length <= level) return;
    const stop = this.trailLim[level]!;
    for (let i = this.trail.length - 1; i >= stop; i--) {
      const v = this.trail[i]! >> 1;
      this.phase[v] = this.assign[v]!;
      this.assign[v] = UNDEF;
      this.reason[v] = -1;
      this.order.restore(v);
    }
    this.trail.length = stop;
    this.trailLim.length = level;
    this.qhead = stop;
  }

  private pickBranch(): number {
    for (let v = this.order.pop(); v >= 0; v = this.order.pop()) {
      if (this.assign[v] === UNDEF) return v;
    }
    return -1;
  }

  /** The value of variable `v` in the last model found ('sat'). */
  value(v: number): boolean {
    const a = this.assign[v - 1]!;
    return (a === UNDEF ? this.phase[v - 1] : a) === TRUE;
  }
}
