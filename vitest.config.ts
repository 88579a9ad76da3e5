import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Corpus-wide tests run real games; correctness, not speed, is what they check.
    testTimeout: 600_000,
    hookTimeout: 600_000,
    pool: 'forks',
  },
});
