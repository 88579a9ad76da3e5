// `npm run bench -- --mutex`: the mutex column measures a game whose eager grounding stops at a
// limit that lazy axioms answer the way `gdl-ground mutex GAME --lazy-axioms` grounds it, says so
// in its row, and leaves the eager attempt out of T and of the stage's time (issue 28, lazy30).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { measureMutex, mutexCells, mutexHeaders } from '../src/bench/mutex-column.js';
import { relationLimitError } from '../src/gdl/diagnostics.js';
import { mutexRecipe, runContext } from '../src/pipeline/recipes/index.js';
import { DEFAULT_MUTEX_SETTINGS, lazyWouldAnswer, loadGame, resolvePipelineOptions } from '../src/pipeline/stages.js';
import { StageTimer } from '../src/timer.js';
import { EXAMPLES_DIR } from './examples.js';

const FILE = 'lazy-board.kif';
const TEXT = readFileSync(join(EXAMPLES_DIR, FILE), 'utf8');
// Without lazy axioms the superset stage passes this many atoms ('reach'); with them it grounds.
const FEW_ATOMS = 200;

const load = () => loadGame(TEXT, FILE, resolvePipelineOptions({ timeoutSeconds: 60 }), new StageTimer());

/** What `gdl-ground mutex FILE --lazy-axioms --max-atoms N` finds: its recipe on its own options. */
function commandLine(maxAtoms: number): { fluents: number; bits: number } {
  const options = resolvePipelineOptions({ timeoutSeconds: 60, maxReachAtoms: maxAtoms, lazyAxioms: true });
  const ctx = runContext(FILE, options, new StageTimer());
  const r = mutexRecipe(ctx, loadGame(TEXT, FILE, options, ctx.timer), DEFAULT_MUTEX_SETTINGS).mutex;
  return { fluents: r.fluents, bits: r.bits };
}

describe('bench --mutex: the column falls back on lazy axioms', () => {
  it('measures a game whose eager grounding stops at an atom limit with lazy axioms, as the command line grounds it', () => {
    const m = measureMutex(load(), 60, FEW_ATOMS);
    expect(m.status).toBe('ok');
    expect(m.mode).toBe('lazy');
    expect({ fluents: m.fluents, bits: m.bits }).toEqual(commandLine(FEW_ATOMS));
    // The eager attempt is reported apart, not in T or the stage's time.
    expect(m.eagerCpu).toBeGreaterThan(0);
    expect(m.eagerSeconds).toBeGreaterThan(0);
    expect(m.groundCpu).toBeGreaterThan(0);
    expect(m.cpu).toBeGreaterThan(0);
    const cells = mutexCells(m);
    expect(cells).toHaveLength(mutexHeaders().length);
    expect(cells[cells.length - 1]).toMatch(/^lazy \(eager stopped: [0-9.]+ cpu-s\)$/);
  });

  it('keeps the eager grounding of a game that grounds without lazy axioms', () => {
    const m = measureMutex(load(), 60, 2_000_000);
    expect(m.status).toBe('ok');
    expect(m.mode).toBe('eager');
    expect(m.eagerCpu).toBeUndefined();
    expect(mutexCells(m).at(-1)).toBe('eager');
    expect(mutexCells(undefined)).toHaveLength(mutexHeaders().length);
  });

  it('reports the lazy grounding that stops too, in its mode', () => {
    // At 20 atoms lazy axioms would leave 'count' non-ground, and the grounding with them stops as well.
    const m = measureMutex(load(), 60, 20);
    expect(m.status).toBe('limit');
    expect(m.mode).toBe('lazy');
    const cells = mutexCells(m);
    expect(cells[0]).toBe('limit');
    expect(cells).toHaveLength(mutexHeaders().length);
  });

  it('falls back only after a limit that lazy axioms answer: not the clock, the heap or an abort', () => {
    const normal = load().normal;
    const at = { line: 23, col: 1 };
    expect(lazyWouldAnswer(normal, relationLimitError(FILE, at, 'reach', 'too many atoms', { kind: 'atoms' }))).toBe(true);
    for (const kind of ['time', 'memory', 'aborted'] as const) {
      expect(lazyWouldAnswer(normal, relationLimitError(FILE, at, 'reach', 'stopped', { kind }))).toBe(false);
    }
    // A limit on a keyword's own atoms names nothing lazy axioms could leave non-ground.
    expect(lazyWouldAnswer(normal, relationLimitError(FILE, at, 'does', 'too many atoms', { kind: 'atoms' }))).toBe(false);
    expect(lazyWouldAnswer(normal, new Error('not a limit'))).toBe(false);
  });
});
