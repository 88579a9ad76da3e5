/**
 * An independent check of the superset computation (issue 4, "Exact"): the normalized game's
 * relaxed version (negative literals dropped, goal and terminal rules left out) is written as an
 * answer-set program, clingo-wasm computes its least model, and the model is read back into the
 * same {@link Supersets} shape the Prolog method returns. Nothing here shares code with
 * src/reach/: the only things taken from src/ are the AST, the term printer, the code point
 * order that every sorted output uses, and the translation to ASP (src/bench/asp.ts, shared with
 * the benchmark's clingo column; its naming rules are described there).
 */
import { Deadline } from '../../src/deadline.js';
import clingo from 'clingo-wasm';
import { mangle, relaxedProgram, termToAsp, unmangle } from '../../src/bench/asp.js';

export { mangle, relaxedProgram, termToAsp, unmangle };
import type { Atom, Term } from '../../src/gdl/ast.js';
import { KEYWORDS, NO_POS } from '../../src/gdl/ast.js';
import { atomToString, compareCodePoints, termToString } from '../../src/gdl/terms.js';
import type { NormalGame } from '../../src/normalize/types.js';
import { defaultPipelineOptions, loadGame } from '../../src/pipeline/stages.js';
import { GdlError } from '../../src/gdl/diagnostics.js';
import { computeSupersetsProlog } from '../../src/reach/prolog.js';
import { DEFAULT_REACH_LIMITS, type Move, type Supersets } from '../../src/reach/types.js';
import { StageTimer } from '../../src/timer.js';

function unescapeAsp(body: string): string {
  return body.replace(/\\(.)/g, (_m, c: string) => (c === 'n' ? '\n' : c));
}

/**
 * Reads one shown atom, such as `p_cell(f_f("1"),"b")`, back into a GDL atom. Post-order with
 * an explicit stack, since the terms can be deep. The translation never produces a bare
 * identifier inside an atom, a number or a tuple, so any of these is an error.
 */
