/**
 * The packages only some commands need (PostgreSQL, the inspector, the conformance suite; better-sqlite3
 * for a SQLite ledger before Node 22.16) are optional peers, so `npx -y @ewp/cli hook pre-tool-use` installs
 * none of them; a command that needs one imports it here and, when it is missing, says exactly what to install.
 */
import { EwpError } from '@ewp/core';
import type { CliErrorCode } from './errors.js';

/** Whether a loader error says a module is not installed (Node's codes; vite-node's, under vitest, is a plain message). */
export function isNotInstalled(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  if (code === 'ERR_MODULE_NOT_FOUND' || code === 'ERR_PACKAGE_PATH_NOT_EXPORTED' || code === 'MODULE_NOT_FOUND') return true;
  return /^Failed to (load url|resolve import)|^Cannot find (package|module)/.test(String((error as Error | null)?.message));
}

/** The package a not-installed loader error names (`Cannot find package '@ewp/x' imported from …`), if it names one. */
export function missingPackageName(error: unknown): string | undefined {
  if (!isNotInstalled(error)) return undefined;
  const specifier = /(?:Cannot find (?:package|module)|Failed to (?:load url|resolve import)) ["']?([^"'\s]+)/.exec(String((error as Error).message))?.[1];
  if (specifier === undefined || specifier.startsWith('.') || specifier.startsWith('/')) return undefined;
  return specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0];
}

/**
 * A command needs an optional package that is not installed: code `PACKAGE_NOT_INSTALLED`; the message
 * names the package and the commands that install it. The verbs report it and exit with EXIT_USAGE (2).
 */
export class PackageNotInstalledError extends EwpError<CliErrorCode> {
  static override readonly marker: symbol = Symbol.for('ewp.error.PackageNotInstalledError');
  /** The package to install. */
  readonly packageName: string;
  constructor(packageName: string, neededFor: string, cause?: unknown) {
    super(
      'PACKAGE_NOT_INSTALLED',
      `${neededFor} needs ${packageName}, which is not installed: run \`npm install ${packageName}\` beside @ewp/cli` +
        ` (or \`npx -y -p @ewp/cli -p ${packageName} ewp ...\`), then run again`,
      cause === undefined ? undefined : { cause },
    );
    this.name = 'PackageNotInstalledError';
    this.packageName = packageName;
  }
}

/**
 * Import an optional package with `load` (a literal `import()`, so the bundler keeps it external and lazy).
 * @throws {PackageNotInstalledError} when it, or a package it needs, is not installed.
 */
export async function importOptional<T>(packageName: string, neededFor: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (!isNotInstalled(error)) throw error;
    throw new PackageNotInstalledError(packageName, neededFor, error);
  }
}
