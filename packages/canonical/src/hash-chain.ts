/**
 * The one hash-chained event log, shared by the receipts audit log and every ledger store:
 * `hash_i = hex(SHA-256(raw32(prev_hash_i) || EBCJ-1(event_i)))` (the 32 raw bytes the previous hash
 * spells, no domain prefix), `event_i.seq = i`, genesis `prev_hash` = 64 zeros (a zero `prev_hash`
 * anywhere else is a reset and fails), and an anchor `{length, head_hash}` kept beside the log and
 * updated in the same transaction as the append. Verification walks entries in stored order; the first
 * failure wins; nothing is repaired, skipped or restarted. Vectors: `vectors/audit-chain.json`.
 */
import { EwpError } from '@ewp/core';
import type { CanonicalErrorCode } from './canonicalization-error.js';
import { ebcj1String } from './ebcj1.js';
// The build turns this import into `#sha256` (tsup.config.ts): node:crypto on Node, JavaScript elsewhere.
import { sha256HexOfHexAndText } from './sha256-node.js';

/** `prev_hash` of entry 0. */
export const GENESIS_HASH = '0'.repeat(64);

/** Commits to the prefix of `length` entries; stored outside the log (a metadata row, a receipt). */
export interface ChainAnchor {
  length: number;
  head_hash: string;
}

/** The anchor of an empty log. */
export const EMPTY_ANCHOR: ChainAnchor = Object.freeze({ length: 0, head_hash: GENESIS_HASH });

/** One log entry as stores keep it: the event as its EBCJ-1 text (the exact bytes that were hashed). */
export interface StoredChainEntry {
  prev_hash: string;
  /** EBCJ-1 text of the event. */
  event: string;
  hash: string;
}

/** One log entry as the vectors spell it: the event as a JSON value. */
export interface ChainEntry {
  prev_hash: unknown;
  event: unknown;
  hash: unknown;
}

/** Why verification of the chain itself stopped (stores add their own reasons, such as `row_mismatch`). */
export type ChainFailureReason =
  | 'malformed_entry'
  | 'seq_mismatch'
  | 'prev_hash_mismatch'
  | 'hash_mismatch'
  | 'truncated'
  | 'head_mismatch'
  | 'shorter_than_expected_head'
  | 'expected_head_mismatch';

/** The options of {@link verifyChain} and of every store's `verifyChain`. */
export interface VerifyChainOptions {
  /**
   * A head the user kept elsewhere (`{length, head_hash}`, as `ewp audit verify` printed it): the log
   * fails unless it has at least that many entries and its entry at `length - 1` has that hash. The
   * stored anchor can be rewritten together with the log; a head kept out of reach cannot.
   */
  expectHead?: ChainAnchor;
}

/**
 * A head as written on the command line or kept in a file: `LENGTH:HASH` (64 lowercase hex), or
 * undefined when `text` is not one.
 */
export function parseChainHead(text: string): ChainAnchor | undefined {
  const m = /^(\d{1,15}):([0-9a-f]{64})$/.exec(text.trim());
  if (m === null) return undefined;
  return { length: Number(m[1]), head_hash: m[2] as string };
}

/**
 * Result of verifying a log: the one result shape of every chain check (stores, the CLI's
 * `ewp audit verify`, the vectors). `length` counts the entries that verified; on failure
 * `firstBadIndex` is the index of the first failing entry (or the entry count, for `truncated`).
 */
export type ChainVerification =
  | { ok: true; length: number; head: string }
  | { ok: false; length: number; firstBadIndex: number; reason: ChainFailureReason | string; detail?: string };

const HEX64 = /^[0-9a-f]{64}$/;

/** `hex(SHA-256(raw(prevHash) || eventText as UTF-8))`. `prevHash` must be 64 lowercase hex. */
export function chainHash(prevHash: string, eventText: string): string {
  // Not 64 hex digits: the bytes Buffer.from(prevHash, 'hex') decodes are hashed, as before.
  return sha256HexOfHexAndText(prevHash, eventText);
}

