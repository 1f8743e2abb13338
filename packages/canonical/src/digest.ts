// The build turns this import into `#sha256` (tsup.config.ts): node:crypto on Node, JavaScript elsewhere.
import { sha256Hex as sha256HexOf, sha256HexOfPrefixed } from './sha256-node.js';
import { ebcj1String } from './ebcj1.js';
import { jcsString } from './jcs.js';

/** The five domains the EvidenceBound reference hashes under. */
export const REFERENCE_DOMAINS = ['evidence', 'checkpoint', 'verification', 'operation', 'checkpoint-id'] as const;
export type ReferenceDomain = (typeof REFERENCE_DOMAINS)[number];

/** Domains of the warrant layer (warrant receipts of `@ewp/receipts`); never reuse a reference domain for a new use. */
export const EWP_DOMAINS = ['ewp-view', 'ewp-warrant', 'ewp-warrant-receipt'] as const;
export type EwpDomain = (typeof EWP_DOMAINS)[number];

const utf8 = new TextEncoder();

/** `UTF8(text) || 0x00`. */
function nulTerminated(text: string): Uint8Array {
  const bytes = utf8.encode(text);
  const out = new Uint8Array(bytes.length + 1);
  out.set(bytes);
  return out;
}

const prefixes = new Map<string, Uint8Array>();

/** `UTF8("evidencebound:" + domain + ":EBCJ-1") || 0x00`, cached per domain. */
export function domainPrefix(domain: string): Uint8Array {
  let prefix = prefixes.get(domain);
  if (prefix === undefined) {
    prefix = nulTerminated(`evidencebound:${domain}:EBCJ-1`);
    prefixes.set(domain, prefix);
  }
  return prefix;
}

/** Lowercase hex SHA-256 of some bytes, or of a string's UTF-8 bytes. */
export function sha256Hex(data: Uint8Array | string): string {
  return sha256HexOf(data);
}

/**
 * The EBCJ-1 domain digest:
 * `hex(SHA-256(UTF8("evidencebound:" + domain + ":EBCJ-1") || 0x00 || EBCJ-1(value)))`.
 * @throws {CanonicalizationError} when the value is not EBCJ-1 canonicalizable.
 */
export function domainDigest(domain: string, value: unknown): string {
  return digestCanonicalText(ebcj1String(value), domain);
}

/** Domain digest of text that already is the EBCJ-1 form of some value (the bytes are not re-checked). */
function digestCanonicalText(canonical: string, domain: string): string {
  return sha256HexOfPrefixed(domainPrefix(domain), canonical);
}

const jcsPrefixes = new Map<string, Uint8Array>();

/**
 * Domain digest over RFC 8785 bytes: `hex(SHA-256(UTF8("ewp:" + domain + ":JCS") || 0x00 || JCS(value)))`.
 * Our convention (not in the EvidenceBound spec), so a JCS digest can never collide with an EBCJ-1
 * digest of the same domain. @throws {CanonicalizationError}
 */
export function jcsDigest(domain: string, value: unknown): string {
  let prefix = jcsPrefixes.get(domain);
  if (prefix === undefined) {
    prefix = nulTerminated(`ewp:${domain}:JCS`);
    jcsPrefixes.set(domain, prefix);
  }
  return sha256HexOfPrefixed(prefix, jcsString(value));
}

const LOWER_HEX_64 = /^[0-9a-f]{64}$/;

/** True when `s` is exactly 64 lowercase hex characters (the form of every digest here). */
export function isDigestHex(s: unknown): s is string {
  return typeof s === 'string' && LOWER_HEX_64.test(s);
}
