/**
 * Relations (and function symbols) as interned ids: each `{name, arity}` is described once and
 * numbered, so that maps are keyed by small integers and the name and arity are read from the
 * table, never parsed back out of a `name/arity` text. The text forms (`key`) are made from the
 * parts for messages and outputs only, and stay what they were.
 */

/** A relation or function symbol: its name and number of arguments. */
export interface Signature {
  readonly name: string;
  readonly arity: number;
}

/** The text `name/arity` of a signature, for messages, outputs and text-keyed tables. */
export function signatureText(s: Signature): string {
  return `${s.name}/${s.arity}`;
}

/**
 * Interned signatures: `intern` gives each `{name, arity}` a small integer id (0, 1, ...) the
 * first time it is seen and the same id afterwards. One table per computation (no shared
 * state); ids of different tables are unrelated.
 */
export class RelationTable {
  private readonly names: string[] = [];
  private readonly arities: number[] = [];
  /** The texts `name/arity`, made once per id (messages name relations in hot loops). */
  private readonly keys: string[] = [];
  /** name -> arity -> id. */
  private readonly ids = new Map<string, Map<number, number>>();

  /** The id of `name` with `arity`, made on first use. */
  intern(name: string, arity: number): number {
    let byArity = this.ids.get(name);
    if (byArity === undefined) this.ids.set(name, (byArity = new Map()));
    let id = byArity.get(arity);
    if (id === undefined) {
      id = this.names.length;
      this.names.push(name);
      this.arities.push(arity);
      this.keys.push(`${name}/${arity}`);
      byArity.set(arity, id);
    }
    return id;
  }

  /** The id of `name` with `arity`, or undefined when it was never interned. */
  find(name: string, arity: number): number | undefined {
    return this.ids.get(name)?.get(arity);
  }

  /** The name of `id`. */
  name(id: number): string {
    return this.names[id]!;
  }

  /** The number of arguments of `id`. */
  arity(id: number): number {
    return this.arities[id]!;
  }

  /** The text `name/arity` of `id` (made from the parts, for messages and outputs). */
  key(id: number): string {
    return this.keys[id]!;
  }
}
