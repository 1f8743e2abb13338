import { canonicalViewText, decodeView } from '@ewp/core';
import fc from 'fast-check';
import { arbitraryView } from '../generators/view-arbitrary.js';
import { type AdapterSubject, readBack } from './memory-adapter.js';

function hasLoneSurrogate(value: unknown): boolean {
  if (typeof value === 'string') return /\p{Surrogate}/u.test(value);
  if (Array.isArray(value)) return value.some(hasLoneSurrogate);
  if (typeof value === 'object' && value !== null) return Object.entries(value).some(([k, v]) => hasLoneSurrogate(k) || hasLoneSurrogate(v));
  return false;
}

/**
 * Registers, per subject, the property that any random valid view written through the adapter reads
 * back as the same snapshot (canonical text), with the same view id and the same `adapter_meta` once
 * the adapter's own `metaNamespace` entry is set aside. CI-sized at 30 runs; raise with
 * EWP_PROPERTY_RUNS for a longer fuzz. Call with top-level `await` from a test file.
 */
export async function runRoundTripProperty(subjects: [name: string, makeSubject: () => AdapterSubject][], metaNamespace: string): Promise<void> {
  const { describe, expect, it } = await import('vitest');
  const numRuns = Number(process.env.EWP_PROPERTY_RUNS ?? 30);
  describe.each(subjects)('%s: random valid views round-trip unchanged', (_name, makeSubject) => {
    it('write then read gives the same snapshot, id and adapter_meta', async () => {
      const subject = makeSubject();
      try {
        await fc.assert(
          fc.asyncProperty(arbitraryView({ maxRecords: 4 }), async (raw) => {
            const view = decodeView(raw);
            const adapter = await subject.create();
            const refused = await adapter.put(view).then(
              () => undefined,
              (error: unknown) => error,
            );
            if (refused !== undefined) {
              // A ledger-backed adapter logs ids as EBCJ-1 text, which has no lone surrogates: the
              // one refusal allowed, and only for a view that has one.
              expect((refused as { code?: unknown }).code).toBe('LONE_SURROGATE');
              expect(hasLoneSurrogate(view)).toBe(true);
              return;
            }
            const back = await readBack(adapter, view.proposition_id, view.view_id);
            expect(canonicalViewText(back)).toBe(canonicalViewText(view));
            expect(back.view_id).toBe(view.view_id);
            const { [metaNamespace]: _ours, ...meta } = back.adapter_meta;
            expect(meta).toEqual(view.adapter_meta);
          }),
          { numRuns },
        );
      } finally {
        await subject.dispose?.();
      }
    }, 300_000);
  });
}
