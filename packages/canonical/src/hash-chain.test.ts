import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { EwpError, parseJson } from '@ewp/core';
import { describe, expect, it } from 'vitest';
import { ebcj1String } from './ebcj1.js';
import { buildChainEntries, type ChainAnchor, type ChainEntry, chainHash, EMPTY_ANCHOR, GENESIS_HASH, verifyChain } from './hash-chain.js';
import { readJsonExact } from './read-json.js';

interface Vectors {
  entries: { index: number; event: Record<string, unknown>; event_canonical_hex: string; hashed_bytes_hex: string; prev_hash: string; hash: string }[];
  anchor: ChainAnchor;
  tampered: {
    id: string;
    entries: ChainEntry[];
    anchor: ChainAnchor;
    expected: { ok: boolean; fail_index: number | null; reason: string | null };
    expected_without_anchor: { ok: boolean; fail_index: number | null; reason: string | null };
  }[];
}

const text = readFileSync(fileURLToPath(new URL('../vectors/audit-chain.json', import.meta.url)), 'utf8');
// Both readers keep a float token a float (core's JsonFloat), so the float-in-event vector stays a float.
const vectors = parseJson(text) as unknown as Vectors;
const exact = readJsonExact(text, { floats: 'keep' }) as Vectors;

function outcome(r: ReturnType<typeof verifyChain>) {
  return r.ok ? { ok: true, fail_index: null, reason: null } : { ok: false, fail_index: r.firstBadIndex, reason: r.reason };
}

describe('hash chain (audit-chain.json: 5 entries, 13 tampered variants)', () => {
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
    expect(vectors.entries[0]?.prev_hash).toBe(GENESIS_HASH);
  });

  it('hashes the raw 32 bytes of prev_hash, then the EBCJ-1 bytes of the event', () => {
    for (const e of vectors.entries) {
      const canonical = ebcj1String(e.event);
      expect(Buffer.from(canonical, 'utf8').toString('hex')).toBe(e.event_canonical_hex);
      expect(Buffer.concat([Buffer.from(e.prev_hash, 'hex'), Buffer.from(canonical, 'utf8')]).toString('hex')).toBe(e.hashed_bytes_hex);
      expect(chainHash(e.prev_hash, canonical)).toBe(e.hash);
    }
  });

  for (const t of vectors.tampered) {
    it(`${t.id}: first failure with and without the anchor`, () => {
      expect(outcome(verifyChain(t.entries, t.anchor))).toEqual(t.expected);
      expect(outcome(verifyChain(t.entries))).toEqual(t.expected_without_anchor);
    });
  }

  it('gives the same verdicts on the vectors read by the lossless reader', () => {
    for (const t of exact.tampered) {
      expect(outcome(verifyChain(t.entries, t.anchor))).toEqual(t.expected);
      expect(outcome(verifyChain(t.entries, null))).toEqual(t.expected_without_anchor);
    }
  });

  it('refuses an event whose seq is not its position, and accepts one that already carries it', () => {
    const first = buildChainEntries(EMPTY_ANCHOR, [{ type: 'a' }]);
    let error: unknown;
    try {
      buildChainEntries(first.anchor, [
        { type: 'b', seq: 1 },
        { type: 'c', seq: 3 },
      ]);
    } catch (e) {
      error = e;
    }
    expect(EwpError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'SEQ_MISMATCH', path: '$[1].seq' });
    const second = buildChainEntries(first.anchor, [{ type: 'b', seq: 1 }]);
    expect(second.entries[0]?.event).toBe('{"seq":1,"type":"b"}');
    expect(verifyChain([...first.entries, ...second.entries], second.anchor)).toMatchObject({ ok: true, length: 2 });
  });

  it('checks stored entries (event as EBCJ-1 text) the same way, and refuses non-canonical text', () => {
    const { entries, anchor } = buildChainEntries(EMPTY_ANCHOR, [{ type: 'a' }, { type: 'b' }, { type: 'c' }]);
    expect(verifyChain(entries, anchor)).toEqual({ ok: true, length: 3, head: anchor.head_hash });
    const spaced = entries.map((e, i) => (i === 1 ? { ...e, event: e.event.replace(':', ': ') } : e));
    expect(verifyChain(spaced, anchor)).toMatchObject({ ok: false, firstBadIndex: 1, reason: 'malformed_entry' });
    expect(verifyChain([], anchor)).toMatchObject({ ok: false, firstBadIndex: 0, reason: 'truncated' });
    expect(verifyChain([])).toEqual({ ok: true, length: 0, head: GENESIS_HASH });
  });
});

describe('chainHash', () => {
  const reference = (prev: string, text: string) => createHash('sha256').update(Buffer.from(prev, 'hex')).update(text, 'utf8').digest('hex');

  it('hashes raw32(prev) || UTF-8(event), for any previous hash Buffer.from reads', () => {
    const text = '{"a":"\u00e9\u{1f600}","seq":1}';
    for (const prev of [GENESIS_HASH, 'ab'.repeat(32), 'AB'.repeat(32), 'ab'.repeat(33), 'ab'.repeat(31), 'zz'.repeat(32), `${'ab'.repeat(31)}zz`, '']) {
      expect(chainHash(prev, text)).toBe(reference(prev, text));
    }
    expect(chainHash('ab'.repeat(32), '')).toBe(reference('ab'.repeat(32), ''));
  });
});
