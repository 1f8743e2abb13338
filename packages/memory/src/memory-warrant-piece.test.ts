// A memory's warrant at T comes from its cached view's warrant piece while T stays inside it: the same
// axes as warrantNow over a fresh read of the memory's view, at every T, in any order of T.
import { REFERENCE_V2, warrantNow } from '@ewp/core';
import { MemoryEvidenceStore } from '@ewp/ledger';
import { describe, expect, it } from 'vitest';
import { MemoryLedger } from './memory-ledger.js';
import { propositionOf } from './memory-records.js';

describe('memory warrant from the cached view piece', () => {
  it('answers as warrantNow at T before, between and after the records, asked in any order', async () => {
    const store = new MemoryEvidenceStore();
    let now = '2026-03-01T00:00:00Z';
    const ledger = new MemoryLedger(store, { now: () => now });
    const target = await ledger.store({ text: 'the deploy runs from main', class: 'observation' });
    now = '2026-03-02T00:00:00Z';
    const support = await ledger.store({ text: 'ci log: deploy job on main', class: 'evidence', supports: [target.hash] });
    now = '2026-03-03T00:00:00Z';
    await ledger.refute((await ledger.store({ text: 'deploy ran from a branch', class: 'observation' })).hash, target.hash);
    const times = [
      '2027-01-01T00:00:00Z',
      '2026-02-01T00:00:00Z',
      '2026-03-01T00:00:00Z',
      '2026-03-01T12:00:00Z',
      '2026-03-02T00:00:00Z',
      '2026-03-02T23:59:59.999999Z',
      '2026-03-03T00:00:00Z',
      '2026-03-01T00:00:00Z',
      '2027-01-01T00:00:00Z',
    ];
    let differing = 0;
    let last = '';
    for (const hash of [target.hash, support.hash]) {
      for (const at of times) {
        const shown = await ledger.show(hash, at);
        const view = await store.get(propositionOf(hash));
        const { strength: _s, rationale_codes: _r, ...axes } = warrantNow(view as NonNullable<typeof view>, REFERENCE_V2, at).warrant;
        expect(shown.warrant, `${hash} at ${at}`).toEqual(axes);
        expect(shown.evaluated_at).toBe(at);
        if (JSON.stringify(axes) !== last) differing += 1;
        last = JSON.stringify(axes);
      }
    }
    // The times cross pieces: the warrant is not the same at all of them.
    expect(differing).toBeGreaterThan(2);
  });
});
