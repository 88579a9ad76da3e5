// Arrows only point back (docs/architecture.md): every import of every module under src/ is
// read, and one that points to a later stage fails, as does a command-line module that goes
// round the pipeline, or a module other than src/engine/tau.ts that imports tau-prolog.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SRC = join(ROOT, 'src');

/**
 * The stages, earliest first: a module may import its own stage and earlier ones only. Each
 * entry is a folder under src/ (ending in '/') or one file. The utilities come first because
 * every stage may take a deadline or a timer; the Datalog core stands on the AST of gdl/.
 */
const STAGES: readonly (readonly string[])[] = [
  ['deadline.ts', 'timer.ts', 'runtime.ts'],
  ['gdl/'],
  ['datalog/'],
  ['engine/'],
  ['normalize/'],
  ['reach/'],
  ['ground/'],
  ['mutex/'],
  ['axioms/'],
  ['play/'],
  ['formats/'],
  ['pipeline/options.ts', 'pipeline/context.ts'],
  ['pipeline/stages.ts'],
  ['pipeline/compare.ts', 'pipeline/formats.ts'],
  ['pipeline/recipes/'],
  ['batch/'],
  ['bench/'],
  ['cli/'],
  ['index.ts'],
];

/** What a command-line module may import: the pipeline and what sits beside or above it. */
const CLI_MAY_IMPORT: readonly string[] = ['cli/', 'pipeline/', 'batch/', 'timer.ts', 'deadline.ts', 'runtime.ts', 'gdl/diagnostics.ts'];

/** Files outside src/ that src/ may import. */
const OUTSIDE_ALLOWED: readonly string[] = ['scripts/corpus.mjs'];

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...sourceFiles(p));
    else if (e.name.endsWith('.ts')) out.push(p);
  }
  return out.sort();
}

/** Every module specifier of a source file: static imports, re-exports and dynamic imports. */
function specifiers(text: string): string[] {
  const out: string[] = [];
  const patterns = [
    /^\s*(?:import|export)\s[^'";]*?from\s*'([^']+)'/gm,
    /^\s*import\s*'([^']+)'/gm,
    /\bimport\(\s*'([^']+)'\s*\)/g,
    // tau-prolog is CommonJS and is loaded with require().
    /\brequire\(\s*'([^']+)'\s*\)/g,
  ];
  for (const re of patterns) for (const m of text.matchAll(re)) out.push(m[1]!);
  return out;
}

/** Index in {@link STAGES} of a module given relative to src/ (`reach/dg/graph.ts`). */
function stageOf(module: string): number {
  const i = STAGES.findIndex((entries) => entries.some((e) => (e.endsWith('/') ? module.startsWith(e) : module === e)));
  if (i < 0) throw new Error(`src/${module} belongs to no stage: add it to STAGES in test/architecture.test.ts`);
  return i;
}

function inside(module: string, entries: readonly string[]): boolean {
  return entries.some((e) => (e.endsWith('/') ? module.startsWith(e) : module === e));
}

interface Edge {
  readonly from: string;
  readonly to: string;
}

/** The internal imports of every module (paths relative to src/, `.js` read as `.ts`), and the packages. */
function imports(): { edges: Edge[]; packages: Edge[]; outside: Edge[] } {
  const edges: Edge[] = [];
  const packages: Edge[] = [];
  const outside: Edge[] = [];
  for (const file of sourceFiles(SRC)) {
    const from = relative(SRC, file);
    for (const spec of specifiers(readFileSync(file, 'utf8'))) {
      if (!spec.startsWith('.')) {
        packages.push({ from, to: spec });
        continue;
      }
      const target = relative(SRC, resolve(dirname(file), spec)).replace(/\.js$/, '.ts');
      if (target.startsWith('..')) outside.push({ from, to: relative(ROOT, resolve(dirname(file), spec)) });
      else edges.push({ from, to: target });
    }
  }
  return { edges, packages, outside };
}

/** The edges that point to a later stage, as `from -> to`. */
function forwardArrows(edges: readonly Edge[]): string[] {
  return edges.filter((e) => stageOf(e.to) > stageOf(e.from)).map((e) => `${e.from} -> ${e.to}`);
}

describe('architecture: arrows only point back', () => {
  const { edges, packages, outside } = imports();

  it('reads the imports of every module', () => {
    expect(sourceFiles(SRC).length).toBeGreaterThan(50);
    expect(edges.length).toBeGreaterThan(150);
    expect(edges.some((e) => e.from === 'pipeline/stages.ts' && e.to === 'normalize/validate.ts')).toBe(true);
  });

  it('puts every module in a stage', () => {
    for (const f of sourceFiles(SRC)) expect(() => stageOf(relative(SRC, f))).not.toThrow();
  });

  it('has no import of a later stage', () => {
    expect(forwardArrows(edges)).toEqual([]);
  });

  it('keeps validation of written rules free of normal form, and the stages free of pipeline and CLI', () => {
    const bad = edges.filter((e) =>
      (e.from.startsWith('gdl/') && e.to.startsWith('normalize/'))
      || (/^(reach|ground|play)\//.test(e.from) && (e.to.startsWith('pipeline/') || e.to.startsWith('cli/'))));
    expect(bad).toEqual([]);
  });

  it('lets the command line reach the library only through the pipeline', () => {
    const bad = edges.filter((e) => e.from.startsWith('cli/') && !inside(e.to, CLI_MAY_IMPORT)).map((e) => `${e.from} -> ${e.to}`);
    expect(bad).toEqual([]);
  });

  it('imports tau-prolog only in src/engine/tau.ts', () => {
    const users = [...new Set(packages.filter((p) => p.to === 'tau-prolog' || p.to.startsWith('tau-prolog/')).map((p) => p.from))];
    expect(users).toEqual(['engine/tau.ts']);
  });

  it('pins tau-prolog to the exact version installed, whose internals src/engine/ relies on', () => {
    const wanted = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).dependencies['tau-prolog'];
    const installed = JSON.parse(readFileSync(join(ROOT, 'node_modules/tau-prolog/package.json'), 'utf8')).version;
    expect(wanted).toMatch(/^\d+\.\d+\.\d+$/);
    expect(wanted).toBe(installed);
  });

  it('imports nothing outside src/ but the corpus listing', () => {
    expect(outside.filter((e) => !OUTSIDE_ALLOWED.includes(e.to))).toEqual([]);
  });

  it('would catch a forward arrow', () => {
    // The checks above must be able to fail: made-up imports of later stages.
    const made = [{ from: 'ground/instantiate.ts', to: 'pipeline/stages.ts' }, { from: 'gdl/validate-arity.ts', to: 'normalize/normalize.ts' }, { from: 'reach/dg/index.ts', to: 'cli/io.ts' }];
    expect(forwardArrows(made)).toHaveLength(3);
    expect(specifiers("import { x } from '../pipeline.js';\nexport { y } from './a.js';\nawait import('./b.js');\nrequire('tau-prolog');")).toEqual(['../pipeline.js', './a.js', './b.js', 'tau-prolog']);
  });
});
