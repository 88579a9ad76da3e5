/**
 * The ground game as JSON for programs: every ground atom once, by integer id (its index in
 * `atoms`), and rules as `[head, [positive ids], [negative ids]]`. The schema is documented in
 * docs/ground.md; output is deterministic byte for byte, one rule per line.
 *
 * Written as UTF-8 bytes in chunks (issue 27), as the GDL writer is (formats/gdl/write.ts): the
 * atoms' texts from the term table in one byte array ({@link termBytes}), the rules from the
 * compact rules (no rule object and array per rule, no string per line, no string of the whole
 * text), in exactly the bytes `JSON.stringify` gave item by item before.
 */
import { Deadline } from '../../deadline.js';
import { deadlineTicker } from '../../gdl/diagnostics.js';
import { SEES } from '../../gdl/keywords.js';
import type { GroundGame } from '../../ground/types.js';
import { type CompactRules, atomCount, atomTerm, atomTerms, compactRules } from '../../ground/compact.js';
import { ByteLines, type TermBytes, decodeChunks, putBytes, termBytes } from '../gdl/bytes.js';
import { lazyJson } from '../gdl/lazy.js';

/** Version of the JSON layout; bumped on any incompatible change. */
export const JSON_FORMAT = 'gdl-ground/1';

const id = (n: number): number | null => (n < 0 ? null : n);

/** A goal value as a number when it is a plain integer (as GDL requires), else as text. */
function goalValue(text: string): number | string {
  return /^(0|[1-9][0-9]{0,8})$/.test(text) ? Number(text) : text;
}

/** The `(sees R P)` atoms (GDL-II, docs/gdl2.md) as `{role, percept, atom}`, in atom order. */
function percepts(game: GroundGame): { role: string; percept: string; atom: number }[] {
  const sees = game.terms.findSymbol(SEES);
  const out: { role: string; percept: string; atom: number }[] = [];
  if (sees < 0) return out;
  const n = atomCount(game);
  for (let i = 0; i < n; i++) {
    const t = atomTerm(game, i);
    if (game.terms.functor(t) === sees && game.terms.arity(t) === 2) out.push({ role: game.terms.text(game.terms.arg(t, 0)), percept: game.terms.text(game.terms.arg(t, 1)), atom: i });
  }
  return out;
}

/**
 * Characters `JSON.stringify` writes other than as themselves: `"`, `\`, control characters and
 * lone surrogates. A table whose symbol names have none gives every term's text as its own
 * JSON string body; otherwise texts go through `JSON.stringify`.
 */