export function parseAspAtom(text: string): Atom {
  const fail = (why: string): never => {
    throw new Error(`cannot read clingo atom '${text}': ${why}`);
  };
  const whole = /^p_([a-z0-9_]+)$/.exec(text);
  if (whole !== null) return { kind: 'atom', rel: unmangle(whole[1]!), args: [], pos: NO_POS };
  const frames: { name: string; args: Term[] }[] = [];
  // Identifiers, strings and punctuation; a fresh sticky regex per call keeps no shared state.
  const token = /\s*(?:([a-z_][A-Za-z0-9_']*)|"((?:[^"\\]|\\.)*)"|([(),]))/y;
  while (token.lastIndex < text.length) {
    const at = token.lastIndex;
    const m = token.exec(text);
    if (m === null || m.index !== at) fail(`unexpected text at ${at}`);
    const [, ident, str, punct] = m!;
    if (ident !== undefined) {
      if (text[token.lastIndex] !== '(') fail(`bare identifier '${ident}'`);
      token.lastIndex++;
      frames.push({ name: ident, args: [] });
    } else if (str !== undefined) {
      if (frames.length === 0) fail('string outside an atom');
      frames[frames.length - 1]!.args.push({ kind: 'const', name: unescapeAsp(str), pos: NO_POS });
    } else if (punct === ')') {
      const f = frames.pop() ?? fail("unbalanced ')'");
      const name = unmangle(f.name.slice(2));
      if (frames.length > 0) {
        if (!f.name.startsWith('f_')) fail(`unexpected function '${f.name}'`);
        frames[frames.length - 1]!.args.push({ kind: 'fn', name, args: f.args, pos: NO_POS });
      } else {
        if (!f.name.startsWith('p_') || token.lastIndex !== text.length) fail('not a shown relation');
        return { kind: 'atom', rel: name, args: f.args, pos: NO_POS };
      }
    } else if (punct !== ',') fail(`unexpected '${punct}'`);
  }
  return fail('unexpected end');
}

function byText<T>(items: readonly T[], text: (t: T) => string): T[] {
  const keyed = items.map((item) => ({ item, key: text(item) }));
  keyed.sort((a, b) => compareCodePoints(a.key, b.key));
  const out: T[] = [];
  for (let i = 0; i < keyed.length; i++) if (i === 0 || keyed[i]!.key !== keyed[i - 1]!.key) out.push(keyed[i]!.item);
  return out;
}

/** Text of a move used for sorting: `R M`. */
function moveText(m: Move): string {
  return `${termToString(m.role)} ${termToString(m.action)}`;
}

/** Turns the shown atoms of the least model into supersets, sorted and free of duplicates. */
export function modelToSupersets(atoms: readonly string[]): Supersets {
  const fluents: Term[] = [];
  const moves: Move[] = [];
  const axioms: Atom[] = [];
  for (const text of atoms) {
    const a = parseAspAtom(text);
    if (a.rel === 'true' && a.args.length === 1) fluents.push(a.args[0]!);
    else if (a.rel === 'does' && a.args.length === 2) moves.push({ role: a.args[0]!, action: a.args[1]! });
    else if (!KEYWORDS.has(a.rel)) axioms.push(a);
    else throw new Error(`unexpected atom in clingo model: '${text}'`);
  }
  return { fluents: byText(fluents, termToString), moves: byText(moves, moveText), axioms: byText(axioms, atomToString) };
}

/**
 * The supersets as the sorted lines `gdl-ground reach` prints: `(base F)` per fluent,
 * `(input R M)` per move, each axiom instance as itself. Both sides of a comparison go through
 * this one function, so list order inside {@link Supersets} cannot cause a difference.
 */
export function supersetLines(s: Supersets): string[] {
  const lines = [
    ...s.fluents.map((f) => `(base ${termToString(f)})`),
    ...s.moves.map((m) => `(input ${termToString(m.role)} ${termToString(m.action)})`),
    ...s.axioms.map(atomToString),
  ];
  return [...new Set(lines)].sort(compareCodePoints);
}

/** The first `max` lines in only one of two sorted line lists, marked `-` (only in `a`) or `+`. */
export function firstDifferences(a: readonly string[], b: readonly string[], max = 10): string[] {
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while ((i < a.length || j < b.length) && out.length < max) {
    const c = i >= a.length ? 1 : j >= b.length ? -1 : compareCodePoints(a[i]!, b[j]!);
    if (c === 0) {
      i++;
      j++;
    } else if (c < 0) out.push(`- ${a[i++]!}`);
    else out.push(`+ ${b[j++]!}`);
  }
  return out;
}

/** What one clingo run gave: the least model, a timeout, or an error (unsafe rule, memory). */
export type ClingoOutcome =
  | { readonly kind: 'model'; readonly supersets: Supersets; readonly ms: number }
  | { readonly kind: 'timeout'; readonly ms: number }
  | { readonly kind: 'error'; readonly reason: string };

/**
 * Computes the least model of the relaxed game with clingo-wasm. The package keeps one clingo
 * worker and reuses it across calls; a run that exceeds `timeoutMs` (an infinite model makes
 * the grounder run forever) is aborted by restarting that worker.
 */
export async function clingoSupersets(game: NormalGame, timeoutMs: number): Promise<ClingoOutcome> {
  const program = relaxedProgram(game);
  const start = performance.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  const result = await Promise.race([clingo.run(program, 1), expired]);
  clearTimeout(timer);
  const ms = performance.now() - start;
  if (result === 'timeout') {
    await clingo.restart();
    return { kind: 'timeout', ms };
  }
  if (result.Result === 'ERROR') return { kind: 'error', reason: firstLine(result.Error) };
  if (result.Result !== 'SATISFIABLE') return { kind: 'error', reason: `clingo says ${result.Result}` };
  const witnesses = result.Call.at(-1)?.Witnesses ?? [];
  if (witnesses.length !== 1) return { kind: 'error', reason: `clingo found ${witnesses.length} models, not 1` };
  return { kind: 'model', supersets: modelToSupersets(witnesses[0]!.Value), ms };
}

function firstLine(text: string): string {
  return text.split('\n').find((l) => l.trim() !== '')?.trim() ?? text;
}

/** Time limits of one comparison, in milliseconds. */
export interface CompareLimits {
  readonly clingoMs: number;
  readonly prologMs: number;
  /** Run the Prolog method even when clingo gave no model (to see whether it, too, fails). */
  readonly alwaysProlog: boolean;
}

/** The outcome of comparing the Prolog method with clingo on one game. */
export type Verdict =
  | { readonly kind: 'agree'; readonly lines: number; readonly clingoMs: number; readonly prologMs: number }
  | { readonly kind: 'differ'; readonly differences: readonly string[]; readonly clingoLines: number; readonly prologLines: number }
  | { readonly kind: 'invalid'; readonly reason: string }
  | { readonly kind: 'clingo-timeout' | 'clingo-error' | 'prolog-limit' | 'prolog-rejects' | 'prolog-error'; readonly reason: string };

/** Verdicts that are bugs: the two methods disagree, or the Prolog method crashed. */
export const FAILING_VERDICTS: ReadonlySet<Verdict['kind']> = new Set(['differ', 'prolog-rejects', 'prolog-error']);

function clingoFailure(outcome: Exclude<ClingoOutcome, { kind: 'model' }>, limits: CompareLimits): Verdict {
  return outcome.kind === 'timeout'
    ? { kind: 'clingo-timeout', reason: `no model within ${limits.clingoMs} ms` }
    : { kind: 'clingo-error', reason: outcome.reason };
}

type PrologOutcome = { readonly kind: 'ok'; readonly lines: string[]; readonly ms: number } | Verdict;

function runProlog(game: NormalGame, prologMs: number): PrologOutcome {
  const start = performance.now();
  try {
    const limits = { ...DEFAULT_REACH_LIMITS, deadline: Deadline.in(prologMs / 1000) };
    const lines = supersetLines(computeSupersetsProlog(game, limits).supersets);
    return { kind: 'ok', lines, ms: performance.now() - start };
  } catch (err) {
    if (err instanceof GdlError) {
      // 'prolog-rejects' is only a verdict when clingo computed a model; see compareWithClingo.
      return { kind: err.code === 'limit' ? 'prolog-limit' : 'prolog-rejects', reason: firstLine(err.message) };
    }
    return { kind: 'prolog-error', reason: firstLine(err instanceof Error ? err.message : String(err)) };
  }
}

/**
 * Loads a game through the pipeline (parse, validate, normalize), computes its supersets with
 * clingo and with the Prolog method, and compares them as sorted lines. Lines marked `-` in
 * the differences are only in clingo's least model, `+` only in the Prolog result.
 */
export async function compareWithClingo(text: string, file: string, limits: CompareLimits): Promise<Verdict> {
  let game: NormalGame;
  try {
    game = loadGame(text, file, defaultPipelineOptions(), new StageTimer()).normal;
  } catch (err) {
    if (err instanceof GdlError) return { kind: 'invalid', reason: firstLine(err.message) };
    throw err;
  }
  const fromClingo = await clingoSupersets(game, limits.clingoMs);
  if (fromClingo.kind !== 'model' && !limits.alwaysProlog) return clingoFailure(fromClingo, limits);
  const fromProlog = runProlog(game, limits.prologMs);
  // A crash of the Prolog method is a bug whatever clingo did; a limit only means "skipped";
  // rejecting a game whose finite least model clingo computed is a disagreement.
  if (fromProlog.kind === 'prolog-error') return fromProlog;
  if (fromClingo.kind !== 'model') return clingoFailure(fromClingo, limits);
  if (fromProlog.kind !== 'ok') return fromProlog;
  const expected = supersetLines(fromClingo.supersets);
  const differences = firstDifferences(expected, fromProlog.lines);
  if (differences.length > 0) {
    return { kind: 'differ', differences, clingoLines: expected.length, prologLines: fromProlog.lines.length };
  }
  return { kind: 'agree', lines: expected.length, clingoMs: fromClingo.ms, prologMs: fromProlog.ms };
}
