import { domainDigest } from '@ewp/canonical';
import { ReplayConflict } from '../errors.js';

/** Outcome of applying an operation id. */
export type ReplayOutcome = 'APPLIED' | 'ALREADY_APPLIED';

/** The `operation`-domain digest of an operation payload (docs/spec/receipts.md §8); key order is irrelevant. */
export function operationDigest(payload: unknown): string {
  return domainDigest('operation', payload);
}

/**
 * In-process idempotency guard (docs/spec/receipts.md §8): first sight of an id → APPLIED; same id and payload →
 * ALREADY_APPLIED; same id, other payload → {@link ReplayConflict}, keeping the first digest. It cannot
 * know whether a side effect happened; it is not exactly-once execution. For a guard that survives
 * restarts use `SqliteReceiptStore.applyOperation`.
 */
export class ReplayGuard {
  readonly #digests = new Map<string, string>();

  /** @throws {ReplayConflict} @throws {CanonicalizationError} */
  apply(operationId: string, payload: unknown): ReplayOutcome {
    const digest = operationDigest(payload);
    const seen = this.#digests.get(operationId);
    if (seen === undefined) {
      this.#digests.set(operationId, digest);
      return 'APPLIED';
    }
    if (seen === digest) return 'ALREADY_APPLIED';
    throw new ReplayConflict(operationId);
  }

  /** The stored digest of an operation id, if any. */
  digestOf(operationId: string): string | undefined {
    return this.#digests.get(operationId);
  }
}