const ESCAPED = /["\\\u0000-\u001f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Whether every term text of `game` is its own JSON string body (see {@link ESCAPED}). */
function plainNames(game: GroundGame): boolean {
  for (let s = 0; s < game.terms.symbolCount; s++) if (ESCAPED.test(game.terms.symbolName(s))) return false;
  return true;
}

const QUOTE = 0x22;
const COMMA = 0x2c;
const NEWLINE = 0x0a;
const OPEN = 0x5b;
const CLOSE = 0x5d;

/** Appends the decimal digits of `n` (a whole number, at least 0) at `at` of `buf`; returns the position after them. */
function putInt(buf: Uint8Array, at: number, n: number): number {
  if (n < 10) {
    buf[at] = 0x30 + n;
    return at + 1;
  }
  const digits = n < 100 ? 2 : n < 1000 ? 3 : n < 1e4 ? 4 : n < 1e5 ? 5 : n < 1e6 ? 6 : n < 1e7 ? 7 : n < 1e8 ? 8 : n < 1e9 ? 9 : 10;
  for (let k = at + digits - 1; k >= at; k--) {
    buf[k] = 0x30 + (n % 10);
    n = Math.floor(n / 10);
  }
  return at + digits;
}

/** The JSON writer's state: its buffer, the terms' texts, and how a term becomes a JSON string. */
interface JsonOut {
  readonly out: ByteLines;
  readonly texts: TermBytes;
  /** Index in `texts` of each term asked for by {@link jsonString}, by term id (-1: none). */
  readonly at: Int32Array;
  /** Whether term texts need no escaping ({@link plainNames}). */
  readonly plain: boolean;
  readonly game: GroundGame;
}

/** Appends term `t`'s text as a JSON string. */
function jsonString(j: JsonOut, t: number): void {
  if (!j.plain) {
    j.out.text(JSON.stringify(j.game.terms.text(t)));
    return;
  }
  const { bytes, start, end } = j.texts;
  const i = j.at[t]!;
  const buf = j.out.room(end[i]! - start[i]! + 2);
  let p = j.out.length;
  buf[p++] = QUOTE;
  p = putBytes(buf, p, bytes, start[i]!, end[i]!);
  buf[p++] = QUOTE;
  j.out.length = p;
}

/** Appends `n` (an id, -1 for none) as JSON: the number, or `null`. */
function jsonId(out: ByteLines, n: number): void {
  if (n < 0) {
    out.text('null');
    return;
  }
  const buf = out.room(10);
  out.length = putInt(buf, out.length, n);
}

/** Appends the line of rule `i`: `    [head,[pos...],[neg...]]`, without its comma or line end. */
function ruleItem(out: ByteLines, rules: CompactRules, i: number): void {
  const { starts, negAt, lits } = rules;
  const from = starts[i]!;
  const end = starts[i + 1]!;
  // Four spaces, brackets and commas, and at most ten digits per id.
  const buf = out.room(16 + 11 * (end - from + 1));
  let p = out.length;
  for (let k = 0; k < 4; k++) buf[p++] = 0x20;
  buf[p++] = OPEN;
  p = putInt(buf, p, rules.heads[i]!);
  buf[p++] = COMMA;
  buf[p++] = OPEN;
  for (let k = from; k < end; k++) {
    if (k === negAt[i]!) {
      buf[p++] = CLOSE;
      buf[p++] = COMMA;
      buf[p++] = OPEN;
    } else if (k > from) buf[p++] = COMMA;
    p = putInt(buf, p, lits[k]!);
  }
  if (negAt[i] === end) {
    buf[p++] = CLOSE;
    buf[p++] = COMMA;
    buf[p++] = OPEN;
  }
  buf[p++] = CLOSE;
  buf[p++] = CLOSE;
  out.length = p;
}

/**
 * One block `  "name": [` ... `  ]` of `count` items, one per line (`item` appends item `k`
 * after its four spaces of indentation), yielding the buffer whenever it holds `chunk` bytes.
 */
function* block(out: ByteLines, name: string, count: number, item: (k: number) => void, tick: () => void, chunk: number, last = false): Generator<Uint8Array> {
  out.text(`  ${JSON.stringify(name)}: [`);
  for (let k = 0; k < count; k++) {
    tick();
    out.text(k === 0 ? '\n    ' : ',\n    ');
    item(k);
    if (out.length >= chunk) yield out.take();
  }
  out.text(`${count === 0 ? '' : '\n  '}]${last ? '' : ','}`);
  out.byte(NEWLINE);
}

/** The rules' block, written line by line from the compact rules. */
function* rulesBlock(out: ByteLines, rules: CompactRules, tick: () => void, chunk: number, last: boolean): Generator<Uint8Array> {
  out.text('  "rules": [');
  for (let i = 0; i < rules.count; i++) {
    tick();
    out.byte(i === 0 ? NEWLINE : COMMA);
    if (i > 0) out.byte(NEWLINE);
    ruleItem(out, rules, i);
    if (out.length >= chunk) yield out.take();
  }
  out.text(`${rules.count === 0 ? '' : '\n  '}]${last ? '' : ','}`);
  out.byte(NEWLINE);
}

/** The texts the JSON output prints: every atom, each fluent, each move's role and action, each goal's role. */
function jsonTexts(game: GroundGame): { texts: TermBytes; at: Int32Array } {
  const atoms = atomTerms(game);
  const { fluents, moves, goals } = game.vocabulary;
  const roots = new Int32Array(atoms.length + fluents.length + 2 * moves.length + goals.length);
  roots.set(atoms);
  let n = atoms.length;
  for (const f of fluents) roots[n++] = f.term;
  for (const m of moves) {
    roots[n++] = m.role;
    roots[n++] = m.action;
  }
  for (const g of goals) roots[n++] = g.role;
  const at = new Int32Array(game.terms.size).fill(-1);
  // Each term written once: a term asked for twice is found where it was first put.
  let k = 0;
  for (let i = 0; i < roots.length; i++) if (at[roots[i]!] === -1) {
    at[roots[i]!] = k;
    roots[k++] = roots[i]!;
  }
  return { texts: termBytes(game.terms, roots.subarray(0, k)), at };
}

/** Bytes per chunk of {@link emitJsonBytes}, as the GDL writer's (a young-generation string where one is made). */
const JSON_CHUNK_BYTES = 1 << 16;

/**
 * The ground game as JSON with integer ids, in UTF-8 chunks, each a view of one reused buffer
 * valid until the next is asked for (a consumer that keeps chunks copies them); their
 * concatenation ends with `\n`. Past a limit of `deadline` (looked at per item) it throws a
 * limit error.
 */
export function* emitJsonBytes(game: GroundGame, deadline: Deadline, chunk = JSON_CHUNK_BYTES): Generator<Uint8Array> {
  const tick = deadlineTicker(deadline, game.file, 'writing the ground game');
  const out = new ByteLines(chunk + (chunk >> 2));
  const { texts, at } = jsonTexts(game);
  const j: JsonOut = { out, texts, at, plain: plainNames(game), game };
  const vocab = game.vocabulary;
  const text = (t: number): string => game.terms.text(t);
  const seen = percepts(game);
  out.text(`{\n  "format": ${JSON.stringify(JSON_FORMAT)},\n  "roles": ${JSON.stringify(game.roles.map(text))},\n`);
  const atoms = atomTerms(game);
  yield* block(out, 'atoms', atoms.length, (k) => jsonString(j, atoms[k]!), tick, chunk);
  out.text(`  "init": ${JSON.stringify(game.init)},\n  "terminal": ${JSON.stringify(id(vocab.terminal))},\n`);
  yield* block(out, 'fluents', vocab.fluents.length, (k) => {
    const f = vocab.fluents[k]!;
    out.text('{"term":');
    jsonString(j, f.term);
    out.text(',"true":');
    jsonId(out, f.trueId);
    out.text(',"next":');
    jsonId(out, f.nextId);
    out.byte(0x7d);
  }, tick, chunk);
  yield* block(out, 'moves', vocab.moves.length, (k) => {
    const m = vocab.moves[k]!;
    out.text('{"role":');
    jsonString(j, m.role);
    out.text(',"action":');
    jsonString(j, m.action);
    out.text(',"does":');
    jsonId(out, m.doesId);
    out.text(',"legal":');
    jsonId(out, m.legalId);
    out.byte(0x7d);
  }, tick, chunk);
  yield* block(out, 'goals', vocab.goals.length, (k) => {
    const g = vocab.goals[k]!;
    out.text('{"role":');
    jsonString(j, g.role);
    out.text(`,"value":${JSON.stringify(goalValue(text(g.value)))},"atom":${g.id}}`);
  }, tick, chunk);
  // GDL-II only (a game without sees atoms is written as before): what each role perceives.
  if (seen.length > 0) yield* block(out, 'percepts', seen.length, (k) => out.text(JSON.stringify(seen[k])), tick, chunk);
  yield* rulesBlock(out, compactRules(game), tick, chunk, game.lazy === undefined);
  // With lazy axioms (docs/lazy.md) only: the non-ground part, as text.
  if (game.lazy !== undefined) {
    out.text(`  "lazy": ${JSON.stringify(lazyJson(game))}`);
    out.byte(NEWLINE);
  }
  out.text('}\n');
  yield out.take();
}

/**
 * The ground game as JSON with integer ids, for programs; ends with `\n`. Past a limit of
 * `deadline` (looked at per item) it throws a limit error.
 */
export function emitJson(game: GroundGame, deadline: Deadline): string {
  return decodeChunks(emitJsonBytes(game, deadline));
}
