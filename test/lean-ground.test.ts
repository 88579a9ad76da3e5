// What a run that only grounds loads (docs/corpus.md, gt15): the command line's `ground` and a
// batch worker's program (batch/worker-main.ts, which the entry worker.ts loads from its bundle or
// by a dynamic import) reach, through the imports that load at once, no module of the stages that play
// (the mutex stage, the simulators, the reasoner, verification) nor the GDDL and RDDL readers;
// those are loaded by the commands that play, or by a dynamic import when GDDL is asked for.
// Nor the GDDL model and writer, the RDDL writer or the unrolling (fred20): a dynamic import
// loads them for `--format gddl` or `--format rddl`.
// And the main thread of the command line, which only starts the command's thread and waits,
// loads no more than that needs: not io.ts with node:crypto, the diagnostics and the timer (fixed23).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { staticRuntimeSpecifiers } from './support/imports.js';

const SRC = join(resolve(dirname(fileURLToPath(import.meta.url)), '..'), 'src');

/** The modules of src/ (relative paths) that loading `entry` loads, following static imports only. */
function loadedBy(entry: string): Set<string> {
  const seen = new Set<string>([entry]);
  const todo = [entry];
  while (todo.length > 0) {
    const from = todo.pop()!;
    for (const spec of staticRuntimeSpecifiers(readFileSync(join(SRC, from), 'utf8'))) {
      if (!spec.startsWith('.')) continue;
      const to = relative(SRC, join(SRC, dirname(from), spec.replace(/\.js$/, '.ts')));
      if (!existsSync(join(SRC, to))) throw new Error(`${from} imports ${spec}, which is not in src/`);
      if (!seen.has(to)) (seen.add(to), todo.push(to));
    }
  }
  return seen;
}

/** Modules that only playing, verifying or GDDL output need. */
function playing(module: string): boolean {
  return module.startsWith('mutex/') || module.startsWith('play/') || /^formats\/(gddl|rddl)\/(read|sim)/.test(module)
    || ['pipeline/stages-play.ts', 'pipeline/formats-verify.ts', 'pipeline/recipes/play.ts', 'pipeline/recipes/gddl.ts'].includes(module);
}

/** Modules that only GDDL or RDDL output needs. */
function planner(module: string): boolean {
  return /^formats\/(gddl|rddl)\//.test(module) && module !== 'formats/gddl/options.ts'
    || ['axioms/unroll.ts', 'pipeline/formats.ts', 'pipeline/recipes/rddl.ts'].includes(module);
}

describe('a run that only grounds', () => {
  it.each(['cli/ground.ts', 'cli/program.ts', 'batch/worker-main.ts'])('%s loads none of the modules that play', (entry) => {
    const loaded = loadedBy(entry);
    expect(loaded.has('pipeline/stages.ts') || entry === 'cli/program.ts').toBe(true);
    expect([...loaded].filter(playing).sort()).toEqual([]);
  });

  it.each(['cli/ground.ts', 'cli/program.ts', 'batch/worker-main.ts'])('%s loads none of the GDDL and RDDL writers', (entry) => {
    expect([...loadedBy(entry)].filter(planner).sort()).toEqual([]);
  });

  it('the commands that play still load them', () => {
    expect([...loadedBy('cli/mutex.ts')].some((m) => m.startsWith('mutex/'))).toBe(true);
    expect([...loadedBy('pipeline/recipes/gddl.ts')].some((m) => m.startsWith('mutex/'))).toBe(true);
    expect(loadedBy('pipeline/recipes/gddl.ts').has('formats/gddl/write.ts')).toBe(true);
    expect(loadedBy('pipeline/recipes/rddl.ts').has('formats/rddl/write.ts')).toBe(true);
  });

  it("the command line's main thread loads only what starts the command's thread", () => {
    expect([...loadedBy('cli/main.ts')].sort()).toEqual(['cli/exit.ts', 'cli/main.ts', 'cli/thread.ts', 'runtime.ts']);
  });
});
