/**
 * The `gdl-ground` commands: one subcommand per job, each in its own module, parsed and run on
 * the words the user typed. `main.ts` runs it in the thread that does the work.
 */
import { Command, CommanderError } from 'commander';
import { EXIT } from './exit.js';

/** Adds one subcommand (its options, help and action) to the program. */
type Register = (program: Command) => void;

/**
 * The subcommands in the order `--help` lists them, each loaded when needed: a run of one
 * command loads only that command's modules (`ground` does not load the mutex stage, the
 * simulators or the reasoner, about 70 modules: 30-40 ms of a run's processor time,
 * docs/corpus.md, gt15); help, version and unknown commands load them all.
 */
const COMMANDS: readonly (readonly [name: string, load: () => Promise<Register>])[] = [
  ['check', async () => (await import('./check.js')).registerCheck],
  ['reach', async () => (await import('./reach.js')).registerReach],
  ['ground', async () => (await import('./ground.js')).registerGround],
  ['verify', async () => (await import('./verify.js')).registerVerify],
  ['compare', async () => (await import('./compare.js')).registerCompare],
  ['graph', async () => (await import('./graph.js')).registerGraph],
  ['mutex', async () => (await import('./mutex.js')).registerMutex],
  ['batch', async () => (await import('./batch.js')).registerBatch],
  ['play', async () => (await import('./play.js')).registerPlay],
];

/** The subcommands `args` needs: the one it names first, or all of them. */
async function commandsFor(args: readonly string[]): Promise<Register[]> {
  const named = COMMANDS.find(([name]) => name === args[0]);
  return Promise.all((named === undefined ? COMMANDS : [named]).map(([, load]) => load()));
}

/** Parses `args` (the words after the script) and runs the command; sets `process.exitCode`. */
export async function runProgram(args: readonly string[]): Promise<void> {
  const program = new Command('gdl-ground')
    .description('Instantiate (ground) games of the Game Description Language')
    .version('0.1.0')
    .showHelpAfterError()
    .exitOverride();
  for (const register of await commandsFor(args)) register(program);
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
