import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseJson } from '@ewp/core';
import { describe, expect, it, vi } from 'vitest';
import type * as node from './sha256-node.js';
import * as portable from './sha256-portable.js';

// Everything in this file runs on the JavaScript SHA-256 that browsers and edge runtimes load.
vi.mock('./sha256-node.js', async () => await vi.importActual('./sha256-portable.js'));
const { domainDigest, jcsDigest, sha256Hex } = await import('./digest.js');
const { chainHash, verifyChain } = await import('./hash-chain.js');
const { readJsonExact } = await import('./read-json.js');
const nodeCrypto = await vi.importActual<typeof node>('./sha256-node.js');

const reference = (...parts: Uint8Array[]) => {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest('hex');
};
const load = (name: string) => readFileSync(fileURLToPath(new URL(`../vectors/${name}`, import.meta.url)), 'utf8');

describe('portable SHA-256 (browsers, edge runtimes)', () => {
  it('is what digest.js and hash-chain.js load here, not node:crypto', async () => {
    const loaded = await import('./sha256-node.js');
    expect(loaded.sha256Hex).toBe(portable.sha256Hex);
    expect(nodeCrypto.sha256Hex).not.toBe(portable.sha256Hex);
    expect(sha256Hex('abc')).toBe(reference(Buffer.from('abc')));
  });

  it('matches node:crypto on every length around the 64-byte block and padding boundaries', () => {
    for (let n = 0; n <= 300; n++) {
      const bytes = randomBytes(n);
      expect(portable.sha256Hex(new Uint8Array(bytes)), `length ${n}`).toBe(reference(bytes));
    }
  });

  it('matches node:crypto on large inputs and on subarray views', () => {
    const big = randomBytes(1_000_003);
    expect(portable.sha256Hex(new Uint8Array(big))).toBe(reference(big));
    const view = new Uint8Array(big.buffer, big.byteOffset + 17, 4097);
    expect(portable.sha256Hex(view)).toBe(reference(view));
  });

  it('hashes strings as UTF-8, lone surrogates as U+FFFD like Buffer', () => {
    for (const s of ['', 'abc', 'café 日本語 😀', '\ud800x', 'x\udc00', '\u0000'.repeat(70)]) {
      expect(portable.sha256Hex(s)).toBe(nodeCrypto.sha256Hex(s));
    }
    expect(portable.sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('hashes prefix || UTF-8(text) as node:crypto does', () => {
    for (const [p, t] of [
      [0, ''],
      [1, 'x'],
      [27, '{"a":1}'],
      [55, 'é'.repeat(40)],
      [64, '😀'.repeat(100)],
    ] as const) {
      const prefix = new Uint8Array(randomBytes(p));
      expect(portable.sha256HexOfPrefixed(prefix, t)).toBe(nodeCrypto.sha256HexOfPrefixed(prefix, t));
    }
  });

  it('decodes the hex part exactly as Buffer.from(hex, "hex") does, malformed hex included', () => {
    const good = randomBytes(32).toString('hex');
    for (const hex of [good, good.toUpperCase(), '', 'a', 'abc', '0g12', '12zz34', `${good}00`, good.slice(0, 63), `x${good}`, '0'.repeat(64)]) {
      expect(portable.sha256HexOfHexAndText(hex, 'event'), JSON.stringify(hex)).toBe(nodeCrypto.sha256HexOfHexAndText(hex, 'event'));
    }
  });

  it('reproduces every digest of the EBCJ-1 vectors', () => {
    const sets = [JSON.parse(load('ebcj1-vectors.json')).vectors, JSON.parse(load('ebcj1-extended.json')).vectors];
    let checked = 0;
    for (const vectors of sets) {
      for (const v of vectors) {
        const value = v.input_json !== undefined ? readJsonExact(v.input_json) : v.value;
        for (const [domain, digest] of Object.entries(v.digests as Record<string, string>)) {
          expect(domainDigest(domain, value), `${v.id} ${domain}`).toBe(digest);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(80);
  });

  it('gives the same JCS digest as node:crypto', () => {
    const value = { b: [1, 'two', { c: null }], a: 'é😀' };
    const text = JSON.stringify({ a: 'é😀', b: [1, 'two', { c: null }] });
    expect(jcsDigest('ewp-view', value)).toBe(reference(Buffer.from('ewp:ewp-view:JCS\u0000', 'utf8'), Buffer.from(text, 'utf8')));
  });

  it('verifies the audit-chain vectors and reproduces every hash', () => {
    const vectors = parseJson(load('audit-chain.json')) as unknown as {
      entries: { event: Record<string, unknown>; prev_hash: string; hash: string }[];
      anchor: { length: number; head_hash: string };
    };
    const entries = vectors.entries.map((e) => ({ prev_hash: e.prev_hash, event: e.event, hash: e.hash }));
    expect(verifyChain(entries, vectors.anchor)).toEqual({ ok: true, length: 5, head: vectors.anchor.head_hash });
    expect(chainHash(vectors.entries[0]!.prev_hash, '{}')).toBe(reference(Buffer.alloc(32), Buffer.from('{}')));
  });
});