/**
 * Build the entries that append `events` after `anchor`. Each event gets `seq` = its position;
 * the caller reads the anchor and stores the entries and the returned anchor in one transaction.
 * @throws {CanonicalizationError} when an event is not EBCJ-1 (a float, a lone surrogate…).
 * @throws {EwpError} code `SEQ_MISMATCH` when an event already carries another `seq` than its position.
 */
export function buildChainEntries(anchor: ChainAnchor, events: readonly Record<string, unknown>[]): { entries: StoredChainEntry[]; anchor: ChainAnchor } {
  let prev = anchor.length === 0 ? GENESIS_HASH : anchor.head_hash;
  let seq = anchor.length;
  const entries: StoredChainEntry[] = [];
  for (const event of events) {
    if (Object.hasOwn(event, 'seq') && event.seq !== seq && event.seq !== BigInt(seq)) {
      throw new EwpError<CanonicalErrorCode>('SEQ_MISMATCH', `event.seq is ${String(event.seq)}, its position in the log is ${seq}`, {
        path: `$[${seq - anchor.length}].seq`,
      });
    }
    const text = ebcj1String({ ...event, seq });
    const hash = chainHash(prev, text);
    entries.push({ prev_hash: prev, event: text, hash });
    prev = hash;
    seq += 1;
  }
  return { entries, anchor: { length: seq, head_hash: prev } };
}

/**
 * Incremental verifier: feed stored entries in order, then `finish(anchor)`. Stores stream their log
 * through it so a million-entry log never sits in memory.
 */
export class ChainVerifier {
  private index = 0;
  private prev = GENESIS_HASH;
  private failure: ChainVerification | undefined;

  /** Whether a failure has been found (further entries are ignored). */
  get failed(): boolean {
    return this.failure !== undefined;
  }

  /** Check one entry whose event is held as EBCJ-1 text (what stores keep). */
  pushStored(entry: StoredChainEntry): void {
    if (this.failure) return;
    const i = this.index;
    let seq: unknown;
    let malformed: string | undefined;
    try {
      const event = JSON.parse(entry.event) as unknown;
      if (typeof entry.prev_hash !== 'string' || typeof entry.hash !== 'string' || !isPlainObject(event)) {
        malformed = 'entry shape';
      } else {
        seq = event.seq;
        // The stored text must be exactly the canonical text of what it says, or two readers could disagree.
        if (ebcj1String(event) !== entry.event) malformed = 'event text is not EBCJ-1 canonical';
      }
    } catch (error) {
      malformed = error instanceof Error ? error.message : String(error);
    }
    if (malformed !== undefined) {
      this.fail(i, 'malformed_entry', malformed);
      return;
    }
    this.checkLinks(i, seq, entry.prev_hash, entry.hash, () => chainHash(entry.prev_hash, entry.event));
  }

  /** Check one entry whose event is a JSON value (the receipts vectors' form). */
  push(entry: ChainEntry): void {
    if (this.failure) return;
    const i = this.index;
    let text: string;
    if (
      !isPlainObject(entry) ||
      typeof entry.prev_hash !== 'string' ||
      typeof entry.hash !== 'string' ||
      !isPlainObject(entry.event) ||
      !(Number.isInteger(entry.event.seq) || typeof entry.event.seq === 'bigint')
    ) {
      this.fail(i, 'malformed_entry', 'entry is not {prev_hash, event: {seq, ...}, hash}');
      return;
    }
    try {
      text = ebcj1String(entry.event);
    } catch (error) {
      this.fail(i, 'malformed_entry', error instanceof Error ? error.message : String(error));
      return;
    }
    const prevHash = entry.prev_hash;
    const seq = entry.event.seq;
    this.checkLinks(i, typeof seq === 'bigint' ? Number(seq) : seq, prevHash, entry.hash, () => (HEX64.test(prevHash) ? chainHash(prevHash, text) : ''));
  }

