// The declared module graph (docs/architecture.md, "The module graph, as the test reads it"):
// every import of every module under src/ and every built module a script names is read, and
// one the graph does not allow fails, as do a declared edge nothing uses, a cycle among units,
// a cycle among modules (inside a folder too), and a module other than src/engine/tau.ts that
// imports tau-prolog.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { specifiers } from './support/imports.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SRC = join(ROOT, 'src');
const SCRIPTS = join(ROOT, 'scripts');

/** One line of the declared graph: the modules of `unit` may import their own unit and `targets`. */
interface Declared {
  readonly unit: string;
  readonly targets: readonly string[];
}

/** The declared graph: the `layering` fenced block of docs/architecture.md. */
function declaredGraph(doc: string): Declared[] {
  const block = /```layering\n([\s\S]*?)```/.exec(doc);
  if (block === null) throw new Error('docs/architecture.md has no ```layering block');
  return block[1]!.split('\n').filter((l) => l.trim() !== '').map((line) => {
    const m = /^(\S+)\s*->(.*)$/.exec(line);
    if (m === null) throw new Error(`bad line in the layering block: ${line}`);
    return { unit: m[1]!, targets: m[2]!.trim().split(/\s+/).filter((t) => t !== '') };
  });
}

const GRAPH = declaredGraph(readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8'));

function covers(entry: string, module: string): boolean {
  return entry.endsWith('/') ? module.startsWith(entry) : module === entry;
}

/** The units: the lines not nested in another line's folder (those are one file's exceptions). */
const UNITS = GRAPH.filter((d) => !GRAPH.some((o) => o !== d && o.unit.endsWith('/') && covers(o.unit, d.unit)));

/** The unit of a module (a path relative to src/, or `/`-prefixed relative to the repository). */
function unitOf(module: string): string {
  const u = UNITS.find((d) => covers(d.unit, module));
  if (u === undefined) throw new Error(`${module} belongs to no unit: declare it in docs/architecture.md`);
  return u.unit;
}

/** Whether the graph lets `from` import `to`, and by which line and target. */
function allowedBy(from: string, to: string): { line: string; target: string } | 'same' | undefined {
  const own = UNITS.find((d) => covers(d.unit, to));
  if (own !== undefined && own.unit === unitOf(from)) return 'same';
  for (const d of GRAPH) {
    if (!covers(d.unit, from)) continue;
    const target = d.targets.find((t) => covers(t, to));
    if (target !== undefined) return { line: d.unit, target };
  }
  return undefined;
}

function sourceFiles(dir: string, ext: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...sourceFiles(p, ext));
    else if (e.name.endsWith(ext)) out.push(p);
  }
  return out.sort();
}

interface Edge {
  readonly from: string;
  readonly to: string;
}

/** The imports of every module of src/ (targets relative to src/, or `/`-prefixed outside it), and the packages. */
function imports(): { edges: Edge[]; packages: Edge[] } {
  const edges: Edge[] = [];
  const packages: Edge[] = [];
  for (const file of sourceFiles(SRC, '.ts')) {
    const from = relative(SRC, file);
    for (const spec of specifiers(readFileSync(file, 'utf8'))) {
      if (!spec.startsWith('.')) {
        packages.push({ from, to: spec });
        continue;
      }
      const abs = resolve(dirname(file), spec);
      const inSrc = relative(SRC, abs);
      edges.push({ from, to: inSrc.startsWith('..') ? `/${relative(ROOT, abs)}` : inSrc.replace(/\.js$/, '.ts') });
    }
  }
  return { edges, packages };
}

/**
 * The built modules a script names: every path ending in `.js` in its text whose source is a
 * module of src/ (`dist/pipeline/stages.js`, `${dist}/index.js`, `new URL('runtime.js', dist)`),
 * as `/dist/...`. Naming is enough: a script reaches dist/ by building paths, not by `import` lines.
 */
