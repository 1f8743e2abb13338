import { domainDigest, ebcj1String } from '@ewp/canonical';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Ed25519Signer, Ed25519Verifier } from '../signing/key-registry.js';
import { ewpViewDigest, ewpViewProjection, normativeWarrantView } from './view-projection.js';
import { issueWarrantReceipt, verifyWarrantReceipt, warrantReceiptDigest } from './warrant-receipt.js';
import { EwpError, decodeView, parseJson } from '@ewp/core';

const pack = fileURLToPath(new URL('../../../../conformance/pack', import.meta.url));
const load = (p: string) => JSON.parse(readFileSync(p, 'utf8'));
type Entry = { family: string; name: string; view: string; proposition_id: string; view_id: string; evaluated_at: string; axes: Record<string, string> };
const all: Entry[] = load(`${pack}/manifest.json`);
const manifest = all.filter((m) => m.family !== 'invalid');
const invalid = all.filter((m) => m.family === 'invalid');
const keys = load(fileURLToPath(new URL('../../../../packages/receipts/vectors/signed-receipts.json', import.meta.url))).keys;
const signer = new Ed25519Signer('key-1', keys['key-1'].seed_hex);
const verifier = new Ed25519Verifier({ 'key-1': { public_hex: keys['key-1'].public_hex, state: 'ACTIVE' } });

describe('docs/spec/receipts.md §12.2 worked example', () => {
  it('normative WarrantView text and ewp-warrant digest', () => {
    const w = {
      protocol_version: 'EWP-0.2.0',
      proposition_id: 'P-hvac',
      view_id: 'v-7',
      policy_id: 'reference-v2',
      policy_version: 'reference-v2',
      evaluated_at: '2026-03-01T10:00:00Z',
      warrant: {
        acceptance: 'TENTATIVE',
        conflict: 'NONE',
        verification: 'INDIRECT',
        currency: 'CURRENT',
        sufficiency: 'SUFFICIENT',
        strength: 0.5,
        rationale_codes: ['x'],
      },
    };
    // biome-ignore lint/suspicious/noExplicitAny: a partial WarrantView is enough for the normative part
    const normative = normativeWarrantView(w as any);
    expect(ebcj1String(normative)).toBe(
      '{"evaluated_at":"2026-03-01T10:00:00Z","policy_id":"reference-v2","policy_version":"reference-v2","proposition_id":"P-hvac","protocol_version":"EWP-0.2.0","view_id":"v-7","warrant":{"acceptance":"TENTATIVE","conflict":"NONE","currency":"CURRENT","sufficiency":"SUFFICIENT","verification":"INDIRECT"}}',
    );
    expect(domainDigest('ewp-warrant', normative)).toBe('2cf0ffc21ef8ce86767fcfb5ae11ca756b14f0cb2ad24f3e32e3cb146f42f3f6');
  });
});

describe(`warrant receipts over the ${manifest.length} conformance fixtures`, () => {
  it('covers all 52 fixtures', () => expect(manifest).toHaveLength(52));
  for (const m of manifest) {
    it(m.name, () => {
      const view = load(`${pack}/${m.view}`);
      const issued = issueWarrantReceipt(view, m.evaluated_at, { signer });
      const normative = {
        protocol_version: 'EWP-0.2.0',
        proposition_id: m.proposition_id,
        view_id: m.view_id,
        policy_id: 'reference-v2',
        policy_version: 'reference-v2',
        evaluated_at: m.evaluated_at,
        warrant: m.axes,
      };
      expect(issued.receipt.warrant_digest).toBe(domainDigest('ewp-warrant', normative));
      expect(issued.receipt_digest).toBe(warrantReceiptDigest(issued.receipt));
      expect(verifyWarrantReceipt(issued.receipt, view)).toMatchObject({ ok: true, status: 'BOUND' });
      expect(verifyWarrantReceipt(issued.signed as never, view, { verifier })).toMatchObject({ ok: true, status: 'VERIFIED' });
    });
  }
});

describe(`the ${invalid.length} invalid views are refused`, () => {
  it('covers all 35 invalid views', () => expect(invalid).toHaveLength(35));
  for (const m of invalid) {
    it(m.name, () => {
      const run = () => issueWarrantReceipt(parseJson(readFileSync(`${pack}/${m.view}`, 'utf8')), m.evaluated_at);
      expect(run).toThrow(EwpError);
    });
  }
});

describe('warrant receipts fail closed', () => {
  const first = manifest[0] as (typeof manifest)[number];
  const view = load(`${pack}/${first.view}`);
  const at = first.evaluated_at;
  const issued = issueWarrantReceipt(view, at, { signer });

  it('an edited record changes view_digest', () => {
    const edited = structuredClone(view);
    edited.assertions[0].text = 'Y';
    const got = verifyWarrantReceipt(issued.receipt, edited);
    expect(got.ok).toBe(false);
    expect(got.status).toBe('MISMATCH');
    expect(got.mismatches).toContain('view_digest');
  });
  it('another T or policy fails', () => {
    expect(verifyWarrantReceipt({ ...issued.receipt, evaluated_at: '2030-01-01T00:00:00Z' }, view).ok).toBe(false);
    expect(verifyWarrantReceipt({ ...issued.receipt, policy_id: 'other' }, view)).toMatchObject({ ok: false, status: 'EVALUATION_FAILED' });
    expect(verifyWarrantReceipt({ ...issued.receipt, warrant_digest: '0'.repeat(64) }, view)).toMatchObject({ ok: false, mismatches: ['warrant_digest'] });
  });
  it('an invalid view or receipt is a status, not an exception', () => {
    expect(verifyWarrantReceipt(issued.receipt, { nope: 1 })).toMatchObject({ ok: false, status: 'INVALID_VIEW' });
    // biome-ignore lint/suspicious/noExplicitAny: deliberately malformed
    expect(verifyWarrantReceipt({ view_id: 3 } as any, view)).toMatchObject({ ok: false, status: 'INVALID_RECEIPT' });
  });
  it('recall salience in adapter_meta and record order never move a digest', () => {
    const bumped = structuredClone(view);
    bumped.adapter_meta = { retrieval_count: 999, rank: 1, score: 0.97, last_accessed: '2026-12-01T00:00:00Z' };
    bumped.assertions.reverse();
    expect(ewpViewDigest(decodeView(bumped))).toBe(issued.receipt.view_digest);
    expect(verifyWarrantReceipt(issued.receipt, bumped).ok).toBe(true);
  });
  it('floats are projected as ES number strings', () => {
    const p = ewpViewProjection(decodeView(view)) as { assertions: { assertion_confidence: unknown }[] };
    expect(typeof p.assertions[0]?.assertion_confidence).toBe('string');
  });
  it('an unsigned receipt is not VERIFIED when a signature is required; a tampered signature fails', () => {
    expect(verifyWarrantReceipt(issued.receipt, view, { verifier })).toMatchObject({ ok: false, status: 'UNSIGNED' });
    const signed = issued.signed as NonNullable<typeof issued.signed>;
    const bad = { ...signed, signature: signed.signature.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')) };
    expect(verifyWarrantReceipt(bad, view, { verifier }).ok).toBe(false);
    const revoked = new Ed25519Verifier({ 'key-1': { public_hex: keys['key-1'].public_hex, state: 'REVOKED' } });
    expect(verifyWarrantReceipt(signed, view, { verifier: revoked })).toMatchObject({ ok: false, status: 'REVOKED_KEY' });
  });
});
