/**
 * The GDDL output's settings and file names, apart from the model and the writer: the command
 * line resolves `--max-actions` and `--max-effects` and names the files of every `ground` run
 * without loading the GDDL modules, which only `--format gddl` needs (docs/corpus.md, fred20).
 */
/** Options of the GDDL model, resolved by the caller. */
export interface GddlOptions {
  /** Largest number of multi-actions; beyond it a limit error names the sizes (CLI `--max-actions`). */
  readonly maxActions: number;
  /**
   * Largest number of precondition/effect pairs over all multi-actions, bounded before they are
   * made by multi-actions times fluents with a `next` rule (CLI `--max-effects`).
   */
  readonly maxEffects: number;
}

/**
 * Defaults: 50,000 multi-actions and 1,000,000 precondition/effect pairs. Each multi-action
 * holds a pair for every fluent that may hold after it (tic-tac-toe's 28 pairs are about 1.8 KB,
 * connect four's about 14 KB), so the pairs bound the domain file to some 100 MB; chinook's
 * 22,050 simultaneous multi-actions would need 5.9 million pairs.
 */
export const DEFAULT_GDDL_OPTIONS: GddlOptions = { maxActions: 50_000, maxEffects: 1_000_000 };

/** The three files' texts. */
export interface GddlFiles {
  readonly domain: string;
  readonly problem: string;
  readonly partition: string;
}

/** The file names of the three texts, in the order they are printed. */
export const GDDL_FILE_NAMES = { domain: 'domain.gddl', problem: 'problem.gddl', partition: 'partition.gddl' } as const;
