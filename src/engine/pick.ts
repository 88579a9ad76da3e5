/**
 * The answers of a walked clause's last goal, a table call, picked from each candidate fact
 * (own.ts `solveEntered`, once.ts's walk). The walk binds each candidate (`bind`: a links array
 * grown name by name), joins those links to the bindings of the goals before (`concat`), and
 * the answer applies them all to each query variable (`values`: `apply`, a scan of the links per
 * variable). In the superset stage most answers come that way: amazons' copy rules
 * (`queenMoveIgnoring` from `rookMoveIgnoring`, ...) are one call whose answer is the fact
 * itself, 588,000 of its 952,190 answers. Here the plan is made once per query: each query
 * variable's value is a column of the fact, or fixed for the entry (a value bound before, a
 * ground term), and the columns one variable fills twice must agree. Like `own.ts`, this module
 * does not import tau-prolog: it is handed the library object.
 */
import type { Candidates } from './once.js';
import { MAX_INDEXED } from './tables.js';

/** The answers of the last goal given to the sink; false when this entry must be walked instead. */
type LastGoalAnswers = (c: Candidates, before: unknown[]) => boolean;

/**
 * The last goal of a walked body as the picker reads it, the same for every query of the clause
 * (made once per body, own.ts): its variables that the goals before do not bind.
 */
export interface LastGoal {
  readonly atom: unknown;
  /** Each such variable's first argument position (its column in the facts). */
  readonly first: ReadonlyMap<string, number>;
  /** Every position holding such a variable, ascending. */
  readonly open: readonly number[];
  /** Pairs of positions one variable fills: the fact's values there must be equal. */
  readonly same: readonly number[];
}

/** Where each query variable's value comes from, for one query (see {@link answerPicker}). */
interface Plan {
  /** Per query variable: the fact's column it is read from, or -1: fixed for the entry. */
  readonly column: readonly number[];
  /** Per query variable (column -1): its term in the query's substitution, or null (unbound). */
  readonly term: unknown[];
}

/** What the picker needs of bind.ts and the driver. */
interface PickerParts {
  apply(term: unknown, links: unknown[]): unknown;
  tick(): void;
}

