// What a run that only grounds loads (docs/corpus.md, gt15): the command line's `ground` and a
// batch worker reach, through the imports that load at once, no module of the stages that play
// (the mutex stage, the simulators, the reasoner, verification) nor the GDDL and RDDL readers;
// those are loaded by the commands that play, or by a dynamic import when GDDL is asked for.
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

describe('a run that only grounds', () => {
  it.each(['cli/ground.ts', 'cli/program.ts', 'batch/worker.ts'])('%s loads none of the modules that play', (entry) => {
    const loaded = loadedBy(entry);
    expect(loaded.has('pipeline/stages.ts') || entry === 'cli/program.ts').toBe(true);
    expect([...loaded].filter(playing).sort()).toEqual([]);
  });

  it('the commands that play still load them', () => {
    expect([...loadedBy('cli/mutex.ts')].some((m) => m.startsWith('mutex/'))).toBe(true);
    expect([...loadedBy('pipeline/recipes/gddl.ts')].some((m) => m.startsWith('mutex/'))).toBe(true);
  });
});
