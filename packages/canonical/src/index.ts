/**
 * @ewp/canonical — the bytes everything else hashes: EBCJ-1 canonical JSON (byte-exact with the
 * EvidenceBound reference), RFC 8785 (JCS) for float-carrying EWP JSON, a lossless JSON reader,
 * domain-separated SHA-256 digests, and the one hash-chained event log (append, anchor, verify) that
 * the receipts audit log and every ledger store share. String order and number types come from
 * `@ewp/core` (`compareCodePoints`, `sortedByCodePoint`, `JsonFloat`).
 * @packageDocumentation
 */

export {
  CANONICAL_ERROR_CODES,
  type CanonicalErrorCode,
  type CanonicalizationCode,
  CanonicalizationError,
} from './canonicalization-error.js';
export { EBCJ1_MAX_DEPTH, EBCJ1_VERSION, ebcj1Bytes, ebcj1String } from './ebcj1.js';
/** Re-exported from `@ewp/core`, where the rule lives. */
export { jsonString } from '@ewp/core';
export { isWellFormed } from './well-formed.js';
export { jcsBytes, jcsString } from './jcs.js';
export { type ReadJsonOptions, readJsonExact } from './read-json.js';
export {
  domainDigest,
  EWP_DOMAINS,
  isDigestHex,
  jcsDigest,
  REFERENCE_DOMAINS,
  sha256Hex,
} from './digest.js';
export {
  buildChainEntries,
  type ChainAnchor,
  type ChainEntry,
  type ChainFailureReason,
  type ChainVerification,
  ChainVerifier,
  EMPTY_ANCHOR,
  parseChainHead,
  type StoredChainEntry,
  type VerifyChainOptions,
  verifyChain,
} from './hash-chain.js';
