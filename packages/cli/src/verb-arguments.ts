import { type CliIO, EXIT_OK, EXIT_USAGE } from './cli-io.js';

/**
 * Parse a verb's arguments with `parse`. When they cannot be parsed, writes the reason and the
 * verb's help to stderr and returns EXIT_USAGE; with `--help`, writes the help to stdout and returns
 * EXIT_OK. Otherwise returns what `parse` returned, for the verb to go on.
 */
export function parseVerbArguments<T extends { values: { help?: boolean | undefined } }>(verb: string, help: string, io: CliIO, parse: () => T): T | number {
  let parsed: T;
  try {
    parsed = parse();
  } catch (error) {
    io.stderr.write(`ewp ${verb}: ${(error as Error).message}\n\n${help}`);
    return EXIT_USAGE;
  }
  if (parsed.values.help) {
    io.stdout.write(help);
    return EXIT_OK;
  }
  return parsed;
}
