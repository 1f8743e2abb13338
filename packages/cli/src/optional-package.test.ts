/**
 * An optional peer that is not installed: the real loader's error becomes a typed refusal naming the
 * package and the command that installs it; any other error passes through unchanged.
 */
import { EwpError } from '@ewp/core';
import { describe, expect, it } from 'vitest';
import { CLI_ERROR_CODES } from './errors.js';
import { importOptional, isNotInstalled, missingPackageName, PackageNotInstalledError } from './optional-package.js';

/** A package no workspace or registry holds, imported through a variable as an uninstalled peer would be. */
const ABSENT = '@ewp/absent-for-test';
const importAbsent = () => import(/* @vite-ignore */ `${ABSENT}/sub`);

describe('importOptional', () => {
  it('turns the loader error for a missing package into PACKAGE_NOT_INSTALLED with the install command', async () => {
    const error = await importOptional(ABSENT, 'a PostgreSQL ledger (--pg)', importAbsent).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(PackageNotInstalledError.isInstance(error)).toBe(true);
    expect(EwpError.isInstance(error)).toBe(true);
    const e = error as PackageNotInstalledError;
    expect(e.code).toBe('PACKAGE_NOT_INSTALLED');
    expect(Object.keys(CLI_ERROR_CODES)).toContain(e.code);
    expect(e.packageName).toBe(ABSENT);
    expect(e.message).toContain(`a PostgreSQL ledger (--pg) needs ${ABSENT}, which is not installed`);
    expect(e.message).toContain(`npm install ${ABSENT}`);
    expect(isNotInstalled(e.cause)).toBe(true);
  });

  it('answers the module of an installed package, and passes other errors through', async () => {
    const core = await importOptional('@ewp/core', 'test', () => import('@ewp/core'));
    expect(typeof core.EwpError).toBe('function');
    const boom = new TypeError('boom');
    await expect(importOptional('@ewp/core', 'test', () => Promise.reject(boom))).rejects.toBe(boom);
  });
});

describe('missingPackageName', () => {
  it("names the package of the real loader's error, a scope and subpath cut to the package", async () => {
    const error = await importAbsent().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(missingPackageName(error)).toBe(ABSENT);
  });

  it("reads Node's own message, and nothing from errors that are not about a missing package", () => {
    const node = Object.assign(new Error(`Cannot find package 'pg' imported from /app/node_modules/@ewp/postgres/dist/index.js`), {
      code: 'ERR_MODULE_NOT_FOUND',
    });
    expect(missingPackageName(node)).toBe('pg');
    const relative = Object.assign(new Error(`Cannot find module '/app/dist/x.js' imported from /app/dist/bin.js`), { code: 'ERR_MODULE_NOT_FOUND' });
    expect(missingPackageName(relative)).toBeUndefined();
    expect(missingPackageName(new Error('Cannot read properties of undefined'))).toBeUndefined();
  });
});
