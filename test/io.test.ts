// writeAtomic: a regular file is replaced by a rename, no temporary file is left; a pipe or a
// device (`-o /dev/null`) is written in place, never replaced by a regular file.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError, checkOutputTarget, writeAtomic } from '../src/cli/io.js';

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

  it('removes the temporary file a killed run left (its process is gone), and keeps a live run\'s', () => {
    const path = join(dir, 'game.gdl');
    const dead = spawnSync(process.execPath, ['-e', '']).pid!; // exited: its pid names no process now
    const stale = `.game.gdl.${dead}-0123456789ab.tmp`;
    const live = `.game.gdl.${process.ppid}-ba9876543210.tmp`;
    const other = '.game.gdl.notours.tmp';
    for (const f of [stale, live, other]) writeFileSync(join(dir, f), 'partial');
    writeAtomic(path, 'whole');
    const left = readdirSync(dir);
    expect(left).not.toContain(stale);
    expect(left).toContain(live);
    expect(left).toContain(other);
    for (const f of [live, other, 'game.gdl']) rmSync(join(dir, f));
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

describe('checkOutputTarget', () => {
  it('accepts stdout, new files in existing folders, devices, and folders where folders are written', () => {
    for (const [path, kind] of [[undefined, 'file'], ['-', 'file'], [join(dir, 'new.gdl'), 'file'], ['/dev/null', 'file'], [dir, 'folder'], [join(dir, 'new-folder'), 'folder'], [join(dir, 'a/b/c'), 'folders']] as const) {
      expect(() => checkOutputTarget(path, kind), `${path} ${kind}`).not.toThrow();
    }
  });

  it('refuses a missing folder, a folder for a file and a file for a folder, naming the path given', () => {
    const file = join(dir, 'plain.txt');
    writeFileSync(file, 'x');
    const cases: [string, 'file' | 'folder' | 'folders', string][] = [
      [join(dir, 'missing/out.gdl'), 'file', `cannot write '${join(dir, 'missing/out.gdl')}': no folder '${join(dir, 'missing')}'`],
      [dir, 'file', `cannot write '${dir}': it is a folder`],
      [file, 'folder', `cannot write '${file}': it exists and is not a folder`],
      [join(dir, 'missing/deeper'), 'folder', `cannot write '${join(dir, 'missing/deeper')}': no folder '${join(dir, 'missing')}'`],
      [join(file, 'x/y'), 'folders', `cannot write '${join(file, 'x/y')}': '${file}' is not a folder`],
      [join(file, 'out.gdl'), 'file', `cannot write '${join(file, 'out.gdl')}': '${file}' is not a folder`],
    ];
    for (const [path, kind, message] of cases) {
      expect(() => checkOutputTarget(path, kind), `${path} ${kind}`).toThrow(UsageError);
      expect(() => checkOutputTarget(path, kind)).toThrow(message);
    }
  });
});
