import { ebcj1String } from '@ewp/canonical';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TimestampError } from '../errors.js';
import { checkpointDigest, evidenceDigest } from './digests.js';
import { parseInstantMicros } from './instant.js';
import { type Checkpoint, checkpoint, checkpointPayload } from './model.js';
import { verifyReceipt, verifyVerificationReceipt } from './receipt-checks.js';
import { type VerificationResult, verificationPayloadOf, verifyCheckpoint } from './verification.js';

const vectors = JSON.parse(readFileSync(fileURLToPath(new URL('../../../../packages/receipts/vectors/verification-scenarios.json', import.meta.url)), 'utf8'));

describe('verification-scenarios.json scenarios (51)', () => {
  it('has 51 scenarios', () => expect(vectors.scenarios).toHaveLength(51));
  for (const s of vectors.scenarios) {
    it(s.id, () => {
      const cp: Checkpoint = s.input.checkpoint;
      const ex = s.expected;
      expect(ebcj1String(checkpointPayload(cp))).toBe(ex.checkpoint_canonical_utf8);
      expect(checkpointDigest(cp)).toBe(ex.checkpoint_digest);
      const snapshot: Record<string, string | null> = {};
      for (const e of cp.evidence) snapshot[e.evidence_id] = evidenceDigest(e);
      expect(snapshot).toEqual(ex.snapshot_evidence_digests);
      const run = () =>
        verifyCheckpoint(cp, {
          currentEvidence: s.input.current_evidence,
          expectedPolicy: s.input.expected_policy,
          priorReceipt: s.input.prior_receipt,
          now: s.input.now,
        });
      if (ex.error !== null) {
        expect(run).toThrow(TimestampError);
        expect(run).toThrow(ex.error.message);
        return;
      }
      const result = run();
      expect(result).toEqual(ex.result);
      const { receipt: _r, ...body } = result;
      expect(ebcj1String(verificationPayloadOf(body, result.receipt.checkpoint_digest))).toBe(ex.verification_payload_canonical_utf8);
      expect(result.receipt.verification_digest).toBe(ex.verification_digest);
      expect(verifyReceipt(result.receipt, cp)).toBe(ex.verify_receipt);
      expect(verifyVerificationReceipt(result, cp)).toBe(ex.verify_verification_receipt);
    });
  }
});

describe('verification-scenarios.json receipt_checks (14)', () => {
  it('has 14 checks', () => expect(vectors.receipt_checks).toHaveLength(14));
  const byId = new Map(vectors.scenarios.map((s: { id: string }) => [s.id, s]));
  for (const c of vectors.receipt_checks) {
    it(c.id, () => {
      const base = byId.get(c.base_scenario) as { input: { checkpoint: Checkpoint } };
      const cp = c.checkpoint ?? base.input.checkpoint;
      expect(verifyReceipt(c.receipt, cp)).toBe(c.expected_verify_receipt);
      expect(verifyVerificationReceipt(c.result as VerificationResult, cp)).toBe(c.expected_verify_verification_receipt);
    });
  }
});

describe('time rules', () => {
  it('normalizes offsets, keeps microseconds, truncates beyond', () => {
    expect(parseInstantMicros('2026-01-01T02:00:00+02:00')).toBe(parseInstantMicros('2026-01-01T00:00:00Z'));
    expect(parseInstantMicros('2026-01-01T00:00:00.000100Z')).toBeLessThan(parseInstantMicros('2026-01-01T00:00:00.0009Z'));
    expect(parseInstantMicros('2026-01-01T00:00:00.0000019Z')).toBe(parseInstantMicros('2026-01-01T00:00:00.000001Z'));
    expect(parseInstantMicros('1970-01-01T00:00:00Z')).toBe(0n);
  });
  it('refuses naive and malformed timestamps with typed codes', () => {
    expect(() => parseInstantMicros('2026-01-01T00:00:00')).toThrow(expect.objectContaining({ code: 'NAIVE_TIMESTAMP' }));
    expect(() => parseInstantMicros('2026-01-01')).toThrow(expect.objectContaining({ code: 'NAIVE_TIMESTAMP' }));
    expect(() => parseInstantMicros('2026-02-30T00:00:00Z')).toThrow(expect.objectContaining({ code: 'BAD_TIMESTAMP' }));
    expect(() => parseInstantMicros('2026-01-01T24:00:00Z')).toThrow(expect.objectContaining({ code: 'BAD_TIMESTAMP' }));
    expect(() => parseInstantMicros('2026-01-01T00:00:00z')).toThrow(TimestampError);
  });
  it('defaults of the checkpoint builder match the reference serialization', () => {
    const cp = checkpoint({
      checkpoint_id: 'A',
      agent: 'A',
      evidence: [{ evidence_id: 'e1', payload: { value: 1 }, provenance: { source: 'tool', locator: 'urn:example:source' } }],
      output: { step: 'A' },
      policy: { policy_id: 'safety', version: '1' },
    });
    expect(checkpointDigest(cp)).toBe(vectors.scenarios[0].expected.checkpoint_digest);
  });
});
