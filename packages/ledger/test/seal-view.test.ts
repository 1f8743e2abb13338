/** `sealView`: decoded once, frozen, and taken as decoded by the stores of this process. */
import { decodeView } from '@ewp/core';
import { describe, expect, it } from 'vitest';
import { MemoryEvidenceStore, sealView } from '../src/index.js';
import { seedView } from '../test-support/fault-views.js';

function everyObject(value: unknown, out: object[] = []): object[] {
  if (typeof value !== 'object' || value === null) return out;
  out.push(value);
  for (const x of Object.values(value)) everyObject(x, out);
  return out;
}

describe('sealView', () => {
  const full = {
    ...seedView('P-seal'),
    checks: [
      {
        check_id: 'c0',
        method: 'probe',
        scope: 'direct',
        source: seedView('P-seal').evidence[0]?.source,
        observed_at: '2026-09-01T00:00:00+00:00',
        result: 'supports',
        subjects: ['e0', 'a0'],
      },
    ],
    conflicts: [{ conflict_id: 'k0', proposition_ids: ['P-seal', 'P-other'], status: 'open', note: 'n' }],
    lineage: [{ from_id: 'e0', to_id: 'a0', kind: 'derived_from' }],
    subjects: ['x'],
    adapter_meta: { nested: { list: [1, { deep: true }] } },
  };

  it('decodes exactly as decodeView, and freezes every object of the result', () => {
    const sealed = sealView(full);
    expect(sealed).toEqual(decodeView(full));
    const objects = everyObject(sealed);
    expect(objects.length).toBeGreaterThan(15);
    for (const o of objects) expect(Object.isFrozen(o)).toBe(true);
    // Nothing of the caller's input was frozen.
    expect(everyObject(full).some((o) => Object.isFrozen(o))).toBe(false);
    expect(() => {
      (sealed.evidence as { content: string }[])[0]!.content = 'changed after the check';
    }).toThrow(TypeError);
  });

  it('refuses what decodeView refuses, with the same code and path', () => {
    const bad = { ...seedView('P-bad'), evidence: [{ ...seedView('P-bad').evidence[0], polarity: 'maybe' }] };
    let expected: unknown;
    try {
      decodeView(bad);
    } catch (error) {
      expected = error;
    }
    expect(expected).toBeDefined();
    expect(() => sealView(bad)).toThrow(expected as Error);
    expect(() => sealView(bad)).toThrowError(expect.objectContaining({ code: (expected as { code: string }).code, path: (expected as { path: string }).path }));
  });

  it('is stored by put and putMany as the view it was; a look-alike copy is still decoded (and refused when invalid)', async () => {
    const store = new MemoryEvidenceStore();
    await store.putMany([sealView(seedView('P-1')), sealView(full)]);
    await store.put(sealView(seedView('P-2')));
    expect(await store.get('P-1')).toEqual(decodeView(seedView('P-1')));
    expect(await store.get('P-seal')).toEqual(decodeView(full));
    expect(await store.get('P-2')).toEqual(decodeView(seedView('P-2')));
    // A copy of a sealed view is not sealed: a copy made invalid is refused, as any input.
    const copy = structuredClone(sealView(seedView('P-3'))) as { evidence: { polarity: string }[] };
    (copy.evidence[0] as { polarity: string }).polarity = 'maybe';
    await expect(store.putMany([sealView(seedView('P-4')), copy])).rejects.toMatchObject({ code: 'UNKNOWN_ENUM_VALUE' });
    expect(await store.get('P-4')).toBeUndefined();
    await store.close();
  });
});
