/**
 * The CLI's own error codes and its usage error. Its other refusals carry the codes of the
 * packages it drives (core, ledger, receipts, tools), passed on unchanged.
 */
import { type ErrorCodeTable, EwpError } from '@ewp/core';

/** The error codes only @ewp/cli raises, with their meanings. */
export const CLI_ERROR_CODES = {
  USAGE: 'a command line a CLI command cannot run (unknown or conflicting options, a bad value)',
  INPUT_TOO_LARGE: 'a line, list element or document longer than the reader allows',
  PACKAGE_NOT_INSTALLED:
    'a command needs an optional package (@ewp/postgres, @ewp/inspect, @ewp/conformance; better-sqlite3 before Node 22.16) that is not installed',
  COMMAND_FAILED: 'the command `ewp decisions run` ran for a decision exited non-zero or was ended by a signal',
} as const satisfies ErrorCodeTable;

/** A code of {@link CLI_ERROR_CODES}. */
export type CliErrorCode = keyof typeof CLI_ERROR_CODES;

/**
 * The one error of a command line a verb cannot run (an unknown or conflicting option, a bad value,
 * an unreadable argument file): code `USAGE`, the message names the option. Verbs report it with
 * `usageError` and exit with EXIT_USAGE.
 */
export class UsageError extends EwpError<CliErrorCode> {
  static override readonly marker: symbol = Symbol.for('ewp.error.UsageError');
  constructor(message: string) {
    super('USAGE', message);
    this.name = 'UsageError';
  }
}

/** The command `ewp decisions run` ran for a decision failed: its exit code or signal, recorded as the decision's outcome. */
export class CommandFailedError extends EwpError<CliErrorCode> {
  static override readonly marker: symbol = Symbol.for('ewp.error.CommandFailedError');
  constructor(message: string) {
    super('COMMAND_FAILED', message);
    this.name = 'CommandFailedError';
  }
}
