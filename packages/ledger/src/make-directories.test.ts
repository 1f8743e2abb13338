import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeDirectories } from './make-directories.js';

const dir = mkdtempSync(join(tmpdir(), 'ewp-mkdir-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('makeDirectories', () => {
  it('creates missing ancestors and accepts existing ones', () => {
    makeDirectories(join(dir, 'a', 'b', 'c'));
    expect(existsSync(join(dir, 'a', 'b', 'c'))).toBe(true);
    makeDirectories(join(dir, 'a', 'b'));
  });

  it('refuses at once where the OS never creates the directory (/proc), instead of looping', () => {
    expect(() => makeDirectories('/proc/ewp-x/y')).toThrow(expect.objectContaining({ code: 'EWP_REFUSE_LEDGER_UNAVAILABLE' }));
  });

  it('names a file that stands where a directory must be', () => {
    writeFileSync(join(dir, 'file'), 'x');
    expect(() => makeDirectories(join(dir, 'file', 'sub'))).toThrow(/is not a directory/);
  });
});
