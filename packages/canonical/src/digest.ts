import * as nodeCrypto from 'node:crypto';
import { createHash } from 'node:crypto';
import { ebcj1String } from './ebcj1.js';
import { jcsString } from './jcs.js';

/** The five domains the EvidenceBound reference hashes under. */
export const REFERENCE_DOMAINS = ['evidence', 'checkpoint', 'verification', 'operation', 'checkpoint-id'] as const;
export type ReferenceDomain = (typeof REFERENCE_DOMAINS)[number];

/** Domains of the warrant layer (warrant receipts of `@ewp/receipts`); never reuse a reference domain for a new use. */
export const EWP_DOMAINS = ['ewp-view', 'ewp-warrant', 'ewp-warrant-receipt'] as const;
export type EwpDomain = (typeof EWP_DOMAINS)[number];

const prefixes = new Map<string, Buffer>();

/** `UTF8("evidencebound:" + domain + ":EBCJ-1") || 0x00`, cached per domain. */
export function domainPrefix(domain: string): Buffer {
  let prefix = prefixes.get(domain);
  if (prefix === undefined) {
    prefix = Buffer.concat([Buffer.from(`evidencebound:${domain}:EBCJ-1`, 'utf8'), Buffer.from([0])]);
    prefixes.set(domain, prefix);
  }
  return prefix;
}

// One-shot `crypto.hash` (Node >= 20.12): no Hash object per digest, several times cheaper for short inputs.
const oneShot = (nodeCrypto as unknown as { hash?: (algorithm: string, data: string | Uint8Array, encoding: 'hex') => string }).hash;

/** Lowercase hex SHA-256 of some bytes, or of a string's UTF-8 bytes. */
export function sha256Hex(data: Uint8Array | string): string {
  return oneShot !== undefined ? oneShot('sha256', data, 'hex') : createHash('sha256').update(data).digest('hex');
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
export function digestCanonicalText(canonical: string, domain: string): string {
  return createHash('sha256').update(domainPrefix(domain)).update(canonical, 'utf8').digest('hex');
}

const jcsPrefixes = new Map<string, Buffer>();

/**
 * Domain digest over RFC 8785 bytes: `hex(SHA-256(UTF8("ewp:" + domain + ":JCS") || 0x00 || JCS(value)))`.
 * Our convention (not in the EvidenceBound spec), so a JCS digest can never collide with an EBCJ-1
 * digest of the same domain. @throws {CanonicalizationError}
 */
export function jcsDigest(domain: string, value: unknown): string {
  let prefix = jcsPrefixes.get(domain);
  if (prefix === undefined) {
    prefix = Buffer.concat([Buffer.from(`ewp:${domain}:JCS`, 'utf8'), Buffer.from([0])]);
    jcsPrefixes.set(domain, prefix);
  }
  return createHash('sha256').update(prefix).update(jcsString(value), 'utf8').digest('hex');
}

const LOWER_HEX_64 = /^[0-9a-f]{64}$/;

/** True when `s` is exactly 64 lowercase hex characters (the form of every digest here). */
export function isDigestHex(s: unknown): s is string {
  return typeof s === 'string' && LOWER_HEX_64.test(s);
}
