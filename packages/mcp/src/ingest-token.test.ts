import { describe, expect, it } from 'vitest';
import { holdsIngestRole, presentedToken } from './ingest-token.js';

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
