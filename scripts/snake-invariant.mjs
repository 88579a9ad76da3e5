// Experiment (docs/mutex.md, "snake_2009_big: the path invariant", 2026-11-28, snake18): checks that
// the square groups of a snake game ("at most one symbol per square", (cell ?x ?y ?v)) are
// 1-inductive together with a hand-written path invariant, on the SAT encoding of one transition
// the mutex stage uses (src/mutex/encode.ts). A greatest-fixpoint (Houdini) loop: every claim is
// asked with every claim still standing assumed of the current state; a claim whose violation is
// satisfiable (or undecided within 20,000 conflicts) leaves, until a round drops none.
//   node scripts/snake-invariant.mjs DIST GAME.kif        (DIST: a built dist/, e.g. ./dist)
// Lemma families left out with NO=A,B,L,E (comma separated), to see which the proof needs.
// GROUPS_FILE=FILE writes the squares' and E's groups as mutexcheck.py reads them (/work/shared/oracles).
// Not part of the library: the lemmas are written for the snake games' vocabulary.
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
const [distArg, file] = process.argv.slice(2);
const dist = resolve(distArg);
const { loadGame, resolvePipelineOptions, groundNormalGame, removeUnusedInstances } = await import(dist + '/pipeline/stages.js');
const { StageTimer } = await import(dist + '/timer.js');
const { mutexView } = await import(dist + '/mutex/view.js');
const { ruleIndex, encodeCone, atMostOne, atLeastTwo } = await import(dist + '/mutex/encode.js');
const off = new Set((process.env.NO ?? '').split(',').filter((s) => s !== ''));
const opts = resolvePipelineOptions({ timeoutSeconds: 300 });
const timer = new StageTimer();
const loaded = loadGame(readFileSync(file, 'utf8'), file, opts, timer);
const game = removeUnusedInstances(groundNormalGame(loaded.normal, opts, timer).ground, timer, opts).game;
const view = mutexView(game);
const index = ruleIndex(view);
const cpu0 = process.cpuUsage();
const cpu = () => { const u = process.cpuUsage(cpu0); return (u.user + u.system) / 1e6; };
const F = view.fluents.length;
const init = new Uint8Array(F);
for (const f of view.init) init[f] = 1;
const byText = new Map(view.fluents.map((f, i) => [f.text, i]));
// A literal: +(f + 1) "f true", -(f + 1) "f false"; undefined when the fluent is not in the game.
const T = (t) => (byText.has(t) ? byText.get(t) + 1 : undefined);
const N = (t) => (byText.has(t) ? -(byText.get(t) + 1) : undefined);
const claims = [];
// The targets: per square, at most one symbol.
const squares = new Map();
view.fluents.forEach((f, i) => f.name === 'cell' && f.args.length === 3 && (squares.get(f.args[0] + ' ' + f.args[1]) ?? squares.set(f.args[0] + ' ' + f.args[1], []).get(f.args[0] + ' ' + f.args[1])).push(i));
for (const [sq, ms] of squares) claims.push({ kind: 'amo', members: ms, name: `square ${sq}`, target: true });
for (const r of ['pos', 'tailpos']) claims.push({ kind: 'amo', members: view.fluents.flatMap((f, i) => (f.name === r ? [i] : [])), name: r });
// The torus: a square's neighbour in a direction, from the squares' column and row names.
const cols = [...new Set([...squares.keys()].map((k) => k.split(' ')[0]))].sort();
const rows = [...new Set([...squares.keys()].map((k) => k.split(' ')[1]))].sort();
const nbr = (x, y, d) => {
  const i = cols.indexOf(x), j = rows.indexOf(y), C = cols.length, R = rows.length;
  if (d === 'mov_up') return `${x} ${rows[(j + R - 1) % R]}`;
  if (d === 'mov_down') return `${x} ${rows[(j + 1) % R]}`;
  if (d === 'mov_left') return `${cols[(i + C - 1) % C]} ${y}`;
  return `${cols[(i + 1) % C]} ${y}`;
};
const DIRS = ['mov_up', 'mov_down', 'mov_left', 'mov_right'];
const OTHER = ['b', 'point', 'exit', 'wall'];
// A clause whose fluents are all in the game; a positive literal of a missing fluent is false, so it is dropped.
const clause = (family, lits) => {
  if (off.has(family) || lits[0] === undefined) return;
  const kept = lits.filter((l) => l !== undefined);
  claims.push({ kind: 'clause', lits: kept, name: family });
};
const into = new Map();
for (const sq of squares.keys()) {
  // A: head and tail on one square only when the tail does not move next.
  clause('A', [N(`(pos ${sq})`), N(`(tailpos ${sq})`), N('evenmove')]);
  // B: the tail's square holds a move symbol unless the head is on it.
  for (const s of OTHER) if (T(`(cell ${sq} ${s})`) !== undefined) clause('B', [N(`(tailpos ${sq})`), N(`(cell ${sq} ${s})`), T(`(pos ${sq})`)]);
  const [x, y] = sq.split(' ');
  for (const d of DIRS) {
    if (T(`(cell ${sq} ${d})`) === undefined) continue;
    const n = nbr(x, y, d);
    // L: a move symbol points at the head or at another move symbol.
    for (const s of OTHER) if (T(`(cell ${n} ${s})`) !== undefined) clause('L', [N(`(cell ${sq} ${d})`), N(`(cell ${n} ${s})`), T(`(pos ${n})`)]);
    (into.get(n) ?? into.set(n, []).get(n)).push(byText.get(`(cell ${sq} ${d})`));
  }
}
// E: at most one move symbol points at a square, and none at the tail's.
if (!off.has('E')) for (const [n, ms] of into) claims.push({ kind: 'amo', members: byText.has(`(tailpos ${n})`) ? [byText.get(`(tailpos ${n})`), ...ms] : ms, name: 'E' });
const holdsInitially = (c) => (c.kind === 'amo' ? c.members.filter((f) => init[f]).length <= 1 : c.lits.some((l) => (l > 0) === (init[Math.abs(l) - 1] === 1)));
const active = claims.map(holdsInitially);
let queries = 0;
// Whether the successor can violate claim i from a state satisfying every active claim (weakened to the cone).
function violable(i) {
  queries++;
  const c = claims[i];
  const fl = c.kind === 'amo' ? c.members : c.lits.map((l) => Math.abs(l) - 1);
  // A literal "f false" of a fluent no rule makes true holds in every successor.
  if (c.kind === 'clause' && c.lits.some((l) => l < 0 && view.fluents[-l - 1].nextAtom < 0)) return false;
  const enc = encodeCone(view, index, fl.map((f) => view.fluents[f].nextAtom).filter((a) => a >= 0));
  const s = enc.solver;
  const inCone = new Uint8Array(F);
  for (const f of enc.fluents) inCone[f] = 1;
  const now = (f) => enc.atom(view.fluents[f].trueAtom);
  const next = (f) => enc.atom(view.fluents[f].nextAtom);
  claims.forEach((d, k) => {
    if (!active[k]) return;
    if (d.kind === 'amo') {
      const m = d.members.filter((f) => inCone[f] === 1);
      if (m.length >= 2) atMostOne(s, m.map(now));
    } else if (d.lits.every((l) => inCone[Math.abs(l) - 1] === 1)) s.addClause(d.lits.map((l) => (l > 0 ? now(l - 1) : -now(-l - 1))));
  });
  const assumptions = [];
  if (c.kind === 'amo') assumptions.push(atLeastTwo(s, c.members.filter((f) => view.fluents[f].nextAtom >= 0).map(next)));
  else for (const l of c.lits) {
    const f = Math.abs(l) - 1;
    if (l < 0) s.addClause([next(f)]);
    else if (view.fluents[f].nextAtom >= 0) s.addClause([-next(f)]);
  }
  return s.solve(assumptions, 20000) !== 'unsat';
}
let rounds = 0;
for (let changed = true; changed; ) {
  changed = false;
  rounds++;
  for (let i = 0; i < claims.length; i++) if (active[i] && violable(i)) (active[i] = false), (changed = true);
}
const count = (p) => claims.filter((c, i) => p(c, i)).length;
const families = {};
claims.forEach((c, i) => { const k = c.target ? 'squares' : c.name; families[k] ??= [0, 0]; families[k][0]++; if (active[i]) families[k][1]++; });
console.log(JSON.stringify({
  file, off: [...off], claims: claims.length, rounds, queries, cpu: Number(cpu().toFixed(2)),
  squaresProven: count((c, i) => c.target && active[i]), squares: count((c) => c.target), families,
}));
if (process.env.GROUPS_FILE) {
  const groups = claims.filter((c) => c.kind === 'amo' && (c.target || c.name === 'E')).map((c) => ({ members: c.members.map((f) => view.fluents[f].text), exactlyOne: false }));
  writeFileSync(process.env.GROUPS_FILE, JSON.stringify({ groups }));
}
