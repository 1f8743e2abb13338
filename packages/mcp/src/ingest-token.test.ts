import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assertIngestToken, holdsIngestRole, presentedToken, readIngestTokenFile, WeakIngestTokenError } from './ingest-token.js';

describe('the HTTP ingest token', () => {
  it('is read from Authorization (bearer prefix optional, any case) before X-EWP-Ingest-Token', () => {
    expect(presentedToken({ authorization: 'Bearer abc' })).toBe('abc');
    expect(presentedToken({ authorization: 'bEaReR   abc ' })).toBe('abc');
    expect(presentedToken({ authorization: 'abc' })).toBe('abc');
    expect(presentedToken({ authorization: 'Bearer abc', 'x-ewp-ingest-token': 'xyz' })).toBe('abc');
    expect(presentedToken({ authorization: '', 'x-ewp-ingest-token': 'xyz' })).toBe('xyz');
    expect(presentedToken({ 'x-ewp-ingest-token': ['first', 'second'] })).toBe('first');
    expect(presentedToken({})).toBeUndefined();
  });

  it('grants the role only for the exact token, and never without a configured one', () => {
    expect(holdsIngestRole({ authorization: 'Bearer s3cret' }, 's3cret')).toBe(true);
    expect(holdsIngestRole({ authorization: 'Bearer s3cret ' }, 's3cret')).toBe(true);
    expect(holdsIngestRole({ authorization: 'Bearer s3cre' }, 's3cret')).toBe(false);
    expect(holdsIngestRole({ authorization: 'Bearer s3cretX' }, 's3cret')).toBe(false);
    expect(holdsIngestRole({ authorization: 'Bearer S3CRET' }, 's3cret')).toBe(false);
    expect(holdsIngestRole({}, 's3cret')).toBe(false);
    expect(holdsIngestRole({ authorization: 'Bearer ' }, '')).toBe(false);
    expect(holdsIngestRole({ authorization: 'Bearer anything' }, undefined)).toBe(false);
  });

  it('compares a non-ASCII token as UTF-8 bytes (how a client sends it, and how node:http reads it)', () => {
    const token = 'clé-secrète-€';
    const asReceived = Buffer.from(token, 'utf8').toString('latin1');
    expect(holdsIngestRole({ authorization: `Bearer ${asReceived}` }, token)).toBe(true);
    expect(holdsIngestRole({ authorization: `Bearer ${Buffer.from('clé-secrète-$', 'utf8').toString('latin1')}` }, token)).toBe(false);
  });
});

describe('the ingest token rules', () => {
  it('refuses a token under 32 UTF-8 bytes with one line naming its length', () => {
    expect(() => assertIngestToken('x'.repeat(32))).not.toThrow();
    // 11 characters, 33 bytes: the length is counted in bytes.
    expect(() => assertIngestToken('€'.repeat(11))).not.toThrow();
    for (const short of ['', 'tok-5', 'x'.repeat(31), '€'.repeat(10)]) {
      let caught: unknown;
      try {
        assertIngestToken(short);
      } catch (error) {
        caught = error;
      }
      expect(WeakIngestTokenError.isInstance(caught)).toBe(true);
      expect((caught as Error).message).toBe(
        `the ingest token is ${Buffer.byteLength(short)} bytes; it must be at least 32 (make one with: openssl rand -hex 32)`,
      );
    }
  });

  it('reads a token file trimmed, and warns when its group or others may read it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ewp-token-'));
    const file = join(dir, 'token');
    writeFileSync(file, '  secret-token  \n');
    for (const [mode, warning] of [
      [0o600, undefined],
      [0o400, undefined],
      [0o640, `the token file ${file} is readable by its group (mode 640): chmod 600 it`],
      [0o604, `the token file ${file} is readable by others (mode 604): chmod 600 it`],
      [0o666, `the token file ${file} is readable by others (mode 666): chmod 600 it`],
    ] as const) {
      chmodSync(file, mode);
      expect(await readIngestTokenFile(file)).toEqual(warning === undefined ? { token: 'secret-token' } : { token: 'secret-token', warning });
    }
  });
});