  /** Apply the anchor checks (and the kept head's, see {@link expectHead}) and return the verdict. */
  finish(anchor?: ChainAnchor | null): ChainVerification {
    if (this.failure) return this.failure;
    const length = this.index;
    const kept = this.keptHead;
    if (kept !== undefined && kept.length > 0) {
      if (length < kept.length) {
        return {
          ok: false,
          length,
          firstBadIndex: length,
          reason: 'shorter_than_expected_head',
          detail: `the kept head has ${kept.length} entries, the log ${length}`,
        };
      }
      if (kept.hash !== kept.head_hash) {
        return { ok: false, length, firstBadIndex: kept.length - 1, reason: 'expected_head_mismatch', detail: 'entry hash differs from the kept head' };
      }
    }
    if (anchor && anchor.length > 0) {
      if (length < anchor.length) {
        return { ok: false, length, firstBadIndex: length, reason: 'truncated', detail: `anchor says ${anchor.length} entries, log has ${length}` };
      }
      // The anchor commits to its prefix only; entries beyond it are checked by the chain links above.
      if (this.hashAt(anchor.length - 1) !== anchor.head_hash) {
        return { ok: false, length, firstBadIndex: anchor.length - 1, reason: 'head_mismatch', detail: 'entry hash differs from the anchor head' };
      }
    }
    return { ok: true, length, head: length === 0 ? GENESIS_HASH : this.prev };
  }

  // Only the last hash and the anchor position are needed, so remember the hash at the anchor's index.
  private anchorWatch: { index: number; hash: string | undefined } | undefined;

  private keptHead: (ChainAnchor & { hash: string | undefined }) | undefined;

  /** Check the log against a head the user kept ({@link VerifyChainOptions.expectHead}); the verdict of {@link finish} includes it. */
  expectHead(head: ChainAnchor | undefined): this {
    this.keptHead = head === undefined ? undefined : { ...head, hash: head.length === 0 ? head.head_hash : undefined };
    return this;
  }

  /** Tell the verifier which index the anchor points at, so it can remember that hash while streaming. */
  watchAnchor(anchor: ChainAnchor | null | undefined): this {
    if (anchor && anchor.length > 0) this.anchorWatch = { index: anchor.length - 1, hash: undefined };
    return this;
  }

  private hashAt(i: number): string | undefined {
    if (i === this.index - 1) return this.prev;
    if (this.anchorWatch && this.anchorWatch.index === i) return this.anchorWatch.hash;
    return undefined;
  }

  private checkLinks(i: number, seq: unknown, prevHash: string, hash: string, recompute: () => string): void {
    if (seq !== i) {
      this.fail(i, 'seq_mismatch', `event.seq is ${JSON.stringify(seq)}`);
      return;
    }
    if (prevHash !== this.prev) {
      this.fail(
        i,
        'prev_hash_mismatch',
        i > 0 && prevHash === GENESIS_HASH ? 'chain restarts from the zero hash' : 'prev_hash does not link to the previous entry',
      );
      return;
    }
    if (hash !== recompute()) {
      this.fail(i, 'hash_mismatch', 'stored hash differs from the recomputed hash');
      return;
    }
    this.prev = hash;
    if (this.anchorWatch && this.anchorWatch.index === i) this.anchorWatch.hash = hash;
    if (this.keptHead && this.keptHead.length - 1 === i) this.keptHead.hash = hash;
    this.index = i + 1;
  }

  private fail(i: number, reason: ChainFailureReason, detail: string): void {
    this.failure = { ok: false, length: i, firstBadIndex: i, reason, detail };
  }
}

/**
 * Verify a whole log given as values (the vector form) or as stored entries. Without an anchor, a
 * dropped tail or a consistently rewritten suffix cannot be detected.
 * `length` in the result is the number of entries that verified before the first failure.
 */
export function verifyChain(
  entries: Iterable<ChainEntry | StoredChainEntry>,
  anchor?: ChainAnchor | null,
  options: VerifyChainOptions = {},
): ChainVerification {
  const verifier = new ChainVerifier().watchAnchor(anchor).expectHead(options.expectHead);
  for (const entry of entries) {
    if (isPlainObject(entry) && typeof entry.event === 'string') verifier.pushStored(entry as StoredChainEntry);
    else verifier.push(entry);
    if (verifier.failed) break;
  }
  return verifier.finish(anchor);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
