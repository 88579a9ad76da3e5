// writeAtomic: a regular file is replaced by a rename, no temporary file is left; a pipe or a
// device (`-o /dev/null`) is written in place, never replaced by a regular file.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeAtomic } from '../src/cli/io.js';

let dir = '';
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'gdl-io-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('writeAtomic', () => {
  it('replaces a regular file and leaves no temporary file', () => {
    const path = join(dir, 'out.txt');
    writeFileSync(path, 'old');
    writeAtomic(path, 'new');
    expect(readFileSync(path, 'utf8')).toBe('new');
    expect(readdirSync(dir)).toEqual(['out.txt']);
  });

  it.skipIf(spawnSync('mkfifo', ['--version']).status !== 0)('writes into a named pipe instead of renaming over it', async () => {
    const fifo = join(dir, 'pipe');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    // The reader is another process: opening the pipe for writing waits until it reads.
    const reader = spawn('cat', [fifo]);
    let got = '';
    reader.stdout.on('data', (b: Buffer) => { got += b.toString(); });
    const closed = new Promise((r) => reader.on('close', r));
    writeAtomic(fifo, 'through the pipe');
    // Renamed over, the pipe would never be opened for writing and the reader would wait forever.
    const stop = setTimeout(() => reader.kill(), 10_000);
    await closed;
    clearTimeout(stop);
    expect(got).toBe('through the pipe');
    expect(statSync(fifo).isFIFO()).toBe(true);
  });
});
