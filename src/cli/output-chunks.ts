/**
 * Text made in chunks (the ground game) written to a file or to standard output without ever
 * holding all of it. To a file, the chunks go straight to the atomic write's temporary file. To
 * standard output nothing may appear before the last chunk is made (a limit reached while
 * emitting leaves no partial output), so the chunks are kept until then: in memory while they
 * are small, in a temporary file once they pass {@link SPILL_CHARS}, which is then copied out
 * with the stream's back-pressure. Before, all of attritionWar's 422 MB of text was held as
 * strings and handed to the main thread at once, on top of the ground game.
 */
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { closeSync, createReadStream, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { cleanUpOnSignal, writeAtomicChunks } from './io.js';

/** Characters (or bytes) kept in memory before the chunks spill to a temporary file. */
const SPILL_CHARS = 32 << 20;

/**
 * Produces text in chunks, handing each to `write` as it is made (it may throw half-way): strings,
 * or UTF-8 bytes valid only during the call (the writer reuses its buffer).
 */
type Produce = (write: (chunk: string | Uint8Array) => void) => void;

/** The chunks made so far: in memory, or in a temporary file from the first spill on. */
type Held = { kind: 'memory'; chunks: (string | Uint8Array)[]; chars: number } | { kind: 'file'; path: string; fd: number };

/**
 * Writes the produced text to `out` once it is all made, holding at most `spillChars` of it in
 * memory; the temporary file, if any, is removed whatever happens (a terminating signal
 * included). What `produce` throws passes on, and then nothing is written.
 */
export async function writeChunksWhenDone(out: Writable, produce: Produce, spillChars = SPILL_CHARS): Promise<'memory' | 'file'> {
  // A box, so that the type follows the spill made inside the callback.
  const box: { held: Held } = { held: { kind: 'memory', chunks: [], chars: 0 } };
  let stopHere: (() => void) | undefined;
  try {
    produce((chunk) => {
      const held = box.held;
      if (held.kind === 'file') {
        writeFileSync(held.fd, chunk);
        return;
      }
      // Bytes are copied: the writer reuses their buffer once this call returns.
      held.chunks.push(typeof chunk === 'string' ? chunk : chunk.slice());
      held.chars += chunk.length;
      if (held.chars <= spillChars) return;
      const path = join(tmpdir(), `gdl-ground-${process.pid}-${randomBytes(6).toString('hex')}.out`);
      stopHere = cleanUpOnSignal(path);
      const spilled = { kind: 'file' as const, path, fd: openSync(path, 'w', 0o600) };
      box.held = spilled;
      for (const c of held.chunks) writeFileSync(spilled.fd, c);
    });
    const held = box.held;
    if (held.kind === 'memory') {
      for (const chunk of held.chunks) if (!out.write(chunk)) await once(out, 'drain');
      return 'memory';
    }
    closeSync(held.fd);
    held.fd = -1;
    for await (const block of createReadStream(held.path)) {
      if (!out.write(block)) await once(out, 'drain');
    }
    return 'file';
  } finally {
    const held = box.held;
    if (held.kind === 'file') {
      if (held.fd >= 0) closeSync(held.fd);
      rmSync(held.path, { force: true });
    }
    stopHere?.();
  }
}

/**
 * Like `writeOutput` (io.ts), for text made in chunks: to `path` through `writeAtomicChunks`,
 * or to stdout once every chunk is made ({@link writeChunksWhenDone}).
 */
export async function writeOutputChunks(path: string | undefined, produce: Produce): Promise<void> {
  if (path !== undefined && path !== '-') writeAtomicChunks(path, produce);
  else await writeChunksWhenDone(process.stdout, produce);
}
