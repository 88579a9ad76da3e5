/**
 * Variable bindings on Tau-Prolog's terms, for the engine's own predicates (`own.ts`): the
 * unifier of a table call with a fact, and its application to the rest of the state's goal.
 * Every answer of a table call applies its bindings to the whole remaining goal (Tau-Prolog's
 * states hold fully applied goals), so this is the engine's innermost loop. Like `own.ts`, this
 * module does not import tau-prolog: it is handed the library object.
 */

/**
 * Bindings of variables by name, what a table call's unifier holds: names and values
 * alternating in `items`, `[name0, value0, name1, value1, ...]`, its first `count` entries. Not
 * an object keyed by the names: clause variables are renamed afresh for every query, so such
 * objects took a new hidden class per query and every store and load on them was megamorphic
 * (kalaha_2009's superset stage spent a quarter of its time there). A call binds a few
 * variables, so a scan is all a look-up needs. One `Links` per binder is refilled by every
 * `bind` (its bindings are read before the next candidate is bound): an array per candidate was
 * the superset stage's largest allocation (racer4: 528,000 candidates, ~130 MiB with the room
 * each array's first push reserved), garbage at once, which the collector's helper threads paid for.
 */
interface Links {
  readonly items: unknown[];
  count: number;
}

/** The value bound to variable `name` in `links`, or undefined. */
function linked(links: Links, name: string): unknown {
  const items = links.items;
  for (let i = 0; i < links.count; i += 2) if (items[i] === name) return items[i + 1];
  return undefined;
}

/** The facts of a table: their ground arguments, one fact after another (src/engine/tables.ts). */
type FactData = readonly unknown[];

/** The binding operations, made for one tau-prolog library object. */
interface Binder {
  /**
   * The unifier of a table call with one of its candidate facts, the one whose arguments start
   * at `data[base]`, or null when they do not unify. The call's bound arguments (up to
   * `indexed` of them) already agree with the fact. The bindings returned are valid until the
   * next call of `bind`, which refills the same object.
   */
  bind(atom: unknown, data: FactData, base: number, indexed: number): Links | null;
  /** A new state: `rest` and the substitution `subst` with `links` applied; parent `parent`. */
  state(rest: unknown, subst: unknown, links: Links, parent: unknown): unknown;
  /**
   * The values of the query variables `vars` in the substitution `subst` with `links` applied:
   * the answer a state with an empty goal, `state(null, subst, links, _)`, would give.
   */
  values(vars: readonly string[], subst: unknown, links: Links): unknown[];
  /** No bindings (never refilled): what a goal proved without a table call applies. */
  readonly none: Links;
}

