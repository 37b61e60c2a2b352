/** Command-line options of the benchmarks: `--name value`. */

/** The value after `name`, or undefined when the option is absent. */
export function flagValue(name: string): string | undefined {
  const i = Deno.args.indexOf(name);
  return i >= 0 ? Deno.args[i + 1] : undefined;
}

/** The number after `name`, or `dflt` when the option is absent. */
export function numFlag(name: string, dflt: number): number {
  const value = flagValue(name);
  return value === undefined ? dflt : Number(value);
}
