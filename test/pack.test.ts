// The published package: `npm pack` of this checkout installs into a fresh folder, without the
// network, its `gdl-ground` runs, and a program there imports `gdl-grounder` and `gdl-grounder/node`. The dependencies are packed from node_modules, so the test
// needs neither the registry nor npm's cache. It needs npm; without npm it is skipped with a
// message saying so (and fails under CI=true, where npm is always there).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, ensureBuilt } from './support/cli.js';

const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const HAVE_NPM = spawnSync(NPM, ['--version'], { encoding: 'utf8' }).status === 0;

/** Runs npm in `cwd`; throws with its output when it fails. */
function npm(args: readonly string[], cwd: string): string {
  const r = spawnSync(NPM, [...args], { cwd, encoding: 'utf8', env: { ...process.env, npm_config_update_notifier: 'false' } });
  if (r.status !== 0) throw new Error(`npm ${args.join(' ')} failed (exit ${r.status}):\n${r.stdout}${r.stderr}`);
  return r.stdout;
}

interface Manifest {
  readonly name: string;
  readonly dependencies?: Record<string, string>;
}

function manifest(dir: string): Manifest {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;
}

/** The folders in node_modules of the package's run-time dependencies, transitive ones included. */
function runtimeDependencies(): string[] {
  const seen = new Set<string>();
  const todo = Object.keys(manifest(ROOT).dependencies ?? {});
  while (todo.length > 0) {
    const name = todo.pop()!;
    if (seen.has(name)) continue;
    seen.add(name);
    todo.push(...Object.keys(manifest(join(ROOT, 'node_modules', name)).dependencies ?? {}));
  }
  return [...seen].sort().map((name) => join(ROOT, 'node_modules', name));
}

/**
 * A small program of a fresh project: the main entry (diagnostics of an invalid game, a simulator)
 * and `gdl-grounder/node` (a game file ground), writing the GDL that `gdl-ground ground` writes.
 */
const LIBRARY_EXAMPLE = `
import { createSimulator, emitGame, loadGame } from 'gdl-grounder';
import { groundFile } from 'gdl-grounder/node';
const bad = loadGame('(role', { file: 'bad.kif' });
console.log(\`invalid: \${bad.diagnostics[0].line}:\${bad.diagnostics[0].col} \${bad.ok ? 'ok' : bad.diagnostics[0].severity}\`);
const grounding = groundFile(process.argv[2]);
const sim = createSimulator(grounding);
console.log(\`roles: \${sim.roles.join(' ')}\`);
console.log(\`legal: \${sim.legalMoves(sim.initialState(), 0).length}\`);
process.stdout.write(emitGame(grounding, 'gdl').files[0].text);
`;

const work: string[] = [];
afterAll(() => {
  for (const dir of work) rmSync(dir, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  work.push(dir);
  return dir;
}

describe('npm pack', () => {
  if (!HAVE_NPM && process.env.CI === 'true') {
    it('needs npm under CI', () => {
      expect.fail('npm is not on PATH: the package test cannot run');
    });
  }

  it.skipIf(!HAVE_NPM)(`installs into a fresh folder, runs gdl-ground check and imports both library entries${HAVE_NPM ? '' : ' (SKIPPED: npm is not on PATH)'}`, () => {
    ensureBuilt();
    const packs = tempDir('gdl-pack-');
    // --ignore-scripts: `prepare` would build again; ensureBuilt has just made dist/ current.
    npm(['pack', '--ignore-scripts', '--pack-destination', packs, ROOT, ...runtimeDependencies()], ROOT);
    const tarballs = readdirSync(packs).filter((f) => f.endsWith('.tgz')).map((f) => join(packs, f));
    const own = tarballs.find((f) => /gdl-grounder-[^/]*\.tgz$/.test(f));
    expect(own, 'npm pack wrote no gdl-grounder tarball').toBeDefined();
    const listing = spawnSync('tar', ['tzf', own!], { encoding: 'utf8' }).stdout.split('\n');
    expect(listing).toContain('package/LICENSE');
    expect(listing).toContain('package/dist/cli/main.js');
    expect(listing.filter((f) => f.endsWith('.map'))).toEqual([]);

    const app = tempDir('gdl-install-');
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'fresh', version: '1.0.0', private: true }));
    npm(['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', ...tarballs], app);
    const r = spawnSync(NPM, ['exec', '--offline', '--no', '--', 'gdl-ground', 'check', join(ROOT, 'games/tictactoe.kif')], { cwd: app, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/tictactoe\.kif: valid GDL\nroles: xplayer oplayer\n/);

    // The library from the installed package, both entries, as a new project imports them.
    writeFileSync(join(app, 'example.mjs'), LIBRARY_EXAMPLE);
    const lib = spawnSync(process.execPath, ['example.mjs', join(ROOT, 'games/tictactoe.kif')], { cwd: app, encoding: 'utf8' });
    expect(lib.stderr).toBe('');
    expect(lib.status).toBe(0);
    const cli = spawnSync(NPM, ['exec', '--offline', '--no', '--', 'gdl-ground', 'ground', join(ROOT, 'games/tictactoe.kif')], { cwd: app, encoding: 'utf8' });
    expect(lib.stdout).toBe(`invalid: 1:1 error\nroles: xplayer oplayer\nlegal: 9\n${cli.stdout}`);
  }, 300_000);
});