function scriptTargets(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(/['"`/}]((?:[\w-]+\/)*[\w.-]+)\.js\b/g)) {
    const path = m[1]!.replace(/^dist\//, '');
    if (existsSync(join(SRC, `${path}.ts`))) out.add(`/dist/${path}.js`);
  }
  return [...out];
}

/** The script edges, from `/scripts/NAME.mjs`. */
function scriptEdges(): Edge[] {
  return sourceFiles(SCRIPTS, '.mjs').flatMap((file) =>
    scriptTargets(readFileSync(file, 'utf8')).map((to) => ({ from: `/${relative(ROOT, file)}`, to })));
}

/** The edges the graph does not allow, as `from -> to`. */
function undeclared(edges: readonly Edge[]): string[] {
  return edges.filter((e) => allowedBy(e.from, e.to) === undefined).map((e) => `${e.from} -> ${e.to}`);
}

/**
 * The cycles of a graph given by its edges: every strongly connected component of more than
 * one node (Tarjan's algorithm, iterative), and every node with an edge to itself.
 */
function cycles(edges: readonly Edge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const e of edges) {
    if (!next.has(e.from)) next.set(e.from, []);
    if (!next.has(e.to)) next.set(e.to, []);
    next.get(e.from)!.push(e.to);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  for (const root of next.keys()) {
    if (index.has(root)) continue;
    const work: { node: string; i: number }[] = [{ node: root, i: 0 }];
    index.set(root, index.size); low.set(root, index.get(root)!); stack.push(root); onStack.add(root);
    while (work.length > 0) {
      const top = work[work.length - 1]!;
      const succ = next.get(top.node)!;
      if (top.i < succ.length) {
        const w = succ[top.i++]!;
        if (!index.has(w)) {
          index.set(w, index.size); low.set(w, index.get(w)!); stack.push(w); onStack.add(w);
          work.push({ node: w, i: 0 });
        } else if (onStack.has(w)) low.set(top.node, Math.min(low.get(top.node)!, index.get(w)!));
        continue;
      }
      work.pop();
      if (work.length > 0) { const p = work[work.length - 1]!.node; low.set(p, Math.min(low.get(p)!, low.get(top.node)!)); }
      if (low.get(top.node) !== index.get(top.node)) continue;
      const comp: string[] = [];
      let w: string;
      do { w = stack.pop()!; onStack.delete(w); comp.push(w); } while (w !== top.node);
      if (comp.length > 1 || succ.includes(top.node)) out.push(comp.sort());
    }
  }
  return out;
}

describe('architecture: the declared module graph', () => {
  const { edges, packages } = imports();
  const scripts = scriptEdges();

  it('reads the imports of every module and the built modules the scripts name', () => {
    expect(sourceFiles(SRC, '.ts').length).toBeGreaterThan(50);
    expect(edges.length).toBeGreaterThan(150);
    expect(edges.some((e) => e.from === 'pipeline/stages.ts' && e.to === 'normalize/validate.ts')).toBe(true);
    expect(edges.some((e) => e.from.startsWith('bench/'))).toBe(true);
    expect(scripts.some((e) => e.from === '/scripts/playouts.mjs' && e.to === '/dist/pipeline/stages.js')).toBe(true);
  });

  it('puts every module in a unit', () => {
    for (const f of sourceFiles(SRC, '.ts')) expect(() => unitOf(relative(SRC, f))).not.toThrow();
  });

  it('has no import the graph does not declare (src/, src/bench/ and the scripts)', () => {
    expect(undeclared(edges)).toEqual([]);
    expect(undeclared(scripts)).toEqual([]);
  });

  it('declares no edge nothing uses, so the drawing stays the graph', () => {
    const used = new Set<string>();
    for (const e of [...edges, ...scripts]) {
      const by = allowedBy(e.from, e.to);
      if (by !== undefined && by !== 'same') used.add(`${by.line} -> ${by.target}`);
    }
    const stale = GRAPH.flatMap((d) => d.targets.map((t) => `${d.unit} -> ${t}`)).filter((e) => !used.has(e));
    expect(stale).toEqual([]);
  });

  it('declares an acyclic graph of units', () => {
    const unitEdges = GRAPH.flatMap((d) => d.targets.filter((t) => !t.startsWith('/dist/')).map((t) => ({ from: unitOf(d.unit), to: unitOf(t) })));
    expect(cycles(unitEdges)).toEqual([]);
  });

  it('has no cycle among modules, inside a folder or across folders', () => {
    expect(cycles(edges)).toEqual([]);
  });

  it('imports tau-prolog only in src/engine/tau.ts', () => {
    // `#tau-prolog` is the package too (package.json "imports": through lib/tau-prolog-node.cjs under Node).
    const tau = (to: string): boolean => to === 'tau-prolog' || to.startsWith('tau-prolog/') || to === '#tau-prolog';
    const users = [...new Set(packages.filter((p) => tau(p.to)).map((p) => p.from))];
    expect(users).toEqual(['engine/tau.ts']);
  });

  it('pins tau-prolog to the exact version installed, whose internals src/engine/ relies on', () => {
    const wanted = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).dependencies['tau-prolog'];
    const installed = JSON.parse(readFileSync(join(ROOT, 'node_modules/tau-prolog/package.json'), 'utf8')).version;
    expect(wanted).toMatch(/^\d+\.\d+\.\d+$/);
    expect(wanted).toBe(installed);
  });

  it('would catch an undeclared import, a cycle and a script reaching into dist/', () => {
    // The checks above must be able to fail: made-up imports the graph does not allow.
    const made = [
      { from: 'ground/instantiate.ts', to: 'pipeline/stages.ts' },
      { from: 'gdl/validate-arity.ts', to: 'normalize/normalize.ts' },
      { from: 'cli/ground.ts', to: 'ground/instantiate.ts' },
      { from: 'cli/ground.ts', to: 'gdl/terms.ts' },
      { from: 'bench/run.ts', to: 'reach/relaxed.ts' },
      { from: 'bench/swi.ts', to: 'reach/relaxed.ts' },
      { from: 'reach/dg/index.ts', to: '/scripts/corpus.mjs' },
    ];
    expect(undeclared(made)).toHaveLength(made.length);
    expect(undeclared([{ from: 'bench/swi.ts', to: 'pipeline/stages.ts' }, { from: 'cli/ground.ts', to: 'gdl/diagnostics.ts' }])).toEqual([]);
    expect(cycles([{ from: 'reach/a.ts', to: 'reach/b.ts' }, { from: 'reach/b.ts', to: 'reach/c.ts' }, { from: 'reach/c.ts', to: 'reach/a.ts' }])).toEqual([['reach/a.ts', 'reach/b.ts', 'reach/c.ts']]);
    expect(cycles([{ from: 'reach/a.ts', to: 'reach/b.ts' }])).toEqual([]);
    const named = scriptTargets("await import(`${dist}/ground/instantiate.js`); load('index.js'); join(root, 'dist/cli/main.js'); import('./corpus.mjs')");
    expect(named).toEqual(['/dist/ground/instantiate.js', '/dist/index.js', '/dist/cli/main.js']);
    expect(undeclared(named.map((to) => ({ from: '/scripts/x.mjs', to })))).toEqual(['/scripts/x.mjs -> /dist/ground/instantiate.js']);
    expect(specifiers("import { x } from '../pipeline.js';\nexport { y } from './a.js';\nawait import('./b.js');\nrequire('tau-prolog');")).toEqual(['../pipeline.js', './a.js', './b.js', 'tau-prolog']);
  });
});
