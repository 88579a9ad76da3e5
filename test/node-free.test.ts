// The library's main entry runs in browsers (issue 29): no module that src/index.ts reaches
// through static imports and re-exports may import a `node:` module or a bare Node built-in.
// The command line, the batch and the benchmarks sit behind their own entries and may; the core
// may not import them (nor src/runtime.ts) either.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runtimeSpecifiers } from './support/imports.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SRC = join(ROOT, 'src');

/** Folders and files of src/ that only Node may load. */
const NODE_ONLY = ['cli/', 'batch/', 'bench/', 'runtime.ts', 'node.ts'];

/** Whether a specifier names a Node built-in (`node:fs`, or `fs` as Node also accepts). */
function isNodeBuiltin(spec: string): boolean {
  return spec.startsWith('node:') || builtinModules.includes(spec.split('/')[0]!);
}

/** Every `node:` or built-in import reachable from `entries` (paths relative to src/), as `module: specifier`. */
function nodeImportsFrom(...entries: string[]): { reached: number; offending: string[] } {
  const seen = new Set<string>(entries);
  const work = [...entries];
  const offending: string[] = [];
  while (work.length > 0) {
    const file = work.pop()!;
    for (const spec of runtimeSpecifiers(readFileSync(join(SRC, file), 'utf8'))) {
      if (isNodeBuiltin(spec)) offending.push(`${file}: ${spec}`);
      if (!spec.startsWith('.')) continue;
      const next = relative(SRC, resolve(dirname(join(SRC, file)), spec)).replace(/\.js$/, '.ts');
      if (NODE_ONLY.some((p) => next === p || next.startsWith(p))) offending.push(`${file}: ${spec}`);
      if (!seen.has(next) && existsSync(join(SRC, next))) {
        seen.add(next);
        work.push(next);
      }
    }
  }
  return { reached: seen.size, offending: offending.sort() };
}

describe('the library core imports nothing from node:', () => {
  it('no module reached from src/index.ts imports a Node built-in', () => {
    const { reached, offending } = nodeImportsFrom('index.ts');
    expect(reached).toBeGreaterThan(50);
    expect(offending).toEqual([]);
  });

  it('no module of src/api/ (the API, reached from the index or not) reaches a Node built-in', () => {
    const api = readdirSync(join(SRC, 'api')).filter((f) => f.endsWith('.ts')).map((f) => `api/${f}`);
    expect(api.length).toBeGreaterThanOrEqual(5);
    expect(nodeImportsFrom(...api).offending).toEqual([]);
  });

  it('the walk finds the node: imports of the ./node entry (src/node.ts)', () => {
    expect(nodeImportsFrom('node.ts').offending).toEqual(expect.arrayContaining(['node.ts: node:fs', 'node.ts: ./cli/io.js']));
  });

  it('the walk finds a node: import where there is one (the command line)', () => {
    expect(nodeImportsFrom('cli/main.ts').offending.length).toBeGreaterThan(0);
  });

  it('the walk finds an import of a Node-only part of src/ (the benchmark imports the batch runner)', () => {
    expect(nodeImportsFrom('bench/scale.ts').offending).toContain("bench/scale.ts: ../batch/runner.js");
  });
});
