import { createHash } from 'node:crypto';
import { ebcj1String } from '../canonical/ebcj1.js';
import { ReceiptsError } from '../errors.js';

/** `prev_hash` of entry 0: 32 zero bytes. Anywhere else a zero `prev_hash` is a reset and fails. */
export const GENESIS_HASH = '0'.repeat(64);

/** One link of the audit log (SPEC §11). `event.seq` equals the entry's 0-based position. */
export interface AuditEntry {
  prev_hash: string;
  event: Record<string, unknown>;
  hash: string;
}

/** Commits to the prefix of the log of this length; kept outside the log (SPEC §11). */
export interface AuditAnchor {
  length: number;
  head_hash: string;
}

export type AuditFailureReason =
  | 'malformed_entry'
  | 'seq_mismatch'
  | 'prev_hash_mismatch'
  | 'hash_mismatch'
  | 'truncated'
  | 'head_mismatch';

/** Outcome of {@link verifyAuditChain}: the first failure, or ok. */
export interface AuditVerification {
  ok: boolean;
  fail_index: number | null;
  reason: AuditFailureReason | null;
}

const HEX64 = /^[0-9a-f]{64}$/;

/**
 * `hex(SHA-256(raw32(prevHash) || EBCJ-1(event)))`: the raw 32 bytes of the previous hash, not its
 * 64 ASCII characters, and no domain prefix.
 * @throws {CanonicalizationError} when the event is not EBCJ-1 canonicalizable.
 * @throws {ReceiptsError} `BAD_HASH` when `prevHash` is not 64 lowercase hex characters.
 */
export function auditEntryHash(prevHash: string, event: unknown): string {
  if (!HEX64.test(prevHash)) throw new ReceiptsError('BAD_HASH', 'prev_hash must be 64 lowercase hex characters', 'prev_hash');
  return createHash('sha256').update(Buffer.from(prevHash, 'hex')).update(ebcj1String(event), 'utf8').digest('hex');
}

/**
 * The next entry after `anchor` (pure; for stores that append inside their own transaction: read the
 * anchor in the transaction, write the entry and the new anchor in the same transaction).
 * `seq` is set to `anchor.length`; an event that already carries another `seq` is refused.
 */
export function nextAuditEntry(
  anchor: AuditAnchor,
  event: Record<string, unknown>,
): { entry: AuditEntry; anchor: AuditAnchor } {
  if (Object.hasOwn(event, 'seq') && event.seq !== anchor.length) {
    throw new ReceiptsError('SEQ_MISMATCH', `event.seq must be ${anchor.length}`, 'event.seq');
  }
  const prev = anchor.length === 0 ? GENESIS_HASH : anchor.head_hash;
  const full = { ...event, seq: anchor.length };
  const hash = auditEntryHash(prev, full);
  return { entry: { prev_hash: prev, event: full, hash }, anchor: { length: anchor.length + 1, head_hash: hash } };
}

/** The anchor of the empty log. */
export const EMPTY_ANCHOR: AuditAnchor = Object.freeze({ length: 0, head_hash: GENESIS_HASH });

/**
 * Verifies a stored log in order (SPEC §11); the first failure wins; nothing is repaired or skipped.
 * Without an anchor, a dropped tail or a consistently rewritten suffix cannot be detected.
 */
export function verifyAuditChain(entries: readonly unknown[], anchor?: AuditAnchor | null): AuditVerification {
  const fail = (i: number, reason: AuditFailureReason): AuditVerification => ({ ok: false, fail_index: i, reason });
  let prevStored = GENESIS_HASH;
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i] as Partial<AuditEntry> | null;
    if (
      e === null ||
      typeof e !== 'object' ||
      Array.isArray(e) ||
      typeof e.prev_hash !== 'string' ||
      typeof e.hash !== 'string' ||
      e.event === null ||
      typeof e.event !== 'object' ||
      Array.isArray(e.event)
    ) {
      return fail(i, 'malformed_entry');
    }
    const seq = e.event.seq;
    const integer = (typeof seq === 'number' && Number.isSafeInteger(seq)) || typeof seq === 'bigint';
    let canonical: string;
    try {
      canonical = ebcj1String(e.event);
    } catch {
      return fail(i, 'malformed_entry');
    }
    if (!integer) return fail(i, 'malformed_entry');
    if (Number(seq) !== i) return fail(i, 'seq_mismatch');
    if (e.prev_hash !== prevStored) return fail(i, 'prev_hash_mismatch');
    const recomputed = createHash('sha256').update(Buffer.from(e.prev_hash, 'hex')).update(canonical, 'utf8').digest('hex');
    if (e.hash !== recomputed) return fail(i, 'hash_mismatch');
    prevStored = e.hash;
  }
  if (anchor != null && anchor.length > 0) {
    if (entries.length < anchor.length) return fail(entries.length, 'truncated');
    if ((entries[anchor.length - 1] as AuditEntry).hash !== anchor.head_hash) return fail(anchor.length - 1, 'head_mismatch');
  }
  return { ok: true, fail_index: null, reason: null };
}

/** An in-memory hash-chained log: append events, read the anchor, verify. */
export class AuditChain {
  readonly #entries: AuditEntry[] = [];
  #anchor: AuditAnchor = EMPTY_ANCHOR;

  /** Appends an event (its `seq` is set to the position) and returns the stored entry. */
  append(event: Record<string, unknown>): AuditEntry {
    const { entry, anchor } = nextAuditEntry(this.#anchor, event);
    this.#entries.push(entry);
    this.#anchor = anchor;
    return entry;
  }

  /** The current anchor; store or publish it outside the log. */
  get anchor(): AuditAnchor {
    return { ...this.#anchor };
  }

  /** A copy of the entries. */
  get entries(): AuditEntry[] {
    return this.#entries.map((e) => ({ ...e }));
  }

  /** Verifies this log against its own anchor (or a given one). */
  verify(anchor: AuditAnchor | null = this.#anchor): AuditVerification {
    return verifyAuditChain(this.#entries, anchor);
  }
}
