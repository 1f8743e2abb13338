import { describe, expect, it } from 'vitest';
import { AXES, AXIS_VALUES, DECISIONS, RISKS, SOURCE_REF_FIELDS, type SourceRef, sourceRefOf } from '@ewp/spec';
import { MAY_ACT_RULES } from './may-act.js';

describe('the vocabulary as values', () => {
  it('sourceRefOf copies exactly SOURCE_REF_FIELDS, in order, and drops anything else', () => {
    const s = Object.fromEntries(SOURCE_REF_FIELDS.map((f) => [f, `v-${f}`])) as unknown as SourceRef;
    const copy = sourceRefOf({ ...s, extra: 'x' } as SourceRef);
    expect(Object.keys(copy)).toEqual([...SOURCE_REF_FIELDS]);
    expect(copy).toEqual(s);
  });

  it('lists the five axes and every decision the gate table can give', () => {
    expect(AXES).toEqual(['acceptance', 'conflict', 'verification', 'currency', 'sufficiency']);
    expect(new Set(MAY_ACT_RULES.map((r) => r.decision))).toEqual(new Set(DECISIONS));
    expect(Object.isFrozen(AXIS_VALUES) && AXES.every((a) => Object.isFrozen(AXIS_VALUES[a]))).toBe(true);
    expect(RISKS).toEqual(['low', 'medium', 'high']);
  });
});
