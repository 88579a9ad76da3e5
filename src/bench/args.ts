/** The plain `--name value` reading of the benchmark's arguments (run.ts, corpus.ts). */

/** The value after `name` in `argv`, or undefined when `name` is absent. */
export function argValue(argv: readonly string[], name: string): string | undefined {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
}

/** The positive number after `name` (`fallback` when absent; whole when `whole`); throws with a message otherwise. */
export function positiveArg(argv: readonly string[], name: string, fallback: number, whole = false): number {
  const v = argValue(argv, name);
  const n = v === undefined ? fallback : Number(v);
  if (!Number.isFinite(n) || n <= 0 || (whole && !Number.isInteger(n))) throw new Error(`${name} needs a positive ${whole ? 'whole ' : ''}number${v === undefined ? '' : `, not '${v}'`}`);
  return n;
}