/**
 * The last goal of `goals` for {@link answerPicker}, or null when its answers must be bound one
 * by one: it is not a table call, has more than {@link MAX_INDEXED} arguments, or has a compound
 * argument with a variable the goals before do not bind.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function lastGoalOf(pl: any, goals: readonly any[]): LastGoal | null {
  const atom = goals[goals.length - 1];
  const args = atom.args;
  if (args.length > MAX_INDEXED || atom.id === '\\==' || atom.id === 'once' || atom.id === '$gdl_absent') return null;
  const bound = variablesOf(pl, goals.slice(0, -1));
  const first = new Map<string, number>();
  const open: number[] = [];
  const same: number[] = [];
  for (let j = 0; j < args.length; j++) {
    const a = args[j];
    if (a.ground || (a instanceof pl.type.Var && (a.id === '_' || bound.has(a.id)))) continue;
    if (!(a instanceof pl.type.Var)) {
      if ([...variablesOf(pl, [a])].some((v) => !bound.has(v))) return null;
      continue;
    }
    const at = first.get(a.id);
    open.push(j);
    if (at === undefined) first.set(a.id, j);
    else same.push(at, j);
  }
  return { atom, first, open, same };
}

/**
 * The picker of the answers of the last goal `last` for one query (the substitution `subst`,
 * the query variables `vars`, answers to `to`). Its plan is made when the walk first reaches the
 * last goal (many queries never do); a query with none, where a query variable's term holds one
 * of the last goal's unbound variables inside a compound term, has every entry walked.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function answerPicker(pl: any, last: LastGoal, vars: readonly string[], subst: any, to: (values: unknown[]) => void, parts: PickerParts): LastGoalAnswers {
  let plan: Plan | null | undefined;
  return (c, before) => {
    // A single candidate is bound as cheaply as it is picked: kalaha_2009's entries, most with
    // one candidate, were slower picked (docs/corpus.md, amaz30).
    if (c.end < MANY) return false;
    if (plan === undefined) plan = planOf(pl, last, vars, subst);
    if (plan === null || !planHolds(pl, c.atom, last)) return false;
    answerEach(pl, c, plan, before, last.same, to, parts);
    return true;
  };
}

/** The plan of one query (see {@link answerPicker}), or null when it has none. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function planOf(pl: any, last: LastGoal, vars: readonly string[], subst: any): Plan | null {
  const column: number[] = [];
  const term: unknown[] = [];
  for (let i = 0; i < vars.length; i++) {
    const t = subst.links[vars[i]!];
    term.push(t ? t : null);
    column.push(!t || t.ground ? -1 : t instanceof pl.type.Var ? (last.first.get(t.id) ?? -1) : -1);
    if (t && !t.ground && !(t instanceof pl.type.Var) && [...variablesOf(pl, [t])].some((v) => last.first.has(v))) return null;
  }
  return { column, term };
}

/** The names of the variables in `terms` (`_` included). Iterative: terms nest. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function variablesOf(pl: any, terms: readonly any[]): Set<string> {
  const out = new Set<string>();
  const stack = [...terms];
  while (stack.length > 0) {
    const t = stack.pop();
    if (t.ground) continue;
    if (t instanceof pl.type.Var) out.add(t.id);
    else if (t.args !== undefined) stack.push(...t.args);
  }
  return out;
}

/**
 * Whether the entered call `atom` (the last goal with the bindings before applied) is as the
 * plan has it: the planned positions still hold their unbound variable (apply returns an unbound
 * variable itself) and every other argument but `_` is ground. Only then does `bind` link
 * exactly the planned variables, each at its first position.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function planHolds(pl: any, atom: any, last: LastGoal): boolean {
  const args = atom.args;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const planned = (last.atom as any).args;
  const open = last.open;
  let o = 0;
  for (let j = 0; j < args.length; j++) {
    if (o < open.length && open[o] === j) {
      if (args[j] !== planned[j]) return false;
      o++;
    } else if (!args[j].ground && !(args[j] instanceof pl.type.Var && args[j].id === '_')) return false;
  }
  return true;
}

/**
 * The values of the query variables read from no column, for this entry: what `values` gives
 * with the bindings before applied (the fact's bindings are of the last goal's unbound
 * variables, which these terms do not hold).
 */
function fixedValues(plan: Plan, before: unknown[], parts: PickerParts): unknown[] {
  const out = new Array(plan.term.length);
  for (let i = 0; i < out.length; i++) {
    const t = plan.term[i];
    out[i] = plan.column[i]! >= 0 || t === null ? t : before.length === 0 ? t : parts.apply(t, before);
  }
  return out;
}

/**
 * Each candidate of `c` whose repeated variables agree gives the sink an answer: the fixed
 * values (made at the first such candidate: an entry often has none), and the fact's arguments
 * at the planned columns. Candidates in order, the clock ticked per candidate tried, as the
 * walk does.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function answerEach(pl: any, c: Candidates, plan: Plan, before: unknown[], same: readonly number[], to: (values: unknown[]) => void, parts: PickerParts): void {
  const data = c.data;
  const column = plan.column;
  let fixed: unknown[] | null = null;
  for (let i = 0; i < c.end; i++) {
    parts.tick();
    const base = (c.rows === null ? i : c.rows[i]!) * c.arity;
    let agree = true;
    for (let s = 0; s < same.length && agree; s += 2) agree = pl.compare(data[base + same[s]!], data[base + same[s + 1]!]) === 0;
    if (!agree) continue;
    fixed ??= fixedValues(plan, before, parts);
    const out = new Array(fixed.length);
    for (let v = 0; v < out.length; v++) out[v] = column[v]! >= 0 ? data[base + column[v]!] : fixed[v];
    to(out);
  }
}

/** The fewest candidates an entry of the last goal must have to be picked. */
const MANY = 2;
