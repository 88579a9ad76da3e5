// STUB — owned by the issue-5 (instantiation) helper, who replaces this file.
import type { Command } from 'commander';

/** Registers `gdl-ground ground`. */
export function registerGround(program: Command): void {
  void program;
}
