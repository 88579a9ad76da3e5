// STUB — owned by the issue-5 (verify) helper, who replaces this file.
import type { Command } from 'commander';

/** Registers `gdl-ground verify`. */
export function registerVerify(program: Command): void {
  void program;
}
