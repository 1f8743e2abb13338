import { domainDigest } from '@ewp/canonical';
import { type Checkpoint, type EvidenceRecord, checkpointPayload } from './model.js';

/** `digest(payload, "evidence")`, or null when the payload is null (docs/spec/receipts.md §2.2). */
export function evidenceDigest(record: EvidenceRecord): string | null {
  return record.payload === null ? null : domainDigest('evidence', record.payload);
}

/** `digest(protected payload, "checkpoint")`: every byte of the checkpoint is bound (docs/spec/receipts.md §2.4). */
export function checkpointDigest(cp: Checkpoint): string {
  return domainDigest('checkpoint', checkpointPayload(cp));
}
