// STUB — owned by the issue-6 helper, who replaces this file.
import type { Command } from 'commander';

/** Registers `gdl-ground graph`. */
export function registerGraph(program: Command): void {
  void program;
}
