// Builds the playground into web/dist/ (gitignored): the page's script and the worker's, each
// one esbuild bundle for browsers, the HTML and CSS, and games.json, the games of games/.
import { mkdirSync, readdirSync, readFileSync, copyFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const WEB = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(WEB, '..');

/** The example games bundled with the page: file name to text, in name order. */
function bundledGames() {
  const dir = join(ROOT, 'games');
  const games = {};
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.kif')).sort()) games[name] = readFileSync(join(dir, name), 'utf8');
  return games;
}

/** Builds the playground into `out` (default web/dist) and returns that folder. */
export async function buildPlayground(out = join(WEB, 'dist')) {
  mkdirSync(out, { recursive: true });
  const common = { bundle: true, platform: 'browser', format: 'esm', target: 'es2022', sourcemap: true, logLevel: 'warning', legalComments: 'none' };
  await build({ ...common, entryPoints: [join(WEB, 'src/main.ts')], outfile: join(out, 'main.js') });
  await build({
    ...common,
    entryPoints: [join(WEB, 'src/worker.ts')],
    outfile: join(out, 'worker.js'),
    // Tau-Prolog looks for `window`, which a worker lacks.
    inject: [join(WEB, 'src/shim.ts')],
    // Tau-Prolog requires these only in its Node file system and console, which the grounder never uses.
    external: ['fs', 'path', 'readline-sync'],
  });
  for (const f of ['index.html', 'style.css']) copyFileSync(join(WEB, f), join(out, f));
  writeFileSync(join(out, 'games.json'), JSON.stringify(bundledGames()));
  return out;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = await buildPlayground(process.argv[2]);
  console.log(`playground built in ${out}`);
}
