import { type CliIO, EXIT_OK, EXIT_USAGE } from './cli-io.js';

/**
 * Report unusable arguments of `verb` as one line on stderr (the reason, and where the usage is) and
 * return EXIT_USAGE. The full help is for `--help`: repeating it after every mistake buries the reason.
 */
export function usageError(verb: string, message: string, io: CliIO): number {
  io.stderr.write(`ewp ${verb}: ${message} (usage: ewp ${verb} --help)\n`);
  return EXIT_USAGE;
}

/**
 * Parse a verb's arguments with `parse`. When they cannot be parsed, writes the reason as one line
 * to stderr ({@link usageError}) and returns EXIT_USAGE; with `--help`, writes the help to stdout and returns
 * EXIT_OK. Otherwise returns what `parse` returned, for the verb to go on.
 */
export function parseVerbArguments<T extends { values: { help?: boolean | undefined } }>(verb: string, help: string, io: CliIO, parse: () => T): T | number {
  let parsed: T;
  try {
    parsed = parse();
  } catch (error) {
    return usageError(verb, (error as Error).message, io);
  }
  if (parsed.values.help) {
    io.stdout.write(help);
    return EXIT_OK;
  }
  return parsed;
}
