/**
 * One transition's encoding that grows query by query (docs/mutex.md, "Proofs that finish inside
 * the budget", det16): the Clark completion of the atoms a query's roots depend on, as encode.ts
 * builds it, but kept, and extended by the atoms the next query's roots bring that it lacks. An
 * atom's completion never changes when others join (it reads only atoms of its own cone), so
 * each atom is encoded once; the move constraints are made again over the moves of each role the
 * cone holds so far (one over more moves implies the one over fewer). A query on it has its own
 * cone's formula and more: atoms no query of its roots reads, defined by their completion, which
 * every state of the game satisfies, so its answers are sound as encode.ts' (an "unsat" there
 * stays "unsat"; a "sat" may become "unsat", a proof the smaller cone could not make).
 */
import { ConeTooLarge, type RuleIndex, atMostOne, cone, defineAtom } from './encode.js';
import { SatSolver } from './sat.js';
import type { MutexView } from './view.js';

/** A growing encoding: its solver, the variable of each atom encoded (0: none), the fluents whose current value is a variable. */
export class GrowingCone {
  readonly solver = new SatSolver();
  private readonly vars: Int32Array;
  private readonly fluentOf: Int32Array;
  readonly fluents: number[] = [];
  /** Per role, the move variables constrained so far, their count when last constrained, and whether "at least one" was added. */
  private readonly moveVar: Int32Array[];
  private readonly moveCount: number[];
  private readonly moveAlo: boolean[];
  private terminalDone = false;

  constructor(private readonly view: MutexView, private readonly index: RuleIndex, private readonly stop: () => boolean) {
    this.vars = new Int32Array(view.atoms);
    this.fluentOf = new Int32Array(view.atoms).fill(-1);
    view.fluents.forEach((f, i) => (this.fluentOf[f.trueAtom] = i));
    this.moveVar = view.moves.map((role) => new Int32Array(role.length));
    this.moveCount = view.moves.map(() => 0);
    this.moveAlo = view.moves.map(() => false);
  }

  /** The variable of atom `a` (0 when it is outside the encoding). */
  atom(a: number): number {
    return a < 0 ? 0 : this.vars[a]!;
  }

  /**
   * Extends the encoding by the cone of `roots` (with `allMoves`, every move's legal atom too, as
   * encode.ts); `fits` is asked of the atoms not encoded yet, before any is ({@link ConeTooLarge}).
   */
  add(roots: readonly number[], allMoves: boolean, fits: (atoms: readonly number[]) => boolean = () => true): void {
    const { view, index } = this;
    const legals = allMoves ? view.moves.flatMap((role) => role.flatMap((m) => (m.legal >= 0 ? [m.legal] : []))) : [];
    const terminal = index.useTerminal && !this.terminalDone ? [view.terminal] : [];
    const fresh = this.newAtoms([...roots, ...legals, ...terminal]);
    if (!fits(fresh)) throw new ConeTooLarge();
    for (const a of fresh) this.vars[a] = this.solver.newVar();
    for (const a of fresh) this.define(a);
    for (const a of fresh) if (this.fluentOf[a]! >= 0) this.fluents.push(this.fluentOf[a]!);
    this.constrainMoves(allMoves);
    if (terminal.length > 0) {
      this.solver.addClause([-this.atom(view.terminal)]);
      this.terminalDone = true;
    }
  }

  /** The atoms the roots depend on that are not encoded yet (encoded ones bring their cone already), in discovery order. */
  private newAtoms(roots: readonly number[]): number[] {
    return cone(this.index, this.view, roots, this.stop, (a) => this.vars[a] !== 0);
  }

  /** The completion of atom `a` (encode.ts' clauses), or its preference as an input. */
  private define(a: number): void {
    if (this.index.free[a] === 1) this.solver.prefer(this.atom(a));
    else defineAtom(this.solver, this.view, this.index, a, (x) => this.atom(x), this.stop);
  }

  /** One move per role over the moves the encoding holds (encode.ts' constraints), made again when a role's moves grew. */
  private constrainMoves(allMoves: boolean): void {
    const { view, solver: s } = this;
    view.moves.forEach((role, r) => {
      const vars = this.moveVar[r]!;
      role.forEach((m, j) => {
        // A move given a variable of its own (allMoves) whose `does` atom joined since: the two are one.
        if (vars[j] !== 0 && m.does >= 0 && this.atom(m.does) !== 0 && vars[j] !== this.atom(m.does)) {
          s.addClause([-vars[j]!, this.atom(m.does)]);
          s.addClause([vars[j]!, -this.atom(m.does)]);
        }
        if (vars[j] !== 0) return;
        const inCone = m.does >= 0 && this.atom(m.does) !== 0;
        if (!inCone && !(allMoves && m.legal >= 0)) return;
        vars[j] = inCone ? this.atom(m.does) : s.newVar();
        s.addClause(m.legal < 0 || this.atom(m.legal) === 0 ? [-vars[j]!] : [-vars[j]!, this.atom(m.legal)]);
      });
      const chosen = [...vars].filter((x) => x !== 0);
      if (chosen.length === this.moveCount[r]) return;
      this.moveCount[r] = chosen.length;
      atMostOne(s, chosen);
      if (chosen.length === role.length && chosen.length > 0 && !this.moveAlo[r]) {
        s.addClause(chosen);
        this.moveAlo[r] = true;
      }
    });
  }
}
