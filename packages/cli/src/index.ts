/**
 * The `ewp` command as a library: every verb, callable with your own streams.
 * @packageDocumentation
 */
export * from './cli-io.js';
export { COMMANDS } from './commands.js';
export { CLI_ERROR_CODES, type CliErrorCode, UsageError } from './errors.js';
