// What this tests: a limit met inside a rule the dependency-graph method adds itself (does <= legal,
// which has no place in the file) is still reported with a line and column (the file's start), as
// every limit message must be; racer --method dg --timeout 1 met it in 'does/2' on a loaded machine.
import { describe, expect, it } from 'vitest';
import { NO_POS } from '../src/gdl/ast.js';
import { Deadline } from '../src/deadline.js';
import { createGuard } from '../src/reach/dg/guard.js';

describe('the dependency-graph guard', () => {
  it('names the file start for a limit met in a rule without a position', () => {
    const guard = createGuard('g.kif', { deadline: new Deadline(0), maxAtoms: 10 });
    guard.what = 'does/2';
    guard.pos = NO_POS;
    expect(() => guard.fail('time limit reached', { kind: 'time' })).toThrow(/^g\.kif:1:1: error: dependency-graph method: time limit reached while computing 'does\/2'$/);
  });

  it('names the rule\'s own position otherwise', () => {
    const guard = createGuard('g.kif', { deadline: Deadline.never(), maxAtoms: 1 });
    guard.what = 'cell/3';
    guard.pos = { line: 7, col: 3 };
    expect(() => guard.addAtoms(2)).toThrow(/^g\.kif:7:3: error: dependency-graph method: more than 1 ground atoms while computing 'cell\/3'$/);
  });
});
