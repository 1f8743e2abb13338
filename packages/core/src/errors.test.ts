import { describe, expect, it } from 'vitest';
import { EWP_ERROR_CODES } from './error-codes.js';
import { EwpError, InvalidAction, InvalidEvidenceView, UnknownPolicy } from './errors.js';

describe('EwpError', () => {
  it('carries code, path and cause', () => {
    const cause = new Error('disk');
    const e = new EwpError('EWP_REFUSE_LEDGER_UNAVAILABLE', 'ledger down', { path: '$.x', cause });
    expect(e.code).toBe('EWP_REFUSE_LEDGER_UNAVAILABLE');
    expect(e.path).toBe('$.x');
    expect(e.cause).toBe(cause);
    expect(e.message).toBe('$.x: ledger down');
  });

  it('isInstance follows the class chain and nothing else', () => {
    const view = new InvalidEvidenceView('WRONG_TYPE', 'S4', '$.a', 'bad');
    expect(EwpError.isInstance(view)).toBe(true);
    expect(InvalidEvidenceView.isInstance(view)).toBe(true);
    expect(UnknownPolicy.isInstance(view)).toBe(false);
    expect(InvalidAction.isInstance(new UnknownPolicy('x'))).toBe(false);
    expect(EwpError.isInstance(new Error('plain'))).toBe(false);
    expect(EwpError.isInstance(null)).toBe(false);
    expect(EwpError.isInstance('EwpError')).toBe(false);
  });

  it('isInstance holds across a second copy of the package (Symbol.for markers)', () => {
    // A class built the way a duplicate install would build it: same marker names, other identity.
    class CopyOfInvalidEvidenceView extends Error {
      constructor() {
        super('copy');
        Object.defineProperty(this, Symbol.for('ewp.error'), { value: true });
        Object.defineProperty(this, Symbol.for('ewp.error.InvalidEvidenceView'), { value: true });
      }
    }
    const copy = new CopyOfInvalidEvidenceView();
    expect(copy instanceof InvalidEvidenceView).toBe(false);
    expect(InvalidEvidenceView.isInstance(copy)).toBe(true);
    expect(EwpError.isInstance(copy)).toBe(true);
  });

  it('every code has a meaning in the one table', () => {
    for (const [code, meaning] of Object.entries(EWP_ERROR_CODES)) {
      expect(code).toMatch(/^[A-Z][A-Z0-9_]+$/);
      expect(meaning.length).toBeGreaterThan(5);
    }
  });

  it('markers are not enumerable (errors serialize as before)', () => {
    const e = new UnknownPolicy('nope');
    expect(Object.keys(e)).not.toContain(Symbol.for('ewp.error'));
    expect(Object.getOwnPropertySymbols(e).every((s) => !Object.getOwnPropertyDescriptor(e, s)?.enumerable)).toBe(true);
    expect(JSON.parse(JSON.stringify(e))).toEqual({ name: 'UnknownPolicy', code: 'UNKNOWN_POLICY' });
  });
});
