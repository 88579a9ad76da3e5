// STUB — owned by the issue-4 helper, who replaces this file.
import type { Command } from 'commander';

/** Registers `gdl-ground reach`. */
export function registerReach(program: Command): void {
  void program;
}
