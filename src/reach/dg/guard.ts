/**
 * The guard of a dependency-graph computation: the run's deadline, the atom budget, and the
 * relation being worked on, named in every limit message.
 */
import { GdlError, type LimitInfo, deadlineLimit, diag } from '../../gdl/diagnostics.js';
import type { Pos } from '../../gdl/ast.js';
import type { ReachLimits } from '../types.js';

/** Deadline and atom budget of one computation; `what` names the relation being worked on. */
export interface Guard {
  /** Relation (or step) currently computed, named in limit messages. */
  what: string;
  /** Position named in limit messages. */
  pos: Pos;
  /** Counts one unit of work; throws a limit error when the deadline has passed. */
  tick(): void;
  /** Counts `n` new ground atoms; throws a limit error beyond `maxAtoms`. */
  addAtoms(n: number): void;
  /** Throws a limit error with `message` (about the current relation) and its limit data. */
  fail(message: string, limit: LimitInfo): never;
}

/** The file's start: where a limit message points before any rule, or in a rule the method adds. */
const START: Pos = Object.freeze({ line: 1, col: 1 });

/** Creates the guard of one computation over `file`; `method` starts its messages. */
export function createGuard(file: string, limits: ReachLimits, method = 'dependency-graph method'): Guard {
  const { deadline } = limits;
  let atoms = 0;
  const guard: Guard = {
    what: '',
    pos: START,
    tick() {
      if (deadline.tick()) guard.fail(deadline.describe(), deadlineLimit(deadline));
    },
    addAtoms(n: number) {
      atoms += n;
      if (atoms > limits.maxAtoms) guard.fail(`more than ${limits.maxAtoms} ground atoms`, { kind: 'atoms' });
    },
    fail(message: string, limit: LimitInfo): never {
      const where = guard.what === '' ? '' : ` while computing '${guard.what}'`;
      // A rule the method adds (does <= legal, true <= init) has no place in the file: the
      // message then names the file's start, as before any rule, so that it is still positioned.
      const pos = guard.pos.line > 0 ? guard.pos : START;
      throw new GdlError([diag('error', file, pos, `${method}: ${message}${where}`)], 'limit', limit);
    },
  };
  return guard;
}
