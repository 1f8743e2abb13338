import { describe, expect, it } from 'vitest';
import { type ErrorCodeTable, EWP_ERROR_CODES } from './error-codes.js';
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

  it("every code has a meaning in the kernel's table", () => {
    for (const [code, meaning] of Object.entries(EWP_ERROR_CODES)) {
      expect(code).toMatch(/^[A-Z][A-Z0-9_]+$/);
      expect(meaning.length).toBeGreaterThan(5);
    }
  });

  it("carries a package's own code when the class names its table, and only then", () => {
    const TABLE = { DEMO_REFUSAL: 'a refusal only the demo package raises' } as const satisfies ErrorCodeTable;
    class DemoError extends EwpError<keyof typeof TABLE> {
      static override readonly marker: symbol = Symbol.for('ewp.error.DemoError');
    }
    const e = new DemoError('DEMO_REFUSAL', 'no');
    expect(e).toMatchObject({ code: 'DEMO_REFUSAL', message: 'no' });
    expect(EwpError.isInstance(e) && DemoError.isInstance(e)).toBe(true);
    expect(new EwpError<keyof typeof TABLE>('DEMO_REFUSAL', 'no').code).toBe('DEMO_REFUSAL');
    // @ts-expect-error a plain EwpError takes core codes only
    expect(new EwpError('DEMO_REFUSAL', 'no').code).toBe('DEMO_REFUSAL');
    // @ts-expect-error a class that names its codes takes those only
    expect(new DemoError('JSON_SYNTAX', 'no').code).toBe('JSON_SYNTAX');
    const caught: unknown = e;
    if (EwpError.isInstance(caught)) {
      const code: string = caught.code; // a caught error's code is any package's code
      expect(code).toBe('DEMO_REFUSAL');
    }
    expect(Object.hasOwn(EWP_ERROR_CODES, 'DEMO_REFUSAL')).toBe(false);
  });

  it('markers are not enumerable (errors serialize as before)', () => {
    const e = new UnknownPolicy('nope');
    expect(Object.keys(e)).not.toContain(Symbol.for('ewp.error'));
    expect(Object.getOwnPropertySymbols(e).every((s) => !Object.getOwnPropertyDescriptor(e, s)?.enumerable)).toBe(true);
    expect(JSON.parse(JSON.stringify(e))).toEqual({ name: 'UnknownPolicy', code: 'UNKNOWN_POLICY' });
  });
});
