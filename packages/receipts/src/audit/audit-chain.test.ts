import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readJsonExact } from '../canonical/read-json.js';
import { AuditChain, GENESIS_HASH, auditEntryHash, verifyAuditChain } from './audit-chain.js';

const text = readFileSync(fileURLToPath(new URL('../../../../packages/receipts/vectors/audit-chain.json', import.meta.url)), 'utf8');
const v = JSON.parse(text);
// Read exactly too, so a float token like 1.0 in an event stays a float.
const exact = readJsonExact(text, { floats: 'keep' }) as typeof v;

describe('audit-chain.json entries (5)', () => {
  it('has 5 entries', () => expect(v.entries).toHaveLength(5));
  it('rebuilds every entry byte for byte', () => {
    const chain = new AuditChain();
    for (const e of v.entries) {
      const { seq: _s, ...event } = e.event;
      const entry = chain.append(event);
      expect(entry.prev_hash).toBe(e.prev_hash);
      expect(entry.hash).toBe(e.hash);
      expect(Buffer.concat([Buffer.from(e.prev_hash, 'hex'), Buffer.from(e.event_canonical_hex, 'hex')]).toString('hex')).toBe(
        e.hashed_bytes_hex,
      );
      expect(auditEntryHash(e.prev_hash, e.event)).toBe(e.hash);
    }
    expect(chain.anchor).toEqual(v.anchor);
    expect(chain.verify()).toEqual({ ok: true, fail_index: null, reason: null });
    expect(v.entries[0].prev_hash).toBe(GENESIS_HASH);
  });
});

describe('audit-chain.json tampered (13)', () => {
  it('has 13 variants', () => expect(v.tampered).toHaveLength(13));
  for (let k = 0; k < v.tampered.length; k++) {
    const t = v.tampered[k];
    it(`${t.id}: ${t.expected.reason ?? 'ok'} / without anchor ${t.expected_without_anchor.reason ?? 'ok'}`, () => {
      const entries = exact.tampered[k].entries;
      expect(verifyAuditChain(entries, t.anchor)).toEqual(t.expected);
      expect(verifyAuditChain(entries, null)).toEqual(t.expected_without_anchor);
    });
  }
});

describe('appending', () => {
  it('refuses a conflicting seq', () => {
    const chain = new AuditChain();
    expect(() => chain.append({ seq: 3, type: 'x' })).toThrow(/seq/);
  });
});
