import { describe, expect, it } from 'vitest';
import { EwpError } from './errors.js';
import { FIELD_LIMITS } from '@ewp/spec';
import { checkFieldSize, checkJsonBounds, FieldTooLargeError } from './field-limits.js';

function refusal(run: () => void): FieldTooLargeError {
  try {
    run();
  } catch (error) {
    if (FieldTooLargeError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('not refused');
}

describe('the field-limits table', () => {
  it('passes values at every limit', () => {
    let deep: unknown = 'x';
    for (let i = 1; i < FIELD_LIMITS.depth; i++) deep = [deep];
    expect(() =>
      checkJsonBounds({
        proposition_id: 'p'.repeat(FIELD_LIMITS.id),
        action: { kind: 'k'.repeat(FIELD_LIMITS.kind) },
        text: 't'.repeat(FIELD_LIMITS.text),
        supports: Array.from({ length: FIELD_LIMITS.array - 1 }, () => 'h'),
      }),
    ).not.toThrow();
    expect(() => checkJsonBounds(deep)).not.toThrow();
  });

  it('refuses one past each limit, naming the field path and the row', () => {
    const id = refusal(() => checkJsonBounds({ action: { action_id: 'a'.repeat(FIELD_LIMITS.id + 1) } }));
    expect(id).toMatchObject({ code: 'EWP_REFUSE_FIELD_TOO_LARGE', path: '$.action.action_id', limit: 'id' });
    expect(EwpError.isInstance(id)).toBe(true);
    expect(refusal(() => checkJsonBounds({ action: { kind: 'k'.repeat(FIELD_LIMITS.kind + 1) } }))).toMatchObject({ path: '$.action.kind', limit: 'kind' });
    expect(refusal(() => checkJsonBounds({ view: { evidence: [{ content: 'c'.repeat(FIELD_LIMITS.text + 1) }] } }))).toMatchObject({
      path: '$.view.evidence[0].content',
      limit: 'text',
    });
    expect(refusal(() => checkJsonBounds({ supports: new Array(FIELD_LIMITS.array + 1).fill('h') }))).toMatchObject({ path: '$.supports', limit: 'array' });
    const wide = Object.fromEntries(Array.from({ length: FIELD_LIMITS.array + 1 }, (_, i) => [`k${i}`, i]));
    expect(refusal(() => checkJsonBounds({ meta: wide }))).toMatchObject({ path: '$.meta', limit: 'array' });
    let deep: unknown = 1;
    for (let i = 0; i <= FIELD_LIMITS.depth; i++) deep = { a: deep };
    // The object at level depth + 1 is the one refused.
    expect(refusal(() => checkJsonBounds(deep))).toMatchObject({ limit: 'depth', path: `$${'.a'.repeat(FIELD_LIMITS.depth)}` });
    expect(refusal(() => checkFieldSize('x'.repeat(FIELD_LIMITS.kind + 1), '$.source', 'kind')).message).toContain('longer than 128 characters');
  });

  it('a hostile depth is refused without exhausting the stack', () => {
    let deep: unknown = [];
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(refusal(() => checkJsonBounds(deep)).limit).toBe('depth');
  });
});
