// Canonicalization and digest throughput (MB/s) against JSON.stringify on the same data, and
// Ed25519 sign/verify rates. Results: <repo>/bench/results/receipts-canonical.json
import { createHash } from 'node:crypto';
import {
  Ed25519Signer,
  Ed25519Verifier,
  domainDigest,
  ebcj1Bytes,
  ebcj1String,
  jcsString,
  sha256Hex,
  signReceipt,
  verifyCheckpoint,
  verifySignedReceipt,
} from '../dist/index.js';
import { QUICK, fmt, machine, pairedRatio, rate, rates, table, writeResults } from './machine.mjs';


/** Datasets shaped like what the package hashes, each about 1 MB of JSON. */
function datasets() {
  const records = [];
  for (let i = 0; records.length < 3000; i++) {
    records.push({
      evidence_id: `e${i}`,
      payload: { value: i, text: `observation number ${i} from the log`, tags: ['a', 'b', String(i % 7)] },
      provenance: { source: 'tool', locator: `urn:example:${i}`, retrieved_at: null, content_type: 'text/plain', metadata: { rank: i % 10 } },
      observed_at: '2026-01-01T00:00:00Z',
      valid_until: null,
      explicitly_refuted: false,
    });
  }
  const wideObject = {};
  for (let i = 0; i < 20000; i++) wideObject[`key-${(i * 7919) % 20000}`] = i;
  const unicode = [];
  for (let i = 0; i < 4000; i++) unicode.push({ 'é': `café ${i}`, '😀': 'grinning', '\ue000': i, text: 'Ünïcödé тест 日本語 😀' });
  const strings = Array.from({ length: 2000 }, (_, i) => `a fairly long string value number ${i} with "quotes", tabs\t and newlines\n`.repeat(5));
  return { 'evidence-records': records, 'wide-object': wideObject, 'unicode-keys': unicode, 'long-strings': strings };
}

function canonicalRows() {
  const rows = [];
  const all = datasets();
  // The same records with keys already in canonical order, as values read back from canonical storage are.
  all['evidence-records (pre-sorted keys)'] = JSON.parse(ebcj1String(all['evidence-records']));
  for (const [name, value] of Object.entries(all)) {
    const bytes = Buffer.byteLength(JSON.stringify(value));
    const mb = bytes / 2 ** 20;
    const canonicalText = ebcj1String(value);
    const raw = Buffer.from(canonicalText, 'utf8');
    const r = rates({
      stringify: () => JSON.stringify(value),
      stringifyBytes: () => Buffer.from(JSON.stringify(value), 'utf8'),
      ebcj: () => ebcj1String(value),
      ebcjBytes: () => ebcj1Bytes(value),
      jcs: () => jcsString(value),
      digest: () => domainDigest('evidence', value),
      sha: () => sha256Hex(raw),
    });
    const v = Object.fromEntries(Object.entries(r).map(([k, x]) => [k, x * mb]));
    const paired = pairedRatio(() => ebcj1String(value), () => JSON.stringify(value));
    rows.push({
      dataset: name,
      json_mb: fmt(mb, 2),
      'JSON.stringify MB/s': fmt(v.stringify),
      'ebcj1String MB/s': fmt(v.ebcj),
      'ratio vs stringify (paired median)': fmt(paired.median, 2),
      'paired min–max': `${fmt(paired.min, 2)}–${fmt(paired.max, 2)}`,
      'ebcj1Bytes MB/s': fmt(v.ebcjBytes),
      'bytes ratio (vs stringify+Buffer.from)': fmt(v.ebcjBytes / v.stringifyBytes, 2),
      'jcsString MB/s': fmt(v.jcs),
      'domainDigest MB/s': fmt(v.digest),
      'sha256 only MB/s': fmt(v.sha),
      raw: {
        json_bytes: bytes,
        stringify_mb_s: v.stringify,
        stringify_buffer_mb_s: v.stringifyBytes,
        ebcj1_string_mb_s: v.ebcj,
        ebcj1_bytes_mb_s: v.ebcjBytes,
        jcs_string_mb_s: v.jcs,
        domain_digest_mb_s: v.digest,
        sha256_mb_s: v.sha,
        ratio_ebcj1_vs_stringify: paired.median,
        ratio_ebcj1_vs_stringify_paired_min: paired.min,
        ratio_ebcj1_vs_stringify_paired_max: paired.max,
        ratio_ebcj1_vs_stringify_best_rates: v.ebcj / v.stringify,
        ratio_ebcj1_bytes_vs_stringify_bytes: v.ebcjBytes / v.stringifyBytes,
      },
    });
  }
  return rows;
}

