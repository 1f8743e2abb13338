import { fileURLToPath } from 'node:url';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CanonicalizationError } from '@ewp/canonical';
import { EWP_ERROR_CODES, EwpError, InvalidArgumentError } from '@ewp/core';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeCheckpoint } from './checkpoint/decode.js';
import type { Checkpoint } from './checkpoint/model.js';
import type { VerificationResult } from './checkpoint/verification.js';
import { EvidenceBound } from './checkpoint/evidence-bound.js';
import {
  CheckpointError,
  GraphError,
  PersistenceError,
  PersistenceIntegrityError,
  RECEIPTS_ERROR_CODES,
  ReceiptFormatError,
  ReceiptsError,
  TimestampError,
} from './errors.js';
import { DependencyGraph } from './graph/dependency-graph.js';
import { parseInstantMicros } from './checkpoint/instant.js';
import { openSqliteReceiptStore } from './persistence/sqlite-receipt-store.js';
import { ed25519PublicKey } from './signing/ed25519.js';
import { Ed25519Signer, Ed25519Verifier } from './signing/key-registry.js';

const dir = mkdtempSync(join(tmpdir(), 'ewp-receipts-errors-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const v = JSON.parse(readFileSync(fileURLToPath(new URL('../vectors/persistence-sqlite.json', import.meta.url)), 'utf8'));

function thrown(f: () => unknown): unknown {
  try {
    f();
  } catch (error) {
    return error;
  }
  throw new Error('nothing was thrown');
}

describe('receipts errors are EwpErrors', () => {
  it('a graph refusal is a GraphError, a ReceiptsError and an EwpError, with a code from the one table', () => {
    const error = thrown(() => new DependencyGraph([{ checkpoint_id: 'a', depends_on: ['a'] }]));
    expect(GraphError.isInstance(error)).toBe(true);
    expect(ReceiptsError.isInstance(error)).toBe(true);
    expect(EwpError.isInstance(error)).toBe(true);
    expect(TimestampError.isInstance(error)).toBe(false);
    expect(CanonicalizationError.isInstance(error)).toBe(false);
    expect(Object.hasOwn(RECEIPTS_ERROR_CODES, (error as EwpError).code) || Object.hasOwn(EWP_ERROR_CODES, (error as EwpError).code)).toBe(true);
  });

  it('a format refusal names the field in path and message', () => {
    const error = thrown(() => decodeCheckpoint({ checkpoint_id: 1 }));
    expect(ReceiptFormatError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'BAD_FORMAT', path: 'checkpoint.evidence', message: 'checkpoint.evidence: is missing' });
  });

  it('a naive timestamp is a TimestampError with its code', () => {
    const error = thrown(() => parseInstantMicros('2026-01-01T00:00:00'));
    expect(TimestampError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'NAIVE_TIMESTAMP' });
  });

  it('verifying a checkpoint the facade does not hold is a CheckpointError UNKNOWN_CHECKPOINT', () => {
    const error = thrown(() => new EvidenceBound({ policy_id: 'p', version: '1' }).verify('nope'));
    expect(CheckpointError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'UNKNOWN_CHECKPOINT', message: 'unknown checkpoint: nope' });
  });

  it('a key of the wrong length, or not hex, is an InvalidArgumentError naming the argument', () => {
    for (const [f, path, message] of [
      [() => new Ed25519Signer('k', 'ab'), 'seed', /64 hex characters, got 2 characters/],
      [() => new Ed25519Signer('k', new Uint8Array(31)), 'seed', /got 31 bytes/],
      [() => new Ed25519Signer('k', 'zz'.repeat(32)), 'seed', /64 hex characters/],
      [() => ed25519PublicKey(new Uint8Array(33)), 'publicKey', /got 33 bytes/],
      [() => new Ed25519Verifier().register('k', 'ab', 'ACTIVE'), 'publicKey', /64 hex characters/],
    ] as const) {
      const error = thrown(f);
      expect(InvalidArgumentError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ code: 'EWP_REFUSE_INVALID_ARGUMENT', path });
      expect((error as Error).message).toMatch(message);
    }
    expect(new Ed25519Signer('k', '00'.repeat(32)).publicKeyHex()).toMatch(/^[0-9a-f]{64}$/);
  });

  it('changing the state of a key that is not registered is an InvalidArgumentError on keyId', () => {
    const error = thrown(() => new Ed25519Verifier().setState('missing', 'REVOKED'));
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'EWP_REFUSE_INVALID_ARGUMENT', path: 'keyId' });
  });

  it('stored text that is not canonical JSON fails closed, keeping the canonical refusal as the cause', async () => {
    const file = join(dir, 'float.sqlite');
    const store = await openSqliteReceiptStore(file);
    store.commitBundle(v.checkpoints.A as Checkpoint, v.verification_results.A as VerificationResult);
    store.db.prepare('UPDATE eb_checkpoints SET payload = ? WHERE checkpoint_id = ?').run('{"agent":1.5}', 'A');
    const error = thrown(() => store.loadCheckpoint('A'));
    store.close();
    expect(PersistenceIntegrityError.isInstance(error)).toBe(true);
    expect(PersistenceError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'PERSISTENCE_INTEGRITY' });
    const cause = (error as Error).cause;
    expect(CanonicalizationError.isInstance(cause)).toBe(true);
    expect(cause).toMatchObject({ code: 'FLOAT', path: '$.agent' });
  });
});
