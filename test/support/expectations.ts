/**
 * The expected outcome of every corpus game (test/expectations/corpus.tsv, written by
 * scripts/corpus-expectations.mjs): how loading ends, and how grounding with the Prolog
 * method and default limits ends.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** How loading or grounding a game ends; `-` when grounding was not tried (invalid game). */
export type Outcome = 'ok' | 'invalid' | 'limit' | 'timeout' | '-';

/** The expected outcomes of one game; messages are `line:col: error: ...`, file name removed. */
export interface Expected {
  readonly load: Outcome;
  readonly loadMessage: string;
  readonly ground: Outcome;
  readonly groundMessage: string;
}

/** The file of expectations. */
export const EXPECTATIONS_FILE = join(dirname(fileURLToPath(import.meta.url)), '../expectations/corpus.tsv');

/** Every game's expected outcomes, by `folder/file.kif`. */
export function readExpectations(): Map<string, Expected> {
  const out = new Map<string, Expected>();
  const lines = readFileSync(EXPECTATIONS_FILE, 'utf8').split('\n').filter((l) => l !== '');
  for (const line of lines.slice(1)) {
    const [game, load, loadMessage, ground, groundMessage] = line.split('\t');
    out.set(game!, { load: load as Outcome, loadMessage: loadMessage ?? '', ground: ground as Outcome, groundMessage: groundMessage ?? '' });
  }
  return out;
}
