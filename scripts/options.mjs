/**
 * The flag reader the measuring scripts share: `takeOption(args, '--seconds', '2')` returns the
 * value after the flag (or the fallback) and removes both from `args`, so what is left are the
 * game files.
 */

/** The value of flag `name` in `args` (removed from it with its value), else `fallback`. */
export function takeOption(args, name, fallback) {
  const i = args.indexOf(name);
  if (i < 0) return fallback;
  const v = args[i + 1];
  args.splice(i, 2);
  return v;
}
