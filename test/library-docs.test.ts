// The examples of docs/library.md, run as written: every ```ts block is taken from the page,
// its imports of 'gdl-grounder' and 'gdl-grounder/node' pointed at this checkout's src/index.ts
// and src/node.ts, type-checked with the project's compiler options, and run; what each prints
// is checked, so the test fails when the page and the library part.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { runCli } from './support/cli.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The ```ts blocks of a Markdown text, in order. */
function tsBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
}

/** A block with its package imports pointed at the sources. */
function pointed(block: string): string {
  const to = (module: string): string => `'${join(ROOT, 'src', module).replace(/\\/g, '/')}'`;
  return block.replace(/'gdl-grounder\/node'/g, to('node.js')).replace(/'gdl-grounder'/g, to('index.js'));
}

/** The type errors of `files`, under the project's compiler options, as text. */
function typeErrors(files: readonly string[]): string[] {
  const config = ts.readConfigFile(join(ROOT, 'tsconfig.test.json'), ts.sys.readFile).config;
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, ROOT);
  const program = ts.createProgram(files, { ...options, noEmit: true, noUnusedLocals: true });
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file === undefined ? '' : `${d.file.fileName}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}: `;
    return where + ts.flattenDiagnosticMessageText(d.messageText, '\n');
  });
}

const DOC = readFileSync(join(ROOT, 'docs/library.md'), 'utf8');
const BLOCKS = tsBlocks(DOC);
const DIR = mkdtempSync(join(ROOT, 'test', '.library-docs-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));
const FILES = BLOCKS.map((block, i) => {
  const file = join(DIR, `example-${i + 1}.ts`);
  writeFileSync(file, pointed(block));
  return file;
});

/** Runs one example and returns what it printed with console.log, one string per call. */
async function run(i: number): Promise<string[]> {
  const lines: string[] = [];
  const spy = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void lines.push(args.map(String).join(' ')));
  try {
    await import(FILES[i]!);
  } finally {
    spy.mockRestore();
  }
  return lines;
}

/** What each example must print (a line matching each pattern), in the page's order. */
const EXPECTED: readonly (readonly RegExp[])[] = [
  [/^error at 4:1: 'goal' takes 2 arguments, not 1$/, /^warning at 3:20: /, /^broken\.kif:1:1: error: no legal moves/],
  [/^roles: xplayer oplayer$/, /^reach-dg \d+\.\d ms \{"fluents":29,"moves":20,"axioms":\d+\}$/, /^unused /],
  [/^gdl: buttons\.gdl, \d+ characters$/, /^json: buttons\.json, /, /^gdl-no-axioms: buttons-no-axioms\.gdl, /, /^gddl: domain\.gddl, /, /^gddl: partition\.gddl, /, /^rddl: buttons_mdp\.rddl, /, /^rddl: buttons_inst\.rddl, /, /^\(role robot\)$/],
  [/^29 fluents in \d+ bits, \d+ groups$/, /^\(cell /],
  [/^goals: xplayer=\d+ oplayer=\d+$/, /^\(cell 1 1 [xob]\)/, /^one playout: depth \d+, goals \d+ \d+$/, /^1000 playouts, average depth \d+\.\d\d$/],
  [/^reach-prolog done$/, /^instantiate done$/, /^tictactoe\.json$/, /^aborted: .*aborted by the caller$/],
  [/^valid: true$/, /^3 files: domain\.gddl partition\.gddl problem\.gddl$/],
];

describe('docs/library.md', () => {
  it('has the examples this test expects, each one importing the library', () => {
    expect(BLOCKS).toHaveLength(EXPECTED.length);
    for (const block of BLOCKS) expect(block).toMatch(/from 'gdl-grounder(\/node)?';/);
  });

  it('type-checks every example against the sources, and would catch a wrong one', () => {
    // One program for both (type-checking the sources takes a while): the examples, and a wrong one.
    const bad = join(DIR, 'bad.ts');
    writeFileSync(bad, pointed("import { loadGame } from 'gdl-grounder';\nconst r = loadGame(1);\nconsole.log(r.game);\n"));
    const errors = typeErrors([...FILES, bad]);
    expect(errors.filter((e) => !e.startsWith(bad))).toEqual([]);
    expect(errors.filter((e) => e.startsWith(bad)).length).toBeGreaterThanOrEqual(2);
  });

  for (const [i, patterns] of EXPECTED.entries()) {
    it(`runs example ${i + 1} and prints what it says`, async () => {
      const lines = await run(i);
      for (const p of patterns) expect(lines.some((l) => p.test(l)), `${p} in\n${lines.join('\n')}`).toBe(true);
    });
  }

  it('writes, in the emit example, the bytes `gdl-ground ground` writes', async () => {
    const { emitGame, groundGame, loadGame } = await import('../src/index.js');
    const loaded = loadGame(readFileSync(join(ROOT, 'games/buttons.kif'), 'utf8'), { file: 'buttons.kif' });
    if (!loaded.ok) throw new Error('invalid');
    const cli = runCli(['ground', 'games/buttons.kif']);
    expect(cli.code).toBe(0);
    expect(emitGame(groundGame(loaded.game), 'gdl').files[0]!.text).toBe(cli.stdout);
  });
});
