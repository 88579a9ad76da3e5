// The library's main entry (package.json "."; src/index.ts) must run in a browser: no module it
// reaches through static imports may import a `node:` module or the Node-only parts (the CLI,
// the batch runner, the benchmark, src/runtime.ts). Node-only helpers belong behind a separate
// entry.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './support/cli.js';

const SRC = join(ROOT, 'src');
/** Entries whose static import graph must stay free of Node. */
const ENTRIES = ['index.ts'];
/** Folders and files of src/ that only Node may load. */
const NODE_ONLY = ['cli/', 'batch/', 'bench/', 'runtime.ts'];
/**
 * Known offenders, being made Node-free on another branch (issue 29, the browser part): remove
 * each once that branch is merged. Keys: module relative to src/.
 */
const KNOWN: readonly string[] = ['engine/tau.ts', 'formats/gddl/model.ts', 'runtime.ts'];

const IMPORT = /^\s*(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]/gm;

/** Static (non-type-only) import specifiers of a TypeScript source. */
function staticImports(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(IMPORT)) {
    if (/^\s*(?:import|export)\s+type\s/.test(m[0])) continue;
    out.push(m[1]!);
  }
  return out;
}

/** Every problem of the graph from `entries`: `module -> import` lines. */
function problems(entries: readonly string[]): string[] {
  const seen = new Set<string>();
  const queue = entries.map((e) => join(SRC, e));
  const found: string[] = [];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const rel = relative(SRC, file);
    for (const spec of staticImports(readFileSync(file, 'utf8'))) {
      if (spec.startsWith('node:')) {
        if (!KNOWN.includes(rel)) found.push(`${rel} -> ${spec}`);
        continue;
      }
      if (!spec.startsWith('.')) continue;
      const target = resolve(dirname(file), spec.replace(/\.js$/, '.ts'));
      const targetRel = relative(SRC, target);
      if (NODE_ONLY.some((p) => targetRel === p || targetRel.startsWith(p)) && !KNOWN.includes(targetRel)) found.push(`${rel} -> ${spec}`);
      if (existsSync(target)) queue.push(target);
    }
  }
  return found;
}

describe('the main entry is free of Node', () => {
  it('reads static imports and skips type-only ones', () => {
    expect(staticImports(`import { a } from './a.js';\nimport type { B } from './b.js';\nexport * from './c.js';\nimport 'node:fs';`)).toEqual(['./a.js', './c.js', 'node:fs']);
  });

  it('reaches no node: module and no CLI, batch, bench or runtime module (beyond the known ones)', () => {
    expect(problems(ENTRIES)).toEqual([]);
  });

  it('catches an offender: the CLI entry reaches node: modules', () => {
    expect(problems(['cli/main.ts']).length).toBeGreaterThan(0);
  });
});
