/**
 * The GDDL parts of `ground` and `verify` (docs/gddl.md): writing the three files into a
 * directory atomically (all three or none) or to stdout, the `--stats` lines of the model, and
 * reading a directory back for `verify --gddl DIR`.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { DEFAULT_GDDL_OPTIONS, GDDL_FILE_NAMES, type GddlFiles, type GddlOptions } from '../pipeline/format-basics.js';
import type { GddlOutput } from '../pipeline/recipes/index.js';
import { UsageError, announceTemp, readGameFile } from './io.js';
import { parseWhole } from './options.js';

/** The GDDL flags as commander parses them. */
interface GddlFlags {
  readonly maxActions?: string;
  readonly maxEffects?: string;
}

/** The GDDL options the flags ask for; a usage error when they are given without `--format gddl`. */
export function resolveGddlFlags(flags: GddlFlags, gddl: boolean): GddlOptions {
  if (!gddl && (flags.maxActions !== undefined || flags.maxEffects !== undefined)) throw new UsageError('--max-actions and --max-effects need --format gddl');
  return {
    maxActions: flags.maxActions === undefined ? DEFAULT_GDDL_OPTIONS.maxActions : parseWhole(flags.maxActions, '--max-actions'),
    maxEffects: flags.maxEffects === undefined ? DEFAULT_GDDL_OPTIONS.maxEffects : parseWhole(flags.maxEffects, '--max-effects'),
  };
}

/** Help texts of the GDDL flags of `ground`. */
export const GDDL_FLAG_HELP = {
  maxActions: `with --format gddl: stop with exit 3 beyond this many multi-actions (default ${DEFAULT_GDDL_OPTIONS.maxActions})`,
  maxEffects: `with --format gddl: stop with exit 3 beyond this many precondition/effect pairs (default ${DEFAULT_GDDL_OPTIONS.maxEffects})`,
} as const;

const entries = (files: GddlFiles): [string, string][] => [
  [GDDL_FILE_NAMES.domain, files.domain],
  [GDDL_FILE_NAMES.problem, files.problem],
  [GDDL_FILE_NAMES.partition, files.partition],
];

/**
 * Writes the three files into `dir` atomically: into a fresh temporary directory beside it,
 * then renamed into place. An existing `dir` is replaced only when it holds nothing but GDDL
 * files of these names (so no file of the user's is ever deleted).
 */
function writeDirAtomic(dir: string, files: GddlFiles): void {
  const target = resolve(dir);
  const tmp = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
  const ours = new Set(Object.values(GDDL_FILE_NAMES) as string[]);
  if (existsSync(target)) {
    let inside: string[];
    try {
      inside = readdirSync(target);
    } catch {
      throw new UsageError(`cannot write '${dir}': it exists and is not a directory`);
    }
    if (inside.some((f) => !ours.has(f))) throw new UsageError(`cannot write '${dir}': it exists and holds files other than ${[...ours].join(', ')}`);
  }
  try {
    announceTemp(tmp, true);
    mkdirSync(tmp);
    for (const [name, text] of entries(files)) writeFileSync(join(tmp, name), text);
    if (existsSync(target)) {
      const old = `${tmp}.old`;
      renameSync(target, old);
      renameSync(tmp, target);
      rmSync(old, { recursive: true, force: true });
    } else renameSync(tmp, target);
  } catch (err) {
    rmSync(tmp, { recursive: true, force: true });
    throw new UsageError(`cannot write '${dir}': ${(err as Error).message}`);
  } finally {
    announceTemp(tmp, false);
  }
}

/** Writes the files into `dir`, or without one prints each after a `; file: NAME` line. */
export function writeGddlOutput(dir: string | undefined, files: GddlFiles): void {
  if (dir !== undefined && dir !== '-') {
    writeDirAtomic(dir, files);
    return;
  }
  for (const [name, text] of entries(files)) process.stdout.write(`; file: ${name}\n${text}`);
}

/** The `--stats` lines of the GDDL model. */
export function formatGddlStats(out: GddlOutput): string {
  const s = out.model.stats;
  const roles = out.model.roles.map((r, i) => `${r} ${s.movesPerRole[i]}`).join(', ');
  return [
    `gddl: moves per role: ${roles}; cross product ${s.crossProduct}, multi-actions written ${s.written}` +
      (s.falsePreconditions > 0 ? ` (${s.falsePreconditions} more had a false global precondition)` : ''),
    `gddl: noop moves per role: ${s.noops.join(', ')}; turn-taking: ${s.turnTaking ? 'yes' : 'no'}; derived predicates: ${s.derived}; ` +
      `groups: ${out.model.groups.filter((g) => g.status === 'proven').length} proven, ${out.model.groups.filter((g) => g.status === 'observed').length} observed, ` +
      `${out.model.groups.filter((g) => g.status === 'singleton').length} singletons`,
  ].join('\n') + '\n';
}

/** Reads the three files of a directory written by `ground --format gddl`. */
export function readGddlDir(dir: string): GddlFiles {
  return {
    domain: readGameFile(join(dir, GDDL_FILE_NAMES.domain)),
    problem: readGameFile(join(dir, GDDL_FILE_NAMES.problem)),
    partition: readGameFile(join(dir, GDDL_FILE_NAMES.partition)),
  };
}
