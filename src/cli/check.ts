// STUB — owned by the issue-3 helper, who replaces this file.
import type { Command } from 'commander';

/** Registers `gdl-ground check`. */
export function registerCheck(program: Command): void {
  void program;
}
