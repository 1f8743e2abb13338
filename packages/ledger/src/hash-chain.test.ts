import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { parseJson } from '@ewp/core';
import { describe, expect, it } from 'vitest';
import { buildChainEntries, type ChainAnchor, type ChainEntry, EMPTY_ANCHOR, GENESIS_HASH, verifyChain } from './hash-chain.js';

interface Vectors {
  entries: { index: number; event: Record<string, unknown>; prev_hash: string; hash: string }[];
  anchor: ChainAnchor;
  tampered: {
    id: string;
    entries: ChainEntry[];
    anchor: ChainAnchor;
    expected: { ok: boolean; fail_index: number | null; reason: string | null };
    expected_without_anchor: { ok: boolean; fail_index: number | null; reason: string | null };
  }[];
}

// parseJson keeps a float token a float (JsonFloat), so the float-in-event vector stays a float.
const vectors = parseJson(readFileSync(fileURLToPath(new URL('../../../packages/receipts/vectors/audit-chain.json', import.meta.url)), 'utf8')) as unknown as Vectors;

function outcome(r: ReturnType<typeof verifyChain>) {
  return r.ok ? { ok: true, fail_index: null, reason: null } : { ok: false, fail_index: r.firstBadIndex, reason: r.reason };
}

describe('hash chain (receipts SPEC §11 vectors)', () => {
  it('verifies the reference log and reproduces every hash', () => {
    const entries = vectors.entries.map((e) => ({ prev_hash: e.prev_hash, event: e.event, hash: e.hash }));
    expect(verifyChain(entries, vectors.anchor)).toEqual({ ok: true, length: 5, head: vectors.anchor.head_hash });
    let anchor: ChainAnchor = EMPTY_ANCHOR;
    for (const e of vectors.entries) {
      const { seq: _seq, ...event } = e.event;
      const built = buildChainEntries(anchor, [event]);
      expect(built.entries[0]?.hash).toBe(e.hash);
      expect(built.entries[0]?.prev_hash).toBe(e.prev_hash);
      anchor = built.anchor;
    }
    expect(anchor).toEqual(vectors.anchor);
  });

  for (const t of vectors.tampered) {
    it(`${t.id}: first failure with and without the anchor`, () => {
      expect(outcome(verifyChain(t.entries, t.anchor))).toEqual(t.expected);
      expect(outcome(verifyChain(t.entries))).toEqual(t.expected_without_anchor);
    });
  }

  it('checks stored entries (event as EBCJ-1 text) the same way, and refuses non-canonical text', () => {
    const { entries, anchor } = buildChainEntries(EMPTY_ANCHOR, [{ type: 'a' }, { type: 'b' }, { type: 'c' }]);
    expect(verifyChain(entries, anchor)).toEqual({ ok: true, length: 3, head: anchor.head_hash });
    const spaced = entries.map((e, i) => (i === 1 ? { ...e, event: e.event.replace(':', ': ') } : e));
    expect(verifyChain(spaced, anchor)).toMatchObject({ ok: false, firstBadIndex: 1, reason: 'malformed_entry' });
    expect(verifyChain([], anchor)).toMatchObject({ ok: false, firstBadIndex: 0, reason: 'truncated' });
    expect(verifyChain([])).toEqual({ ok: true, length: 0, head: GENESIS_HASH });
  });
});
