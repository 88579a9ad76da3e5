// One mutant through `check`, `reach` and `ground` (both methods), as the command line runs
// them, each run with its own small limits; every outcome is classified the way `runCommand`
// (src/cli/io.ts) turns it into an exit code, and held to the standard: exit 0-3, a
// positioned message for 1, a message naming the limit for 3, no run past its limit.

/** The library as the fuzzer runs it: the built pipeline (dist/), with the command line's V8 settings. */
export async function loadLib() {
  const dist = new URL('../dist/', import.meta.url);
  const lib = {
    pipeline: await import(new URL('pipeline/stages.js', dist).href),
    io: await import(new URL('cli/io.js', dist).href),
    diagnostics: await import(new URL('index.js', dist).href),
    runtime: await import(new URL('runtime.js', dist).href),
    timer: await import(new URL('timer.js', dist).href),
  };
  lib.runtime.tuneProcess();
  return lib;
}

/**
 * Milliseconds of processor time a run may take past its time limit before it counts as an
 * overrun. Processor time, not wall-clock time: on a shared machine a run's wall-clock time
 * grows with the load, while the work it does past its deadline (how often it looks at the
 * clock) does not. `check` has no time limit, so it is never late.
 */
export const GRACE_MS = 1000;

/** The overrun finding of a run that took `cpuMs` of processor time, if it is one. */
function overrun(command, cpuMs, limits) {
  if (command === 'check' || cpuMs <= limits.timeoutSeconds * 1000 + GRACE_MS) return undefined;
  return `ran ${Math.round(cpuMs)} ms of processor time, past its ${limits.timeoutSeconds} s limit`;
}

/**
 * The outcome of one run: exit code as the CLI would set it, time, first message line, and a
 * finding (a defect) when the outcome breaks the standard.
 */
export function classify(lib, command, method, ms, err, file, limits, cpuMs = 0) {
  const base = { command, method, ms: Math.round(ms), cpuMs: Math.round(cpuMs) };
  const late = overrun(command, cpuMs, limits);
  if (err === undefined) return { ...base, exit: 0, ...(late ? { finding: late } : {}) };
  if (err instanceof lib.diagnostics.GdlError) {
    const exit = err.code === 'limit' ? 3 : 1;
    const d = err.diagnostics[0];
    const message = d === undefined ? '(no message)' : lib.diagnostics.formatDiagnostic(d);
    const finding = late ?? badMessage(err, exit, file);
    return { ...base, exit, message, ...(finding === undefined ? {} : { finding }) };
  }
  if (err instanceof lib.io.UsageError) return { ...base, exit: 2, message: err.message, finding: 'usage error from a game' };
  const e = err instanceof Error ? err : new Error(String(err));
  return { ...base, exit: 70, message: `${e.name}: ${e.message}`.slice(0, 300), stack: (e.stack ?? '').split('\n').slice(0, 8).join('\n'), finding: 'internal error' };
}

/** What is wrong with the messages (or, for a limit, the limit data) of an exit-1 or exit-3 outcome, if anything. */
function badMessage(err, exit, file) {
  const diagnostics = err.diagnostics;
  if (diagnostics.length === 0) return 'no message';
  for (const d of diagnostics) {
    if (d.file !== file) return `message names '${d.file}', not the file`;
    if (exit === 1 && d.severity === 'error' && !(d.line >= 1 && d.col >= 1)) return 'invalid-input message without a position';
  }
  // Which limit is data (GdlError.limit), set where the error is made; its words are not read.
  if (exit === 3 && err.limit === undefined) return 'limit error without its limit data';
  return undefined;
}

function timed(lib, command, method, file, limits, body) {
  const start = performance.now();
  const cpu = process.cpuUsage();
  let err;
  let value;
  try {
    value = body();
  } catch (e) {
    err = e;
  }
  const used = process.cpuUsage(cpu);
  return { outcome: classify(lib, command, method, performance.now() - start, err, file, limits, (used.user + used.system) / 1000), value };
}

/** The options of one run: its own deadline, counted from now, and the small limits. */
function options(lib, method, limits) {
  return lib.pipeline.resolvePipelineOptions({
    method,
    timeoutSeconds: limits.timeoutSeconds,
    maxMemoryMb: limits.maxMemoryMb,
    maxReachAtoms: limits.maxAtoms,
    maxGroundAtoms: limits.maxAtoms,
    maxGroundRules: limits.maxAtoms,
  });
}

/**
 * Runs `check`, then `reach` and `ground` by each method, on `text` named `file`. The work the
 * commands share is done once: `reach` and `ground` load the game as `check` did, and `ground`
 * starts with what `reach` computes (by the dependency-graph method `reach` ends with the
 * instantiation and pruning that `ground` does), under the one deadline of the command; a
 * `ground` run's time is the shared part plus its own. When both methods ground the game,
 * their outputs must be the same bytes (a finding otherwise).
 */
export function runMutant(lib, text, file, limits) {
  const p = lib.pipeline;
  const check = timed(lib, 'check', '-', file, limits, () => {
    const loaded = p.loadGame(text, file, options(lib, 'prolog', limits), new lib.timer.StageTimer());
    p.formatSummary(p.summarizeLoaded(loaded));
    return loaded;
  });
  const runs = [check.outcome];
  if (check.value === undefined) return runs;
  const normal = check.value.normal;
  const grounded = {};
  for (const method of ['prolog', 'dg']) {
    const o = options(lib, method, limits);
    const reach = timed(lib, 'reach', method, file, limits, () => {
      const t = new lib.timer.StageTimer();
      const r = p.reachGame(normal, o, t);
      if (method === 'prolog') return { supersets: r.supersets, text: p.formatSupersets(r.supersets) };
      const full = p.groundGame(normal, r.supersets, o, t);
      return { full, text: p.formatSupersets(p.readBackSupersets(normal, r.supersets, full, o)) };
    });
    runs.push(reach.outcome);
    if (reach.value === undefined) {
      runs.push({ ...reach.outcome, command: 'ground' });
      continue;
    }
    const ground = timed(lib, 'ground', method, file, { ...limits, timeoutSeconds: Infinity }, () => {
      const t = new lib.timer.StageTimer();
      const full = reach.value.full ?? p.groundGame(normal, reach.value.supersets, o, t);
      return p.emitGround(p.removeUnusedInstances(full, t, o).game, 'gdl', { baseInput: true }, t, o);
    });
    const cpuMs = ground.outcome.cpuMs + reach.outcome.cpuMs;
    const late = overrun('ground', cpuMs, limits);
    runs.push({ ...ground.outcome, ms: ground.outcome.ms + reach.outcome.ms, cpuMs, ...(late === undefined ? {} : { finding: late }) });
    if (ground.value !== undefined) grounded[method] = ground.value;
  }
  if (grounded.prolog !== undefined && grounded.dg !== undefined && grounded.prolog !== grounded.dg) {
    runs.push({ command: 'ground', method: 'both', ms: 0, exit: 0, finding: 'the two methods ground the game differently' });
  }
  return runs;
}
