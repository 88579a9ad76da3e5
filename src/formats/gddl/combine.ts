/**
 * Which joint moves become multi-actions (slide 47): not the cross product of the roles' moves
 * but only the combinations whose legal conditions can hold together. A combination is
 * dropped when two of its moves' legal conditions need an atom true and false, or need two
 * different members of one PROVEN mutex group true (observed groups are not sound and are not
 * used). The combinations are enumerated depth first, one role at a time, so that a prefix that
 * is already contradictory is never extended and the cross product is never held in memory; a
 * limit on the combinations kept ends the run with a limit error naming the sizes.
 */
import { NO_POS } from '../../gdl/ast.js';
import { GdlError, type LimitInfo, deadlineLimit, diag } from '../../gdl/diagnostics.js';
import type { Deadline } from '../../deadline.js';
import { type Literal, literalAtom } from './literals.js';

/** What the enumeration needs to know of one role. */
export interface RoleMoves {
  /** The role's name, for messages. */
  readonly role: string;
  /** Per move, the necessary literals of its legal condition; null: it can never hold. */
  readonly literals: readonly (readonly Literal[] | null)[];
}

/** Limits of the enumeration, resolved by the caller. */
interface CombineLimits {
  /** Largest number of combinations kept. */
  readonly maxActions: number;
  readonly deadline: Deadline;
  /** The game's file, for the messages. */
  readonly file: string;
}

/** The combinations kept, and the sizes for `--stats`. */
export interface Combinations {
  /** Per kept combination, the move index of each role (in role order). */
  readonly combos: readonly Int32Array[];
  /** The product of the roles' move counts. */
  readonly crossProduct: bigint;
  /** Compatibility tests made (the work of the search). */
  readonly tests: number;
}

/** Searches this many tests per allowed combination (and a million more) before giving up. */
const TESTS_PER_ACTION = 50;

/** The sizes of a blow-up, in words: roles, moves per role, cross product. */
export function describeSizes(roles: readonly RoleMoves[]): string {
  const each = roles.map((r) => `${r.role} ${r.literals.length}`).join(', ');
  return `${roles.length} roles (moves each: ${each}), cross product ${crossProduct(roles)}`;
}

function crossProduct(roles: readonly RoleMoves[]): bigint {
  return roles.reduce((p, r) => p * BigInt(r.literals.length), 1n);
}

function limitError(file: string, message: string, limit: LimitInfo): GdlError {
  return new GdlError([diag('error', file, NO_POS, message)], 'limit', limit);
}

/** The literals held by the moves chosen so far, with counts so that a move can be taken back. */
class Held {
  /** Per atom: +n when n chosen moves need it true, -n when they need it false. */
  private readonly polarity = new Map<number, number>();
  /** Per proven group: the member needed true and how many moves need it. */
  private readonly groupTrue = new Map<number, { atom: number; count: number }>();

  constructor(private readonly groupOf: ReadonlyMap<number, number>) {}

  fits(lits: readonly Literal[]): boolean {
    for (const l of lits) {
      const a = literalAtom(l);
      const p = this.polarity.get(a);
      if (p !== undefined && p !== 0 && Math.sign(p) !== Math.sign(l)) return false;
      if (l > 0) {
        const g = this.groupOf.get(a);
        const held = g === undefined ? undefined : this.groupTrue.get(g);
        if (held !== undefined && held.count > 0 && held.atom !== a) return false;
      }
    }
    return true;
  }

  add(lits: readonly Literal[], by: 1 | -1): void {
    for (const l of lits) {
      const a = literalAtom(l);
      this.polarity.set(a, (this.polarity.get(a) ?? 0) + by * Math.sign(l));
      const g = l > 0 ? this.groupOf.get(a) : undefined;
      if (g === undefined) continue;
      const held = this.groupTrue.get(g);
      if (by === -1) held!.count--;
      else if (held === undefined || held.count === 0) this.groupTrue.set(g, { atom: a, count: 1 });
      else held.count++;
    }
  }
}

/**
 * The combinations of one move per role whose legal conditions do not contradict each other
 * or a proven mutex group (`groupOf`: atom id of a `true` atom -> its group), in lexicographic
 * order of the move indexes. Throws a limit error beyond `limits.maxActions` combinations, when
 * the search exceeds its work budget, or past the deadline.
 */
export function combinations(roles: readonly RoleMoves[], groupOf: ReadonlyMap<number, number>, limits: CombineLimits): Combinations {
  const k = roles.length;
  const combos: Int32Array[] = [];
  const product = crossProduct(roles);
  if (k === 0 || product === 0n) return { combos, crossProduct: product, tests: 0 };
  const held = new Held(groupOf);
  const choice = new Int32Array(k).fill(-1);
  const budget = TESTS_PER_ACTION * limits.maxActions + 1_000_000;
  let tests = 0;
  let depth = 0;
  while (depth >= 0) {
    const options = roles[depth]!.literals;
    if (choice[depth]! >= 0) held.add(options[choice[depth]!]!, -1);
    let m = choice[depth]! + 1;
    for (; m < options.length; m++) {
      if (++tests > budget) throw limitError(limits.file, `GDDL: the search for compatible joint moves passed its budget of ${budget} tests: ${describeSizes(roles)}`, { kind: 'search' });
      if (limits.deadline.tick()) throw limitError(limits.file, 'writing GDDL reached the time limit', deadlineLimit(limits.deadline));
      const lits = options[m];
      if (lits !== null && lits !== undefined && held.fits(lits)) break;
    }
    if (m >= options.length) {
      choice[depth] = -1;
      depth--;
      continue;
    }
    choice[depth] = m;
    held.add(options[m]!, 1);
    if (depth < k - 1) {
      depth++;
      continue;
    }
    combos.push(choice.slice());
    if (combos.length > limits.maxActions) {
      throw limitError(limits.file, `GDDL: more than ${limits.maxActions} multi-actions (--max-actions): ${describeSizes(roles)}`, { kind: 'output' });
    }
  }
  return { combos, crossProduct: product, tests };
}
