/**
 * The SWI-Prolog baseline of the benchmark: the relaxed game as a plain Prolog program, run by
 * prolog/alg92-swi.pl (Algorithm 9.2 without any of this project's optimizations). Used only
 * by `npm run bench -- --swi`, when `swipl` is installed; nothing else needs SWI-Prolog.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KEYWORDS } from '../gdl/ast.js';
import { quoteAtom } from '../engine/tau.js';
import type { NormalGame } from '../normalize/types.js';
import { renderTerm } from '../reach/clauses.js';
import { type RelationKey, keyOf, planRelaxedGame, relationKeyText } from '../reach/relaxed.js';

const DRIVER = fileURLToPath(new URL('../../prolog/alg92-swi.pl', import.meta.url));

/** What the SWI-Prolog run reported, or why it did not finish. */
export type SwiOutcome =
  | { readonly kind: 'ok'; readonly seconds: number; readonly fluents: number; readonly moves: number; readonly axioms: number; readonly iterations: number }
  | { readonly kind: 'timeout' | 'error'; readonly seconds: number; readonly message: string };

/** True when `swipl` can be run. */
export function haveSwipl(): boolean {
  const r = spawnSync('swipl', ['--version'], { encoding: 'utf8' });
  return r.status === 0;
}

const rel = (name: string): string => quoteAtom(`r:${name}`);

/** The relaxed game as SWI-Prolog text: relations renamed `r:NAME`, recursive ones tabled. */
function swiProgram(game: NormalGame): { text: string; axioms: string } {
  const plan = planRelaxedGame(game);
  const lines: string[] = [':- style_check(-singleton).', ':- style_check(-discontiguous).'];
  const defined = new Set<string>();
  for (const comp of plan.components) {
    for (const r of comp.rules) defined.add(keyOf(r.head));
    if (!comp.recursive) continue;
    for (const k of comp.relations) {
      // The plan keeps each relation's name and arity beside its key: read, never split.
      const { rel: name, arity } = plan.relations.get(k)!;
      if (name !== 'true' && name !== 'does') lines.push(`:- table ${rel(name)}/${arity}.`);
    }
  }
  // Relations without rules (and the driver's init, legal, next when the game has none) must
  // fail quietly instead of raising existence errors.
  const all: RelationKey[] = [...plan.relations.values(), { rel: 'init', arity: 1 }, { rel: 'legal', arity: 2 }, { rel: 'next', arity: 1 }];
  const keys = new Map(all.map((r) => [relationKeyText(r), r] as const));
  for (const [k, { rel: name, arity }] of keys) {
    if (!defined.has(k) && name !== 'true' && name !== 'does') lines.push(`:- dynamic(${rel(name)}/${arity}).`);
  }
  for (const comp of plan.components) {
    for (const r of comp.rules) {
      const vars = new Map<string, string>();
      const call = (name: string, args: string[]): string => (args.length === 0 ? rel(name) : `${rel(name)}(${args.join(',')})`);
      const head = call(r.head.rel, r.head.args.map((a) => renderTerm(a, vars)));
      const body = r.body.map((l) =>
        l.kind === 'pos'
          ? call(l.atom.rel, l.atom.args.map((a) => renderTerm(a, vars)))
          : `${renderTerm(l.left, vars)} \\== ${renderTerm(l.right, vars)}`,
      );
      lines.push(body.length === 0 ? `${head}.` : `${head} :- ${body.join(', ')}.`);
    }
  }
  const axioms = [...plan.relations.values()].filter((r) => !KEYWORDS.has(r.rel)).map((r) => `${rel(r.rel)}/${r.arity}`);
  return { text: `${lines.join('\n')}\n`, axioms: `[${axioms.join(',')}]` };
}

/** Runs Algorithm 9.2 in SWI-Prolog on the game, with a time limit in seconds. */
export function runSwi(game: NormalGame, timeoutSeconds: number): SwiOutcome {
  const dir = mkdtempSync(join(tmpdir(), 'gdl-bench-'));
  try {
    const { text, axioms } = swiProgram(game);
    const file = join(dir, 'game.pl');
    writeFileSync(file, text);
    // Timed inside SWI-Prolog, from loading the game to the answer, as the worker times Tau.
    const goal = `get_time(T0), consult('${DRIVER}'), consult('${file}'), alg92(${axioms}), get_time(T1), S is T1 - T0, format("seconds ~6f~n", [S]), halt`;
    const start = performance.now();
    const r = spawnSync('swipl', ['-q', '--stack-limit=2g', '-g', goal, '-t', 'halt(1)'], {
      encoding: 'utf8',
      timeout: timeoutSeconds * 1000,
      maxBuffer: 1 << 20,
    });
    const wall = (performance.now() - start) / 1000;
    if (r.error !== undefined && (r.error as NodeJS.ErrnoException).code === 'ETIMEDOUT') {
      return { kind: 'timeout', seconds: wall, message: `no answer within ${timeoutSeconds} s` };
    }
    const m = /fluents (\d+) moves (\d+) axioms (\d+) iterations (\d+)\nseconds ([\d.]+)/.exec(r.stdout ?? '');
    if (r.status !== 0 || m === null) {
      return { kind: 'error', seconds: wall, message: (r.stderr ?? '').split('\n').slice(0, 3).join(' ').slice(0, 200) || `exit ${r.status}` };
    }
    return { kind: 'ok', seconds: Number(m[5]), fluents: Number(m[1]), moves: Number(m[2]), axioms: Number(m[3]), iterations: Number(m[4]) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