/** The binding operations on terms of the tau-prolog library `pl`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function binder(pl: any): Binder {
  const { Var, Substitution, State } = pl.type;

  /**
   * A copy of a Tau-Prolog Term with other arguments: the fields Term's constructor sets, in the
   * same order, and its prototype. Unlike that constructor it keeps the original's indicator
   * string, whose hash is already computed, instead of concatenating a new one, and takes the
   * groundness the caller has just found instead of checking each argument again.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  function TermCopy(this: any, ref: number, id: string, args: unknown[], indicator: string, ground: boolean): void {
    this.ref = ref;
    this.id = id;
    this.args = args;
    this.indicator = indicator;
    this.index = indicator;
    this.ground = ground;
  }
  TermCopy.prototype = pl.type.Term.prototype;

  /**
   * `term` with the variables in `links` replaced: Tau-Prolog's Term.apply with the bindings in
   * a plain object, looking each variable up once where Term.apply looks twice through methods.
   * Recursive like Term.apply, which Tau-Prolog runs on the same goals when it resolves them.
   * A term none of whose variables is bound is returned itself, not copied (Term.apply shares
   * ground terms, and Term.replace the rest of a conjunction, the same way): the goals after the
   * next literal mostly wait for variables the call does not bind, and each copy is garbage soon.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  function apply(term: any, links: Links): any {
    if (term.ground) return term;
    if (term instanceof Var) return linked(links, term.id) ?? term;
    const args = term.args;
    let out: unknown[] | null = null;
    let ground = true;
    for (let i = 0; i < args.length; i++) {
      const a = apply(args[i], links);
      if (a !== args[i] && out === null) {
        // Sized once: answers keep these arrays, and one grown by push has room for 17.
        out = new Array(args.length);
        for (let j = 0; j < i; j++) out[j] = args[j];
      }
      if (out !== null) out[i] = a;
      if (a.ground === false) ground = false;
    }
    if (out === null) return term;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    return new (TermCopy as any)(term.ref, term.id, out, term.indicator, ground);
  }

  /**
   * A state's substitution is copied only when the bindings change one of its values: most
   * answers bind clause variables alone (kalaha_2009: 142,000 of 227,000 states), and then the
   * state shares its parent's substitution, as `succeed` (own.ts) and Tau-Prolog's own steps
   * without bindings do; no step changes a substitution a state holds (Tau-Prolog makes a new one).
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  function state(rest: any, subst: any, links: Links, parent: unknown): unknown {
    const from = subst.links;
    let values: Record<string, unknown> | null = null;
    for (const v in from) {
      const t = from[v];
      const a = apply(t, links);
      if (a !== t && values === null) {
        // The first value changed: the copy takes the ones before it, in the same order.
        values = {};
        for (const u in from) {
          if (u === v) break;
          values[u] = from[u];
        }
      }
      if (values !== null) values[v] = a;
    }
    return new State(rest === null ? null : apply(rest, links), values === null ? subst : new Substitution(values, subst.attrs), parent);
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  function values(vars: readonly string[], subst: any, links: Links): unknown[] {
    const out = new Array(vars.length);
    for (let i = 0; i < vars.length; i++) {
      // What Substitution.lookup gives for a variable the substitution lacks.
      const t = subst.links[vars[i]!];
      out[i] = t ? (links.count === 0 ? t : apply(t, links)) : null;
    }
    return out;
  }

  // The bindings every `bind` refills, and the empty ones.
  const scratch: Links = { items: [], count: 0 };
  const none: Links = Object.freeze({ items: [], count: 0 });

  /** Tau-Prolog's general unifier of a call's arguments with a fact, as links (or null). */
  function unifyLinks(args: readonly unknown[], data: FactData, base: number): Links | null {
    // Tau-Prolog's unify takes argument lists, but consumes them: it gets copies.
    const mgu = pl.unify([...args], data.slice(base, base + args.length));
    if (mgu === null) return null;
    const bound = mgu.links as Record<string, unknown>;
    scratch.count = 0;
    for (const name of Object.keys(bound)) {
      scratch.items[scratch.count++] = name;
      scratch.items[scratch.count++] = bound[name];
    }
    return scratch;
  }

  /**
   * Adds to `links` the bindings that make `a` (a variable) equal to the ground `value`; false
   * when a variable met twice would need two different values.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  function link(links: Links, a: any, value: unknown): boolean {
    if (a.id === '_') return true;
    const prev = linked(links, a.id);
    if (prev === undefined) {
      links.items[links.count++] = a.id;
      links.items[links.count++] = value;
    } else if (pl.compare(prev, value) !== 0) return false;
    return true;
  }

  /**
   * Adds to `links` the bindings that unify `a`, a compound term that is not ground and whose
   * arguments are variables or ground terms (`move(V1, V2, V3, '1', V5)`), with the ground
   * `value`. False when they do not unify; undefined when `a` nests deeper than that, for
   * Tau-Prolog's general unify. Such arguments are the moves of relations like chess's `legal2`:
   * every candidate went through the general unify, whose copies cost more than the binding.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  function bindCompound(links: Links, a: any, value: any): boolean | undefined {
    const args = a.args;
    for (let j = 0; j < args.length; j++) if (!args[j].ground && !(args[j] instanceof Var)) return undefined;
    if (value instanceof Var || value.id !== a.id || value.args === undefined || value.args.length !== args.length) return false;
    for (let j = 0; j < args.length; j++) {
      const b = args[j];
      if (b.ground ? pl.compare(b, value.args[j]) !== 0 : !link(links, b, value.args[j])) return false;
    }
    return true;
  }

  // The common call has variables where it has no bound argument: it needs only their bindings
  // (a variable twice must meet equal values); a compound argument one level deep is matched
  // here too. Anything else goes to Tau-Prolog's unify.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  function bind(atom: any, data: FactData, base: number, indexed: number): Links | null {
    const args = atom.args;
    if (args.length > indexed) return unifyLinks(args, data, base);
    const links = scratch;
    links.count = 0;
    for (let i = 0; i < args.length; i++) {
      const a = args[i];
      if (a.ground) continue;
      if (a instanceof Var) {
        if (!link(links, a, data[base + i])) return null;
        continue;
      }
      const matched = bindCompound(links, a, data[base + i]);
      if (matched === undefined) return unifyLinks(args, data, base);
      if (!matched) return null;
    }
    return links;
  }

  return { bind, state, values, none };
}