function signingRows() {
  const seed = '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60';
  const signer = new Ed25519Signer('key-1', seed);
  const verifier = new Ed25519Verifier({ 'key-1': { public_hex: signer.publicKeyHex(), state: 'ACTIVE' } });
  const cp = {
    checkpoint_id: 'A', agent: 'A',
    evidence: [{ evidence_id: 'e1', payload: { value: 1 }, provenance: { source: 'tool', locator: 'urn:x', retrieved_at: null, content_type: null, metadata: {} }, observed_at: null, valid_until: null, explicitly_refuted: false }],
    output: { step: 'A' }, policy: { policy_id: 'safety', version: '1', require_provenance: true, consequential: true },
    depends_on: [], operation_id: null, schema_version: '1',
  };
  const result = verifyCheckpoint(cp);
  const envelope = signReceipt(result.receipt, signer);
  const bytes = createHash('sha256').update('x').digest();
  const rawSig = signer.sign(bytes);
  const verifyCheckpointRate = rate(() => verifyCheckpoint(cp));
  const sign = rate(() => signReceipt(result.receipt, signer));
  const verify = rate(() => verifySignedReceipt(envelope, cp, verifier));
  const verifyWithResult = rate(() => verifySignedReceipt(envelope, cp, verifier, result));
  const rawSign = rate(() => signer.sign(bytes));
  const rawVerify = rate(() => verifier.verify({ algorithm: 'Ed25519', key_id: 'key-1', signed_bytes: bytes, signature: rawSig }));
  return [
    { operation: 'verifyCheckpoint (1 record)', 'per second': fmt(verifyCheckpointRate, 0) },
    { operation: 'signReceipt (canonicalize + Ed25519 sign)', 'per second': fmt(sign, 0) },
    { operation: 'verifySignedReceipt (envelope + binding)', 'per second': fmt(verify, 0) },
    { operation: 'verifySignedReceipt with result', 'per second': fmt(verifyWithResult, 0) },
    { operation: 'raw Ed25519 sign (baseline)', 'per second': fmt(rawSign, 0) },
    { operation: 'raw Ed25519 verify (baseline)', 'per second': fmt(rawVerify, 0) },
  ];
}

const canonical = canonicalRows();
const signing = signingRows();
const path = writeResults('canonical', {
  canonicalization: canonical.map(({ raw, dataset }) => ({ dataset, ...raw })),
  signing: signing.map((r) => ({ operation: r.operation, per_second: Number(r['per second']) })),
});
const m = machine();
console.log(`receipts canonical bench — ${m.cpu}, ${m.cores} cores, Node ${m.node}, load average ${m.load_average_1_5_15.join(' ')}${QUICK ? ' (quick)' : ''}\n`);
console.log(table(canonical, ['dataset', 'json_mb', 'JSON.stringify MB/s', 'ebcj1String MB/s', 'ratio vs stringify (paired median)', 'paired min–max', 'ebcj1Bytes MB/s', 'bytes ratio (vs stringify+Buffer.from)', 'jcsString MB/s', 'domainDigest MB/s', 'sha256 only MB/s']));
console.log(`\n${table(signing, ['operation', 'per second'])}`);
console.log(`\nwrote ${path}`);
