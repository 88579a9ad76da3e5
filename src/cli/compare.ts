// STUB — owned by the issue-6 helper, who replaces this file.
import type { Command } from 'commander';

/** Registers `gdl-ground compare`. */
export function registerCompare(program: Command): void {
  void program;
}
