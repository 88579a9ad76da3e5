// The fuzzer in CI (docs/testing.md, "Fuzzing"): a few hundred mutants of the smaller corpus
// games, fixed seed, through `check`, `reach` and `ground` by both methods with small limits.
// Every run must end with exit 0, 1 or 3 and a positioned or named message, within its limit;
// no child process may die or hang; the two methods must ground a game alike.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HAVE_CORPUS } from './corpus.js';
import { ROOT, ensureBuilt } from './support/cli.js';

interface Summary {
  mutants: number;
  runs: number;
  exits: Record<string, Record<string, number>>;
  findings: { index: number; game: string; applied: string[]; kind: string }[];
}

describe.skipIf(!HAVE_CORPUS)('fuzzing', () => {
  it('300 mutants (seed 7): no crash, hang, overrun, unnamed message or difference between methods', () => {
    ensureBuilt();
    const out = mkdtempSync(join(tmpdir(), 'gdl-fuzz-'));
    try {
      const r = spawnSync(process.execPath, ['scripts/fuzz.mjs', '--count', '300', '--seed', '7', '--max-bytes', '6000', '--out', out, '--json'], { cwd: ROOT, encoding: 'utf8' });
      const summary = JSON.parse(r.stdout) as Summary;
      expect(summary.findings).toEqual([]);
      expect(r.status).toBe(0);
      expect(summary.mutants).toBe(300);
      // The mutants reach every outcome: valid games, invalid ones and limits.
      const codes = new Set(Object.values(summary.exits).flatMap((e) => Object.keys(e)));
      expect([...codes].sort()).toEqual(['0', '1', '3']);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
