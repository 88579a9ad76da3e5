#!/usr/bin/env node
/**
 * Measures one rule of chess on its own, with and without rule splitting (docs/hard-games.md)
 * and the frame rewrite with move mutexes (docs/ground.md, "Frame rules"):
 * chess does not ground as a whole (its superset stage passes the atom budget), so this script
 * instantiates only the rule at LINE (default 118, the `next (cell ?x ?y ?p)` frame rule) and
 * the relations it needs, over the fluents `cell(x, y, piece)` and the geometric move superset
 * (every move a piece could make on an empty board, about the relaxed model's 7,622 moves), and
 * prints the ground rules per head relation, the time and the resident memory. Build first
 * (`npx tsc -p .`).
 *
 *   node scripts/split-chess-frame.mjs [SPLIT_ABOVE|plain] [LINE] [FRAME_ABOVE|plain]
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const D = resolve(root, 'dist');
const { loadGame, defaultPipelineOptions } = await import(`${D}/pipeline/stages.js`);
const { instantiateGame, DEFAULT_INSTANTIATE_LIMITS } = await import(`${D}/index.js`);
const { parseGdl, StageTimer } = await import(`${D}/index.js`);
const file = resolve(root, '../shared/games/ggp-repository-base/chess.kif');
const game = loadGame(readFileSync(file, 'utf8'), file, defaultPipelineOptions(), new StageTimer()).normal;
const line = Number(process.argv[3] ?? 118);
const frame = game.rules.filter((r) => r.pos.line === line);
// Relations the frame rule needs, transitively (not true/does).
const need = new Set(); const todo = frame.flatMap((r) => r.body.filter((l) => l.kind !== 'distinct').map((l) => l.atom.rel));
while (todo.length) { const r = todo.pop(); if (need.has(r) || r === 'true' || r === 'does') continue; need.add(r);
  for (const x of game.rules) if (x.head.rel === r) for (const l of x.body) if (l.kind !== 'distinct') todo.push(l.atom.rel); }
need.add('role');
const rules = [...frame, ...game.rules.filter((r) => need.has(r.head.rel))];
const X = 'abcdefgh'; const sq = []; for (const x of X) for (let y = 1; y <= 8; y++) sq.push([X.indexOf(x), y]);
const on = (x, y) => x >= 0 && x < 8 && y >= 1 && y <= 8;
const moves = new Set();
const add = (c, p, a, b, u, v) => moves.add(`(m ${c} (move ${p} ${X[a]} ${b} ${X[u]} ${v}))`);
const rays = { r: [[1,0],[-1,0],[0,1],[0,-1]], b: [[1,1],[1,-1],[-1,1],[-1,-1]] }; rays.q = [...rays.r, ...rays.b];
for (const [c, s] of [['white', 'w'], ['black', 'b']]) for (const [x, y] of sq) {
  for (const t of ['r', 'b', 'q']) for (const [dx, dy] of rays[t]) for (let k = 1; on(x + k*dx, y + k*dy); k++) add(c, s + t, x, y, x + k*dx, y + k*dy);
  for (const [dx, dy] of [[1,2],[2,1],[-1,2],[-2,1],[1,-2],[2,-1],[-1,-2],[-2,-1]]) if (on(x+dx, y+dy)) add(c, s + 'n', x, y, x+dx, y+dy);
  for (const [dx, dy] of [...rays.q]) if (on(x+dx, y+dy)) add(c, s + 'k', x, y, x+dx, y+dy);
  const f = s === 'w' ? 1 : -1;
  if (y !== 1 && y !== 8) { for (const dx of [-1, 0, 1]) if (on(x+dx, y+f)) add(c, s + 'p', x, y, x+dx, y+f);
    if (y === (s === 'w' ? 2 : 7)) add(c, s + 'p', x, y, x, y + 2*f); }
}
for (const m of ['(m white (move wk e 1 g 1))', '(m white (move wk e 1 c 1))', '(m black (move bk e 8 g 8))', '(m black (move bk e 8 c 8))']) moves.add(m);
const pieces = ['b', 'wp', 'wn', 'wb', 'wr', 'wq', 'wk', 'bp', 'bn', 'bb', 'br', 'bq', 'bk'];
const fl = []; for (const [x, y] of sq) for (const p of pieces) fl.push(`(f (cell ${X[x]} ${y} ${p}))`);
for (const x of X) for (const p of ['wp', 'bp']) fl.push(`(f (pawn_moved_two ${p} ${x}))`);
const facts = parseGdl([...fl, ...moves].join('\n'), 'sup.kif', defaultPipelineOptions().deadline).game.rules.map((r) => r.head);
const supersets = { fluents: facts.filter((a) => a.rel === 'f').map((a) => a.args[0]), moves: facts.filter((a) => a.rel === 'm').map((a) => ({ role: a.args[0], action: a.args[1] })), axioms: [] };
const splitAbove = process.argv[2] === 'plain' ? Infinity : Number(process.argv[2] ?? 4e6);
// Without a fourth argument the frame rewrite has its default threshold; `plain` turns it off.
const frameAbove = process.argv[4] === undefined ? undefined : process.argv[4] === 'plain' ? Infinity : Number(process.argv[4]);
const t0 = performance.now();
const g = instantiateGame({ file, rules }, supersets, { ...DEFAULT_INSTANTIATE_LIMITS, maxRules: 20_000_000, maxLiterals: 200_000_000, splitAbove, ...(frameAbove === undefined ? {} : { frameAbove }) });
const byHead = new Map();
for (const r of g.rules) { const a = g.atoms[r.head]; const k = g.terms.symbolName(a.rel); byHead.set(k, (byHead.get(k) ?? 0) + 1); }
console.log(`moves ${supersets.moves.length} fluents ${supersets.fluents.length} split-above ${splitAbove} frame-above ${frameAbove ?? 'default'}: ${g.rules.length} ground rules`, Object.fromEntries(byHead), `${Math.round(performance.now() - t0)} ms, rss ${Math.round(process.memoryUsage().rss / 1e6)} MB`);
