import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Corpus-wide tests run real games; correctness, not speed, is what they check.
    testTimeout: 600_000,
    hookTimeout: 600_000,
    pool: 'forks',
    // Two test files at a time even on two cores. vitest's default (cores - 1) runs CI's
    // two-core machine one file at a time: one core idle while a file waits on a child process
    // (the CLI and --timeout tests) or computes alone. Files share nothing but the built dist/
    // (test/support/cli.ts builds it once, under a lock) and their own temporary folders.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
