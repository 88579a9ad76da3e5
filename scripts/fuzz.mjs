#!/usr/bin/env node
// The fuzzer (docs/testing.md, "Fuzzing"): `npm run fuzz -- --count N --seed S`. Mutates real
// games of the corpus (scripts/fuzz-mutate.mjs) and runs `check`, `reach` and `ground` by both
// methods on each mutant with small limits (scripts/fuzz-run.mjs), many mutants per child
// process (scripts/fuzz-worker.mjs, on dist/: build first). A child that dies (V8 heap abort,
// signal) or hangs is restarted; the mutant it was running is saved under --out, as is every
// mutant with a finding, so that it can be replayed with the command line. Exit 0 when nothing
// was found, 1 otherwise, 2 on bad arguments.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gamesDir, haveCorpus, listGames } from './corpus.mjs';
import { mutate, rng } from './fuzz-mutate.mjs';
import { loadLib, runMutant } from './fuzz-run.mjs';
import { startChild } from '../dist/batch/runner.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const USAGE = `usage: npm run fuzz -- [--count N] [--seed S] [--timeout SECONDS] [--max-atoms N] [--max-memory MB]
  [--start I] [--max-bytes N] [--games SUBSTRING] [--out DIR] [--json]
       npm run fuzz -- --replay DIR/mutant-S-I.kif [--timeout SECONDS] [--max-atoms N] [--max-memory MB]`;

function args() {
  const { values } = parseArgs({
    options: {
      count: { type: 'string', default: '1000' },
      start: { type: 'string', default: '0' },
      seed: { type: 'string', default: '1' },
      timeout: { type: 'string', default: '0.5' },
      'max-atoms': { type: 'string', default: '20000' },
      'max-memory': { type: 'string', default: '768' },
      'max-bytes': { type: 'string', default: '1000000' },
      games: { type: 'string', default: '' },
      out: { type: 'string', default: 'fuzz-findings' },
      json: { type: 'boolean', default: false },
      replay: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  const num = (k) => {
    const n = Number(values[k]);
    if (!Number.isFinite(n) || n <= 0) {
      process.stderr.write(`fuzz: --${k} needs a positive number, not '${values[k]}'\n${USAGE}\n`);
      process.exit(2);
    }
    return n;
  };
  return {
    replay: values.replay,
    count: num('count'),
    // Mutants start..count-1: a long run split over two processes, or resumed.
    start: values.start === '0' ? 0 : num('start'), seed: num('seed'), maxBytes: num('max-bytes'), filter: values.games, out: resolve(values.out), json: values.json,
    limits: { timeoutSeconds: num('timeout'), maxAtoms: num('max-atoms'), maxMemoryMb: num('max-memory') },
  };
}

/** The games mutated: corpus games up to `maxBytes` long (whose name contains `filter`). */
function gamePool(dir, maxBytes, filter) {
  const index = readFileSync(join(dir, 'INDEX.tsv'), 'utf8').split('\n').slice(1).filter(Boolean).map((l) => l.split('\t'));
  const size = new Map(index.map((cols) => [cols[0], Number(cols[5])]));
  return listGames(dir).filter((g) => (size.get(g) ?? 0) <= maxBytes && g.includes(filter));
}

/** Processor time (ms) a process has used, from /proc (undefined elsewhere than on Linux). */
function childCpuMs(pid) {
  try {
    // Fields 14 and 15 of /proc/PID/stat, after the command name in parentheses: utime, stime.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return undefined;
  }
}

/** A child process running mutants, with a watchdog for hangs. */
class Worker {
  constructor(onMessage, onDeath) {
    // The heap limit sits above the memory limit of the runs, as the command line sets it.
    // Started by the corpus runner's one spawn; it stays up for many mutants, so the fuzzer keeps its own watchdog.
    this.child = startChild({ args: [join(here, 'fuzz-worker.mjs')], execArgv: ['--max-old-space-size=2048'], ipc: true });
    this.stderr = '';
    this.child.stderr.on('data', (d) => {
      this.stderr = (this.stderr + d).slice(-4000);
    });
    this.child.on('message', onMessage);
    this.child.on('exit', (code, signal) => onDeath(this, code, signal));
  }
}

/** Runs one saved mutant (a .kif file from --out) in this process and prints its runs. */
async function replay(o) {
  const lib = await loadLib();
  const runs = runMutant(lib, lib.io.decodeGame(readFileSync(o.replay)), basename(o.replay), o.limits);
  process.stdout.write(`${JSON.stringify(runs, null, 2)}\n`);
  process.exitCode = runs.some((r) => r.finding !== undefined) ? 1 : 0;
}

async function main() {
  const o = args();
  if (o.replay !== undefined) return replay(o);
  const dir = gamesDir();
  if (!haveCorpus(dir)) {
    process.stderr.write(`fuzz: no corpus at ${dir}\n`);
    process.exit(2);
  }
  const pool = gamePool(dir, o.maxBytes, o.filter);
  const pick = rng(o.seed);
  // The game of every mutant is drawn in order, so mutant i is the same in any split of a run.
  const all = Array.from({ length: o.count }, (_, index) => ({ type: 'run', index, game: pool[pick.int(pool.length)], seed: o.seed, gamesDir: dir, limits: o.limits }));
  const jobs = all.slice(o.start);
  mkdirSync(o.out, { recursive: true });
  const results = [];
  const findings = [];
  // A mutant may take five runs at the limit each; past this the child counts as hung.
  const hangMs = (o.limits.timeoutSeconds * 5 + 20) * 1000;
  let next = 0;
  let current;
  let timer;
  const started = Date.now();

  const save = (job, finding) => {
    const { bytes, applied } = mutate(readFileSync(join(dir, job.game), 'utf8'), o.seed, job.index);
    const base = join(o.out, `mutant-${o.seed}-${job.index}`);
    writeFileSync(`${base}.kif`, bytes);
    writeFileSync(`${base}.json`, `${JSON.stringify({ game: job.game, seed: o.seed, index: job.index, applied, limits: o.limits, finding }, null, 2)}\n`);
    findings.push({ index: job.index, game: job.game, applied, ...finding, file: `${base}.kif` });
  };

  await new Promise((done) => {
    const send = (w) => {
      clearTimeout(timer);
      if (next >= jobs.length) {
        w.stopping = true;
        w.child.send({ type: 'stop' });
        return;
      }
      current = jobs[next++];
      w.child.send(current);
      const cpu0 = childCpuMs(w.child.pid);
      const sent = Date.now();
      const watch = () => {
        // Hung: past the budget in processor time (wall-clock time on a loaded machine says
        // little), or ten times past it in wall-clock time.
        const cpu = childCpuMs(w.child.pid);
        if (cpu === undefined || cpu0 === undefined || cpu - cpu0 > hangMs || Date.now() - sent > 10 * hangMs) {
          w.hung = true;
          w.child.kill('SIGKILL');
        } else timer = setTimeout(watch, hangMs / 4);
      };
      timer = setTimeout(watch, hangMs);
    };
    const onMessage = (w) => (m) => {
      if (m.type === 'ready') send(w);
      else if (m.type === 'done') {
        results.push(m);
        const bad = m.runs.filter((r) => r.finding !== undefined);
        if (bad.length > 0) save(current, { kind: 'run', runs: bad });
        // A summary so far, every 500 mutants, for a long run that is stopped before its end.
        if (results.length % 500 === 0) writeFileSync(join(o.out, 'summary-so-far.txt'), summarize(o, results, findings, Date.now() - started).text);
        if (!o.json && results.length % 100 === 0) process.stderr.write(`fuzz: ${results.length}/${jobs.length} mutants, ${findings.length} findings, ${Math.round((Date.now() - started) / 1000)} s\n`);
        current = undefined;
        send(w);
      }
    };
    const onDeath = (w, code, signal) => {
      clearTimeout(timer);
      if (w.stopping) return done();
      if (current !== undefined) {
        const kind = w.hung ? 'hang' : 'crash';
        save(current, { kind, code, signal, stderr: w.stderr.split('\n').slice(-12).join('\n') });
        results.push({ index: current.index, game: current.game, runs: [{ command: kind, method: '-', exit: signal ?? code, ms: 0, cpuMs: 0, finding: kind }] });
        current = undefined;
      }
      start();
    };
    const start = () => {
      const w = new Worker((m) => onMessage(w)(m), onDeath);
    };
    start();
  });
  report(o, results, findings, Date.now() - started);
  process.exitCode = findings.length === 0 ? 0 : 1;
}

/** Prints the summary of the run: as JSON with --json, else as text. */
function report(o, results, findings, ms) {
  const { summary, text } = summarize(o, results, findings, ms);
  process.stdout.write(o.json ? `${JSON.stringify(summary, null, 2)}\n` : text);
}

/** Counts of exit codes per command, the slowest runs, and the findings, as data and as text. */
function summarize(o, results, findings, ms) {
  const exits = {};
  const runs = [];
  for (const r of results) {
    for (const run of r.runs) {
      const key = run.method === '-' ? run.command : `${run.command}-${run.method}`;
      exits[key] ??= {};
      exits[key][run.exit] = (exits[key][run.exit] ?? 0) + 1;
      runs.push({ ...run, index: r.index, game: r.game });
    }
  }
  const slowest = runs.sort((a, b) => b.cpuMs - a.cpuMs || b.ms - a.ms).slice(0, 5).map((r) => ({ cpuMs: r.cpuMs, ms: r.ms, command: r.command, method: r.method, exit: r.exit, game: r.game, index: r.index }));
  const summary = { mutants: results.length, start: o.start, runs: runs.length, seed: o.seed, limits: o.limits, seconds: Math.round(ms / 1000), exits, slowest, findings };
  const lines = [`${summary.mutants} mutants (from #${o.start}), ${summary.runs} runs, seed ${o.seed}, ${summary.seconds} s`];
  for (const [k, v] of Object.entries(exits).sort()) lines.push(`  ${k.padEnd(14)} ${Object.entries(v).map(([c, n]) => `exit ${c}: ${n}`).join(', ')}`);
  lines.push('slowest runs (processor time):');
  for (const s of slowest) lines.push(`  ${s.cpuMs} ms cpu (${s.ms} ms wall)  ${s.command} ${s.method}  exit ${s.exit}  ${s.game} #${s.index}`);
  lines.push(`${findings.length} findings${findings.length > 0 ? ` (saved in ${o.out})` : ''}`);
  for (const f of findings) lines.push(`  #${f.index} ${f.game} [${f.applied.join(', ')}]: ${f.kind === 'run' ? f.runs.map((r) => `${r.command} ${r.method}: ${r.finding}${r.message ? ` (${r.message})` : ''}`).join('; ') : `${f.kind} ${f.signal ?? f.code}`}`);
  return { summary, text: `${lines.join('\n')}\n` };
}

await main();
