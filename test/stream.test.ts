// The streaming GDL writer (issue 17: racer's 4.7M rules were too large for one string):
// chunks of whole lines whose concatenation is the one-string text byte for byte, written
// straight to the temporary file of the atomic write, which leaves no file (and no temporary
// file) when emitting fails half-way; `ground` gives the same bytes to a file and to stdout.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError, writeAtomicChunks } from '../src/cli/io.js';
import { writeChunksWhenDone } from '../src/cli/output-chunks.js';
import { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { emitGdl } from '../src/formats/gdl/write.js';
import { gdlChunks } from './support/written.js';
import { GdlError, diag } from '../src/gdl/diagnostics.js';
import { NO_POS } from '../src/gdl/ast.js';
import { emitGround, emitGroundStream, removeUnusedInstances, runGrounding } from '../src/pipeline/stages.js';
import { EXAMPLES_DIR } from './examples.js';
import { runCli, ensureBuilt } from './support/cli.js';
import { StageTimer } from '../src/timer.js';
import { defaultPipelineOptions } from '../src/pipeline/options.js';
import { Deadline } from '../src/deadline.js';


const TICTACTOE = join(EXAMPLES_DIR, 'tictactoe.kif');

describe('emitGdlBytes', () => {
  const game = runGrounding(readFileSync(TICTACTOE, 'utf8'), TICTACTOE, defaultPipelineOptions(), new StageTimer()).ground;

  it('chunks of whole lines that concatenate to emitGdl, with and without base/input', () => {
    for (const baseInput of [true, false]) {
      const chunks = gdlChunks(game, { baseInput }, 200);
      expect(chunks.length).toBeGreaterThan(10);
      for (const c of chunks) expect(c.endsWith('\n')).toBe(true);
      expect(chunks.join('')).toBe(emitGdl(game, { baseInput }, Deadline.never()));
    }
  });

  it('emitGroundStream hands over emitGround text, in GDL and in JSON', () => {
    for (const format of ['gdl', 'json'] as const) {
      const parts: string[] = [];
      const decoder = new TextDecoder();
      emitGroundStream(game, format, { baseInput: true }, (c) => parts.push(typeof c === 'string' ? c : decoder.decode(c)), new StageTimer(), defaultPipelineOptions());
      expect(parts.join('')).toBe(emitGround(game, format, { baseInput: true }, new StageTimer(), defaultPipelineOptions()));
    }
  });
});

describe('writeAtomicChunks', () => {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'gdl-stream-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes every chunk, in order', () => {
    const path = join(dir, 'out.gdl');
    writeAtomicChunks(path, (write) => ['a\n', 'b\n', 'c\n'].forEach(write));
    expect(readFileSync(path, 'utf8')).toBe('a\nb\nc\n');
    expect(readdirSync(dir)).toEqual(['out.gdl']);
  });

  it('leaves no file and no temporary file when emitting throws half-way, and passes the error on', () => {
    const path = join(dir, 'half.gdl');
    const limit = new GdlError([diag('error', 'g.kif', NO_POS, 'time limit reached')], 'limit');
    expect(() => writeAtomicChunks(path, (write) => {
      write('a\n');
      throw limit;
    })).toThrow(limit);
    expect(readdirSync(dir)).toEqual(['out.gdl']);
  });

  it('writes a device in place, and refuses an unwritable path as a usage error', () => {
    writeAtomicChunks('/dev/null', (write) => write('x\n'));
    expect(() => writeAtomicChunks(join(dir, 'no/such/dir/out.gdl'), (write) => write('x'))).toThrow(UsageError);
  });
});

describe('writeChunksWhenDone (stdout)', () => {
  /** A stream that keeps what it is given, asking for a drain after every write. */
  const sink = (): { out: Writable; text: () => string } => {
    const got: string[] = [];
    const out = new Writable({ highWaterMark: 1, write(chunk: Buffer | string, _enc, done) {
      got.push(chunk.toString());
      setImmediate(done);
    } });
    return { out, text: () => got.join('') };
  };
  const ours = (): string[] => readdirSync(tmpdir()).filter((n) => n.startsWith(`gdl-ground-${process.pid}-`));
  const lines = Array.from({ length: 2000 }, (_, i) => `(line ${i})\n`);

  it('keeps small text in memory and spills larger text to a temporary file, the same bytes either way', async () => {
    for (const [spill, where] of [[1 << 30, 'memory'], [100, 'file']] as const) {
      const { out, text } = sink();
      expect(await writeChunksWhenDone(out, (write) => lines.forEach(write), spill)).toBe(where);
      out.end();
      await finished(out);
      expect(text()).toBe(lines.join(''));
      expect(ours()).toEqual([]);
    }
  });

  it('copies the byte chunks it keeps: the writer reuses their buffer', async () => {
    const buffer = new Uint8Array(64);
    const encoder = new TextEncoder();
    const { out, text } = sink();
    expect(await writeChunksWhenDone(out, (write) => {
      for (const line of lines) write(buffer.subarray(0, encoder.encodeInto(line, buffer).written));
    })).toBe('memory');
    out.end();
    await finished(out);
    expect(text()).toBe(lines.join(''));
  });

  it('writes nothing and leaves no temporary file when emitting throws after a spill', async () => {
    const { out, text } = sink();
    const limit = new GdlError([diag('error', 'g.kif', NO_POS, 'time limit reached')], 'limit');
    await expect(writeChunksWhenDone(out, (write) => {
      lines.forEach(write);
      throw limit;
    }, 100)).rejects.toBe(limit);
    expect(text()).toBe('');
    expect(ours()).toEqual([]);
  });
});

describe('ground: file and stdout', () => {
  let dir = '';
  beforeAll(() => {
    ensureBuilt();
    dir = mkdtempSync(join(tmpdir(), 'gdl-stream-cli-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes the same bytes to -o FILE and to stdout, as emitGdl makes them', () => {
    const out = join(dir, 't.gdl');
    expect(runCli(['ground', TICTACTOE, '-o', out]).code).toBe(0);
    const stdout = runCli(['ground', TICTACTOE]);
    expect(stdout.code).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(stdout.stdout);
    const game = runGrounding(readFileSync(TICTACTOE, 'utf8'), 'tictactoe.kif', defaultPipelineOptions(), new StageTimer()).ground;
    expect(stdout.stdout).toBe(emitGdl(removeUnusedInstances(game, new StageTimer(), defaultPipelineOptions()).game, { baseInput: true }, Deadline.never()));
  });
});
