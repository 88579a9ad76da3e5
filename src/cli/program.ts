/**
 * The `gdl-ground` commands: one subcommand per job, each in its own module, parsed and run on
 * the words the user typed. `main.ts` runs it in the thread that does the work.
 */
import { Command, CommanderError } from 'commander';
import { registerBatch } from './batch.js';
import { registerCheck } from './check.js';
import { registerCompare } from './compare.js';
import { registerGraph } from './graph.js';
import { registerGround } from './ground.js';
import { EXIT } from './io.js';
import { registerMutex } from './mutex.js';
import { registerPlay } from './play.js';
import { registerReach } from './reach.js';
import { registerVerify } from './verify.js';

/** Parses `args` (the words after the script) and runs the command; sets `process.exitCode`. */
export async function runProgram(args: readonly string[]): Promise<void> {
  const program = new Command('gdl-ground')
    .description('Instantiate (ground) games of the Game Description Language')
    .version('0.1.0')
    .showHelpAfterError()
    .exitOverride();
  for (const register of [registerCheck, registerReach, registerGround, registerVerify, registerCompare, registerGraph, registerMutex]) {
    register(program);
  }
  registerBatch(program);
  registerPlay(program);
  program.commands.forEach((c) => c.exitOverride());
  try {
    await program.parseAsync([...args], { from: 'user' });
  } catch (err) {
    if (err instanceof CommanderError) {
      // Help and version end with code 0; every other commander error is a usage error.
      process.exitCode = err.exitCode === 0 ? EXIT.ok : EXIT.usage;
    } else {
      process.stderr.write(`gdl-ground: internal error: ${(err as Error).message}\n`);
      process.exitCode = EXIT.internal;
    }
  }
}
