/**
 * Which joint moves become multi-actions (slide 47): not the cross product of the roles' moves
 * but only the combinations whose legal conditions can hold together. A combination is
 * dropped when two of its moves' legal conditions need an atom true and false, need two
 * different members of one PROVEN mutex group true, or need every member of a group PROVEN
 * exactly-one false (observed groups are not sound and are not used). The combinations are
 * enumerated depth first, one role at a time, so that a prefix that is already contradictory
 * is never extended and the cross product is never held in memory; a limit on the
 * combinations kept ends the run with a limit error naming the sizes. The moves of a role are
 * tested class by class first (moves that need the same group members, `classesOf`): a class
 * the prefix excludes is skipped in one test, so a turn-taking game with thousands of moves per
 * role (amazons) costs a few tests per move, not one per pair of moves.
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

/** The proven groups the search reads: per `true` atom its group, and the exactly-one groups' sizes. */
export interface ProvenGroups {
  /** Atom id of a `true` atom -> the index of its proven group (of two or more members, or exactly-one). */
  readonly groupOf: ReadonlyMap<number, number>;
  /** Per group proven exactly-one: its number of members (some member is true in every reachable state). */
  readonly exactlyOne: ReadonlyMap<number, number>;
}

/** The literals held by the moves chosen so far, with counts so that a move can be taken back. */
class Held {
  /** Per atom: +n when n chosen moves need it true, -n when they need it false. */
  private readonly polarity = new Map<number, number>();
  /** Per proven group: the member needed true and how many moves need it. */
  private readonly groupTrue = new Map<number, { atom: number; count: number }>();
  /** Per exactly-one group: how many of its members some chosen move needs false. */
  private readonly falseMembers = new Map<number, number>();

  constructor(private readonly groups: ProvenGroups) {}

  fits(lits: readonly Literal[]): boolean {
    let falsified: Map<number, number> | undefined;
    for (const l of lits) {
      const a = literalAtom(l);
      const p = this.polarity.get(a);
      if (p !== undefined && p !== 0 && Math.sign(p) !== Math.sign(l)) return false;
      const g = this.groups.groupOf.get(a);
      if (g === undefined) continue;
      if (l > 0) {
        const held = this.groupTrue.get(g);
        if (held !== undefined && held.count > 0 && held.atom !== a) return false;
      } else if (this.groups.exactlyOne.has(g) && (p === undefined || p === 0)) {
        // A member needed false for the first time: with the others needed false, none is left true.
        // (necessaryLiterals lists each literal once, so a member is not counted twice here.)
        falsified ??= new Map();
        const n = (falsified.get(g) ?? this.falseMembers.get(g) ?? 0) + 1;
        if (n >= this.groups.exactlyOne.get(g)!) return false;
        falsified.set(g, n);
      }
    }
    return true;
  }

  add(lits: readonly Literal[], by: 1 | -1): void {
    for (const l of lits) {
      const a = literalAtom(l);
      const before = this.polarity.get(a) ?? 0;
      const after = before + by * Math.sign(l);
      this.polarity.set(a, after);
      const g = this.groups.groupOf.get(a);
      if (g === undefined) continue;
      // A member of an exactly-one group became, or stopped being, needed false.
      if (before < 0 !== after < 0 && this.groups.exactlyOne.has(g)) this.falseMembers.set(g, (this.falseMembers.get(g) ?? 0) + (after < 0 ? 1 : -1));
      if (l < 0) continue;
      const held = this.groupTrue.get(g);
      if (by === -1) held!.count--;
      else if (held === undefined || held.count === 0) this.groupTrue.set(g, { atom: a, count: 1 });
      else held.count++;
    }
  }
}

/** Moves of one role that need the same literals on group members: they fit a prefix only if these do. */
interface MoveClass {
  readonly literals: readonly Literal[];
  /** Move indexes, ascending. */
  readonly moves: readonly number[];
}

/**
 * The classes of a role's possible moves (literals not null) by their literals on group members
 * (true on any proven group, false on an exactly-one group): {@link Held.fits} fails on such a
 * subset of a move's literals only if it fails on them all, so a class that does not fit holds
 * no move that fits.
 */
function classesOf(role: RoleMoves, groups: ProvenGroups): MoveClass[] {
  const byKey = new Map<string, { literals: Literal[]; moves: number[] }>();
  role.literals.forEach((lits, m) => {
    if (lits === null) return;
    const own = lits.filter((l) => {
      const g = groups.groupOf.get(literalAtom(l));
      return g !== undefined && (l > 0 || groups.exactlyOne.has(g));
    });
    const key = own.join(',');
    const c = byKey.get(key);
    if (c === undefined) byKey.set(key, { literals: own, moves: [m] });
    else c.moves.push(m);
  });
  return [...byKey.values()];
}

/**
 * The combinations of one move per role whose legal conditions do not contradict each other
 * or a proven mutex group (`groups`), in lexicographic order of the move indexes. Throws a
 * limit error beyond `limits.maxActions` combinations, when the search exceeds its work
 * budget, or past the deadline.
 */
export function combinations(roles: readonly RoleMoves[], groups: ProvenGroups, limits: CombineLimits): Combinations {
  const k = roles.length;
  const combos: Int32Array[] = [];
  const product = crossProduct(roles);
  if (k === 0 || product === 0n) return { combos, crossProduct: product, tests: 0 };
  const held = new Held(groups);
  const classes = roles.map((r) => classesOf(r, groups));
  const budget = TESTS_PER_ACTION * limits.maxActions + 1_000_000;
  let tests = 0;
  const test = (lits: readonly Literal[]): boolean => {
    if (++tests > budget) throw limitError(limits.file, `GDDL: the search for compatible joint moves passed its budget of ${budget} tests: ${describeSizes(roles)}`, { kind: 'search' });
    if (limits.deadline.tick()) throw limitError(limits.file, 'writing GDDL reached the time limit', deadlineLimit(limits.deadline));
    return held.fits(lits);
  };
  // The moves of role d left by the classes that fit the prefix, ascending; the position tried.
  const candidates = (d: number): number[] => {
    const fit = classes[d]!.filter((c) => test(c.literals));
    return fit.length === 1 ? [...fit[0]!.moves] : fit.flatMap((c) => c.moves).sort((x, y) => x - y);
  };
  const cands: number[][] = [candidates(0)];
  const pos = new Int32Array(k).fill(-1);
  const choice = new Int32Array(k).fill(-1);
  let depth = 0;
  while (depth >= 0) {
    const options = roles[depth]!.literals;
    const list = cands[depth]!;
    if (choice[depth]! >= 0) held.add(options[choice[depth]!]!, -1);
    let p = pos[depth]! + 1;
    while (p < list.length && !test(options[list[p]!]!)) p++;
    if (p >= list.length) {
      pos[depth] = -1;
      choice[depth] = -1;
      depth--;
      continue;
    }
    pos[depth] = p;
    choice[depth] = list[p]!;
    held.add(options[list[p]!]!, 1);
    if (depth < k - 1) {
      depth++;
      cands[depth] = candidates(depth);
      continue;
    }
    combos.push(choice.slice());
    if (combos.length > limits.maxActions) {
      throw limitError(limits.file, `GDDL: more than ${limits.maxActions} multi-actions (--max-actions): ${describeSizes(roles)}`, { kind: 'output' });
    }
  }
  return { combos, crossProduct: product, tests };
}
