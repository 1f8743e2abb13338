import { canonicalViewText, decodeView } from '@ewp/core';
import { arbitraryView } from '@ewp/conformance/generators';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mem0HostedSubject, mem0OssSubject } from './conformance.js';

// CI-sized; raise with EWP_PROPERTY_RUNS for a longer fuzz.
const numRuns = Number(process.env.EWP_PROPERTY_RUNS ?? 30);

describe.each([
  ['mem0-oss', mem0OssSubject],
  ['mem0-hosted', mem0HostedSubject],
])('%s: random valid views round-trip unchanged', (_name, makeSubject) => {
  it('write then read gives the same snapshot, id and adapter_meta', async () => {
    const subject = makeSubject();
    try {
      await fc.assert(
        fc.asyncProperty(arbitraryView({ maxRecords: 4 }), async (raw) => {
          const view = decodeView(raw);
          const adapter = await subject.create();
          await adapter.write(view);
          const back = await adapter.read(view.proposition_id, { viewId: view.view_id });
          expect(canonicalViewText(back)).toBe(canonicalViewText(view));
          expect(back.view_id).toBe(view.view_id);
          const { '@ewp/mem0': _ours, ...meta } = back.adapter_meta;
          expect(meta).toEqual(view.adapter_meta);
        }),
        { numRuns },
      );
    } finally {
      await subject.dispose?.();
    }
  }, 300_000);
});
