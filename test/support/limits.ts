/** The limit error a call throws, for tests of limits and deadlines. */
import { expect } from 'vitest';
import { GdlError } from '../../src/gdl/diagnostics.js';

/** Runs `fn` and returns the limit error it throws (fails when it throws none, or another). */
export function limitError(fn: () => unknown): GdlError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(GdlError);
    expect((err as GdlError).code).toBe('limit');
    return err as GdlError;
  }
  throw new Error('expected a limit error');
}
